"""The pages of registration at the door (TOURNAMENTS.md §14.2), every address
GET and POST for the organiser of the tournament (who runs the circuit), the
owner of another cup of the circuit, a player's phone whose number has a PIN, a
player's phone whose number has none, a logged-in outsider and a visitor without
an account; a refused request changes nothing. The registration link is counted
per client (no phone uses up another's) and answers ``no-cache``; the PIN is
shown once, on a page kept nowhere."""

from __future__ import annotations

import copy
import secrets
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from plumbing import budgets
from plumbing.budgets import Budget
from tests.tournaments import factory
from tests.worlds import built_once
from tournaments.models import (
    CircuitChange,
    CircuitPinTry,
    CircuitPlayer,
    DoorEntry,
    Entrant,
    Tournament,
    TournamentChange,
)
from tournaments.services import circuit as circuits
from tournaments.services import door as doors
from tournaments.views import door as door_views

pytestmark = pytest.mark.django_db

ROLES = ("organiser", "cup_other", "player_pin", "player_no_pin", "outsider", "anonymous")
PHONES = ("player_pin", "player_no_pin")


@pytest.fixture(autouse=True)
def long_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(budgets, "WINDOW_SECONDS", 3600)


def build_world() -> dict[str, Any]:
    user = User.objects.create_user("anna", password="a-long-test-password")
    other = User.objects.create_user("other", password="a-long-test-password")
    outsider = User.objects.create_user("outsider", password="a-long-test-password")
    circuit = circuits.circuit_create(owner=user, name="Tarock Österreich", season="2025/26")
    circuit.organisers.add(other)
    ours, theirs = factory.cup(user), factory.cup(other, name="Sauwaldcup")
    circuits.cup_join(circuit=circuit, user=user, cup_id=ours.pk)
    circuits.cup_join(circuit=circuit, user=other, cup_id=theirs.pk)
    circuit.organisers.remove(other)  # she runs her cup, not the circuit
    maria = circuits.register_add(
        circuit=circuit, user=user, family="Huber", given="Maria", place="Linz"
    ).entry
    anna = circuits.register_add(
        circuit=circuit, user=user, family="Gruber", given="Anna", place="Wels"
    ).entry
    assert maria is not None and anna is not None
    pin = circuits.register_pin_new(circuit=circuit, user=user, number=maria.number)
    t = factory.tournament(user, cup=ours)
    doors.door_open(tournament=t, user=user)
    t = factory.fresh(t)
    # Maria's phone registered already with her PIN; Anna's has not (her number has none).
    maria_phone = secrets.token_urlsafe(18)
    doors.door_known(tournament=t, phone=_phone_of(maria_phone), number=maria.number, pin=pin)
    return {
        "t": factory.fresh(t),
        "circuit": circuit,
        "maria": maria,
        "anna": anna,
        "pin": pin,
        "organiser": user,
        "cup_other": other,
        "outsider": outsider,
        "cookies": {"player_pin": maria_phone, "player_no_pin": secrets.token_urlsafe(18)},
    }


world_once = built_once(build_world)


@pytest.fixture
def world(world_once: dict[str, Any], db: Any, nothing_kept: None) -> dict[str, Any]:
    return copy.deepcopy(world_once)


def _phone_of(cookie: str) -> str:
    from plumbing.clients import client_of

    class Asked:
        COOKIES = {door_views.DOOR_COOKIE: cookie}
        META: dict[str, str] = {}

    return client_of(Asked(), door_views.DOOR_COOKIE)


def client(world: dict[str, Any], role: str) -> Client:
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    if role in PHONES:
        browser.cookies[door_views.DOOR_COOKIE] = world["cookies"][role]
    elif role != "anonymous":
        browser.force_login(world[role])
    return browser


def snapshot() -> list[Any]:
    models = (Tournament, Entrant, DoorEntry, CircuitPlayer, CircuitPinTry, CircuitChange, TournamentChange)
    return [
        sorted(model.objects.values_list(*[f.attname for f in model._meta.concrete_fields]))
        for model in models
    ]


