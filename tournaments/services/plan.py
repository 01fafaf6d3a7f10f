"""The seating plan: the draw, its release round by round, a redraw, and the
organiser's changes before a table plays (``TOURNAMENTS.md`` §1.3, §1.4, §2).

The rules of the draw are ``tournaments.core.draw`` (pure); this module stores
what they decide: a ``Round`` per round, its ``TableRound`` rows (size, hand
target, first dealer, table link, short code) and one ``TableSeat`` per entrant
and round. The plan is "draw(seed) + changes": every change is kept in the
round's ``draw["changes"]`` and in the audit.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from scoring import services as scoring
from scoring.engine.types import invalid
from tournaments.core import draw as rules
from tournaments.models import Entrant, Round, TableRound, TableSeat, Tournament, TournamentChange
from tournaments.services import results, teams
from tournaments.services.entrants import active_in
from tournaments.services.tournaments import (
    audit,
    changed,
    check_seed,
    done_already,
    locked,
    new_seed,
    played,
    refuse_open,
)

# Letters and digits nobody misreads on a slip: no 0/O, 1/I/L.
SHORT_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
SHORT_CODE_LENGTH = 6
RELEASED = (Round.Status.RELEASED, Round.Status.COMPLETE)


def new_link_token() -> str:
    return secrets.token_urlsafe(24)


OPEN_TABLES = (
    TableRound.Status.WAITING,
    TableRound.Status.OPEN,
    TableRound.Status.PLAYING,
    TableRound.Status.COMPLETE,
)


def new_short_code() -> str:
    """Six unambiguous characters, unique among the tables still open of every
    tournament: typed on the short-code page (``table_by_code``), it names one table."""
    taken = set(
        TableRound.objects.filter(
            status__in=OPEN_TABLES, round__tournament__deleted_at__isnull=True
        ).values_list("short_code", flat=True)
    )
    while True:
        code = "".join(secrets.choice(SHORT_CODE_ALPHABET) for _ in range(SHORT_CODE_LENGTH))
        if code not in taken:
            return code


def table_by_code(typed: str) -> TableRound | None:
    """The open table whose slip carries the short code ``typed`` (spaces, dashes
    and case as anyone types them), or None: no such code, a table already signed,
    or (a code given before codes were unique across tournaments) several tables."""
    code = "".join(typed.split()).replace("-", "").upper()[: SHORT_CODE_LENGTH + 1]
    if len(code) != SHORT_CODE_LENGTH or not set(code) <= set(SHORT_CODE_ALPHABET):
        return None
    found = list(
        TableRound.objects.filter(
            short_code=code, status__in=OPEN_TABLES, round__tournament__deleted_at__isnull=True
        ).only("link_token")[:2]
    )
    return found[0] if len(found) == 1 else None


def target(tournament: Tournament, size: int) -> int:
    return int(tournament.settings["hands_at_five" if size == 5 else "hands_at_four"])


# -- reading the plan ------------------------------------------------------------------------


def seating(round_: Round) -> list[list[int]]:
    """The round's tables as start numbers in seat order, table 1 first."""
    tables: dict[int, list[int]] = {}
    seats = TableSeat.objects.filter(round=round_).select_related("table", "entrant")
    for seat in seats.order_by("table__number", "position"):
        tables.setdefault(seat.table.number, []).append(seat.entrant.number)
    return [tables[n] for n in sorted(tables)]


def history(tournament: Tournament, before: int) -> list[list[list[int]]]:
    """The seating of every round before ``before``, as the draw reads it."""
    rounds = tournament.rounds.filter(number__lt=before).exclude(status=Round.Status.PLANNED)
    return [seating(r) for r in rounds.order_by("number")]


# -- drawing ---------------------------------------------------------------------------------


