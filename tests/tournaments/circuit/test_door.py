"""Registration at the door (TOURNAMENTS.md §14.2): the registration link of a
tournament in a circuit's cup, a player on her phone found by her name and
confirmed with her PIN (three wrong ones and the desk only), or new with a
number and a PIN given once; one registration per phone and per player, sent
twice and stored once; the desk accepting her before the draw, which takes
only accepted players, and the desk adding a player by her register number."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.hashers import check_password
from django.contrib.auth.models import User

from scoring.engine import InvalidInput
from tests.tournaments import factory
from tournaments.models import (
    Circuit,
    CircuitChange,
    CircuitPinTry,
    CircuitPlayer,
    DoorEntry,
    Entrant,
    TableSeat,
    Tournament,
)
from tournaments.services import circuit as circuits
from tournaments.services import door as doors

pytestmark = pytest.mark.django_db

PHONE_A, PHONE_B, PHONE_C = "c:" + "a" * 20, "c:" + "b" * 20, "c:" + "c" * 20


@pytest.fixture
def day(user: User) -> dict[str, Any]:
    """A circuit with Huber Maria of Linz (Nr. 1, her PIN known) and Gruber Anna
    (Nr. 2, no PIN yet), its cup, and a tournament of twelve with the link open."""
    circuit = circuits.circuit_create(owner=user, name="Tarock Österreich", season="2025/26")
    cup = factory.cup(user)
    circuits.cup_join(circuit=circuit, user=user, cup_id=cup.pk)
    maria = circuits.register_add(
        circuit=circuit, user=user, family="Huber", given="Maria", place="Linz"
    ).entry
    anna = circuits.register_add(
        circuit=circuit, user=user, family="Gruber", given="Anna", place="Wels"
    ).entry
    assert maria is not None and anna is not None
    pin = circuits.register_pin_new(circuit=circuit, user=user, number=maria.number)
    t = factory.tournament(user, cup=cup)
    doors.door_open(tournament=t, user=user)
    return {"circuit": circuit, "t": factory.fresh(t), "maria": maria, "anna": anna, "pin": pin, "user": user}


def wrong(pin: str) -> str:
    return f"{(int(pin) + 1) % 10_000:04d}"


def test_a_typed_name_is_offered_its_register_entry(day):
    offered = doors.door_find(tournament=day["t"], family=" huber ", given="MARIA", place="Linz")
    assert [entry.number for entry in offered] == [day["maria"].number]
    assert doors.door_find(tournament=day["t"], family="Huber", given="Maria", place="Wels") == ()


def test_a_name_breaking_the_text_rules_is_refused_naming_the_field(day):
    with pytest.raises(InvalidInput) as refused:
        doors.door_find(tournament=day["t"], family="", given="Maria", place="Linz")
    assert refused.value.field == "family"


def test_the_right_pin_registers_her_waiting_for_the_desk(day):
    door = doors.door_known(tournament=day["t"], phone=PHONE_A, number=day["maria"].number, pin=day["pin"])
    assert door.entrant is None and door.player == day["maria"] and not door.new
    assert doors.door_pending(day["t"]) == [door]
    assert not Entrant.objects.filter(tournament=day["t"], name="Huber Maria").exists()


def test_a_wrong_pin_is_counted_and_three_block_the_number(day):
    t, number = day["t"], day["maria"].number
    for left in (2, 1):
        with pytest.raises(InvalidInput) as refused:
            doors.door_known(tournament=t, phone=PHONE_A, number=number, pin=wrong(day["pin"]))
        assert refused.value.field == "pin" and refused.value.line.args["left"] == left
    with pytest.raises(InvalidInput):
        doors.door_known(tournament=t, phone=PHONE_A, number=number, pin=wrong(day["pin"]))
    assert CircuitPinTry.objects.filter(entry=day["maria"]).count() == 3
    with pytest.raises(InvalidInput) as blocked:  # now even the right PIN: only at the desk
        doors.door_known(tournament=t, phone=PHONE_A, number=number, pin=day["pin"])
    assert "desk" in blocked.value.line.text
    assert not DoorEntry.objects.exists()


def test_a_number_without_a_pin_registers_at_the_desk(day):
    with pytest.raises(InvalidInput) as refused:
        doors.door_known(tournament=day["t"], phone=PHONE_A, number=day["anna"].number, pin="1234")
    assert refused.value.field == "pin"
    assert not DoorEntry.objects.exists()


def test_a_new_player_gets_the_next_number_and_a_pin_once(day):
    top = max(CircuitPlayer.objects.values_list("number", flat=True))
    door, pin = doors.door_new(
        tournament=day["t"], phone=PHONE_A, family="Bauer", given="Karl", place="Steyr"
    )
    assert pin is not None and len(pin) == 4 and pin.isdigit()
    player = CircuitPlayer.objects.get(pk=door.player_id)
    assert player.number == top + 1 and check_password(pin, player.pin_hash) and door.new
    assert CircuitChange.objects.filter(action="door", user=None).count() == 1
    again, shown = doors.door_new(
        tournament=day["t"], phone=PHONE_A, family="Bauer", given="Karl", place="Steyr"
    )
    assert again == door and shown is None  # sent twice: stored once, the PIN not shown again
    assert CircuitPlayer.objects.filter(family="Bauer").count() == 1


def test_sent_twice_from_one_phone_is_stored_once(day):
    number, pin = day["maria"].number, day["pin"]
    first = doors.door_known(tournament=day["t"], phone=PHONE_A, number=number, pin=pin)
    second = doors.door_known(tournament=day["t"], phone=PHONE_A, number=number, pin=pin)
    assert first == second and DoorEntry.objects.count() == 1


def test_one_registration_per_phone_and_one_per_player(day):
    t = day["t"]
    doors.door_known(tournament=t, phone=PHONE_A, number=day["maria"].number, pin=day["pin"])
    # The phone registered: it is shown its registration, and no one new is written.
    mine, pin = doors.door_new(tournament=t, phone=PHONE_A, family="Bauer", given="Karl", place="")
    assert mine.player == day["maria"] and pin is None
    assert not CircuitPlayer.objects.filter(family="Bauer").exists()
    anna_pin = circuits.register_pin_new(circuit=day["circuit"], user=day["user"], number=day["anna"].number)
    with pytest.raises(InvalidInput) as other_number:
        doors.door_known(tournament=t, phone=PHONE_A, number=day["anna"].number, pin=anna_pin)
    assert other_number.value.field == "phone"
    with pytest.raises(InvalidInput) as per_player:
        doors.door_known(tournament=t, phone=PHONE_B, number=day["maria"].number, pin=day["pin"])
    assert per_player.value.field == "number"
    assert DoorEntry.objects.count() == 1


def test_a_phone_without_a_cookie_is_sent_to_the_desk(day):
    with pytest.raises(InvalidInput) as refused:
        doors.door_new(tournament=day["t"], phone="", family="Bauer", given="Karl", place="")
    assert refused.value.field == "phone"


def test_the_desk_accepts_her_with_the_fee_and_the_draw_takes_only_accepted_players(day):
    t = day["t"]
    doors.door_known(tournament=t, phone=PHONE_A, number=day["maria"].number, pin=day["pin"])
    doors.door_new(tournament=t, phone=PHONE_B, family="Bauer", given="Karl", place="Steyr")
    entrant = doors.door_accept(tournament=t, user=day["user"], number=day["maria"].number, fee_paid=True)
    assert (entrant.number, entrant.name, entrant.place, entrant.fee_paid) == (
        13,
        "Huber Maria",
        "Linz",
        True,
    )
    assert entrant.cup_player is not None and entrant.cup_player.circuit_player_id == day["maria"].pk
    again = doors.door_accept(tournament=t, user=day["user"], number=day["maria"].number, fee_paid=True)
    assert again == entrant and Entrant.objects.filter(tournament=t).count() == 13
    factory.draw(factory.fresh(t))
    seated = set(TableSeat.objects.filter(round__tournament=t).values_list("entrant__name", flat=True))
    assert "Huber Maria" in seated and "Bauer Karl" not in seated and len(seated) == 13
    assert [d.player.family for d in doors.door_pending(t)] == ["Bauer"]


def test_the_desk_adds_a_player_by_number_in_one_step(day):
    t = day["t"]
    entrant = doors.entrant_by_number(
        tournament=t, user=day["user"], number=day["anna"].number, client_token="n1"
    )
    assert entrant.name == "Gruber Anna" and entrant.cup_player.circuit_player_id == day["anna"].pk
    same = doors.entrant_by_number(
        tournament=t, user=day["user"], number=day["anna"].number, client_token="n1"
    )
    assert same == entrant  # sent twice with its token: once
    with pytest.raises(InvalidInput) as twice:
        doors.entrant_by_number(tournament=t, user=day["user"], number=day["anna"].number, client_token="n2")
    assert twice.value.field == "register_number"
    with pytest.raises(InvalidInput) as unknown:
        doors.entrant_by_number(tournament=t, user=day["user"], number=999, client_token="n3")
    assert unknown.value.field == "register_number"
    pin = circuits.register_pin_new(circuit=day["circuit"], user=day["user"], number=day["anna"].number)
    with pytest.raises(InvalidInput) as entered:  # on her phone now: she is entered already
        doors.door_known(tournament=t, phone=PHONE_C, number=day["anna"].number, pin=pin)
    assert entered.value.field == "number"


def test_the_desk_adding_her_number_accepts_her_phone_registration(day):
    t = day["t"]
    door = doors.door_known(tournament=t, phone=PHONE_A, number=day["maria"].number, pin=day["pin"])
    entrant = doors.entrant_by_number(tournament=t, user=day["user"], number=day["maria"].number)
    assert DoorEntry.objects.get(pk=door.pk).entrant == entrant
    assert doors.door_pending(t) == []


def test_a_second_person_of_the_same_name_is_told_apart(day):
    t = day["t"]
    door, _pin = doors.door_new(tournament=t, phone=PHONE_A, family="Anna", given="", place="Linz")
    # "Anna" is an entrant of the example already: the register's other Anna is "Anna, Linz".
    entrant = doors.door_accept(tournament=t, user=day["user"], number=door.player.number)
    assert entrant.name == "Anna, Linz"


def test_a_struck_registration_lets_the_phone_register_again(day):
    t = day["t"]
    doors.door_known(tournament=t, phone=PHONE_A, number=day["maria"].number, pin=day["pin"])
    doors.door_strike(tournament=t, user=day["user"], number=day["maria"].number)
    assert not DoorEntry.objects.exists()
    doors.door_known(tournament=t, phone=PHONE_A, number=day["maria"].number, pin=day["pin"])


def test_the_link_is_open_until_round_1_is_released_or_while_late_entry_allows(day):
    t = day["t"]
    assert doors.door_closed(t) is None
    factory.draw(t)
    assert doors.door_closed(factory.fresh(t)) is None  # drawn, not released: a late entry redraws
    factory.release(t)
    assert doors.door_closed(factory.fresh(t)) is not None
    with pytest.raises(InvalidInput):
        doors.door_new(tournament=factory.fresh(t), phone=PHONE_A, family="Bauer", given="Karl", place="")
    assert not CircuitPlayer.objects.filter(family="Bauer").exists()  # refused: no number taken


def test_with_late_entry_any_round_the_link_stays_open_after_round_1(user):
    circuit = circuits.circuit_create(owner=user, name="Tarock Österreich", season="2025/26")
    cup = factory.cup(user)
    circuits.cup_join(circuit=circuit, user=user, cup_id=cup.pk)
    t = factory.tournament(user, cup=cup, settings={"late_entry": "any_round"})
    doors.door_open(tournament=t, user=user)
    factory.draw(t)
    factory.release(t)
    assert doors.door_closed(factory.fresh(t)) is None


def test_only_a_tournament_of_a_cup_in_a_circuit_has_a_link(user):
    t = factory.tournament(user, cup=factory.cup(user))
    with pytest.raises(InvalidInput):
        doors.door_open(tournament=t, user=user)
    assert Tournament.objects.get(pk=t.pk).door_token is None


def test_closed_the_link_is_gone_and_reopened_a_new_one(day):
    t, user = day["t"], day["user"]
    old = t.door_token
    doors.door_close(tournament=t, user=user)
    assert doors.door_of(old) is None
    new = doors.door_open(tournament=t, user=user)
    assert new != old and doors.door_of(new) == t
    assert Circuit.objects.count() == 1


def test_an_accepted_entrant_struck_before_the_draw_frees_her_phone(day):
    from tournaments.services import entrants

    t = day["t"]
    doors.door_known(tournament=t, phone=PHONE_A, number=day["maria"].number, pin=day["pin"])
    entrant = doors.door_accept(tournament=t, user=day["user"], number=day["maria"].number)
    entrants.entrant_remove(tournament=factory.fresh(t), user=day["user"], number=entrant.number)
    assert not DoorEntry.objects.exists()
    again = doors.door_known(tournament=t, phone=PHONE_A, number=day["maria"].number, pin=day["pin"])
    assert again.entrant is None
