"""Who gets into the circuit's final while it is not open (TOURNAMENTS.md §14.7:
"with it off (default) only qualified players can be entered"), by every way an
entrant gets into a tournament: typed or picked from a roster, registered at the
door on a phone, accepted by the desk or added by number, read from a tournament
file, and when the final is named, moved to another cup, or closed again."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.contrib.auth.models import User

from scoring.engine import InvalidInput
from tests.tournaments import factory
from tests.tournaments.circuit.conftest import final_of
from tests.tournaments.circuit.test_services import snapshot
from tests.worlds import built_once
from tournaments.models import Circuit, CircuitPlayer, Cup, CupPlayer, DoorEntry, Entrant, Tournament
from tournaments.services import circuit as circuits
from tournaments.services import circuit_final as finals
from tournaments.services import door as doors
from tournaments.services import entrants, tournament_files

pytestmark = pytest.mark.django_db

PHONE_A, PHONE_B = "c:" + "a" * 20, "c:" + "b" * 20


def build() -> tuple[User, Circuit, Tournament]:
    owner = User.objects.create_user("anna", password="a-long-test-password")
    return (owner, *final_of(owner))


world_once = built_once(build)


@pytest.fixture
def world(world_once: tuple[User, Circuit, Tournament], db: Any, nothing_kept: None) -> Any:
    return copy.deepcopy(world_once)


@pytest.fixture
def user(world: tuple[User, Circuit, Tournament]) -> User:
    """The world's owner: every test here runs in it."""
    return world[0]


@pytest.fixture
def with_final(world: tuple[User, Circuit, Tournament]) -> tuple[Circuit, Tournament]:
    return world[1], world[2]


def qualified(circuit: Circuit) -> list[finals.Person]:
    return [line.person for line in finals.standings(circuit).qualified]


def name_of(person: finals.Person) -> str:
    return f"{person.family} {person.given}".strip()


def outsider(circuit: Circuit, user: User) -> tuple[CircuitPlayer, str]:
    """A register entry with a PIN who never played a cup tournament: not qualified."""
    entry = circuits.register_add(
        circuit=circuit, user=user, family="Zorn", given="Zacharias", place="Linz"
    ).entry
    assert entry is not None
    return entry, circuits.register_pin_new(circuit=circuit, user=user, number=entry.number)


def moved(t: Tournament, user: User, cup: Cup | None) -> Tournament:
    """The tournament's settings page saved with another cup."""
    return factory.settings_saved(t, user, cup=cup, cup_final=False, cup_factor=1)


def unchanged() -> tuple[Any, ...]:
    return (
        Entrant.objects.count(),
        DoorEntry.objects.count(),
        CircuitPlayer.objects.count(),
        list(Tournament.objects.order_by("pk").values_list("pk", "cup_id")),
        snapshot(),
    )


def test_from_a_roster_a_list_with_one_not_qualified_is_refused_whole(with_final, user):
    circuit, final = with_final
    first = name_of(qualified(circuit)[0])
    before = unchanged()
    with pytest.raises(InvalidInput) as refused:
        entrants.entrants_add(
            tournament=final,
            user=user,
            entrants=[entrants.NewEntrant(first), entrants.NewEntrant("Zacharias Zorn")],
        )
    assert "did not qualify for the final" in str(refused.value)
    assert unchanged() == before
    entrants.entrants_add(tournament=final, user=user, entrants=[entrants.NewEntrant(first)])
    assert list(final.entrants.values_list("name", flat=True)) == [first]


def test_at_the_door_only_a_qualified_player_registers_and_no_new_number_is_given(with_final, user):
    circuit, final = with_final
    doors.door_open(tournament=final, user=user)
    zorn, zorn_pin = outsider(circuit, user)
    best = qualified(circuit)[0]
    best_pin = circuits.register_pin_new(circuit=circuit, user=user, number=best.number)
    before = unchanged()
    with pytest.raises(InvalidInput) as known:
        doors.door_known(tournament=final, phone=PHONE_A, number=zorn.number, pin=zorn_pin)
    assert known.value.field == "number" and "did not qualify for the final" in str(known.value)
    with pytest.raises(InvalidInput) as new:
        doors.door_new(tournament=final, phone=PHONE_B, family="Bauer", given="Karl", place="Steyr")
    assert new.value.field == "family" and "did not qualify for the final" in str(new.value)
    assert unchanged() == before  # no registration, no new number taken
    door = doors.door_known(tournament=final, phone=PHONE_A, number=best.number, pin=best_pin)
    entrant = doors.door_accept(tournament=final, user=user, number=best.number)
    assert door.player_id is not None and entrant.cup_player is not None
    assert finals.kept_number(entrant.cup_player) == best.number


