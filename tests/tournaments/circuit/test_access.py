"""Who may open the circuit's pages (TOURNAMENTS.md §14.1): every address of
``tournaments/circuit_urls.py``, GET and POST, for the circuit's owner, a
co-organiser of the circuit, the owner of a cup in the circuit who does not run
it, the owner of a cup outside it, a logged-in outsider and a visitor without
an account. The register (its list, import, export, merge, PINs, the name on
public pages) and a cup joining are the circuit's organisers' alone; the circuit's page is also seen by
the owners of its cups; everyone else finds nothing (404). A refused request
changes nothing."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tournaments import factory
from tests.tournaments.circuit.test_services import snapshot
from tests.worlds import built_once
from tournaments import circuit_urls
from tournaments.models import Circuit, CircuitChange, CircuitPlayer
from tournaments.services import circuit as circuits

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pdfs_not_drawn")]

ROLES = ("owner", "co", "cup_in", "cup_out", "outsider", "anonymous")
ORGANISERS = ("owner", "co")
ADDRESSES = {
    "circuit_list": lambda w: [],
    "circuit_detail": lambda w: [w["circuit"].pk],
    "circuit_register": lambda w: [w["circuit"].pk],
    "circuit_import": lambda w: [w["circuit"].pk],
    "circuit_export": lambda w: [w["circuit"].pk],
    "circuit_merge": lambda w: [w["circuit"].pk],
    "circuit_entry": lambda w: [w["circuit"].pk, 1],
    "circuit_card": lambda w: [w["circuit"].pk, 1],
    "circuit_entry_public_name": lambda w: [w["circuit"].pk, 1],
    "circuit_join": lambda w: [w["circuit"].pk],
    "circuit_tiers": lambda w: [w["circuit"].pk],
    "circuit_final": lambda w: [w["circuit"].pk],
    "circuit_qualification": lambda w: [w["circuit"].pk, w["hausruck"].pk],
    "circuit_qualification_pdf": lambda w: [w["circuit"].pk, w["hausruck"].pk],
    "circuit_qualified": lambda w: [w["circuit"].pk],
    "circuit_qualified_pdf": lambda w: [w["circuit"].pk],
    "circuit_gesamtwertung": lambda w: [w["circuit"].pk],
    "circuit_gesamtwertung_pdf": lambda w: [w["circuit"].pk],
    "circuit_file": lambda w: [w["circuit"].pk],
    "circuit_file_import": lambda w: [],
    "circuit_honours": lambda w: [w["circuit"].pk],
}
# The answer each role gets, by address and method; anonymous visitors go to the login page.
SEEN_BY_CUPS = {
    "circuit_detail",
    "circuit_qualification",
    "circuit_qualification_pdf",
    "circuit_qualified",
    "circuit_qualified_pdf",
    "circuit_gesamtwertung",
    "circuit_gesamtwertung_pdf",
    "circuit_honours",
}
GET_ONLY = SEEN_BY_CUPS | {"circuit_export", "circuit_file", "circuit_card"}
POST_ONLY = {"circuit_entry_public_name"}
EVERY_ACCOUNT = {"circuit_list", "circuit_file_import"}  # each account's own
ORGANISER_ANSWERS = {
    ("circuit_list", "get"): 200,
    ("circuit_list", "post"): 302,  # a new circuit of her own
    ("circuit_detail", "get"): 200,
    ("circuit_detail", "post"): 405,
    ("circuit_register", "get"): 200,
    ("circuit_register", "post"): 302,  # a player added
    ("circuit_import", "get"): 200,
    ("circuit_import", "post"): 400,  # no file sent
    ("circuit_export", "get"): 200,
    ("circuit_export", "post"): 405,
    ("circuit_merge", "get"): 200,
    ("circuit_merge", "post"): 302,  # Nr. 2 merged into Nr. 1
    ("circuit_entry", "get"): 200,
    ("circuit_entry", "post"): 200,  # the new PIN, shown once
    ("circuit_card", "get"): 200,  # the player card's PDF
    ("circuit_card", "post"): 405,
    ("circuit_entry_public_name", "get"): 405,
    ("circuit_entry_public_name", "post"): 302,  # Nr. 1's name on public pages: full (as it was)
    ("circuit_join", "get"): 200,
    ("circuit_join", "post"): 302,
    ("circuit_tiers", "get"): 200,
    ("circuit_tiers", "post"): 302,  # the cup's tier set
    ("circuit_final", "get"): 200,
    ("circuit_final", "post"): 302,  # no final yet, the final open
    ("circuit_file", "get"): 200,
    ("circuit_file_import", "get"): 200,
    ("circuit_file_import", "post"): 400,  # no file sent
    **{(name, "get"): 200 for name in SEEN_BY_CUPS - {"circuit_detail"}},
    **{(name, "post"): 405 for name in GET_ONLY},
}
POSTED = {
    "name": "Neu",
    "season": "2026/27",
    "family": "Neu",
    "public_name": "full",
    "number": "1",
    "other": "2",
    "token": "t1",
}

# What a page of the final is sent where the common fields are not its own.
POSTED_TO = {
    "circuit_tiers": lambda w: {
        "cup": str(w["hausruck"].pk),
        "tier": "C",
        "min_events": "3",
        "qualifies": "on",
    },
    "circuit_final": lambda w: {"final": "", "open_final": "on"},
}


def test_every_address_of_the_circuits_pages_is_in_the_matrix():
    assert {pattern.name for pattern in circuit_urls.urlpatterns} == set(ADDRESSES)


def expected(name: str, method: str, role: str) -> int:
    if role in ORGANISERS:
        return ORGANISER_ANSWERS[(name, method)]
    if name in EVERY_ACCOUNT:
        return ORGANISER_ANSWERS[(name, method)]  # every account has its own list and import
    if method == "post" and name in GET_ONLY:
        return 405  # these take no POST from anyone
    if method == "get" and name in POST_ONLY:
        return 405  # and these no GET
    if name in SEEN_BY_CUPS and role == "cup_in":
        return 200
    return 404


def build_world() -> dict[str, Any]:
    user = User.objects.create_user("anna", password="a-long-test-password")
    accounts = {
        role: User.objects.create_user(role, password="a-long-test-password")
        for role in ("co", "cup_in", "cup_out", "outsider")
    }
    circuit = circuits.circuit_create(owner=user, name="Tarock Österreich", season="2025/26")
    circuit.organisers.add(accounts["co"])
    ours = factory.cup(user, name="Hausruckcup")
    factory.tournament(user, names=("Huber Maria", "Huber M.", "Gruber Anna", "Bauer Karl"), cup=ours)
    circuits.cup_join(circuit=circuit, user=user, cup_id=ours.pk)
    # A cup joined while its owner helped run the circuit; she runs it no more.
    theirs = factory.cup(accounts["cup_in"], name="Sauwaldcup")
    circuit.organisers.add(accounts["cup_in"])
    circuits.cup_join(circuit=circuit, user=accounts["cup_in"], cup_id=theirs.pk)
    circuit.organisers.remove(accounts["cup_in"])
    outside = factory.cup(accounts["cup_out"], name="Wiener Tarockcup")
    factory.cup(user, name="Zweiter Cup")  # the owner's cup still outside, to join
    factory.cup(accounts["co"], name="Cup der Mitorganisatorin")
    return {"circuit": circuit, "owner": user, "outside": outside, "hausruck": ours, **accounts}


world_once = built_once(build_world)


@pytest.fixture
def world(world_once: dict[str, Any], db: Any, nothing_kept: None) -> dict[str, Any]:
    return copy.deepcopy(world_once)


def client(world: dict[str, Any], role: str) -> Client:
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    if role != "anonymous":
        browser.force_login(world[role])
    return browser


def _cases() -> list[tuple[str, str, str]]:
    return [(name, method, role) for name in ADDRESSES for method in ("get", "post") for role in ROLES]


@pytest.mark.parametrize(("name", "method", "role"), _cases())
def test_access(world, name, method, role):
    url = reverse(name, args=ADDRESSES[name](world))
    posted = {**POSTED, "cup": str(_own_free_cup(world, role)), **POSTED_TO.get(name, lambda w: {})(world)}
    before = snapshot()
    answer = getattr(client(world, role), method)(url, posted if method == "post" else None)
    if role == "anonymous":
        assert answer.status_code == 302 and answer["Location"].startswith(reverse("login"))
        assert snapshot() == before
        return
    assert answer.status_code == expected(name, method, role), answer.content[:300]
    assert "private" in answer.get("Cache-Control", "")
    if answer.status_code in (404, 405, 400):
        assert snapshot() == before


def _own_free_cup(world: dict[str, Any], role: str) -> int:
    """The POSTed cup: the account's own cup outside every circuit, where it has one."""
    if role == "anonymous":
        return 0
    cup = world[role].cups.filter(circuit__isnull=True).first()
    return cup.pk if cup is not None else world["outside"].pk


