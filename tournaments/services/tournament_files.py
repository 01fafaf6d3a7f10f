"""The tournament file (``TOURNAMENTS.md`` §13) out of the app and into it: the
export writes every option and setting in force, every round drawn so far with
its tables as seated now and each table's hands as recorded (a desk table: its
sums); the import creates the tournament, its importer the organiser.

Reading and writing the format is ``tournaments.core.tournament_file``; this
module gathers the rows for it and stores what it read, through the same
services the organiser's pages use.
"""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.text import slugify

from scoring import services as scoring
from scoring.engine.session_file import write_hand
from scoring.games import for_tournaments
from scoring.models import Hand, Seat
from scoring.public import Export, session_json
from tournaments.core import tournament_file as files
from tournaments.models import Round, TableRound, TableSeat, Tournament
from tournaments.services import desk, entrants, plan, tournaments
from tournaments.services import tables as table_pages

MOST_BYTES = files.MAX_BYTES


def _table(table: TableRound) -> dict[str, Any]:
    """One table as the file writes it, from what ``_rounds`` loaded (no query of its own)."""
    drawn = list(table.seats.all())  # prefetched in playing order, with their entrants
    seats = [s.entrant.name for s in drawn]
    dealer = seats[table.first_dealer - 1]
    if table.desk_sums is not None:
        by_number = {str(s.entrant.number): s.entrant.name for s in drawn}
        sums = {by_number[n]: Fraction(str(v)) for n, v in table.desk_sums.items()}
        return {"players": seats, "dealer": dealer, "sums": {name: sums[name] for name in seats}}
    if table.session is None:
        return {"players": seats, "dealer": dealer, "hands": []}
    written = json.loads(session_json(table.session, table.session.live_hands))  # type: ignore[attr-defined]
    return {
        "players": written["players"],
        "dealer": table.session.first_dealer or dealer,
        "hands": written["hands"],
    }


def _rounds(tournament: Tournament) -> list[Round]:
    """The drawn rounds with their tables, seats, sessions and live hands: one
    query per kind, however many tables."""
    tables = (
        TableRound.objects.select_related("session")
        .order_by("number")
        .prefetch_related(
            Prefetch("seats", queryset=TableSeat.objects.select_related("entrant").order_by("position")),
            Prefetch("session__seats", queryset=Seat.objects.order_by("position")),
            Prefetch(
                "session__hands",
                queryset=Hand.objects.filter(deleted_at__isnull=True).order_by("number"),
                to_attr="live_hands",
            ),
        )
    )
    return list(
        tournament.rounds.exclude(status=Round.Status.PLANNED)
        .order_by("number")
        .prefetch_related(Prefetch("tables", queryset=tables))
    )


def export_document(tournament: Tournament) -> dict[str, Any]:
    """The tournament as a ``tarockscore-tournament/1`` document (fillers are listed
    as entrants: the file knows no fillers)."""
    settings = tournament.settings
    cup = tournament.cup
    rounds = [[_table(t) for t in r.tables.all()] for r in _rounds(tournament)]
    return files.tournament_document(
        variant=tournament.variant,
        options=tournament.options,
        settings={
            "rounds": settings["rounds"],
            "hands": settings["hands_at_four"],
            "hands_at_five": settings["hands_at_five"],
            "avoid_repeats": settings["avoid_repeats"],
            "tie_break": settings["tie_break"],
            "scheme": cup.scheme if cup else "fixed",
            **({"points_table": cup.points_table} if cup and cup.scheme == "custom" else {}),
            "factor": tournament.cup_factor,
            "money_rate": tournament.money_rate,
        },
        seed=tournament.seed,
        entrants=list(tournament.entrants.order_by("number").values_list("name", flat=True)),
        rounds=rounds,
        name=tournament.name,
        date=tournament.played_on,
        games=for_tournaments(),
    )


