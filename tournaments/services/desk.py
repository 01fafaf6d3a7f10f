"""The organiser's desk on the day: each table's state on the control page, a
paper sheet typed in (``TOURNAMENTS.md`` §3.4), a table ended early (§3.6),
opened again after sign-off (§3.5) or confirmed, and a table link reissued (§3.1).

Every change to a table's result calls ``results.table_changed`` in the same
transaction, which rewrites the table's ``RoundResult`` rows and raises the
tournament's version.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from scoring import services as scoring
from scoring.engine.types import invalid
from scoring.models import HandChange, Session
from tournaments.core.tournament_file import MAX_SUM
from tournaments.models import Round, TableRound, TableSeat, Tournament, TournamentChange
from tournaments.services import results
from tournaments.services.plan import RELEASED, new_link_token, new_short_code
from tournaments.services.tournaments import audit, changed, done_already, locked, reason_text, terms

# A paper sheet's sum, as a tournament file's (``tournament_file.MAX_SUM``): −100 000 to 100 000.
MOST_POINTS = Decimal(MAX_SUM)


def _locked_at(tournament: Tournament, table_id: int) -> tuple[Tournament, TableRound]:
    """The tournament's row and the table, locked in the order every write at a
    table takes: the table's session first (a hand locks it), then the
    tournament. An organiser's change to a table while its scorer saves a hand
    then waits for the hand, and never deadlocks with it."""
    session_id = (
        TableRound.objects.filter(round__tournament=tournament, pk=table_id)
        .values_list("session_id", flat=True)
        .first()
    )
    if session_id is not None:
        scoring.session_lock(session_id=session_id)
    row = locked(tournament)
    return row, _table(row, table_id)


def _audit(row: Tournament, table: TableRound, action: str, user: User, **details: Any) -> None:
    """An organiser's action at a table, kept with its round and table numbers."""
    audit(row, action, user, round_number=table.round.number, table_number=table.number, **details)


def _table(tournament: Tournament, pk: int) -> TableRound:
    found = TableRound.objects.select_related("round").filter(round__tournament=tournament, pk=pk).first()
    if found is None:
        raise TableRound.DoesNotExist
    return found


def table_of(tournament: Tournament, pk: int) -> TableRound:
    """A table of the tournament (``DoesNotExist`` for any other)."""
    return _table(tournament, pk)


