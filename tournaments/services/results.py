"""What the ranking reads: each entrant's result per round (``RoundResult``),
rewritten when what the ranking counts of a table changes (it is signed, ended,
typed in at the desk, confirmed or opened again for a correction), and the
standings ranked from those rows alone (TOURNAMENTS.md §4.1–4.4, §8).

A hand saved at a running table moves nothing here: the ranking counts a table
only once it is locked, so a save costs what an evening's save costs, and the
running table's sums and hands played are read from its session where a page
shows them (``table_sums``, ``live_played``). The standings are ranked from
``RoundResult`` rows once per ``Tournament.results_version`` and stored as the
tournament's ``RankingSnapshot``, which every server process reads once and keeps,
so three hundred phones polling the board cost one row read each until something
ranked changes.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple

from django.db import transaction
from django.db.models import Count, F, Q

from scoring.engine.types import HandType, points_from_json
from scoring.models import Hand, Seat
from tournaments.core import circuit as circuit_rules
from tournaments.core import cup as cup_rules
from tournaments.core import money as money_rules
from tournaments.core import ranking
from tournaments.models import (
    Entrant,
    RankingSnapshot,
    Round,
    RoundResult,
    TableRound,
    TableSeat,
    Tournament,
    TournamentPlace,
)
from tournaments.services import events, hall

# The settings this module reads, with their defaults (TOURNAMENTS.md §11).
DEFAULTS: Mapping[str, Any] = {
    "rounds": 3,
    "kontra_cash": "per_hand",
    "withdrawn": "ranked",
    "tie_break": "better_rounds",
    "rank_points": None,
    "signoff": "scorer_and_check",
    "table_seating": "slip",
}


def decimal(value: Fraction) -> Decimal:
    """Points as stored: whole numbers, or halves (French Tarot)."""
    return Decimal(value.numerator) / Decimal(value.denominator)


def setting(tournament: Tournament, name: str) -> Any:
    """A setting of the tournament, or its default."""
    value = (tournament.settings or {}).get(name)
    return DEFAULTS.get(name) if value is None else value


# --------------------------------------------------------------------------
# One table's sums, money and Kontra


@dataclass(frozen=True)
class TableSums:
    """What a table-round's players scored, in seat order: each name's round
    result (the Schrift), played hands, money and Kontra cash."""

    names: tuple[str, ...]
    sums: dict[str, Fraction]
    hands_played: dict[str, int]
    played: int  # played hands at the table (redeals not counted)
    money: dict[str, Decimal] | None
    kontra: money_rules.KontraCash | None
    per_hand_kontra: tuple[dict[str, Fraction], ...] = ()

    @property
    def check(self) -> Fraction:
        """Every column summed: 0 on every sheet the engine wrote."""
        return sum(self.sums.values(), Fraction(0))

    @property
    def transfers(self) -> list[money_rules.Payment]:
        """Who pays whom for the round (fewest transfers), Kontra added under ``with_round``."""
        return money_rules.transfers(self.money) if self.money else []


def seated(table: TableRound) -> list[TableSeat]:
    """The table's seats in the draw's order, with their entrants."""
    return list(table.seats.select_related("entrant").order_by("position"))


def table_sums(table: TableRound, seats: Sequence[TableSeat] | None = None) -> TableSums:
    """The table's sums as they stand: a paper sheet typed at the desk, else the
    hands of its session (none yet: 0 each)."""
    seats = list(seats) if seats is not None else seated(table)
    tournament = table.round.tournament
    rate, mode = tournament.money_rate, setting(tournament, "kontra_cash")
    names = _names(table, seats)
    sums = dict.fromkeys(names, Fraction(0))
    counts = dict.fromkeys(names, 0)
    kontra: list[dict[str, Fraction]] = []
    played = 0
    if table.desk_sums is not None:
        by_number = {str(seat.entrant.number): seat.entrant.name for seat in seats}
        for number, value in table.desk_sums.items():
            if number in by_number:
                sums[by_number[number]] = Fraction(str(value))
    elif table.session_id is not None:
        for hand in _live_hands(table.session_id):
            deltas = hand.delta_points()
            for name in names:
                sums[name] += deltas.get(name, Fraction(0))
            if hand.type == "redeal":
                continue
            played += 1
            for name in names:
                if name != hand.sitting_out:
                    counts[name] += 1
            if hand.money is not None:
                schrift = {name: deltas.get(name, Fraction(0)) for name in names}
                paid = {name: points_from_json(v) for name, v in hand.money.items()}
                kontra.append(money_rules.kontra_points(schrift, paid))
            else:
                kontra.append(dict.fromkeys(names, Fraction(0)))
    cash = money_rules.kontra_cash(kontra, rate, mode) if kontra else None
    money = money_rules.table_money(sums, rate) if sum(sums.values(), Fraction(0)) == 0 else None
    if money is not None and cash is not None and cash.with_round:
        money = {name: amount + cash.with_round.get(name, Decimal(0)) for name, amount in money.items()}
    return TableSums(tuple(names), sums, counts, played, money, cash, tuple(kontra))


def _names(table: TableRound, seats: Sequence[TableSeat]) -> list[str]:
    """The players' names in playing order: the session's seats once it is open
    (the scorer may have changed the order), else the draw's."""
    if table.session_id is not None:
        names = list(
            Seat.objects.filter(session_id=table.session_id)
            .order_by("position")
            .values_list("name", flat=True)
        )
        if names:
            return names
    return [seat.entrant.name for seat in seats]