def _sizes(tournament: Tournament, count: int) -> tuple[list[int], int]:
    """The table sizes for ``count`` players and how many sit out (byes), by ``short_field``."""
    try:
        return list(rules.table_sizes(count)), 0
    except rules.CannotSeat:
        pass
    if tournament.settings["short_field"] == "bye" and count >= 4:
        sizes, byes = rules.sizes_with_byes(count)
        return list(sizes), int(byes)
    fillers = {6: 2, 7: 1, 11: 1}.get(count)
    if fillers is None:
        raise invalid(
            "entrants", gettext_noop("{n} players cannot be seated: at least 4 are needed"), n=count
        )
    raise invalid(
        "entrants",
        gettext_noop(
            "{n} players cannot be seated at tables of four and five: register {fillers} filler(s), "
            'or choose byes under "Too few players for the tables"'
        ),
        n=count,
        fillers=fillers,
    )


def _byes_so_far(tournament: Tournament, before: int) -> dict[int, int]:
    counts: dict[int, int] = {}
    for round_ in tournament.rounds.filter(number__lt=before).exclude(status=Round.Status.PLANNED):
        for number in round_.draw.get("byes", []):
            counts[number] = counts.get(number, 0) + 1
    return counts


def _create_tables(tournament: Tournament, round_: Round, tables: Sequence[Sequence[int]], seed: str) -> None:
    dealers = [int(rules.first_dealer(seed, round_.number, t, len(n))) for t, n in enumerate(tables, 1)]
    store_tables(tournament, round_, tables, dealers)


def store_tables(
    tournament: Tournament, round_: Round, tables: Sequence[Sequence[int]], dealers: Sequence[int]
) -> None:
    """The round's tables (start numbers in seat order) and their first dealers (seat positions)."""
    entrants = {e.number: e for e in tournament.entrants.all()}
    status = TableRound.Status.OPEN if round_.status in RELEASED else TableRound.Status.WAITING
    for index, numbers in enumerate(tables, 1):
        table = TableRound.objects.create(
            round=round_,
            number=index,
            size=len(numbers),
            hands_target=target(tournament, len(numbers)),
            first_dealer=dealers[index - 1],
            link_token=new_link_token(),
            short_code=new_short_code(),
            status=status,
        )
        TableSeat.objects.bulk_create(
            TableSeat(table=table, round=round_, entrant=entrants[number], position=position)
            for position, number in enumerate(numbers, 1)
        )


def _standings_order(tournament: Tournament, numbers: Sequence[int]) -> list[int]:
    """The players to seat, best place first after the rounds played (§2.4)."""
    from tournaments.services import results

    ranked = [row.number for row in results.build_standings(tournament).rows if row.place is not None]
    return [n for n in ranked if n in numbers] + [n for n in numbers if n not in ranked]


def _draw(tournament: Tournament, round_: Round, seed: str) -> None:
    """Seat round ``round_`` from ``seed`` (its tables must be gone) and mark it drawn."""
    numbers = [e.number for e in active_in(tournament, round_.number)]
    sizes, bye_count = _sizes(tournament, len(numbers))
    byes: list[int] = []
    if bye_count:
        order = rules.draw_order(seed, round_.number, numbers)
        byes = rules.choose_byes(order, _byes_so_far(tournament, round_.number), bye_count)
        numbers = [n for n in numbers if n not in byes]
    last = round_.number == tournament.settings["rounds"] and round_.number > 1
    if last and tournament.settings["last_round"] == "by_standings":
        tables = rules.by_standings(_standings_order(tournament, numbers), sizes)
        method = "by_standings"
    else:
        tables = rules.draw_round(
            seed,
            round_.number,
            numbers,
            history(tournament, round_.number),
            avoid_repeats=tournament.settings["avoid_repeats"],
            sizes=sizes,
            apart=teams.mates(tournament),  # §14.6: pairs and fours kept apart
        )
        method = "draw"
    round_.draw = {"seed": seed, "method": method, "byes": byes, "changes": []}
    round_.drawn_at = timezone.now()
    if round_.status == Round.Status.PLANNED:
        round_.status = Round.Status.DRAWN
    round_.save(update_fields=["draw", "drawn_at", "status"])
    _create_tables(tournament, round_, [list(t) for t in tables], seed)


def _drawn_upfront(tournament: Tournament, number: int) -> bool:
    """Whether round ``number`` is drawn with round 1 (``upfront``; a last round by standings waits)."""
    settings = tournament.settings
    last = number == settings["rounds"] and number > 1
    if last and settings["last_round"] == "by_standings":
        return False
    return number == 1 or settings["draw_timing"] == "upfront"


