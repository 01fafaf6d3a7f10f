"""The draw and its release (TOURNAMENTS.md §1.3, §1.4, §2): upfront or per round,
fields that cannot be seated, byes, the last round by standings, releasing in
order, a redraw, and the organiser's changes before a table plays (§2.5)."""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from scoring.engine import InvalidInput
from tests.tournaments import factory
from tournaments.models import Round, TableRound, TableSeat, TournamentChange
from tournaments.services import desk, entrants, plan

pytestmark = pytest.mark.django_db

NAMES = [f"Spieler {n}" for n in range(1, 41)]


def snapshot(t) -> tuple:
    return (
        list(Round.objects.filter(tournament=t).values_list("number", "status", "draw")),
        list(
            TableRound.objects.filter(round__tournament=t).values_list("pk", "size", "status", "link_token")
        ),
        list(TableSeat.objects.filter(round__tournament=t).values_list("table_id", "entrant_id", "position")),
        TournamentChange.objects.filter(tournament=t).count(),
    )


def test_upfront_draws_every_round_at_once_and_closes_registration(user):
    t = factory.draw(factory.tournament(user))
    assert t.status == "running"
    assert list(t.rounds.values_list("number", "status")) == [(1, "drawn"), (2, "drawn"), (3, "drawn")]
    assert set(TableRound.objects.filter(round__tournament=t).values_list("status", flat=True)) == {"waiting"}


def test_per_round_draws_each_round_at_its_release(user):
    t = factory.draw(factory.tournament(user, settings={"draw_timing": "per_round"}))
    assert list(t.rounds.values_list("status", flat=True)) == ["drawn", "planned", "planned"]
    factory.release(t)
    factory.desk_round(t, 1, factory.EXAMPLE_SUMS[0])
    factory.release(t)
    assert factory.table_names(t, 2) == list(factory.EXAMPLE_SEATING[1])  # the same plan, drawn later


@pytest.mark.parametrize(("count", "fillers"), [(6, 2), (7, 1), (11, 1)])
def test_a_field_of_6_7_or_11_is_refused_offering_fillers_or_byes(user, count, fillers):
    t = factory.tournament(user, names=NAMES[:count])
    before = snapshot(t)
    with pytest.raises(InvalidInput) as refused:
        factory.draw(t)
    words = str(refused.value)
    assert f"{count} players" in words and f"{fillers} filler" in words and "byes" in words
    assert snapshot(t) == before and factory.fresh(t).status == "registration"


@pytest.mark.parametrize(("count", "sizes", "byes"), [(6, [5], 1), (7, [5], 2), (11, [5, 5], 1)])
def test_with_byes_the_field_is_seated_and_the_byes_go_to_the_fewest_so_far(user, count, sizes, byes):
    t = factory.draw(factory.tournament(user, names=NAMES[:count], settings={"short_field": "bye"}))
    given: list[int] = []
    for round_ in t.rounds.order_by("number"):
        assert [table.size for table in round_.tables.order_by("number")] == sizes
        assert len(round_.draw["byes"]) == byes
        given += round_.draw["byes"]
    # Byes go to those with the fewest so far: nobody sits out twice before everyone has once.
    counts = [given.count(n) for n in range(1, count + 1)]
    assert max(counts) - min(counts) <= 1


def test_the_five_tables_are_the_highest_numbered(user):
    t = factory.draw(factory.tournament(user, names=NAMES[:23]))
    for round_ in t.rounds.all():
        assert [table.size for table in round_.tables.order_by("number")] == [4, 4, 5, 5, 5]


def test_each_table_gets_a_long_link_and_a_short_code_of_unambiguous_characters(user):
    t = factory.draw(factory.tournament(user, names=NAMES[:40]))
    tables = TableRound.objects.filter(round__tournament=t)
    codes = [table.short_code for table in tables]
    assert len(set(codes)) == len(codes) == 30
    assert all(len(code) == 6 and set(code) <= set(plan.SHORT_CODE_ALPHABET) for code in codes)
    assert not set("0O1IL") & set("".join(codes))
    assert all(len(table.link_token) >= 32 for table in tables)