ADDRESSES = {
    "tournament_door": lambda w: [w["t"].pk],
    "tournament_door_poster": lambda w: [w["t"].pk],
    "tournament_by_number": lambda w: [w["anna"].number],
    "circuit_card": lambda w: [w["circuit"].pk, w["anna"].number],
    "tournament_door_page": lambda w: [w["t"].door_token],
    "tournament_door_card": lambda w: [w["t"].door_token],
}
ACCOUNT_PAGES = {"tournament_door", "tournament_door_poster", "tournament_by_number", "circuit_card"}
# The answer by address, method and role where it is not "refused": 404 for accounts
# that do not run the tournament or circuit, 405 for a method the page takes not.
ANSWERS: dict[tuple[str, str], dict[str, int]] = {
    ("tournament_door", "get"): {role: 405 for role in ROLES},
    ("tournament_door", "post"): {"organiser": 302},  # a new link
    ("tournament_door_poster", "get"): {"organiser": 200},  # the poster's PDF
    ("tournament_door_poster", "post"): {role: 405 for role in ROLES},
    ("tournament_by_number", "get"): {"organiser": 302, "cup_other": 200, "outsider": 200},
    ("tournament_by_number", "post"): {role: 405 for role in ROLES},
    ("circuit_card", "get"): {"organiser": 200},
    ("circuit_card", "post"): {role: 405 for role in ROLES},
    # The link's pages: the same for an account as for a phone (no account asked).
    ("tournament_door_page", "get"): {role: 200 for role in ROLES},
    ("tournament_door_page", "post"): {
        **{role: 200 for role in ROLES},
        "player_pin": 200,
        "player_no_pin": 400,
    },
    ("tournament_door_card", "get"): {**{role: 404 for role in ROLES}, "player_pin": 200},
    ("tournament_door_card", "post"): {role: 405 for role in ROLES},
}
CHANGES = {("tournament_door", "post", "organiser")}


def posted(world: dict[str, Any], role: str) -> dict[str, str]:
    if role == "player_no_pin":  # Anna tries a PIN her number does not have
        return {"action": "pin", "number": str(world["anna"].number), "pin": "1234"}
    return {"action": "find", "family": "Huber", "given": "Maria", "place": "Linz"}


def test_every_new_address_is_in_the_matrix():
    assert {name for name, _method in ANSWERS} == set(ADDRESSES)


@pytest.mark.parametrize(
    ("name", "method", "role"), [(n, m, r) for n in ADDRESSES for m in ("get", "post") for r in ROLES]
)
@pytest.mark.usefixtures("pdfs_not_drawn")  # who may download, not what is drawn
def test_access(world, name, method, role):
    url = reverse(name, args=ADDRESSES[name](world))
    before = snapshot()
    browser = client(world, role)
    answer = browser.get(url) if method == "get" else browser.post(url, posted(world, role))
    if name in ACCOUNT_PAGES and role in (*PHONES, "anonymous"):
        assert answer.status_code in (302, 405) and snapshot() == before
        if answer.status_code == 302:
            assert answer["Location"].startswith(reverse("login"))
        return
    expected = ANSWERS[(name, method)].get(role, 404)
    assert answer.status_code == expected, (name, method, role, answer.content[:300])
    if (name, method, role) not in CHANGES and not (
        name == "tournament_door_page" and role == "player_no_pin"
    ):
        assert snapshot() == before
    if name.startswith("tournament_door_") and name != "tournament_door_poster" and expected != 405:
        assert "no-cache" in answer["Cache-Control"]
    if name in ACCOUNT_PAGES and expected == 200:
        assert "private" in answer["Cache-Control"]


def test_a_wrong_pin_from_a_page_is_counted_by_the_register(world):
    anna_pin = circuits.register_pin_new(
        circuit=world["circuit"], user=world["organiser"], number=world["anna"].number
    )
    wrong = f"{(int(anna_pin) + 1) % 10_000:04d}"
    url = reverse("tournament_door_page", args=[world["t"].door_token])
    answer = client(world, "player_no_pin").post(
        url, {"action": "pin", "number": world["anna"].number, "pin": wrong}
    )
    assert answer.status_code == 400 and b"2 more tries" in answer.content
    assert CircuitPinTry.objects.filter(entry=world["anna"]).count() == 1


def test_a_closed_or_renewed_link_answers_410(world):
    old = world["t"].door_token
    doors.door_open(tournament=world["t"], user=world["organiser"])
    answer = Client().get(reverse("tournament_door_page", args=[old]))
    assert answer.status_code == 410 and "no-cache" in answer["Cache-Control"]


def test_a_new_player_sees_her_pin_once_on_a_page_kept_nowhere(world):
    phone = Client(HTTP_ACCEPT_LANGUAGE="en")
    url = reverse("tournament_door_page", args=[world["t"].door_token])
    assert phone.get(url).status_code == 200  # the phone's cookie given
    new = {"action": "new", "family": "Bauer", "given": "Karl", "place": "Steyr"}
    shown = phone.post(url, new)
    assert shown.status_code == 200 and b'id="pin-value"' in shown.content
    assert "no-store" in shown["Cache-Control"] and b"Take a photo or write it down" in shown.content
    again = phone.post(url, new)
    assert again.status_code == 302
    page = phone.get(url)
    assert b'id="pin-value"' not in page.content and b'id="door-waiting"' in page.content
    assert DoorEntry.objects.filter(player__family="Bauer").count() == 1
    card = phone.get(reverse("tournament_door_card", args=[world["t"].door_token]))
    number = CircuitPlayer.objects.get(family="Bauer").number
    assert card.status_code == 200 and f"Nr.&nbsp;{number}".encode() in card.content
    assert b"Bauer Karl" in card.content and b"<svg" in card.content