def _live_hands(session_id: int) -> list[Hand]:
    return list(
        Hand.objects.filter(session_id=session_id, deleted_at__isnull=True)
        .order_by("number")
        .only("id", "type", "sitting_out", "deltas", "money", "number", "session_id")
    )


# --------------------------------------------------------------------------
# Writing RoundResult


def table_changed(table: TableRound) -> None:
    """Write the table's ``RoundResult`` rows again (and the round's byes), its
    hands played and status, and give the tournament a new version: in the
    caller's transaction, which holds the table's session or the table. Called
    when what the ranking counts of the table changes (signed, ended, typed in,
    confirmed, opened again), never for a hand at a running table."""
    with transaction.atomic():
        table = TableRound.objects.select_related("round__tournament", "session").get(pk=table.pk)
        counted_before = RoundResult.objects.filter(table=table, counted=True).exists()
        seats = seated(table)
        result = table_sums(table, seats)
        _follow_status(table, result)
        ranks = ranking.table_ranks(result.sums) if table.is_locked else {}
        kontra = result.kontra.amounts if result.kontra is not None else {}
        by_name = {seat.entrant.name: seat.entrant for seat in seats}
        RoundResult.objects.filter(table=table).exclude(entrant__in=list(by_name.values())).delete()
        for name, entrant in by_name.items():
            RoundResult.objects.update_or_create(
                round=table.round,
                entrant=entrant,
                defaults={
                    "tournament": table.round.tournament,
                    "table": table,
                    "points": decimal(result.sums.get(name, Fraction(0))),
                    "counted": table.is_locked,
                    "money": None if result.money is None else result.money.get(name),
                    "kontra_cash": kontra.get(name) if result.kontra is not None else None,
                    "table_rank": ranks.get(name),
                    "hands_played": result.hands_played.get(name, 0),
                    "bye": False,
                },
            )
        byes_written(table.round)
        # A scorer's sign-off under ``signoff: organiser`` moves the board, not the ranking.
        bump(table.round.tournament, counted=table.is_locked or counted_before)
        events.send_table_changed(table)


def byes_written(round_: Round) -> None:
    """A bye scores 0 for the round (§1.4): one counted row for each start number
    the draw gave a bye (``Round.draw["byes"]``)."""
    numbers = [int(n) for n in (round_.draw or {}).get("byes", [])]
    RoundResult.objects.filter(round=round_, bye=True).exclude(entrant__number__in=numbers).delete()
    for entrant in Entrant.objects.filter(tournament_id=round_.tournament_id, number__in=numbers):
        RoundResult.objects.update_or_create(
            round=round_,
            entrant=entrant,
            defaults={
                "tournament_id": round_.tournament_id,
                "table": None,
                "points": Decimal(0),
                "counted": True,
            }
            | {"money": None, "kontra_cash": None, "table_rank": None, "hands_played": 0, "bye": True},
        )


def running_status(table: TableRound, played: int) -> str:
    """An unlocked table's state as its hands say: "open" before its first
    hand, "playing", then "complete" at its target; signed, ended, desk and
    waiting tables keep theirs."""
    if table.status not in (TableRound.Status.OPEN, TableRound.Status.PLAYING, TableRound.Status.COMPLETE):
        return table.status
    if played >= table.hands_target:
        return TableRound.Status.COMPLETE
    if played or (table.session_id is not None and _any_hand(table.session_id)):
        return TableRound.Status.PLAYING
    return TableRound.Status.OPEN