def _refuse_final(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINAL:
        raise invalid("status", gettext_noop("the tournament is final: reopen it first"))


def _playable(table: TableRound) -> None:
    if table.round.status not in RELEASED:
        raise invalid("table", gettext_noop("round {round} is not released yet"), round=table.round.number)
    if table.is_locked:
        raise invalid("table", gettext_noop("table {table} is locked: open it first"), table=table.number)


def _points(number: int, raw: object, halves: bool) -> Decimal:
    try:
        value = Decimal(str(raw).strip().replace(",", ".").replace("−", "-"))
    except InvalidOperation:
        value = Decimal("NaN")
    written_out = value.is_finite() and int(value.as_tuple().exponent) <= 0  # "41.5", never "1e5"
    allowed = written_out and abs(value) <= MOST_POINTS and (value * (2 if halves else 1)) % 1 == 0
    if not allowed:
        field = f"sum_{number}"
        if halves:
            raise invalid(field, gettext_noop("a whole number or a half, such as -31 or 41.5"))
        raise invalid(field, gettext_noop("a whole number, such as -31"))
    return value.normalize() if value % 1 else value.quantize(Decimal(1))


def _lock_session(table: TableRound, user: User) -> None:
    """A locked table's session takes no more hands (as at a sign-off)."""
    if table.session_id is None:
        return
    session = Session.objects.filter(pk=table.session_id, closed_at__isnull=True).first()
    if session is not None:
        scoring.session_close(session=session, user=user, managing=True)


def _unlock_session(table: TableRound, user: User) -> None:
    if table.session_id is None:
        return
    session = Session.objects.filter(pk=table.session_id, closed_at__isnull=False).first()
    if session is not None:
        scoring.session_reopen(session=session, user=user, managing=True)


def _signed(value: Decimal) -> str:
    return f"+{value}" if value > 0 else str(value)


@transaction.atomic
def desk_enter(
    *, tournament: Tournament, user: User, table_id: int, sums: Mapping[int, object], client_token: str = ""
) -> TableRound:
    """A paper sheet typed in: each player's round sum by start number. They must add
    to 0, else refused naming the difference ("Summe +4: Zettel prüfen"). French
    takes halves. The table is locked at once (status desk)."""
    row, table = _locked_at(tournament, table_id)
    if done_already(row, client_token):
        return table
    _refuse_final(row)
    _playable(table)
    numbers = list(table.seats.order_by("position").values_list("entrant__number", flat=True))
    if set(sums) != set(numbers):
        raise invalid("sums", gettext_noop("one sum for each player of the table"))
    halves = terms(row.variant).halves
    values = {n: _points(n, sums[n], halves) for n in numbers}
    total = sum(values.values(), Decimal(0))
    if total != 0:
        raise invalid("sums", gettext_noop("Sum {difference}: check the sheet"), difference=_signed(total))
    table.desk_sums = {str(n): str(v) for n, v in values.items()}
    table.status, table.opened_by_organiser = TableRound.Status.DESK, False
    table.save(update_fields=["desk_sums", "status", "opened_by_organiser"])
    _lock_session(table, user)
    _audit(row, table, TournamentChange.Action.DESK, user, after=table.desk_sums, client_token=client_token)
    results.table_changed(table)
    return table


@transaction.atomic
def table_end(
    *, tournament: Tournament, user: User, table_id: int, reason: str, client_token: str = ""
) -> TableRound:
    """End a table early (§3.6): its round result is the sums so far ("beendet nach 12 von 16")."""
    row, table = _locked_at(tournament, table_id)
    if done_already(row, client_token):
        return table
    why = reason_text(reason)
    _refuse_final(row)
    _playable(table)
    table.status, table.end_reason, table.opened_by_organiser = TableRound.Status.ENDED, why, False
    table.save(update_fields=["status", "end_reason", "opened_by_organiser"])
    _lock_session(table, user)
    _audit(
        row,
        table,
        TournamentChange.Action.END,
        user,
        reason=why,
        after={"hands": hands_played(table)},
        client_token=client_token,
    )
    results.table_changed(table)
    return table


@transaction.atomic
def table_open(
    *, tournament: Tournament, user: User, table_id: int, reason: str, client_token: str = ""
) -> TableRound:
    """Open a signed, ended or typed-in table again for corrections (§3.5); its
    result leaves the ranking until it is locked again. In a final tournament the
    organiser reopens the tournament first; a provisional one is running again."""
    row, table = _locked_at(tournament, table_id)
    if done_already(row, client_token):
        return table
    why = reason_text(reason)
    _refuse_final(row)
    if not table.is_locked:
        raise invalid("table", gettext_noop("table {table} is not locked"), table=table.number)
    before = {"status": table.status, "desk_sums": table.desk_sums, "end_reason": table.end_reason}
    table.status = _unlocked_status(table)
    table.desk_sums, table.signed_at, table.end_reason = None, None, ""
    table.opened_by_organiser = True
    table.save(update_fields=["status", "desk_sums", "signed_at", "end_reason", "opened_by_organiser"])
    _unlock_session(table, user)
    if row.status == Tournament.Status.PROVISIONAL:
        row.status = Tournament.Status.RUNNING
        row.save(update_fields=["status"])
    if table.round.status == Round.Status.COMPLETE:
        Round.objects.filter(pk=table.round_id).update(status=Round.Status.RELEASED)
    _audit(
        row,
        table,
        TournamentChange.Action.OPEN,
        user,
        reason=why,
        before=before,
        client_token=client_token,
    )
    results.table_changed(table)
    return table


def _unlocked_status(table: TableRound) -> str:
    played = hands_played(table)
    if played >= table.hands_target:
        return TableRound.Status.COMPLETE
    return TableRound.Status.PLAYING if played else TableRound.Status.OPEN


@transaction.atomic
def table_confirm(*, tournament: Tournament, user: User, table_id: int, client_token: str = "") -> TableRound:
    """The organiser signs a table (signoff ``organiser``, or again after opening it)."""
    row, table = _locked_at(tournament, table_id)
    if done_already(row, client_token):
        return table
    _refuse_final(row)
    _playable(table)
    if table.session_id is None or hands_played(table) == 0:
        raise invalid(
            "table", gettext_noop("table {table} has no hands: type in its sheet instead"), table=table.number
        )
    table.status, table.signed_at = TableRound.Status.SIGNED, timezone.now()
    table.opened_by_organiser = False
    table.save(update_fields=["status", "signed_at", "opened_by_organiser"])
    _lock_session(table, user)
    _audit(row, table, TournamentChange.Action.SIGN, user, client_token=client_token)
    results.table_changed(table)
    return table


@transaction.atomic
def table_reissue(*, tournament: Tournament, user: User, table_id: int, client_token: str = "") -> TableRound:
    """A new table link and short code at once; the old link answers 410, the claim is released."""
    row, table = _locked_at(tournament, table_id)
    if done_already(row, client_token):
        return table
    table.link_token, table.short_code = new_link_token(), new_short_code()
    table.claim_digest, table.claimed_at = "", None
    table.save(update_fields=["link_token", "short_code", "claim_digest", "claimed_at"])
    _audit(row, table, TournamentChange.Action.REISSUE, user, client_token=client_token)
    changed(row)
    return table


@transaction.atomic
def table_release_claim(
    *, tournament: Tournament, user: User, table_id: int, client_token: str = ""
) -> TableRound:
    """Free a table from the phone that claimed it (§3.1): the next phone that
    writes at its link claims it; the link and its slip stay as they are."""
    row, table = _locked_at(tournament, table_id)
    if done_already(row, client_token):
        return table
    if not table.claim_digest:
        raise invalid("table", gettext_noop("table {table} is not claimed by a phone"), table=table.number)
    table.claim_digest, table.claimed_at = "", None
    table.handover_digest, table.handover_until = "", None
    table.save(update_fields=["claim_digest", "claimed_at", "handover_digest", "handover_until"])
    _audit(row, table, TournamentChange.Action.CLAIM, user, reason="released", client_token=client_token)
    changed(row)
    return table


# -- what the control page shows ------------------------------------------------------------


def hands_played(table: TableRound) -> int:
    """Hands that count toward the target (§3.2), as every page shows them
    (``results.live_played``)."""
    return results.live_played([table])[table.pk]


@dataclass(frozen=True)
class Clock:
    """A running round's clock (§3.6): when its time is up, with the minutes the
    organiser gave one table (``extra``); at zero the table finishes the game in
    play, nothing ends by itself."""

    ends: datetime
    extra: int = 0

    @property
    def over(self) -> bool:
        return timezone.now() >= self.ends

    @property
    def ends_ms(self) -> int:
        """The end as a page's script counts to it: milliseconds since 1970."""
        return int(self.ends.timestamp() * 1000)


def table_clock(table: TableRound) -> Clock | None:
    """The clock at one table: its round's end and its own extra minutes; none
    without ``round_minutes``, outside the running round, or once the table is done.
    Read from the table's row and its round's (as ``tables.table_by_token`` reads them)."""
    ends = None if table.is_locked else round_ends(table.round.tournament, table.round)
    if ends is None:
        return None
    return Clock(ends + timedelta(minutes=table.extra_minutes), table.extra_minutes)


@dataclass(frozen=True)
class TableState:
    table: TableRound
    names: tuple[str, ...]
    played: int
    clock: Clock | None = None  # the table's round clock, with its extra minutes


@dataclass(frozen=True)
class Control:
    tournament: Tournament
    round: Round | None  # the round on the page: the latest released, else round 1
    tables: tuple[TableState, ...]
    next_round: Round | None
    done: int  # tables of the round locked


def round_ends(tournament: Tournament, round_: Round | None) -> datetime | None:
    """When a released round's time is up (``round_minutes``): shown, nothing ends by itself (§3.6).
    The clock starts when the round is released (``Round.released_at``)."""
    minutes = tournament.settings.get("round_minutes")
    if not minutes or round_ is None or round_.released_at is None or round_.status != Round.Status.RELEASED:
        return None
    return round_.released_at + timedelta(minutes=minutes)


EXTRA_MINUTES_MOST = 60


@transaction.atomic
def table_give_minutes(
    *, tournament: Tournament, user: User, table: object, minutes: object, client_token: str = ""
) -> None:
    """Give one table of the running round extra minutes (§3.6): its clock ends that
    much later on its phone and on the control page. The minutes are set, not
    added, so a form sent twice gives them once; kept in the audit, before and after."""
    _refuse_final(tournament)
    running = tournament.rounds.filter(status=Round.Status.RELEASED).order_by("-number").first()
    if running is None or round_ends(tournament, running) is None:
        raise invalid(
            "minutes",
            gettext_noop("extra minutes need a running round clock: minutes per round and a released round"),
        )
    count = running.tables.count()
    number = _whole(table)
    found = running.tables.filter(number=number).values_list("pk", flat=True).first() if number else None
    if found is None:
        raise invalid(
            "table", gettext_noop("table: one of round {round}, 1 to {n}"), round=running.number, n=count
        )
    given = _whole(minutes)
    if given is None or given > EXTRA_MINUTES_MOST:
        raise invalid(
            "minutes", gettext_noop("extra minutes: a whole number from 0 to {most}"), most=EXTRA_MINUTES_MOST
        )
    row, locked_table = _locked_at(tournament, found)
    if done_already(row, client_token):
        return
    if locked_table.is_locked:
        raise invalid("table", gettext_noop("table {table} is done already"), table=locked_table.number)
    before = locked_table.extra_minutes
    locked_table.extra_minutes = given
    locked_table.save(update_fields=["extra_minutes"])
    _audit(
        row,
        locked_table,
        TournamentChange.Action.TIME,
        user,
        before={"extra_minutes": before},
        after={"extra_minutes": given},
        client_token=client_token,
    )
    results.bump(row, counted=False)  # the control page shows it; the ranking does not move


def _whole(raw: object) -> int | None:
    """A whole number of at most three digits as typed ("10", " 5 "), else None."""
    text = str(raw).strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 3 else None


def live_key(tournament: Tournament) -> str:
    """What the control page's poll compares: the tournament's version and its
    tables' sheets (each hand moves its session's version, never the tournament's),
    so the organiser sees the hands played at every table as they are saved."""
    sessions = TableRound.objects.filter(round__tournament=tournament).values("session_id")
    return f"{tournament.version}.{scoring.sessions_version(sessions)}"


def control(tournament: Tournament, number: int | None = None) -> Control:
    """The day at a glance: the tables of the current (or asked-for) round with their state."""
    rounds = tournament.rounds.order_by("number")
    current = rounds.filter(number=number).first() if number else None
    if current is None:
        current = rounds.filter(status__in=RELEASED).order_by("-number").first() or rounds.first()
    upcoming = rounds.exclude(status__in=RELEASED).first()
    if current is None:
        return Control(tournament, None, (), upcoming, 0)
    tables = list(current.tables.select_related("session").order_by("number"))
    names: dict[int, list[str]] = {}
    for seat in (
        TableSeat.objects.filter(round=current)
        .select_related("entrant")
        .order_by("table__number", "position")
    ):
        names.setdefault(seat.table_id, []).append(seat.entrant.name)
    played = results.live_played(tables)
    states = tuple(TableState(t, tuple(names.get(t.pk, ())), played[t.pk], table_clock(t)) for t in tables)
    done = sum(1 for s in states if s.table.is_locked)
    return Control(tournament, current, states, upcoming, done)


# -- corrections after sign-off (§3.5) --------------------------------------------------------


@dataclass(frozen=True)
class Correction:
    """A hand changed after the organiser opened its table, and why the table was opened."""

    hand_id: int
    number: int  # the hand's number on the sheet
    action: str  # a ``HandChange`` action: "edited", "deleted", "restored"
    reason: str
    at: datetime


def corrections(table: TableRound) -> list[Correction]:
    """The table's hands changed since the organiser first opened it (§3.5), each
    with the reason of the opening it was made under: what the table's pages show
    beside the corrected hands. Two queries, whatever the table holds."""
    if table.session_id is None:
        return []
    opened = list(
        TournamentChange.objects.filter(
            tournament_id=table.round.tournament_id,
            action=TournamentChange.Action.OPEN,
            round_number=table.round.number,
            table_number=table.number,
        )
        .order_by("at", "id")
        .values_list("at", "reason")
    )
    if not opened:
        return []
    changed_hands = (
        HandChange.objects.filter(
            hand__session_id=table.session_id,
            action__in=(HandChange.Action.EDITED, HandChange.Action.DELETED, HandChange.Action.RESTORED),
            at__gte=opened[0][0],
        )
        .select_related("hand")
        .order_by("at", "id")
    )
    found = []
    for change in changed_hands:
        reason = next(why for at, why in reversed(opened) if at <= change.at)
        found.append(Correction(change.hand_id, change.hand.number, change.action, reason, change.at))
    return found