def test_a_round_is_released_only_when_the_one_before_is_complete_naming_the_open_tables(user):
    t = factory.draw(factory.tournament(user))
    factory.release(t)
    first = factory.tables(t, 1)
    assert {table.status for table in first} == {"open"}
    table_1 = first[0]
    sums = {
        s.entrant.number: factory.EXAMPLE_SUMS[0][s.entrant.name]
        for s in table_1.seats.select_related("entrant")
    }
    desk.desk_enter(tournament=factory.fresh(t), user=user, table_id=table_1.pk, sums=sums)
    before = snapshot(t)
    with pytest.raises(InvalidInput) as refused:
        factory.release(t)
    assert "2, 3" in str(refused.value) and "round 1" in str(refused.value)
    assert snapshot(t) == before


def test_a_release_sent_twice_releases_one_round(user):
    t = factory.draw(factory.tournament(user))
    plan.round_release(tournament=t, user=user, client_token="tok-1")
    plan.round_release(tournament=factory.fresh(t), user=user, client_token="tok-1")
    assert list(t.rounds.values_list("status", flat=True)) == ["released", "drawn", "drawn"]
    assert TournamentChange.objects.filter(tournament=t, action="release").count() == 1


def test_a_redraw_takes_a_new_seed_and_keeps_the_old_in_the_audit(user):
    t = factory.draw(factory.tournament(user))
    old = factory.table_names(t, 1)
    plan.round_redraw(tournament=factory.fresh(t), user=user, number=1, seed="111111")
    t = factory.fresh(t)
    assert t.seed == "111111" and factory.table_names(t, 1) != old
    change = TournamentChange.objects.get(tournament=t, action="redraw")
    assert change.before["seed"] == "482915" and change.after == {"seed": "111111"}


def test_a_redraw_is_refused_once_a_table_of_the_round_has_a_hand(user):
    t = factory.draw(factory.tournament(user))
    factory.release(t)
    factory.play_hand(factory.tables(t, 1)[1])
    before = snapshot(t)
    with pytest.raises(InvalidInput) as refused:
        plan.round_redraw(tournament=factory.fresh(t), user=user, number=1)
    assert "table 2" in str(refused.value)
    assert snapshot(t) == before


def test_two_entrants_swap_seats_and_the_change_is_kept(user):
    t = factory.draw(factory.tournament(user))
    plan.seat_swap(tournament=t, user=user, round_number=1, first=1, second=2)  # Anna and Bernd, table 1
    assert factory.table_names(t, 1)[0] == ("Erika", "Hans", "Anna", "Bernd")
    assert t.rounds.get(number=1).draw["changes"] == [{"swap": [1, 2], "tables": [1, 1]}]
    assert TournamentChange.objects.filter(tournament=t, action="swap", round_number=1).count() == 1


def test_a_swap_between_tables_moves_both_at_once(user):
    t = factory.draw(factory.tournament(user))
    anna, ida = 1, 9  # table 1 and table 2 of round 1
    plan.seat_swap(tournament=t, user=user, round_number=1, first=anna, second=ida)
    names = factory.table_names(t, 1)
    assert "Ida" in names[0] and "Anna" in names[1] and "Anna" not in names[0]


def seat(t, table: int, position: int) -> int:
    found = TableSeat.objects.get(
        round__tournament=t, round__number=1, table__number=table, position=position
    )
    return found.entrant.number


def test_a_move_leaving_a_table_at_3_is_refused_naming_the_table(user):
    t = factory.draw(factory.tournament(user, names=NAMES[:9]))
    before = snapshot(t)
    with pytest.raises(InvalidInput) as refused:
        plan.seat_move(tournament=t, user=user, round_number=1, number=seat(t, 1, 1), table_number=2)
    assert "table 1 would have 3 players" in str(refused.value)
    assert snapshot(t) == before