@transaction.atomic
def plan_draw(*, tournament: Tournament, user: User, seed: str = "", client_token: str = "") -> Tournament:
    """The first draw: registration closes, the settings are fixed, round 1 (with
    ``upfront`` every round, each with the earlier ones as history) is seated."""
    row = locked(tournament)
    if done_already(row, client_token):
        return row
    if row.rounds.exists():
        raise invalid("seed", gettext_noop("the draw is made already: redraw a round instead"))
    row.seed = check_seed(seed) if seed else row.seed or new_seed()
    rounds = [Round(tournament=row, number=n) for n in range(1, row.settings["rounds"] + 1)]
    Round.objects.bulk_create(rounds)
    for round_ in row.rounds.order_by("number"):
        if _drawn_upfront(row, round_.number):
            _draw(row, round_, row.seed)
    row.status = Tournament.Status.RUNNING
    row.save(update_fields=["seed", "status"])
    audit(
        row,
        TournamentChange.Action.DRAW,
        user,
        round_number=1,
        after={"seed": row.seed},
        client_token=client_token,
    )
    changed(row)
    return row


def _round(tournament: Tournament, number: int) -> Round:
    found = tournament.rounds.filter(number=number).first()
    if found is None:
        raise invalid(
            "round",
            gettext_noop("no round {n}: the tournament has rounds 1 to {last}"),
            n=number,
            last=tournament.settings["rounds"],
        )
    return found


def next_round(tournament: Tournament) -> Round | None:
    """The first round not yet released, if any."""
    return tournament.rounds.exclude(status__in=RELEASED).order_by("number").first()


@transaction.atomic
def round_release(*, tournament: Tournament, user: User, client_token: str = "") -> Round:
    """Release the next round: its table links open. Round k only when round k−1
    is complete (refused naming its open tables); drawn now if not drawn yet."""
    row = locked(tournament)
    found = done_already(row, client_token)
    if found is not None:
        return _round(row, found.round_number or 1)
    if row.status != Tournament.Status.RUNNING:
        raise invalid("round", gettext_noop("the tournament is not running"))
    round_ = next_round(row)
    if round_ is None:
        raise invalid("round", gettext_noop("every round is released"))
    if round_.number > 1:
        before = _round(row, round_.number - 1)
        refuse_open(before, "round")
        before.status = Round.Status.COMPLETE
        before.save(update_fields=["status"])
    if round_.status == Round.Status.PLANNED:
        _draw(row, round_, row.seed)
    _refuse_unseated(row, round_)
    holes = empty_seats(round_)
    if holes:
        raise invalid(
            "round",
            gettext_noop("table {tables} has an empty seat: seat a filler or redraw the round"),
            tables=", ".join(map(str, holes)),
        )
    round_.status, round_.released_at = Round.Status.RELEASED, timezone.now()
    round_.save(update_fields=["status", "released_at"])
    round_.tables.filter(status=TableRound.Status.WAITING).update(status=TableRound.Status.OPEN)
    results.byes_written(round_)  # a bye scores 0 from the release on, not from the first table signed
    audit(row, TournamentChange.Action.RELEASE, user, round_number=round_.number, client_token=client_token)
    changed(row)
    return round_


def _refuse_unseated(tournament: Tournament, round_: Round) -> None:
    """Everyone who plays the round sits at a table of it or has a bye: a late entry
    is drawn in (redraw) or seated first, never forgotten."""
    seated = set(round_.seats.values_list("entrant__number", flat=True)) | set(round_.draw.get("byes", []))
    missing = [e.number for e in active_in(tournament, round_.number) if e.number not in seated]
    if missing:
        raise invalid(
            "round",
            gettext_noop("start number {numbers} has no seat in round {round}: redraw the round or seat him"),
            numbers=", ".join(map(str, missing)),
            round=round_.number,
        )


def _refuse_played(tables: Any, field: str = "round") -> None:
    playing = sorted(played(tables).values_list("number", flat=True))
    if playing:
        raise invalid(
            field,
            gettext_noop("table {tables} has recorded hands: end or open that table first"),
            tables=", ".join(map(str, playing)),
        )


