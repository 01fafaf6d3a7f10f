"""RoundResult after every change of a table, money and Kontra cash, the standings
and their cache (TOURNAMENTS.md §4.1, §4.4, §4.6, §8)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import services as scoring
from tests.tournaments.table_support import in_english as in_english
from tests.tournaments.table_support import kontra_hand, rufer, tournament_day
from tournaments.models import RoundResult, TableRound, Tournament
from tournaments.services import desk, results, tables

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def rows(table: TableRound) -> dict[str, RoundResult]:
    return {r.entrant.name: r for r in RoundResult.objects.filter(table=table).select_related("entrant")}


def test_a_hand_at_a_running_table_writes_no_results_its_sign_off_does(user):
    """A save moves nothing of the ranking: no ``RoundResult`` row, no version of
    the tournament; the table's sums are read from its session; the sign-off
    writes every player's round result at once, counted and ranked."""
    day = tournament_day(user, tables_count=1, hands=2)
    table = day.table(1)
    tables.claim(table, "scorer")
    session = tables.open_table(table)
    before = Tournament.objects.get(pk=day.tournament.pk)
    hand = scoring.hand_record(session=session, raw=kontra_hand("Anna", "Bernd", "Anna"))
    second = scoring.hand_record(session=session, raw=rufer("Christa", "Dieter", "Bernd"))
    scoring.hand_delete(hand=second)
    assert rows(table) == {}
    after = Tournament.objects.get(pk=day.tournament.pk)
    assert (after.version, after.results_version) == (before.version, before.results_version)
    sums = results.table_sums(day.table(1))
    assert sums.sums == {name: value for name, value in hand.deltas.items()}
    assert tables.played(day.table(1)) == 1  # the deleted hand not counted
    scoring.hand_record(session=tables.open_table(day.table(1)), raw=rufer("Christa", "Dieter", "Bernd"))
    tables.sign_off(day.table(1), cookie="scorer", scorer="Anna", checker="Bernd")
    found = rows(table)
    assert {name: r.points for name, r in found.items()} == {
        name: Decimal(hand.deltas[name]) + (1 if name in ("Christa", "Dieter") else -1)
        for name in hand.deltas
    }
    assert {r.hands_played for r in found.values()} == {2} and all(r.counted for r in found.values())
    signed = Tournament.objects.get(pk=day.tournament.pk)
    assert signed.results_version > before.results_version and signed.version > before.version
    assert TableRound.objects.get(pk=table.pk).played == 2


def test_a_corrected_hand_after_reopening_a_signed_table(user):
    day = tournament_day(user, tables_count=1, hands=1)
    table = day.table(1)
    tables.claim(table, "scorer")
    session = tables.open_table(table)
    hand = scoring.hand_record(session=session, raw=kontra_hand("Anna", "Bernd", "Anna"))
    tables.sign_off(day.table(1), cookie="scorer", scorer="Anna", checker="Bernd")
    found = rows(table)
    assert {r.counted for r in found.values()} == {True}
    assert (
        found["Anna"].table_rank == 1 and found["Bernd"].table_rank == 1 and found["Christa"].table_rank == 3
    )
    desk.table_open(tournament=day.tournament, user=user, table_id=table.pk, reason="Pagat was not made")
    assert {r.counted for r in rows(table).values()} == {False}
    hand.refresh_from_db()
    hand.session = type(session).objects.get(pk=session.pk)
    christa_before = Decimal(hand.deltas["Christa"])
    corrected = scoring.hand_edit(
        hand=hand, raw=rufer("Christa", "Dieter", "Anna"), expected_version=hand.version, user=user
    )
    found = rows(table)  # the correction moves nothing until the table is signed again
    assert found["Christa"].points == christa_before < 0 and not found["Christa"].counted
    tables.sign_off(day.table(1), user=user, scorer="Anna", checker="Bernd")
    found = rows(table)
    assert found["Christa"].points == Decimal(corrected.deltas["Christa"]) > 0
    assert found["Christa"].counted and found["Christa"].table_rank == 1


