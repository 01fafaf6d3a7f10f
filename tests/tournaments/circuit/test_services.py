"""The circuit's register as its organisers keep it (TOURNAMENTS.md §14.1, §14.2's
PIN): numbers in order and unique, a name already there offered instead of
written twice, the CSV import shown before it is written, the merge with its
audit, a cup joining without losing a result, and the PIN's limit. Each
refusal writes nothing; a form sent twice is done once."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth.hashers import check_password
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring.engine import InvalidInput
from tests.tournaments import factory
from tournaments.core import circuit as rules
from tournaments.models import (
    Circuit,
    CircuitChange,
    CircuitImport,
    CircuitPinTry,
    CircuitPlayer,
    Cup,
    CupChange,
    CupPlayer,
    Entrant,
    TournamentPlace,
)
from tournaments.services import circuit as circuits
from tournaments.services import cups, entrants, events

pytestmark = pytest.mark.django_db


@pytest.fixture
def circuit(user: User) -> Circuit:
    return circuits.circuit_create(owner=user, name="Tarock Österreich", season="2025/26")


def add(circuit: Circuit, family: str, given: str = "", place: str = "", **kwargs: Any) -> CircuitPlayer:
    added = circuits.register_add(
        circuit=circuit, user=circuit.owner, family=family, given=given, place=place, **kwargs
    )
    assert added.entry is not None
    return added.entry


def snapshot() -> list[Any]:
    models = (Circuit, CircuitPlayer, CircuitChange, CircuitImport, CircuitPinTry, Cup, CupPlayer, CupChange)
    return [
        sorted(model.objects.values_list(*[f.attname for f in model._meta.concrete_fields]))
        for model in models
    ]


def csv_bytes(*lines: str) -> bytes:
    return (
        "\ufeffNr;Familienname;Vorname;Ort;Kategorien\r\n" + "".join(f"{line}\r\n" for line in lines)
    ).encode()


# -- numbers and matching ------------------------------------------------------------------


def test_a_new_circuit_has_the_three_categories_of_the_specification(circuit):
    assert circuit.categories == ["Damen", "Senioren", "Jugend"]
    assert CircuitChange.objects.get(circuit=circuit).action == "create"


def test_numbers_are_given_in_order_and_are_unique_in_the_circuit(circuit, user):
    numbers = [add(circuit, name).number for name in ("Huber", "Maier", "Gruber")]
    assert numbers == [1, 2, 3]
    other = circuits.circuit_create(owner=user, name="Steiermark", season="2025/26")
    assert add(other, "Huber").number == 1  # unique per circuit, not across circuits
    with pytest.raises(IntegrityError), transaction.atomic():
        CircuitPlayer.objects.create(circuit=circuit, number=2, family="X", match_key="x")


def test_a_name_already_there_is_offered_and_nothing_is_written(circuit):
    maria = add(circuit, "Huber", "Maria", "Linz", categories=["Damen"])
    before = snapshot()
    offered = circuits.register_add(
        circuit=circuit, user=circuit.owner, family="HUBER", given=" maria ", place="linz"
    )
    assert offered.entry is None
    assert [e.number for e in offered.offered] == [maria.number]
    assert snapshot() == before


def test_the_organiser_keeps_someone_of_the_same_name_apart_with_a_number_of_her_own(circuit):
    add(circuit, "Huber", "Maria", "Linz")
    second = add(circuit, "Huber", "Maria", "Linz", keep_apart=True)
    assert second.number == 2
    entries = circuits.register_entries(circuit)
    assert rules.told_apart(entries) == {2: 2}  # "Huber Maria, Linz (2)"
    change = CircuitChange.objects.filter(circuit=circuit, action="add").last()
    assert change is not None and change.after["kept_apart_from"] == [1]


def test_a_new_player_sent_twice_with_one_token_is_added_once(circuit):
    for _ in range(2):
        circuits.register_add(circuit=circuit, user=circuit.owner, family="Huber", client_token="t1")
    assert CircuitPlayer.objects.filter(circuit=circuit).count() == 1


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"family": ""}, "family"),
        ({"family": "H" * 41}, "family"),
        ({"family": "Huber", "given": "Ma\u200bria"}, "given"),
        ({"family": "Huber", "categories": ["Profis"]}, "categories"),
        ({"family": "Huber", "public_name": "initials"}, "public_name"),
    ],
)
def test_a_refused_entry_names_its_field_and_writes_nothing(circuit, fields, field):
    before = snapshot()
    with pytest.raises(InvalidInput) as refused:
        circuits.register_add(circuit=circuit, user=circuit.owner, **fields)
    assert refused.value.field == field
    assert snapshot() == before


def test_only_the_circuits_organisers_change_its_register(circuit, other_user):
    before = snapshot()
    with pytest.raises(InvalidInput) as refused:
        circuits.register_add(circuit=circuit, user=other_user, family="Huber")
    assert refused.value.field == "circuit"
    assert snapshot() == before
    circuit.organisers.add(other_user)
    assert circuits.register_add(circuit=circuit, user=other_user, family="Huber").entry is not None


# -- import and export ---------------------------------------------------------------------


def test_the_import_shows_new_matched_and_conflicting_rows_before_writing(circuit):
    add(circuit, "Huber", "Maria", "Linz", categories=["Damen"])
    add(circuit, "Maier", "Josef", "Wels")
    data = csv_bytes(
        "1;Huber;Maria;Linz;Senioren",  # matched by number and key
        ";Maier;Josef;Wels;",  # matched by key
        "2;Gruber;Anna;Steyr;",  # Nr. 2 is another person
        "500;Huber;Maria;Linz;",  # Huber Maria's key under another number
        ";Neu;Nina;Enns;Jugend",  # new, next number
        "40;Alt;Otto;Ried;Senioren",  # new with its number
        ";neu;NINA;enns;",  # the same new player twice in the file
    )
    before = snapshot()[:2]
    pending, plan = circuits.register_import_preview(circuit=circuit, user=circuit.owner, data=data)
    assert [(r.family, r.number) for r in plan.new] == [("Neu", None), ("Alt", 40)]
    assert [(r.family, e.number) for r, e in plan.matched] == [("Huber", 1), ("Maier", 2)]
    assert [(c.row.family, c.why) for c in plan.conflicts] == [
        ("Gruber", "number"),
        ("Huber", "key"),
        ("neu", "twice"),
    ]
    assert snapshot()[:2] == before  # the register is untouched by the preview
    done = circuits.register_import_confirm(circuit=circuit, user=circuit.owner, import_id=pending.pk)
    assert done == {"new": 2, "matched": 2, "categories": 1, "left_out": 3}
    rows = {e.number: e for e in circuits.register(circuit)}
    assert sorted(rows) == [1, 2, 40, 41]  # the unnumbered new row comes after the highest number
    assert (rows[41].family, rows[41].categories) == ("Neu", ["Jugend"])
    assert rows[1].categories == ["Damen", "Senioren"]
    again = circuits.register_import_confirm(circuit=circuit, user=circuit.owner, import_id=pending.pk)
    assert again == done
    assert CircuitPlayer.objects.filter(circuit=circuit).count() == 4


def test_an_import_confirmed_after_the_register_changed_is_refused(circuit):
    pending, _ = circuits.register_import_preview(
        circuit=circuit, user=circuit.owner, data=csv_bytes(";Huber;Maria;Linz;")
    )
    add(circuit, "Huber", "Maria", "Linz")
    before = snapshot()
    with pytest.raises(InvalidInput) as refused:
        circuits.register_import_confirm(circuit=circuit, user=circuit.owner, import_id=pending.pk)
    assert refused.value.field == "import"
    assert snapshot() == before


def test_a_broken_file_is_refused_naming_its_line_and_column(circuit):
    with pytest.raises(InvalidInput) as refused:
        circuits.register_import_preview(
            circuit=circuit, user=circuit.owner, data=csv_bytes("x;Huber;Maria;;")
        )
    assert refused.value.field == "file"
    assert "line 2, Nr" in str(refused.value.line.args["problem"])
    assert not CircuitImport.objects.exists()


def test_the_export_reads_back_as_the_same_register(circuit):
    add(circuit, "Huber", "Maria", "Linz", categories=["Damen", "Senioren"])
    add(circuit, "Maier", "Josef;Karl", "Wels")
    text = circuits.register_export(circuit)
    assert text.startswith(
        "\ufeffNr;Familienname;Vorname;Ort;Kategorien\r\n1;Huber;Maria;Linz;Damen,Senioren\r\n"
    )
    rows = rules.read_register_csv(text.encode())
    assert [(r.number, r.family, r.given, r.place, r.categories) for r in rows] == [
        (1, "Huber", "Maria", "Linz", ("Damen", "Senioren")),
        (2, "Maier", "Josef;Karl", "Wels", ()),
    ]


# -- merge ---------------------------------------------------------------------------------


def test_a_merge_keeps_the_lower_number_and_the_higher_one_still_finds_the_player(circuit, other_user):
    a = add(circuit, "Huber", "Maria", "Linz", categories=["Damen"])
    b = add(circuit, "Huber", "M.", "Linz", categories=["Senioren"])
    CircuitPlayer.objects.filter(pk=b.pk).update(user=other_user)
    kept = circuits.register_merge(circuit=circuit, user=circuit.owner, number=b.number, other=a.number)
    assert kept.number == 1 and kept.categories == ["Damen", "Senioren"] and kept.user == other_user
    assert circuits.entry_find(circuit, 2).pk == a.pk
    assert [e.number for e in circuits.register(circuit)] == [1]
    assert circuits.register_entries(circuit)[0].aliases == (2,)
    change = CircuitChange.objects.get(circuit=circuit, action="merge")
    assert change.before["gone"]["number"] == 2 and change.before["kept"]["categories"] == ["Damen"]
    assert change.after["aliases"] == [2]
    assert add(circuit, "Neu").number == 3  # a merged-away number is never given again


def test_a_merge_sent_twice_merges_once_and_one_entry_cannot_be_merged_with_itself(circuit):
    add(circuit, "Huber")
    add(circuit, "Maier")
    for _ in range(2):
        circuits.register_merge(circuit=circuit, user=circuit.owner, number=1, other=2, client_token="m1")
    assert CircuitChange.objects.filter(action="merge").count() == 1
    before = snapshot()
    with pytest.raises(InvalidInput) as refused:
        circuits.register_merge(circuit=circuit, user=circuit.owner, number=2, other=1)
    assert refused.value.field == "other"
    with pytest.raises(InvalidInput) as unknown:
        circuits.register_merge(circuit=circuit, user=circuit.owner, number=1, other=99)
    assert unknown.value.field == "other"
    assert snapshot() == before


# -- a cup joins ---------------------------------------------------------------------------


NAMES = ("Huber Maria", "Maier Josef", "Gruber Anna", "Bauer Karl")


def test_a_cup_joins_its_names_matched_by_key_and_every_result_kept(circuit, user):
    maria = add(circuit, "huber", "MARIA")
    cup = factory.cup(user)
    t = factory.tournament(user, names=(*NAMES, "Wolf Eva", "Berger Paul", "Hofer Ida", "Moser Leo"), cup=cup)
    factory.draw(t)
    places_before = sorted(TournamentPlace.objects.values_list("entrant_id", "place", "cup_points"))
    season_before = [(line.player.pk, line.total) for line in cups.season_ranking(cup).lines]
    joined = circuits.cup_join(circuit=circuit, user=user, cup_id=cup.pk)
    assert (joined.matched, joined.new, joined.merged) == (1, 7, 0)
    assert CupPlayer.objects.get(cup=cup, name="Huber Maria").circuit_player == maria
    gruber = CupPlayer.objects.get(cup=cup, name="Gruber Anna").circuit_player
    assert (gruber.family, gruber.given, gruber.number) == ("Gruber", "Anna", 3)
    assert factory.fresh(t).cup.circuit == circuit
    assert sorted(TournamentPlace.objects.values_list("entrant_id", "place", "cup_points")) == places_before
    assert [(line.player.pk, line.total) for line in cups.season_ranking(cup).lines] == season_before
    assert Entrant.objects.filter(tournament=t, cup_player__circuit_player__isnull=True).count() == 0
    change = CircuitChange.objects.get(circuit=circuit, action="join")
    assert ["Huber Maria", "", 1, "matched"] in change.after["names"]


def test_a_played_cup_joins_without_a_result_changing(circuit, user):
    cup = factory.cup(user)
    t = factory.play_example(user, cup=cup)
    season_before = [(line.place, line.player.name, line.total) for line in cups.season_ranking(cup).lines]
    assert len(season_before) == 12
    circuits.cup_join(circuit=circuit, user=user, cup_id=cup.pk)
    assert [
        (line.place, line.player.name, line.total) for line in cups.season_ranking(cup).lines
    ] == season_before
    assert CircuitPlayer.objects.filter(circuit=circuit).count() == 12
    assert TournamentPlace.objects.filter(tournament=t).count() == 12


def test_two_names_of_one_cup_with_one_key_are_merged_in_the_cup_when_it_joins(circuit, user):
    cup = factory.cup(user)
    factory.tournament(user, names=("Huber Maria", "Maier Josef", "Gruber Anna", "Bauer Karl"), cup=cup)
    factory.tournament(
        user, names=("HUBER maria", "Maier Josef", "Gruber Anna", "Bauer Karl"), cup=cup, name="Zwei"
    )
    assert CupPlayer.objects.filter(cup=cup).count() == 5
    heard: list[tuple[int, int]] = []

    def receiver(*, player: CupPlayer, into: CupPlayer, **_: Any) -> None:
        heard.append((player.pk, into.pk))

    events.register_merged.connect(receiver, dispatch_uid="test-circuit-join")
    try:
        joined = circuits.cup_join(circuit=circuit, user=user, cup_id=cup.pk)
    finally:
        events.register_merged.disconnect(dispatch_uid="test-circuit-join")
    assert (joined.matched, joined.new, joined.merged) == (1, 4, 1)
    upper = CupPlayer.objects.get(cup=cup, name="HUBER maria")
    first = CupPlayer.objects.get(cup=cup, name="Huber Maria")
    assert upper.merged_into == first and heard == [(upper.pk, first.pk)]
    assert len(cups.register(cup)) == 4


def test_a_merge_in_the_circuit_merges_a_cups_two_names_of_that_person(circuit, user):
    cup = factory.cup(user)
    factory.tournament(user, names=("Huber Maria", "Huber M.", "Gruber Anna", "Bauer Karl"), cup=cup)
    circuits.cup_join(circuit=circuit, user=user, cup_id=cup.pk)
    maria, short = (CupPlayer.objects.get(cup=cup, name=n) for n in ("Huber Maria", "Huber M."))
    kept = circuits.register_merge(
        circuit=circuit, user=user, number=short.circuit_player.number, other=maria.circuit_player.number
    )
    short.refresh_from_db()
    assert short.circuit_player == kept and short.merged_into == maria
    assert CupChange.objects.filter(cup=cup, action="merge").count() == 1


def test_an_entrant_added_after_the_cup_joined_is_matched_into_the_register(circuit, user):
    cup = factory.cup(user)
    t = factory.tournament(user, names=NAMES, cup=cup)
    circuits.cup_join(circuit=circuit, user=user, cup_id=cup.pk)
    add(circuit, "Wolf", "Eva", "Linz")
    entrants.entrant_add(tournament=t, user=user, name="wolf  eva", place="LINZ")
    entrant = Entrant.objects.get(tournament=t, name="wolf eva")
    assert entrant.cup_player.circuit_player.number == 5


def test_a_cup_joins_one_circuit_at_most_and_only_by_its_owner(circuit, user, other_user):
    cup = factory.cup(user)
    circuits.cup_join(circuit=circuit, user=user, cup_id=cup.pk, client_token="j1")
    assert circuits.cup_join(circuit=circuit, user=user, cup_id=cup.pk, client_token="j1").cup == cup
    other = circuits.circuit_create(owner=user, name="Zweiter", season="2025/26")
    theirs = factory.cup(other_user, name="Fremd")
    other.organisers.add(other_user)
    before = snapshot()
    for who, cup_id in ((user, cup.pk), (other_user, cup.pk), (user, theirs.pk)):
        with pytest.raises(InvalidInput) as refused:
            circuits.cup_join(circuit=other, user=who, cup_id=cup_id)
        assert refused.value.field == "cup"
    assert snapshot() == before


# -- PINs (§14.2) --------------------------------------------------------------------------


def test_a_pin_is_shown_once_and_kept_only_as_a_hash(circuit):
    entry = add(circuit, "Huber", "Maria")
    pin = circuits.register_pin_new(
        circuit=circuit, user=circuit.owner, number=entry.number, client_token="p1"
    )
    entry.refresh_from_db()
    assert len(pin) == 4 and pin.isdigit() and pin not in entry.pin_hash
    assert check_password(pin, entry.pin_hash)
    assert circuits.register_pin_check(circuit=circuit, number=entry.number, pin=pin)
    before = snapshot()
    with pytest.raises(InvalidInput) as again:
        circuits.register_pin_new(circuit=circuit, user=circuit.owner, number=entry.number, client_token="p1")
    assert again.value.field == "token"
    assert snapshot() == before
    assert str(pin) not in str(list(CircuitChange.objects.values_list("after", flat=True)))


def test_three_wrong_pins_in_fifteen_minutes_send_the_number_to_the_desk(circuit):
    entry = add(circuit, "Huber", "Maria")
    pin = circuits.register_pin_new(circuit=circuit, user=circuit.owner, number=entry.number)
    wrong = "0000" if pin != "0000" else "1111"
    start = timezone.now()
    for minute in (0, 5, 10):
        at = start + datetime.timedelta(minutes=minute)
        assert not circuits.register_pin_check(circuit=circuit, number=entry.number, pin=wrong, now=at)
    assert CircuitPinTry.objects.filter(entry=entry).count() == 3
    before = snapshot()
    with pytest.raises(InvalidInput) as blocked:
        circuits.register_pin_check(
            circuit=circuit, number=entry.number, pin=pin, now=start + datetime.timedelta(minutes=14)
        )
    assert blocked.value.field == "pin"
    assert snapshot() == before  # the right PIN is not even compared, nothing is counted
    # 15 minutes after the first wrong try only two are left in the window.
    assert circuits.register_pin_check(
        circuit=circuit, number=entry.number, pin=pin, now=start + datetime.timedelta(minutes=15, seconds=1)
    )


def test_a_new_pin_forgets_the_wrong_tries_and_a_malformed_pin_is_not_counted(circuit):
    entry = add(circuit, "Huber", "Maria")
    first = circuits.register_pin_new(circuit=circuit, user=circuit.owner, number=entry.number)
    for malformed in ("123", "abcd", "12345"):
        with pytest.raises(InvalidInput):
            circuits.register_pin_check(circuit=circuit, number=entry.number, pin=malformed)
    assert not CircuitPinTry.objects.exists()
    wrong = "0000" if first != "0000" else "1111"
    assert not circuits.register_pin_check(circuit=circuit, number=entry.number, pin=wrong)
    assert CircuitPinTry.objects.count() == 1
    pin = circuits.register_pin_new(circuit=circuit, user=circuit.owner, number=entry.number)
    assert not CircuitPinTry.objects.exists()
    assert circuits.register_pin_check(circuit=circuit, number=entry.number, pin=pin)


def test_a_number_without_a_pin_registers_at_the_desk(circuit):
    entry = add(circuit, "Huber", "Maria")
    with pytest.raises(InvalidInput) as refused:
        circuits.register_pin_check(circuit=circuit, number=entry.number, pin="1234")
    assert refused.value.field == "pin"
    assert not CircuitPinTry.objects.exists()


def test_a_merged_numbers_pin_follows_to_the_number_kept(circuit):
    add(circuit, "Huber", "Maria")
    b = add(circuit, "Huber", "M.")
    pin = circuits.register_pin_new(circuit=circuit, user=circuit.owner, number=b.number)
    circuits.register_merge(circuit=circuit, user=circuit.owner, number=1, other=2)
    assert circuits.register_pin_check(circuit=circuit, number=1, pin=pin)
    assert circuits.register_pin_check(circuit=circuit, number=2, pin=pin)  # the alias finds her


def test_a_preview_never_confirmed_is_dropped_two_days_later_with_the_next_one(circuit):
    old, _ = circuits.register_import_preview(
        circuit=circuit, user=circuit.owner, data=csv_bytes(";Huber;;;")
    )
    CircuitImport.objects.filter(pk=old.pk).update(created_at=timezone.now() - datetime.timedelta(days=3))
    new, _ = circuits.register_import_preview(
        circuit=circuit, user=circuit.owner, data=csv_bytes(";Maier;;;")
    )
    assert list(CircuitImport.objects.values_list("pk", flat=True)) == [new.pk]
    with pytest.raises(InvalidInput) as gone:
        circuits.register_import_confirm(circuit=circuit, user=circuit.owner, import_id=old.pk)
    assert gone.value.field == "import"


def test_a_circuit_sent_twice_with_one_token_is_made_once_and_a_bad_name_writes_nothing(user):
    first = circuits.circuit_create(owner=user, name="Tarock Österreich", season="2025/26", client_token="c1")
    again = circuits.circuit_create(owner=user, name="Tarock Österreich", season="2025/26", client_token="c1")
    assert first == again and Circuit.objects.count() == 1
    before = snapshot()
    for fields, field in (
        ({"name": "", "season": "2025/26"}, "name"),
        ({"name": "X", "season": "S" * 41}, "season"),
    ):
        with pytest.raises(InvalidInput) as refused:
            circuits.circuit_create(owner=user, **fields)
        assert refused.value.field == field
    assert snapshot() == before