def _clear(round_: Round) -> None:
    """The round's tables and seats gone (none has a hand), its round planned again."""
    sessions = [t.session_id for t in round_.tables.all() if t.session_id]
    round_.tables.all().delete()
    scoring.sessions_discard_unplayed(session_ids=sessions)


@transaction.atomic
def round_redraw(
    *, tournament: Tournament, user: User, number: int, seed: str = "", client_token: str = ""
) -> Round:
    """Draw round ``number`` again with a new seed (typed or picked), and with it every
    later round drawn so far; before any hand is recorded at their tables. The old
    seed stays in the audit."""
    row = locked(tournament)
    found = done_already(row, client_token)
    if found is not None:
        return _round(row, number)
    round_ = _round(row, number)
    if round_.status == Round.Status.PLANNED:
        raise invalid("round", gettext_noop("round {n} is not drawn yet"), n=number)
    later = list(
        row.rounds.filter(number__gte=number).exclude(status=Round.Status.PLANNED).order_by("number")
    )
    _refuse_played(TableRound.objects.filter(round__in=later))
    old = {r.number: seating(r) for r in later}
    old_seed, row.seed = row.seed, check_seed(seed) if seed else new_seed()
    row.save(update_fields=["seed"])
    for each in later:
        _clear(each)
        if each.number == number or _drawn_upfront(row, each.number) or each.status in RELEASED:
            _draw(row, each, row.seed)
        else:
            each.status, each.draw = Round.Status.PLANNED, {}
            each.save(update_fields=["status", "draw"])
    audit(
        row,
        TournamentChange.Action.REDRAW,
        user,
        round_number=number,
        before={"seed": old_seed, "plan": old},
        after={"seed": row.seed},
        client_token=client_token,
    )
    changed(row)
    return _round(row, number)


# -- changes before a table plays (§2.5) -----------------------------------------------------


def _seat(round_: Round, number: int) -> TableSeat:
    found = (
        TableSeat.objects.filter(round=round_, entrant__number=number)
        .select_related("table", "entrant")
        .first()
    )
    if found is None:
        raise invalid(
            "entrant",
            gettext_noop("start number {n} sits at no table of round {round}"),
            n=number,
            round=round_.number,
        )
    return found


def _note(
    row: Tournament, round_: Round, user: User, action: str, change: dict[str, Any], token: str
) -> None:
    draw = dict(round_.draw)
    draw["changes"] = [*draw.get("changes", []), change]
    round_.draw = draw
    round_.save(update_fields=["draw"])
    audit(row, action, user, round_number=round_.number, after=change, client_token=token)
    changed(row)


def _renumber(table: TableRound) -> list[TableSeat]:
    """The table's seats numbered 1, 2, … in their order (a seat left empty closed up)."""
    seats = list(table.seats.order_by("position"))
    for position, seat in enumerate(seats, 1):
        if seat.position != position:
            seat.position = position + 100
            seat.save(update_fields=["position"])
    for position, seat in enumerate(seats, 1):
        if seat.position != position:
            seat.position = position
            seat.save(update_fields=["position"])
    return seats


def _resize(tournament: Tournament, table: TableRound) -> None:
    """The table's size, target and first dealer after a change, its seats numbered 1…"""
    seats = _renumber(table)
    table.size, table.hands_target = len(seats), target(tournament, len(seats))
    table.first_dealer = min(table.first_dealer, len(seats))
    table.save(update_fields=["size", "hands_target", "first_dealer"])


@transaction.atomic
def seat_swap(
    *, tournament: Tournament, user: User, round_number: int, first: int, second: int, client_token: str = ""
) -> None:
    """Two entrants of one round change seats (both at once, so no one sits twice)."""
    row = locked(tournament)
    if done_already(row, client_token):
        return
    round_ = _round(row, round_number)
    a, b = _seat(round_, first), _seat(round_, second)
    _refuse_played(TableRound.objects.filter(pk__in=(a.table_id, b.table_id)), "entrant")
    a_place, b_place = (a.table_id, a.position), (b.table_id, b.position)
    TableSeat.objects.filter(pk__in=(a.pk, b.pk)).delete()
    TableSeat.objects.create(table_id=b_place[0], position=b_place[1], round=round_, entrant=a.entrant)
    TableSeat.objects.create(table_id=a_place[0], position=a_place[1], round=round_, entrant=b.entrant)
    change = {"swap": [first, second], "tables": [a.table.number, b.table.number]}
    _note(row, round_, user, TournamentChange.Action.SWAP, change, client_token)