def tournament_file(tournament: Tournament) -> Export:
    text = files.dumps(export_document(tournament))
    return Export(text.encode(), "application/json", f"{slugify(tournament.name) or 'turnier'}.json")


# -- the import ----------------------------------------------------------------------------


@transaction.atomic
def tournament_import(*, owner: User, data: bytes) -> Tournament:
    """A tournament from a file: its entrants, settings and seed; each round the
    file gives is seated as given, released and counted (hands recorded and the
    table signed, or the desk's sums); later rounds are drawn by the app. The file
    is read as ``score_tournament`` reads it (``read_tournament``: the same checks,
    the same size limit, the same one-line refusals): a file it refuses raises
    ``InvalidTournament`` (round, table and field) and creates nothing."""
    read = files.read_tournament(data, for_tournaments())
    created = _create(owner, read)
    if any(r is not None for r in read.rounds):
        _replay(created, owner, read)
    return Tournament.objects.get(pk=created.pk)


def _create(owner: User, read: files.TournamentFile) -> Tournament:
    s = read.settings
    created = tournaments.tournament_create(
        owner=owner,
        name=read.name or "Turnier",
        played_on=read.date or timezone.localdate(),
        variant=read.variant.key,
        options=read.variant.dump_options(read.options),
        settings={
            "rounds": s.rounds,
            "hands_at_four": s.hands,
            "hands_at_five": s.hands_at_five,
            "avoid_repeats": s.avoid_repeats,
            "tie_break": s.tie_break if isinstance(s.tie_break, str) else list(s.tie_break),
        },
        money_rate=s.money_rate,
        cup_factor=s.factor,
        seed=read.seed,
    )
    entrants.entrants_add(
        tournament=created, user=owner, entrants=[entrants.NewEntrant(n) for n in read.entrants]
    )
    return created


def _replay(t: Tournament, owner: User, read: files.TournamentFile) -> None:
    """The given rounds seated as the file says, released and counted in turn."""
    plan.plan_draw(tournament=t, user=owner, seed=read.seed)
    for index, given in enumerate(read.rounds, 1):
        if given is None:
            return  # the rest is drawn by the app, as the file would draw it
        round_ = t.rounds.get(number=index)
        _seat_as_given(t, round_, given)
        plan.round_release(tournament=Tournament.objects.get(pk=t.pk), user=owner)
        for number, table in enumerate(given, 1):
            row = round_.tables.get(number=number)
            _count(Tournament.objects.get(pk=t.pk), owner, row, table, read)


def _seat_as_given(t: Tournament, round_: Round, given: tuple[files.GivenTable, ...]) -> None:
    numbers = {e.name: e.number for e in t.entrants.all()}
    for table in list(round_.tables.all()):
        table.delete()
    tables = [[numbers[name] for name in table.players] for table in given]
    plan.store_tables(t, round_, tables, [table.players.index(table.dealer) + 1 for table in given])
    drawn = dict(round_.draw)
    drawn.update(method="given", byes=[n for n in numbers.values() if not any(n in x for x in tables)])
    Round.objects.filter(pk=round_.pk).update(draw=drawn)


def _count(
    t: Tournament, owner: User, row: TableRound, table: files.GivenTable, read: files.TournamentFile
) -> None:
    if table.hands is None:
        numbers = {s.entrant.name: s.entrant.number for s in row.seats.select_related("entrant")}
        sums = {
            numbers[name]: str(Decimal(v.numerator) / Decimal(v.denominator))
            for name, v in table.sums.items()
        }
        desk.desk_enter(tournament=t, user=owner, table_id=row.pk, sums=sums)
        return
    session = table_pages.open_table(row)
    for hand in table.hands or ():  # as the file's reader read them, each dealer named
        scoring.hand_record(session=session, raw=write_hand(read.variant, hand, read.options), user=owner)
    if table.hands:
        desk.table_confirm(tournament=t, user=owner, table_id=row.pk)
    else:
        desk.table_end(tournament=t, user=owner, table_id=row.pk, reason="import")