@pytest.mark.parametrize("role", ORGANISERS)
def test_what_the_organisers_posts_did(world, role):
    browser = client(world, role)
    circuit: Circuit = world["circuit"]
    browser.post(reverse("circuit_register", args=[circuit.pk]), POSTED)
    browser.post(reverse("circuit_register", args=[circuit.pk]), POSTED)  # sent twice
    assert CircuitPlayer.objects.filter(circuit=circuit, family="Neu").count() == 1
    browser.post(reverse("circuit_merge", args=[circuit.pk]), POSTED)
    assert circuits.entry_find(circuit, 2).number == 1
    page = browser.post(reverse("circuit_entry", args=[circuit.pk, 1]), {"token": "p1"})
    assert page.status_code == 200 and b'id="entry-pin"' in page.content
    assert "no-store" in page["Cache-Control"]
    again = browser.post(reverse("circuit_entry", args=[circuit.pk, 1]), {"token": "p1"})
    assert b'id="entry-pin"' not in again.content
    assert CircuitChange.objects.filter(circuit=circuit, action="pin").count() == 1
    named = reverse("circuit_entry_public_name", args=[circuit.pk, 1])
    assert browser.post(named, {"public_name": "short", "token": "n1"}).status_code == 302
    assert browser.post(named, {"public_name": "short", "token": "n1"}).status_code == 302  # sent twice
    assert circuits.entry_find(circuit, 1).public_name == "short"
    assert CircuitChange.objects.filter(circuit=circuit, action="public").count() == 1
    cup = world[role].cups.get(circuit__isnull=True)
    browser.post(reverse("circuit_join", args=[circuit.pk]), {"cup": cup.pk, "token": "j1"})
    cup.refresh_from_db()
    assert cup.circuit == circuit