def test_the_card_shows_the_public_name(world):
    CircuitPlayer.objects.filter(pk=world["maria"].pk).update(public_name="short")
    card = client(world, "player_pin").get(reverse("tournament_door_card", args=[world["t"].door_token]))
    assert b"Huber M." in card.content and b"Huber Maria" not in card.content


def test_a_known_player_registers_in_three_taps_after_typing_her_name(world):
    """Tap 1 "Next" after her name, tap 2 into the PIN field of her offer, tap 3
    "Yes, register me": within §14.2's four."""
    DoorEntry.objects.all().delete()
    phone = Client(HTTP_ACCEPT_LANGUAGE="en")
    url = reverse("tournament_door_page", args=[world["t"].door_token])
    phone.get(url)
    offers = phone.post(url, {"action": "find", "family": "huber", "given": "maria", "place": "linz"})
    number = world["maria"].number
    assert f'id="offer-{number}"'.encode() in offers.content and b"Are you Nr." in offers.content
    done = phone.post(url, {"action": "pin", "number": number, "pin": world["pin"]})
    assert done.status_code == 302
    assert b'id="door-waiting"' in phone.get(url).content


def test_the_desk_accepts_on_the_entrants_page_and_adds_by_number(world):
    browser = client(world, "organiser")
    t = world["t"]
    url = reverse("tournament_entrants", args=[t.pk])
    page = browser.get(url)
    assert b"registered on the phone" in page.content and b'id="door-' in page.content
    browser.post(url, {"action": "accept", "register_number": world["maria"].number, "token": "a1"})
    maria = Entrant.objects.get(tournament=t, name="Huber Maria")
    assert maria.door_entry.player == world["maria"]
    assert b"registered on the phone" in browser.get(url).content  # her badge stays
    filled = browser.get(reverse("tournament_by_number", args=[world["anna"].number]))
    assert filled["Location"] == url + f"?register_number={world['anna'].number}#by-number"
    assert f'value="{world["anna"].number}"'.encode() in browser.get(filled["Location"]).content
    for _ in range(2):  # one entry and one tap; sent twice, stored once
        browser.post(url, {"action": "number", "register_number": world["anna"].number, "token": "n1"})
    assert Entrant.objects.filter(tournament=t, name="Gruber Anna").count() == 1


def test_the_control_page_shows_the_link_and_the_poster(world):
    page = client(world, "organiser").get(reverse("tournament_detail", args=[world["t"].pk]))
    assert b'id="door-link"' in page.content and b'id="door-pending"' in page.content
    poster = client(world, "organiser").get(reverse("tournament_door_poster", args=[world["t"].pk]))
    assert poster["Content-Type"] == "application/pdf"
    import io

    from pypdf import PdfReader

    pages = PdfReader(io.BytesIO(poster.content)).pages
    assert len(pages) == 1  # one A4 at the entrance
    assert world["t"].door_token in pages[0].extract_text().replace("\n", "")


def test_a_phone_beyond_its_budget_is_refused_alone(world, monkeypatch):
    monkeypatch.setattr(
        door_views, "DOOR", Budget("door-link", per_phone=5, per_address=50, per_link=40, own=0)
    )
    url = reverse("tournament_door_page", args=[world["t"].door_token])
    greedy, other = client(world, "player_pin"), client(world, "player_no_pin")
    answers = [greedy.get(url).status_code for _ in range(30)]
    assert answers[:5] == [200] * 5 and set(answers[5:]) == {429}
    assert other.get(url).status_code == 200  # the greedy phone took nothing of hers
    refused = greedy.get(url)
    assert refused.status_code == 429 and refused["Retry-After"] and "no-cache" in refused["Cache-Control"]


def test_a_number_beyond_the_register_is_not_found(world):
    answer = client(world, "organiser").get(reverse("tournament_by_number", args=[1_000_000]))
    assert answer.status_code == 404


def test_the_player_cards_pdf_has_name_place_and_number_never_the_pin(world):
    import io

    from pypdf import PdfReader

    url = reverse("circuit_card", args=[world["circuit"].pk, world["maria"].number])
    answer = client(world, "organiser").get(url)
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(answer.content)).pages)
    assert "Huber Maria" in text and "Linz" in text and f"Nr. {world['maria'].number}" in text
    assert world["pin"] not in text
    entry = client(world, "organiser").get(
        reverse("circuit_entry", args=[world["circuit"].pk, world["maria"].number])
    )
    assert url.encode() in entry.content