def _follow_status(table: TableRound, result: TableSums) -> None:
    """The table's played hands as counted here and its state (``running_status``),
    written when it locks or opens again."""
    if result.played != table.played:
        table.played = result.played
        TableRound.objects.filter(pk=table.pk).update(played=result.played)
    status = running_status(table, result.played)
    if status != table.status:
        table.status = status
        TableRound.objects.filter(pk=table.pk).update(status=status)


def _any_hand(session_id: int) -> bool:
    return Hand.objects.filter(session_id=session_id, deleted_at__isnull=True).exists()


def bump(tournament: Tournament, *, counted: bool = True) -> None:
    """What the board shows of the tournament changed: a new version; ``counted``:
    what the ranking counts may have changed too (a new results version)."""
    changes: dict[str, Any] = {"version": F("version") + 1}
    if counted:
        changes["results_version"] = F("results_version") + 1
    Tournament.objects.filter(pk=tournament.pk).update(**changes)
    tournament.refresh_from_db(fields=["version", "results_version"])
    if counted:
        # The new standings built once the change is committed, by the request that
        # made it, and the hall's rows drawn from them: the hall's and the phones'
        # next polls, in every server process, read them (one row each). Only an
        # accelerator: should it fail, the change stands and the polls draw them.
        transaction.on_commit(lambda: hall.after_change(tournament), robust=True)


def live_played(found: Iterable[TableRound]) -> dict[int, int]:
    """Hands played toward the target per table (by its pk), as every page shows
    them (redeals and deleted hands not counted): a locked table's as
    ``table_changed`` wrote it, a running table's counted from its session's
    hands, all in one query."""
    found = list(found)
    played = {table.pk: table.played for table in found}
    running = {table.session_id: table.pk for table in found if not table.is_locked and table.session_id}
    if running:
        counts = (
            Hand.objects.filter(session_id__in=list(running), deleted_at__isnull=True)
            .values("session_id")
            .annotate(n=Count("id", filter=~Q(type=HandType.REDEAL.value)))
            .values_list("session_id", "n")
        )
        played |= dict.fromkeys(running.values(), 0)
        played |= {running[session_id]: n for session_id, n in counts}
    return played


# --------------------------------------------------------------------------
# The standings


@dataclass(frozen=True)
class Cell:
    """One round of one entrant as the ranking shows it: the points, or why none
    ("…": the round is running, "–": he did not play it, a bye: 0)."""

    points: Fraction | None
    shown: str  # "…", "–", or "" (the points are shown)
    bye: bool = False


@dataclass(frozen=True)
class Row:
    place: int | None  # None: not ranked (a filler)
    number: int
    name: str
    club: str
    cells: tuple[Cell, ...]
    total: Fraction
    tie_note: str
    decided_by: str | None
    cup_points: Fraction | None
    withdrawn_after: int | None
    filler: bool = False
    # The place's change since the previous round (§14.5): ``None`` before there is
    # one (round 1, or no round counted yet); "neu" for one who played no round before.
    change: circuit_rules.Change | None = None


@dataclass(frozen=True)
class Standings:
    """The ranking as it stands: ``rows`` by place (fillers after), whether it is
    provisional, and the tables counted so far."""

    version: int
    rounds: int
    rows: tuple[Row, ...]
    provisional: bool
    final: bool
    tables_counted: int
    tables_total: int

    def row_of(self, number: int) -> Row | None:
        return next((row for row in self.rows if row.number == number), None)


# The standings as this server process last read them, per results key (a few
# tournaments at a time): after a change a process reads the snapshot's row once,
# and its polls read nothing more until what the ranking counts changes again.
_KEPT: OrderedDict[str, Standings] = OrderedDict()
_KEPT_MOST = 32
# One build or read of the standings at a time in this server process: right after
# a change every phone's next poll misses them at once; the first reads (or builds)
# them, the others wait for it and take what it kept.
_BUILDING = threading.Lock()