def table_with_kontra(user, mode: str):
    day = tournament_day(user, tables_count=1, hands=2, settings={"kontra_cash": mode})
    table = day.table(1)
    tables.claim(table, "scorer")
    session = tables.open_table(table)
    kontra = scoring.hand_record(session=session, raw=kontra_hand("Anna", "Bernd", "Anna"))
    plain = scoring.hand_record(session=session, raw=rufer("Christa", "Dieter", "Bernd"))
    tables.sign_off(day.table(1), cookie="scorer", scorer="Anna", checker="Bernd")  # the rows are written
    return table, kontra, plain


def money_of(*hands) -> dict[str, Decimal]:
    names = hands[0].deltas
    return {name: Decimal(sum(int(h.deltas[name]) for h in hands)) * Decimal("0.10") for name in names}


def test_per_hand_kontra_is_paid_at_once_and_stays_out_of_the_money(user):
    table, kontra, plain = table_with_kontra(user, "per_hand")
    assert kontra.deltas == {"Anna": 3, "Bernd": 3, "Christa": -3, "Dieter": -3}
    assert kontra.money == {"Anna": 5, "Bernd": 5, "Christa": -5, "Dieter": -5}
    found = rows(table)
    assert {n: r.money for n, r in found.items()} == money_of(kontra, plain)
    assert {n: r.kontra_cash for n, r in found.items()} == {
        "Anna": Decimal("0.20"),
        "Bernd": Decimal("0.20"),
        "Christa": Decimal("-0.20"),
        "Dieter": Decimal("-0.20"),
    }
    result = results.table_sums(table)
    assert result.kontra is not None
    assert [list(p) for p in result.kontra.hands[0]] == [
        ["Christa", "Anna", Decimal("0.20")],
        ["Dieter", "Bernd", Decimal("0.20")],
    ]
    assert result.kontra.hands[1] == ()


def test_with_round_kontra_is_added_to_the_rounds_money(user):
    table, kontra, plain = table_with_kontra(user, "with_round")
    found = rows(table)
    expected = money_of(kontra, plain)
    assert found["Anna"].money == expected["Anna"] + Decimal("0.20")
    assert found["Dieter"].money == expected["Dieter"] - Decimal("0.20")
    assert sum(r.money or Decimal(0) for r in found.values()) == 0


def test_charity_kontra_goes_into_the_box_winners_receive_nothing(user):
    table, kontra, plain = table_with_kontra(user, "charity")
    found = rows(table)
    assert {n: r.kontra_cash for n, r in found.items()} == {
        "Anna": Decimal("0.00"),
        "Bernd": Decimal("0.00"),
        "Christa": Decimal("-0.20"),
        "Dieter": Decimal("-0.20"),
    }
    assert {n: r.money for n, r in found.items()} == money_of(kontra, plain)
    result = results.table_sums(table)
    assert result.kontra is not None and result.kontra.box_total == Decimal("0.40")


def test_the_zero_check_and_fewest_transfers(user):
    table, _kontra, _plain = table_with_kontra(user, "per_hand")
    result = results.table_sums(table)
    assert result.check == 0
    paid = result.transfers
    assert result.money is not None
    assert sum(amount for _, _, amount in paid) == sum(m for m in result.money.values() if m > 0)
    assert len(paid) <= 3


def test_standings_rank_counted_tables_and_show_a_running_round(user):
    day = tournament_day(user, tables_count=2, hands=1)
    first, second = day.table(1), day.table(2)
    tables.claim(first, "one")
    scoring.hand_record(session=tables.open_table(first), raw=kontra_hand("Anna", "Bernd", "Anna"))
    scoring.hand_record(session=tables.open_table(second), raw=rufer("Erika", "Franz", "Erika"))
    table = results.standings(Tournament.objects.get(pk=day.tournament.pk))
    assert table.provisional and table.tables_counted == 0
    assert {row.cells[0].shown for row in table.rows} == {"…"}
    assert {row.cells[1].shown for row in table.rows} == {"–"}
    tables.sign_off(day.table(1), cookie="one", scorer="Anna", checker="Bernd")
    table = results.standings(Tournament.objects.get(pk=day.tournament.pk))
    assert table.tables_counted == 1
    top = table.rows[0]
    assert top.place == 1 and top.name in ("Anna", "Bernd") and top.total == 3
    assert table.row_of(5).cells[0].shown == "…"  # Erika's table still running


