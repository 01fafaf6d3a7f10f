"""A register entry's page (TOURNAMENTS.md §14.1): how the name reads on public
pages (``public_name``: "Huber Maria" or "Huber M.") set there by the circuit's
organisers, kept in the audit and done once when sent twice; entries with the
same name and place kept apart, each shown with its "(2)", on the register and
on the entry's page, which names the others and leads to the merge."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tournaments import factory
from tests.tournaments.circuit.test_services import snapshot
from tournaments.models import Circuit, CircuitChange, CircuitPlayer
from tournaments.services import circuit as circuits
from tournaments.services import circuit_final as finals

pytestmark = pytest.mark.django_db


@pytest.fixture
def circuit(user: User) -> Circuit:
    made = circuits.circuit_create(owner=user, name="Tarock Österreich", season="2025/26")
    for family, given, place in (("Huber", "Maria", "Linz"), ("Gruber", "Anna", "Wels")):
        circuits.register_add(circuit=made, user=user, family=family, given=given, place=place)
    return made


def browser(who: User | None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    if who is not None:
        client.force_login(who)
    return client


def public_name(circuit: Circuit, number: int) -> str:
    return CircuitPlayer.objects.get(circuit=circuit, number=number).public_name


def test_the_organiser_sets_the_name_on_public_pages_once(circuit, user):
    page = browser(user)
    url = reverse("circuit_entry_public_name", args=[circuit.pk, 1])
    shown = page.get(reverse("circuit_entry", args=[circuit.pk, 1])).content.decode()
    assert 'id="public-name-form"' in shown and "Huber Maria" in shown
    for _ in range(2):  # sent twice: set once
        answer = page.post(url, {"public_name": "short", "token": "n1"})
        assert answer.status_code == 302 and answer["Location"] == reverse(
            "circuit_entry", args=[circuit.pk, 1]
        )
    assert public_name(circuit, 1) == "short"
    changes = list(CircuitChange.objects.filter(circuit=circuit, action="public"))
    assert [(c.user, c.before, c.after) for c in changes] == [
        (user, {"number": 1, "public_name": "full"}, {"number": 1, "public_name": "short"})
    ]
    # The same choice from another form: nothing to change, nothing written.
    assert page.post(url, {"public_name": "short", "token": "n2"}).status_code == 302
    assert CircuitChange.objects.filter(circuit=circuit, action="public").count() == 1
    entry_page = page.get(reverse("circuit_entry", args=[circuit.pk, 1])).content.decode()
    assert '<dd id="entry-public-name">Huber M.</dd>' in entry_page
    assert circuits.register_entries(circuit)[0].public() == "Huber M."


def test_the_lists_show_the_name_as_set(circuit, user):
    cup = factory.cup(user)
    for _ in range(2):
        factory.play_example(user, cup=cup)
    circuits.cup_join(circuit=circuit, user=user, cup_id=cup.pk)
    person = finals.standings(circuit).cup(cup.pk).lines[0].person
    entry = CircuitPlayer.objects.get(circuit=circuit, number=person.number)
    CircuitPlayer.objects.filter(pk=entry.pk).update(given="Maria")  # a given name to shorten
    page = browser(user)
    page.post(
        reverse("circuit_entry_public_name", args=[circuit.pk, person.number]),
        {"public_name": "short", "token": "s1"},
    )
    listed = finals.standings(circuit).cup(cup.pk).lines[0].person
    assert listed.name == f"{entry.family} M."


@pytest.mark.parametrize("value", ["", "kurz", "SHORT", "x" * 500])
def test_a_value_not_offered_is_refused_naming_the_field_and_the_choices(circuit, user, value):
    before = snapshot()
    answer = browser(user).post(
        reverse("circuit_entry_public_name", args=[circuit.pk, 1]), {"public_name": value}
    )
    assert answer.status_code == 400
    html = answer.content.decode()
    assert 'id="id_public_name-error"' in html or "public_name" in html
    assert "one of: full, short" in html
    assert snapshot() == before and public_name(circuit, 1) == "full"


def test_only_the_circuits_organisers_set_it(circuit, user, other_user):
    url = reverse("circuit_entry_public_name", args=[circuit.pk, 1])
    before = snapshot()
    assert browser(other_user).post(url, {"public_name": "short"}).status_code == 404
    anonymous = browser(None).post(url, {"public_name": "short"})
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    assert browser(user).get(url).status_code == 405
    assert (
        browser(user).post(reverse("circuit_entry_public_name", args=[circuit.pk, 99]), {}).status_code == 404
    )
    assert snapshot() == before and public_name(circuit, 1) == "full"


def add(page: Client, circuit: Circuit, **fields: Any) -> Any:
    return page.post(
        reverse("circuit_register", args=[circuit.pk]),
        {"family": "Huber", "given": "Maria", "place": "Linz", "public_name": "full", **fields},
    )


def test_entries_kept_apart_are_shown_with_their_2_and_lead_to_each_other(circuit, user):
    page = browser(user)
    offered = add(page, circuit)  # the same name and place: offered, nothing written
    assert offered.status_code == 200 and 'id="register-offered"' in offered.content.decode()
    assert CircuitPlayer.objects.filter(circuit=circuit, family="Huber").count() == 1
    assert add(page, circuit, keep_apart="on", token="k1").status_code == 302
    assert add(page, circuit, keep_apart="on", token="k1").status_code == 302  # sent twice
    second = CircuitPlayer.objects.get(circuit=circuit, family="Huber", number__gt=1)
    assert CircuitPlayer.objects.filter(circuit=circuit, family="Huber").count() == 2
    change = CircuitChange.objects.get(circuit=circuit, action="add", after__number=second.number)
    assert change.after["kept_apart_from"] == [1]
    register = page.get(reverse("circuit_register", args=[circuit.pk])).content.decode()
    assert "Huber Maria, Linz · Nr.&nbsp;1<" in register
    assert f"Huber Maria, Linz (2) · Nr.&nbsp;{second.number}<" in register
    assert "Gruber Anna, Wels · Nr.&nbsp;2<" in register
    mine = page.get(reverse("circuit_entry", args=[circuit.pk, second.number])).content.decode()
    assert f"<h1>Huber Maria, Linz (2) · Nr.&nbsp;{second.number}</h1>" in mine
    assert (
        "Huber Maria, Linz · Nr.&nbsp;1</a>" in mine and reverse("circuit_merge", args=[circuit.pk]) in mine
    )
    first = page.get(reverse("circuit_entry", args=[circuit.pk, 1])).content.decode()
    assert f"Huber Maria, Linz (2) · Nr.&nbsp;{second.number}</a>" in first
    # Merged, they are one again: no "(2)" left.
    circuits.register_merge(circuit=circuit, user=user, number=1, other=second.number)
    register = page.get(reverse("circuit_register", args=[circuit.pk])).content.decode()
    assert "(2)" not in register