def standings(tournament: Tournament) -> Standings:
    """The tournament's standings for its ``results_version``: kept in this process,
    else read from its snapshot row, else built and stored there for every process.
    The request that changes what the ranking counts builds them once committed
    (``bump``), so the hall's and the phones' next polls read one row. Not for a
    transaction that changes what the ranking counts and may still be rolled back
    (its version would come again with other rows): ``build_standings`` there."""
    key = tournament.results_key
    kept = _KEPT.get(key)
    if kept is None:
        with _BUILDING:
            kept = _KEPT.get(key) or _stored(tournament) or _store(tournament)
            _KEPT[key] = kept
            while len(_KEPT) > _KEPT_MOST:
                _KEPT.popitem(last=False)
    return kept


def _stored(tournament: Tournament) -> Standings | None:
    found = (
        RankingSnapshot.objects.filter(tournament=tournament, results_version=tournament.results_version)
        .values_list("standings", flat=True)
        .first()
    )
    return None if found is None else standings_from_json(found)


def _store(tournament: Tournament) -> Standings:
    """The standings built anew and written as the tournament's snapshot, unless a
    newer version is there already (two changes committed at once)."""
    built = build_standings(tournament)
    data = standings_to_json(built)
    if not RankingSnapshot.objects.filter(tournament=tournament, results_version__lt=built.version).update(
        results_version=built.version, standings=data
    ):
        RankingSnapshot.objects.get_or_create(
            tournament=tournament, defaults={"results_version": built.version, "standings": data}
        )
    return built


def standings_to_json(table: Standings) -> dict[str, Any]:
    """The standings as the snapshot's row stores them (numbers as [numerator, denominator])."""
    return {
        "version": table.version,
        "rounds": table.rounds,
        "provisional": table.provisional,
        "final": table.final,
        "tables_counted": table.tables_counted,
        "tables_total": table.tables_total,
        "rows": [
            [
                row.place,
                row.number,
                row.name,
                row.club,
                [[_ratio(cell.points), cell.shown, cell.bye] for cell in row.cells],
                _ratio(row.total),
                row.tie_note,
                row.decided_by,
                _ratio(row.cup_points),
                row.withdrawn_after,
                row.filler,
                None if row.change is None else row.change.to_json(),
            ]
            for row in table.rows
        ],
    }


def _change(value: int | str | None) -> circuit_rules.Change | None:
    if value is None:
        return None
    return circuit_rules.Change(new=True) if value == "new" else circuit_rules.Change(by=int(value))


def standings_from_json(data: Mapping[str, Any]) -> Standings:
    rows = tuple(
        Row(
            place=place,
            number=number,
            name=name,
            club=club,
            cells=tuple(Cell(_fraction(points), shown, bye) for points, shown, bye in cells),
            total=_fraction(total) or Fraction(0),
            tie_note=tie_note,
            decided_by=decided_by,
            cup_points=_fraction(cup_points),
            withdrawn_after=withdrawn_after,
            filler=filler,
            change=_change(change[0] if change else None),
        )
        for place, number, name, club, cells, total, tie_note, decided_by, cup_points, withdrawn_after, filler, *change in data[
            "rows"
        ]
    )
    return Standings(
        version=data["version"],
        rounds=data["rounds"],
        rows=rows,
        provisional=data["provisional"],
        final=data["final"],
        tables_counted=data["tables_counted"],
        tables_total=data["tables_total"],
    )


def _ratio(value: Fraction | None) -> list[int] | None:
    return None if value is None else [value.numerator, value.denominator]


def _fraction(value: list[int] | None) -> Fraction | None:
    return None if value is None else Fraction(*value)