@transaction.atomic
def seat_move(
    *,
    tournament: Tournament,
    user: User,
    round_number: int,
    number: int,
    table_number: int,
    client_token: str = "",
) -> None:
    """Move one entrant to another table of the round (last seat there); both tables
    must stay at 4 or 5 players, else refused naming the table."""
    row = locked(tournament)
    if done_already(row, client_token):
        return
    round_ = _round(row, round_number)
    seat = _seat(round_, number)
    to = round_.tables.filter(number=table_number).first()
    if to is None or to.pk == seat.table_id:
        raise invalid("table", gettext_noop("another table of round {round}"), round=round_number)
    _refuse_played(TableRound.objects.filter(pk__in=(seat.table_id, to.pk)), "table")
    source = seat.table
    for table, size in ((source, source.seats.count() - 1), (to, to.seats.count() + 1)):
        if size not in (4, 5):
            raise invalid(
                "table",
                gettext_noop("table {table} would have {n} players: a table seats 4 or 5"),
                table=table.number,
                n=size,
            )
    seat.table, seat.position = to, len(_renumber(to)) + 1
    seat.save(update_fields=["table", "position"])
    _resize(row, source)
    _resize(row, to)
    change = {"move": number, "from": source.number, "to": to.number}
    _note(row, round_, user, TournamentChange.Action.MOVE, change, client_token)


@transaction.atomic
def seat_add(
    *,
    tournament: Tournament,
    user: User,
    round_number: int,
    number: int,
    table_number: int,
    instead_of: int | None = None,
    client_token: str = "",
) -> None:
    """Seat someone not yet seated in the round: a late entrant at a four-table (it
    becomes a five-table), or a filler in a withdrawn entrant's seat (``instead_of``)."""
    row = locked(tournament)
    if done_already(row, client_token):
        return
    round_ = _round(row, round_number)
    entrant = row.entrants.filter(number=number).first()
    if entrant is None or entrant.status == Entrant.Status.WITHDRAWN:
        raise invalid("entrant", gettext_noop("an entrant who plays: start number {n} does not"), n=number)
    if TableSeat.objects.filter(round=round_, entrant=entrant).exists():
        raise invalid(
            "entrant", gettext_noop("{name} sits at a table of this round already"), name=entrant.name
        )
    table = round_.tables.filter(number=table_number).first()
    if table is None:
        raise invalid("table", gettext_noop("a table of round {round}"), round=round_number)
    _refuse_played(TableRound.objects.filter(pk=table.pk), "table")
    if instead_of is not None:
        _replace(table, instead_of, entrant)
    elif table.seats.count() != 4:
        raise invalid(
            "table",
            gettext_noop("table {table} would have {n} players: a table seats 4 or 5"),
            table=table.number,
            n=table.seats.count() + 1,
        )
    else:
        TableSeat.objects.create(table=table, round=round_, entrant=entrant, position=5)
        _resize(row, table)
    change = {"seat": number, "table": table_number, "instead_of": instead_of}
    _note(row, round_, user, TournamentChange.Action.MOVE, change, client_token)


def _replace(table: TableRound, instead_of: int, entrant: Entrant) -> None:
    """``entrant`` takes the empty seat a withdrawn entrant left (or his seat, if still there)."""
    old = table.seats.filter(entrant__number=instead_of).first()
    if old is not None:
        if old.entrant.status != Entrant.Status.WITHDRAWN:
            raise invalid("instead_of", gettext_noop("only a withdrawn entrant's seat is taken over"))
        old.entrant = entrant
        old.save(update_fields=["entrant"])
        return
    if table.seats.count() >= table.size:
        raise invalid("instead_of", gettext_noop("start number {n} does not sit at this table"), n=instead_of)
    taken = set(table.seats.values_list("position", flat=True))
    free = min(p for p in range(1, table.size + 1) if p not in taken)
    TableSeat.objects.create(table=table, round=table.round, entrant=entrant, position=free)