def test_the_desk_adds_by_number_only_a_qualified_player(with_final, user):
    circuit, final = with_final
    zorn, _ = outsider(circuit, user)
    before = unchanged()
    with pytest.raises(InvalidInput) as refused:
        doors.entrant_by_number(tournament=final, user=user, number=zorn.number)
    assert "did not qualify for the final" in str(refused.value)
    assert unchanged() == before
    best = qualified(circuit)[0]
    entrant = doors.entrant_by_number(tournament=final, user=user, number=best.number)
    assert finals.kept_number(entrant.cup_player) == best.number


def test_a_door_registration_taken_while_open_is_not_accepted_once_closed(with_final, user):
    circuit, final = with_final
    finals.final_set(circuit=circuit, user=user, final=final.pk, open_final=True)
    doors.door_open(tournament=final, user=user)
    zorn, pin = outsider(circuit, user)
    doors.door_known(tournament=final, phone=PHONE_A, number=zorn.number, pin=pin)
    # Not an entrant yet: the final may be closed to guests again.
    finals.final_set(circuit=circuit, user=user, final=final.pk, open_final=False)
    before = unchanged()
    with pytest.raises(InvalidInput) as refused:
        doors.door_accept(tournament=final, user=user, number=zorn.number)
    assert "did not qualify for the final" in str(refused.value)
    assert unchanged() == before
    assert doors.door_pending(final)[0].player == zorn  # the desk strikes it or opens the final


def test_a_tournament_read_from_a_file_is_named_the_final_only_with_qualified_entrants(with_final, user):
    circuit, final = with_final
    document = {"format": "tarockscore-tournament/1", "name": "Ö-Finale 2", "date": "2026-04-25",
                "variant": "koenigrufen", "seed": "482915",
                "entrants": ["Zacharias Zorn", "Bernd Berg", "Christa Cerny", "Dora Dorn"]}  # fmt: skip
    t = tournament_files.tournament_import(owner=user, data=json.dumps(document).encode())
    other = factory.cup(user, name="Finale II")
    circuits.cup_join(circuit=circuit, user=user, cup_id=other.pk)
    finals.cup_tier_set(circuit=circuit, user=user, cup_id=other.pk, tier="B", qualifies=False)
    t = moved(t, user, Cup.objects.get(pk=other.pk))  # not the final: any entrant
    before = unchanged()
    with pytest.raises(InvalidInput) as refused:
        finals.final_set(circuit=circuit, user=user, final=t.pk, open_final=False)
    assert refused.value.field == "open_final" and "Zacharias Zorn" in str(refused.value)
    assert unchanged() == before
    circuit.refresh_from_db()
    assert circuit.final == final


def test_the_final_moves_only_to_a_cup_of_its_circuit_that_does_not_qualify(with_final, user):
    circuit, final = with_final
    entrants.entrant_add(tournament=final, user=user, name=name_of(qualified(circuit)[0]))
    qualifying = Cup.objects.get(name="Hausruckcup")
    outside = factory.cup(user, name="Sauwaldcup")
    before = unchanged()
    for cup in (qualifying, outside, None):
        with pytest.raises(InvalidInput) as refused:
            moved(final, user, cup)
        assert refused.value.field == "cup" and "is the final of" in str(refused.value), cup
    assert unchanged() == before
    other = factory.cup(user, name="Finale II")
    circuits.cup_join(circuit=circuit, user=user, cup_id=other.pk)
    finals.cup_tier_set(circuit=circuit, user=user, cup_id=other.pk, tier="B", qualifies=False)
    moved(final, user, Cup.objects.get(pk=other.pk))
    assert factory.fresh(final).cup_id == other.pk
    assert finals.standings(circuit).unqualified == ()


def test_a_final_moved_where_its_entrant_reads_as_another_player_is_refused(with_final, user):
    circuit, final = with_final
    best = qualified(circuit)[0]
    name = name_of(best)
    entrants.entrant_add(tournament=final, user=user, name=name)
    zorn, _ = outsider(circuit, user)
    other = factory.cup(user, name="Finale II")
    circuits.cup_join(circuit=circuit, user=user, cup_id=other.pk)
    finals.cup_tier_set(circuit=circuit, user=user, cup_id=other.pk, tier="B", qualifies=False)
    # In the other cup that name is the register's Nr. of Zacharias Zorn (merged there by hand).
    CupPlayer.objects.create(cup=other, name=name, place="", circuit_player=zorn)
    before = unchanged()
    with pytest.raises(InvalidInput) as refused:
        moved(final, user, Cup.objects.get(pk=other.pk))
    assert refused.value.field == "cup" and "did not qualify" in str(refused.value)
    assert unchanged() == before
    # Opened to guests, the same move is taken.
    finals.final_set(circuit=circuit, user=user, final=final.pk, open_final=True)
    moved(final, user, Cup.objects.get(pk=other.pk))
    assert factory.fresh(final).cup_id == other.pk