def build_standings(tournament: Tournament) -> Standings:
    """The standings from ``RoundResult`` rows (one query), the entrants, the
    tables counted and released (one row), and who sits in a released round
    (one query each)."""
    # Read unordered: the models' orderings would join the rounds and the tournament
    # to sort rows that are looked up by key here.
    counted_rows = RoundResult.objects.filter(tournament=tournament)
    results = [Result(*values) for values in counted_rows.order_by().values_list(*RESULT_COLUMNS)]
    entrants = [
        Ranked(*values)
        for values in Entrant.objects.filter(tournament=tournament)
        .order_by("number")
        .values_list(*Ranked._fields)
    ]
    tables = TableRound.objects.filter(round__tournament=tournament).aggregate(
        all=Count("pk"),
        counted=Count("pk", filter=Q(status__in=TableRound.LOCKED)),
        live=Count("pk", filter=Q(round__status__in=LIVE_ROUNDS)),
    )
    seated_now = set(
        TableSeat.objects.filter(round__tournament=tournament, round__status__in=LIVE_ROUNDS)
        .order_by()
        .values_list("entrant_id", "round__number")
    )
    rounds = int(setting(tournament, "rounds"))
    found = {(r.entrant_id, r.round): r for r in results}
    exact: dict[Decimal, Fraction] = {}
    per_entrant = {e.pk: _cells(e, rounds, found, seated_now, exact) for e in entrants}
    ranked = [e for e in entrants if e.kind != Entrant.Kind.FILLER]
    below = setting(tournament, "withdrawn") == "below_finishers"
    points_per_rank = setting(tournament, "rank_points") or []
    entries = [
        ranking.Entry(
            number=e.number,
            name=e.name,
            rounds=tuple(cell.points for cell in per_entrant[e.pk][0]),
            table_ranks=per_entrant[e.pk][1],
            below=below and e.status == Entrant.Status.WITHDRAWN,
            extra=_rank_points(per_entrant[e.pk][1], points_per_rank),
        )
        for e in ranked
    ]
    places = ranking.rank(entries, setting(tournament, "tie_break"), tournament.seed) if entries else []
    changes = _changes(
        tournament, entries, places, results, points_per_rank, {e.pk: e.number for e in entrants}
    )
    by_number = {e.number: e for e in entrants}
    cup = tournament.cup if tournament.cup_id is not None else None
    rows = [
        _row(place.place, by_number[place.entry.number], per_entrant, place, cup, tournament, len(entries))
        for place in places
    ]
    rows = [replace(row, change=changes.get(row.number)) if changes else row for row in rows]
    rows += [
        _row(None, e, per_entrant, None, None, tournament, len(entries))
        for e in entrants
        if e.kind == "filler"
    ]
    counted, live = tables["counted"], tables["live"]
    running = tournament.status == Tournament.Status.RUNNING and counted < tables["all"]
    return Standings(
        version=tournament.results_version,
        rounds=rounds,
        rows=tuple(rows),
        provisional=running or tournament.status == Tournament.Status.PROVISIONAL,
        final=tournament.status == Tournament.Status.FINAL,
        tables_counted=counted,
        tables_total=max(live, counted),
    )


def _changes(
    tournament: Tournament,
    entries: Sequence[ranking.Entry],
    places: Sequence[ranking.Place],
    found: Sequence[Result],
    points_per_rank: Sequence[int],
    number_of: Mapping[int, int],
) -> dict[int, circuit_rules.Change]:
    """Each place's change since the previous round (§14.5), by start number: the
    ranking as it stands against the ranking of the same stored round results
    without the latest round that has a counted table (ranked by the same rules,
    ``ranking.rank``). Nothing before a second round counts; "neu" for an entrant
    who had no counted round (or bye) before it, such as a late entry."""
    latest = max((r.round for r in found if r.counted and not r.bye), default=0)
    if latest < 2:
        return {}
    numbers = {number_of[r.entrant_id] for r in found if r.counted and r.round < latest}
    before_entries = [
        ranking.Entry(
            number=e.number,
            name=e.name,
            rounds=tuple(v if k < latest - 1 else None for k, v in enumerate(e.rounds)),
            table_ranks=tuple(v if k < latest - 1 else None for k, v in enumerate(e.table_ranks)),
            below=e.below,
            extra=_rank_points(e.table_ranks[: latest - 1], points_per_rank),
        )
        for e in entries
        if e.number in numbers
    ]
    before = ranking.rank(before_entries, setting(tournament, "tie_break"), tournament.seed)
    return circuit_rules.rank_changes(
        {p.entry.number: p.place for p in before}, {p.entry.number: p.place for p in places}
    )


class Ranked(NamedTuple):
    """What the standings read of an entrant (a tuple: a day of 400 is read in one go)."""

    pk: int
    number: int
    name: str
    place: str
    kind: str
    status: str
    left_after_round: int | None


class Result(NamedTuple):
    """What the standings read of a ``RoundResult`` row."""

    round: int  # its round's number
    entrant_id: int
    points: Decimal
    counted: bool
    table_rank: int | None
    bye: bool