def test_the_register_list_and_its_csv_are_shown_to_the_organisers_only(world):
    circuit = world["circuit"]
    page = client(world, "owner").get(reverse("circuit_register", args=[circuit.pk]))
    assert b"Gruber Anna" in page.content and b"Nr.&nbsp;3" in page.content
    for role in ("cup_in", "cup_out", "outsider"):
        seen = client(world, role).get(reverse("circuit_detail", args=[circuit.pk]))
        assert b"Gruber" not in seen.content
    csv = client(world, "co").get(reverse("circuit_export", args=[circuit.pk]))
    assert csv["Content-Type"].startswith("text/csv")
    assert csv.content.decode("utf-8-sig").splitlines()[1] == "1;Huber;Maria;;"


def test_the_import_page_shows_the_preview_and_writes_only_when_confirmed(world):
    from django.core.files.uploadedfile import SimpleUploadedFile

    circuit = world["circuit"]
    browser = client(world, "owner")
    url = reverse("circuit_import", args=[circuit.pk])
    data = "Nr;Familienname;Vorname;Ort;Kategorien\r\n;Huber;Maria;;Damen\r\n1;Anders;Otto;;\r\n;Neu;Nina;Enns;\r\n"
    upload = SimpleUploadedFile("register.csv", data.encode(), content_type="text/csv")
    before = CircuitPlayer.objects.count()
    page = browser.post(url, {"file": upload})
    html = page.content.decode()
    assert page.status_code == 200 and 'id="import-preview"' in html
    assert "Neu Nina, Enns" in html and "the number is another player" in html
    assert CircuitPlayer.objects.count() == before
    pending = circuit.imports.get()
    done = browser.post(url, {"action": "confirm", "import": pending.pk})
    assert done.status_code == 302
    assert CircuitPlayer.objects.count() == before + 1
    assert CircuitPlayer.objects.get(circuit=circuit, number=1).categories == ["Damen"]
    browser.post(url, {"action": "confirm", "import": pending.pk})
    assert CircuitPlayer.objects.count() == before + 1


def test_a_name_already_in_the_register_is_offered_on_the_page(world):
    circuit = world["circuit"]
    page = client(world, "owner").post(
        reverse("circuit_register", args=[circuit.pk]),
        {"family": "GRUBER", "given": "anna", "public_name": "full"},
    )
    assert page.status_code == 200 and b'id="register-offered"' in page.content
    assert CircuitPlayer.objects.filter(circuit=circuit, family__iexact="gruber").count() == 1


def test_a_cup_in_the_circuit_leads_its_owner_to_the_circuits_page(world):
    circuit = world["circuit"]
    cup = circuit.cups.get(name="Sauwaldcup")
    page = client(world, "cup_in").get(reverse("cup_detail", args=[cup.pk]))
    assert reverse("circuit_detail", args=[circuit.pk]).encode() in page.content
    assert client(world, "cup_in").get(reverse("circuit_detail", args=[circuit.pk])).status_code == 200