def empty_seats(round_: Round) -> list[int]:
    """Tables of the round with a seat left empty by a withdrawal (to be filled before release)."""
    return [t.number for t in round_.tables.all() if t.seats.count() < 4]


def _met_elsewhere(tournament: Tournament, round_: Round) -> Counter[frozenset[int]]:
    """How often each pair sat at one table in the tournament's other drawn rounds
    (earlier and, drawn upfront, later ones)."""
    others = tournament.rounds.exclude(pk=round_.pk).exclude(status=Round.Status.PLANNED)
    return rules.pair_counts([seating(other) for other in others.order_by("number")])


def _repair(tournament: Tournament, round_: Round) -> list[dict[str, int]]:
    """After a withdrawal in a drawn round (§2.5): a five-table plays at four; a
    four-table left with three gets the player of a five-table of the round whose
    move adds the fewest repeats (``rules.fewest_repeats_move``), else its seat
    stays empty for a filler (or a redraw). The moves made, each kept in the
    round's changes."""
    moves: list[dict[str, int]] = []
    met: Counter[frozenset[int]] | None = None
    for table in round_.tables.order_by("number"):
        count = table.seats.count()
        if count == 4 and table.size == 5:
            _resize(tournament, table)
        elif count == 3:
            met = _met_elsewhere(tournament, round_) if met is None else met
            move = rules.fewest_repeats_move(seating(round_), table.number, met)
            if move is None:
                continue
            moved = _seat(round_, move.number)
            donor = moved.table
            _renumber(table)
            moved.table, moved.position = table, 4
            moved.save(update_fields=["table", "position"])
            _resize(tournament, donor)
            _resize(tournament, table)
            change = {
                "move": move.number,
                "from": move.from_table,
                "to": move.to_table,
                "repeats": move.added,
            }
            draw = dict(round_.draw)
            draw["changes"] = [*draw.get("changes", []), change]
            round_.draw = draw
            round_.save(update_fields=["draw"])
            moves.append({"round": round_.number, **change})
    return moves


@transaction.atomic
def entrant_withdraw(
    *, tournament: Tournament, user: User, number: int, after_round: int, client_token: str = ""
) -> Entrant:
    """He left after round ``after_round`` (0: before playing): his played rounds keep
    their points; his seats in rounds not yet released are given up and the tables
    repaired (§1.2, §2.5). At a running table he stays seated: a five-table plays on
    at four, a four-table is ended early by the organiser."""
    row = locked(tournament)
    entrant = row.entrants.filter(number=number).first()
    if entrant is None:
        raise invalid("entrant", gettext_noop("no entrant has start number {n}"), n=number)
    if done_already(row, client_token):
        return entrant
    if entrant.status == Entrant.Status.WITHDRAWN:
        raise invalid("entrant", gettext_noop("{name} is withdrawn already"), name=entrant.name)
    if not 0 <= after_round < row.settings["rounds"]:
        raise invalid("after_round", gettext_noop("a round from 0 to {n}"), n=row.settings["rounds"] - 1)
    later = entrant.seats.filter(round__number__gt=after_round)
    _refuse_played(TableRound.objects.filter(seats__in=later), "after_round")
    given_up = later.exclude(round__status__in=RELEASED)
    rounds = list(Round.objects.filter(seats__in=given_up).distinct())
    vacated = sorted((s.round.number, s.table.number) for s in given_up.select_related("round", "table"))
    given_up.delete()
    moved = [move for each in sorted(rounds, key=lambda r: r.number) for move in _repair(row, each)]
    entrant.status, entrant.left_after_round = Entrant.Status.WITHDRAWN, after_round
    entrant.save(update_fields=["status", "left_after_round"])
    audit(
        row,
        TournamentChange.Action.WITHDRAW,
        user,
        after={"number": number, "after_round": after_round, "vacated": vacated, "moved": moved},
        client_token=client_token,
    )
    changed(row)
    return entrant