RESULT_COLUMNS = ("round__number", "entrant_id", "points", "counted", "table_rank", "bye")
LIVE_ROUNDS = (Round.Status.RELEASED, Round.Status.COMPLETE)
# A round not played (–), running (…), a bye: the same cell for every entrant.
MISSED, RUNNING, BYE = Cell(None, "–"), Cell(None, "…"), Cell(None, "", bye=True)


def _cells(
    entrant: Ranked,
    rounds: int,
    found: Mapping[tuple[int, int], Result],
    seated_now: set[tuple[int, int]],
    exact: dict[Decimal, Fraction],
) -> tuple[list[Cell], tuple[int | None, ...]]:
    """``exact``: each round result as a fraction, made once per build (a day's
    results repeat a few hundred values)."""
    cells: list[Cell] = []
    ranks: list[int | None] = []
    for number in range(1, rounds + 1):
        row = found.get((entrant.pk, number))
        if row is None:
            cells.append(RUNNING if (entrant.pk, number) in seated_now else MISSED)
            ranks.append(None)
        elif row.bye:
            cells.append(BYE)
            ranks.append(None)
        elif not row.counted:
            cells.append(RUNNING)
            ranks.append(None)
        else:
            points = exact.get(row.points)
            if points is None:
                points = exact[row.points] = Fraction(*row.points.as_integer_ratio())
            cells.append(Cell(points, ""))
            ranks.append(row.table_rank)
    return cells, tuple(ranks)


def _rank_points(ranks: Iterable[int | None], table: Sequence[int]) -> Fraction:
    """Points per table rank added to the total (``rank_points``), none by default."""
    return Fraction(sum(table[r - 1] for r in ranks if r is not None and r <= len(table)))


def _row(
    place: int | None,
    entrant: Ranked,
    per_entrant: Mapping[int, tuple[list[Cell], tuple[int | None, ...]]],
    ranked: ranking.Place | None,
    cup: Any,
    tournament: Tournament,
    count: int,
) -> Row:
    cells = per_entrant[entrant.pk][0]
    total = ranked.total if ranked is not None else sum((c.points or Fraction(0) for c in cells), Fraction(0))
    points = None
    if cup is not None and ranked is not None and place is not None:
        points = cup_rules.points(
            cup.scheme,
            place=place,
            total=total,
            ranked=count,
            points_table=cup.points_table or (),
            factor=tournament.cup_factor,
        )
    return Row(
        place=place,
        number=entrant.number,
        name=entrant.name,
        club=entrant.place,
        cells=tuple(cells),
        total=total,
        tie_note=ranked.tie_note if ranked is not None else "",
        decided_by=ranked.decided_by if ranked is not None else None,
        cup_points=points,
        withdrawn_after=entrant.left_after_round if entrant.status == Entrant.Status.WITHDRAWN else None,
        filler=entrant.kind == Entrant.Kind.FILLER,
    )


@transaction.atomic
def write_places(tournament: Tournament, final: bool) -> list[TournamentPlace]:
    """Write every ranked entrant's ``TournamentPlace`` from the standings as
    they stand now (``final``: the tournament is made final)."""
    table = build_standings(tournament)
    by_number = {e.number: e for e in Entrant.objects.filter(tournament=tournament)}
    TournamentPlace.objects.filter(tournament=tournament).delete()
    rows = [row for row in table.rows if row.place is not None]
    return TournamentPlace.objects.bulk_create(
        TournamentPlace(
            tournament=tournament,
            entrant=by_number[row.number],
            place=row.place or 0,
            total=decimal(row.total),
            tie_note=row.tie_note,
            cup_points=decimal(row.cup_points or Fraction(0)),
            final=final,
        )
        for row in rows
    )


# --------------------------------------------------------------------------
# The board link


def board_share(tournament: Tournament) -> str:
    """Give the tournament a board link (a new one if it had one): read-only, no
    account; and the hall screen its own link, kept when the board's is renewed."""
    tournament.board_token = secrets.token_urlsafe(24)
    tournament.screen_token = tournament.screen_token or secrets.token_urlsafe(24)
    tournament.save(update_fields=["board_token", "screen_token"])
    bump(tournament)
    return tournament.board_token


def board_unshare(tournament: Tournament) -> None:
    """Take the board link and the hall screen's away: they answer 410 from now on."""
    tournament.board_token = tournament.screen_token = None
    tournament.save(update_fields=["board_token", "screen_token"])
    bump(tournament)