def test_standings_are_read_once_per_version(user):
    day = tournament_day(user, tables_count=1, hands=1)
    scoring.hand_record(session=tables.open_table(day.table(1)), raw=rufer("Anna", "Bernd", "Anna"))
    tournament = Tournament.objects.get(pk=day.tournament.pk)
    results.standings(tournament)
    with CaptureQueriesContext(connection) as queries:
        again = results.standings(tournament)
    assert len(queries) == 0  # kept in this process: no query
    assert again.version == tournament.results_version
    results.bump(tournament)
    with CaptureQueriesContext(connection) as queries:
        results.standings(tournament)
    # No snapshot of the new version yet; results, entrants, tables, seats: built again; stored.
    assert len(queries) == 6
    results._KEPT.clear()  # another server process
    with CaptureQueriesContext(connection) as queries:
        assert results.standings(tournament).version == tournament.results_version
    assert len(queries) == 1  # the snapshot's row


def test_a_hand_at_a_running_table_moves_neither_the_boards_version_nor_the_ranking(user):
    """A hand at a running table changes nothing the board's poll compares, so
    three hundred phones polling while seventy-five tables record get a 204 and
    one kept ranking, built again only at a sign-off."""
    day = tournament_day(user, tables_count=2, hands=2)
    tables.claim(day.table(1), "one")
    session = tables.open_table(day.table(1))
    scoring.hand_record(session=session, raw=rufer("Anna", "Bernd", "Anna"))
    tournament = Tournament.objects.get(pk=day.tournament.pk)
    results.standings(tournament)
    scoring.hand_record(session=tables.open_table(day.table(2)), raw=rufer("Erika", "Franz", "Erika"))
    after_hand = Tournament.objects.get(pk=day.tournament.pk)
    assert after_hand.version == tournament.version
    assert after_hand.results_version == tournament.results_version
    with CaptureQueriesContext(connection) as queries:
        results.standings(after_hand)
    assert len(queries) == 0  # the kept ranking: nothing it counts changed
    scoring.hand_record(session=session, raw=rufer("Christa", "Dieter", "Christa"))
    tables.sign_off(day.table(1), cookie="one", scorer="Anna", checker="Bernd")
    signed = Tournament.objects.get(pk=day.tournament.pk)
    assert signed.results_version > tournament.results_version
    assert results.standings(signed).tables_counted == 1
    # Opened again for a correction, the table stops counting: a new results version.
    desk.table_open(tournament=signed, user=user, table_id=day.table(1).pk, reason="Pagat")
    opened = Tournament.objects.get(pk=day.tournament.pk)
    assert opened.results_version > signed.results_version
    assert results.standings(opened).tables_counted == 0


def test_byes_count_zero_fillers_are_not_ranked(user):
    day = tournament_day(user, tables_count=1, hands=1)
    filler = day.entrants[3]
    filler.kind = "filler"
    filler.save()
    day.round.draw = {"byes": [1]}
    day.round.save()
    tables.claim(day.table(1), "one")
    scoring.hand_record(session=tables.open_table(day.table(1)), raw=rufer("Anna", "Bernd", "Anna"))
    tables.sign_off(day.table(1), cookie="one", scorer="Bernd", checker="Christa")
    bye = RoundResult.objects.get(entrant=day.entrants[0])
    assert bye.bye and bye.counted and bye.points == 0 and bye.table is None
    table = results.build_standings(Tournament.objects.get(pk=day.tournament.pk))
    assert [row.place for row in table.rows if row.filler] == [None]
    assert len([row for row in table.rows if row.place is not None]) == 3