def test_a_move_making_a_table_of_6_is_refused_naming_the_table(user):
    t = factory.draw(factory.tournament(user, names=NAMES[:10]))
    before = snapshot(t)
    with pytest.raises(InvalidInput) as refused:
        plan.seat_move(tournament=t, user=user, round_number=1, number=seat(t, 1, 1), table_number=2)
    assert "table 2 would have 6 players" in str(refused.value)
    assert snapshot(t) == before


def test_a_move_from_a_five_table_to_a_four_table_changes_their_sizes_and_targets(user):
    t = factory.draw(factory.tournament(user, names=NAMES[:9]))
    moved = seat(t, 2, 1)
    plan.seat_move(tournament=t, user=user, round_number=1, number=moved, table_number=1)
    one, two = factory.tables(t, 1)
    assert (one.size, one.hands_target, two.size, two.hands_target) == (5, 20, 4, 16)
    assert one.seats.get(position=5).entrant.number == moved
    assert [s.position for s in two.seats.order_by("position")] == [1, 2, 3, 4]


def test_a_change_to_a_table_with_a_hand_is_refused(user):
    t = factory.draw(factory.tournament(user))
    factory.release(t)
    factory.play_hand(factory.tables(t, 1)[0])
    before = snapshot(t)
    with pytest.raises(InvalidInput) as refused:
        plan.seat_swap(tournament=factory.fresh(t), user=user, round_number=1, first=1, second=9)
    assert "table 1" in str(refused.value) and "recorded hands" in str(refused.value)
    assert snapshot(t) == before


def test_a_late_entrant_makes_a_four_table_a_five_table(user):
    t = factory.tournament(user, settings={"late_entry": "any_round"})
    factory.draw(t)
    factory.release(t)
    late = entrants.entrant_add(tournament=factory.fresh(t), user=user, name="Spät")
    plan.seat_add(tournament=factory.fresh(t), user=user, round_number=2, number=late.number, table_number=3)
    table = factory.tables(t, 2)[2]
    assert table.size == 5 and table.hands_target == 20 and table.seats.count() == 5


def test_the_last_round_by_standings_seats_the_top_four_at_table_1(user):
    t = factory.draw(factory.tournament(user, settings={"last_round": "by_standings"}))
    assert list(t.rounds.values_list("status", flat=True)) == ["drawn", "drawn", "planned"]
    for number in (1, 2):
        factory.release(t)
        factory.desk_round(t, number, factory.EXAMPLE_SUMS[number - 1])
    factory.release(t)
    # After two rounds: Franz 29, Bernd 74, Christa 54, … the totals decide table 1.
    totals = {n: factory.EXAMPLE_SUMS[0][n] + factory.EXAMPLE_SUMS[1][n] for n in factory.EXAMPLE_NAMES}
    best = sorted(totals, key=lambda n: -totals[n])[:4]
    assert set(factory.table_names(t, 3)[0]) == set(best)
    assert t.rounds.get(number=3).draw["method"] == "by_standings"


@pytest.mark.django_db(transaction=True)
def test_two_organisers_releasing_at_once_release_one_round(user):
    t = factory.draw(factory.tournament(user))
    outcomes: list[str] = []
    start = threading.Barrier(2)

    def click(token: str) -> None:
        try:
            start.wait()
            plan.round_release(tournament=factory.fresh(t), user=user, client_token=token)
            outcomes.append("released")
        except InvalidInput:
            outcomes.append("refused")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=click, args=(f"click-{n}",)) for n in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["refused", "released"]
    assert list(t.rounds.values_list("status", flat=True)) == ["released", "drawn", "drawn"]
    assert TournamentChange.objects.filter(tournament=t, action="release").count() == 1