def test_write_places_from_the_standings(user):
    day = tournament_day(user, tables_count=1, hands=1)
    tables.claim(day.table(1), "one")
    scoring.hand_record(session=tables.open_table(day.table(1)), raw=rufer("Anna", "Bernd", "Anna"))
    tables.sign_off(day.table(1), cookie="one", scorer="Anna", checker="Bernd")
    places = results.write_places(Tournament.objects.get(pk=day.tournament.pk), final=False)
    assert sorted(p.place for p in places) == [1, 2, 3, 4]
    assert sum(p.total for p in places) == 0


def signed_table(user, settings=None):
    day = tournament_day(user, tables_count=1, hands=1, settings=settings or {})
    tables.claim(day.table(1), "one")
    scoring.hand_record(session=tables.open_table(day.table(1)), raw=kontra_hand("Anna", "Bernd", "Anna"))
    tables.sign_off(day.table(1), cookie="one", scorer="Anna", checker="Bernd")
    return day


def test_cup_points_follow_the_place_and_the_tournaments_factor(user):
    from tournaments.models import Cup

    day = signed_table(user)
    cup = Cup.objects.create(owner=user, name="Cup", season="2025/26", scheme="fixed")
    Tournament.objects.filter(pk=day.tournament.pk).update(cup=cup, cup_factor=2)
    table = results.build_standings(Tournament.objects.get(pk=day.tournament.pk))
    assert [(row.place, row.cup_points) for row in table.rows] == [(1, 446), (2, 396), (3, 360), (4, 336)]


def test_rank_points_are_added_to_the_total(user):
    day = signed_table(user, {"rank_points": [60, 40, 20, 0]})
    table = results.build_standings(Tournament.objects.get(pk=day.tournament.pk))
    totals = {row.name: row.total for row in table.rows}
    assert totals == {"Anna": 63, "Bernd": 63, "Christa": 17, "Dieter": 17}  # ±3, ranks 1, 1, 3, 3


def test_a_withdrawn_entrant_below_the_finishers_or_ranked_by_his_total(user):
    day = signed_table(user, {"withdrawn": "below_finishers"})
    anna = day.entrants[0]
    anna.status, anna.left_after_round = "withdrawn", 1
    anna.save()
    table = results.build_standings(Tournament.objects.get(pk=day.tournament.pk))
    assert table.rows[-1].name == "Anna" and table.rows[-1].withdrawn_after == 1
    Tournament.objects.filter(pk=day.tournament.pk).update(settings={"rounds": 3, "withdrawn": "ranked"})
    table = results.build_standings(Tournament.objects.get(pk=day.tournament.pk))
    anna_row = table.row_of(1)
    assert anna_row is not None and anna_row.place in (1, 2)


def test_at_a_five_table_the_dealer_sits_out_and_plays_no_hand(user):
    from scoring.models import Player
    from tournaments.models import Entrant, TableSeat

    day = tournament_day(user, tables_count=1, hands=5)
    fifth = Entrant.objects.create(
        tournament=day.tournament,
        number=5,
        name="Erika",
        player=Player.objects.create(owner=user, name="Erika"),
    )
    TableRound.objects.filter(pk=day.tables[0].pk).update(size=5)
    TableSeat.objects.create(table=day.tables[0], round=day.round, entrant=fifth, position=5)
    session = tables.open_table(day.table(1))
    assert tables.players(day.table(1)) == ["Anna", "Bernd", "Christa", "Dieter", "Erika"]
    hand = scoring.hand_record(session=session, raw=rufer("Bernd", "Christa", "Anna"))
    assert hand.sitting_out == "Anna"
    desk.table_end(tournament=day.tournament, user=user, table_id=day.tables[0].pk, reason="time")
    found = rows(day.table(1))
    assert found["Anna"].hands_played == 0 and found["Bernd"].hands_played == 1
    assert found["Anna"].points == 0
    assert sum(r.points for r in found.values()) == 0
