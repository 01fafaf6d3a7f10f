"""What the ratings read from the evenings and tournaments: each event's players
and ranks (``events_refresh``), and who each of its sources is across groups
and cups (``Resolver``)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from decimal import Decimal

from django.db.models import Min
from django.utils import timezone

from club.models import EveningResult
from ratings.models import RatingEvent, RegisterLink, RosterLink, family_of
from ratings.services.model import ranks_of
from scoring.models import Session, SessionChange
from tournaments.models import CupPlayer, Entrant, RoundResult, TableRound, TournamentChange


def events_refresh(kind: str, ids: Iterable[int]) -> list[RatingEvent]:
    """The events of these evenings or table-rounds written again from what is
    stored now, in a few queries for all of them: counted while the evening is
    closed (the table locked), with its players' ranks. Returns the events that
    exist (an evening that never counted has none)."""
    wanted = sorted(set(ids))
    found = {e.source_id: e for e in RatingEvent.objects.filter(kind=kind, source_id__in=wanted).order_by()}
    reads = _evenings(wanted) if kind == RatingEvent.Kind.EVENING else _tables(wanted)
    made, changed = [], []
    for source_id in wanted:
        event, read = found.get(source_id), reads.get(source_id)
        if read is None:
            if event is not None and event.counted:
                event.counted = False
                changed.append(event)
            continue
        family, at, played_on, label, results = read
        ranks = ranks_of(results)
        players = [[source, ranks[source]] for source in sorted(results)]
        if event is None:
            made.append(RatingEvent(kind=kind, source_id=source_id, at=at, family=family))
            event = made[-1]
        else:
            changed.append(event)
        event.family, event.counted, event.played_on, event.label, event.players = (
            family,
            True,
            played_on,
            label,
            players,
        )
    RatingEvent.objects.bulk_update(
        changed, ["family", "counted", "played_on", "label", "players"], batch_size=500
    )
    RatingEvent.objects.bulk_create(made, batch_size=500)
    return list(RatingEvent.objects.filter(kind=kind, source_id__in=wanted).order_by())


Read = tuple[str, datetime, date, str, dict[str, Decimal]]


def _evenings(ids: list[int]) -> dict[int, Read]:
    """Closed evenings of a group, by each roster player's total (the balance its settlement pays)."""
    sessions = (
        Session.objects.filter(
            pk__in=ids, group_link__isnull=False, closed_at__isnull=False, deleted_at__isnull=True
        )
        .select_related("group_link__group")
        .order_by()
    )
    totals: dict[int, dict[str, Decimal]] = {}
    rows = EveningResult.objects.filter(session_id__in=ids).order_by()
    for session_id, player_id, total in rows.values_list("session_id", "player_id", "total"):
        totals.setdefault(session_id, {})[f"g:{player_id}"] = total
    # When each was first closed, from its audit: the order does not move when the
    # marks are followed later (the command's cron) or after a reopening.
    closings = SessionChange.objects.filter(session_id__in=ids, action=SessionChange.Action.CLOSED).order_by()
    first = dict(closings.values("session_id").annotate(at=Min("at")).values_list("session_id", "at"))
    reads = {}
    for session in sessions:
        results = totals.get(session.pk, {})
        if session.closed_at is None or len(results) < 2:
            continue
        label = f"{session.name} · {session.group_link.group.name}"
        reads[session.pk] = (
            family_of(session.variant),
            first.get(session.pk) or session.closed_at,
            session.played_on,
            label[:200],
            results,
        )
    return reads


def _tables(ids: list[int]) -> dict[int, Read]:
    """Locked table-rounds (signed, ended or typed in) of tournaments not deleted, by round result."""
    locked = (TableRound.Status.SIGNED, TableRound.Status.ENDED, TableRound.Status.DESK)
    tables = list(
        TableRound.objects.filter(pk__in=ids, status__in=locked, round__tournament__deleted_at__isnull=True)
        .select_related("round__tournament")
        .order_by()
    )
    points: dict[int, dict[str, Decimal]] = {}
    rows = RoundResult.objects.filter(table_id__in=ids, counted=True, bye=False).order_by()
    for table_id, entrant_id, value in rows.values_list("table_id", "entrant_id", "points"):
        points.setdefault(table_id, {})[f"e:{entrant_id}"] = value
    first = _first_locked(tables)
    reads = {}
    for table in tables:
        results = points.get(table.pk, {})
        if len(results) < 2:
            continue
        tournament = table.round.tournament
        label = f"{tournament.name} · {table.round.number}/{table.number}"
        at = first.get((tournament.pk, table.round.number, table.number)) or table.signed_at or timezone.now()
        reads[table.pk] = (family_of(tournament.variant), at, tournament.played_on, label[:200], results)
    return reads


def _first_locked(tables: list[TableRound]) -> dict[tuple[int, int, int], datetime]:
    """When each table was first signed, ended or typed in, from the tournament's audit."""
    actions = (TournamentChange.Action.SIGN, TournamentChange.Action.DESK, TournamentChange.Action.END)
    changes = (
        TournamentChange.objects.filter(
            tournament_id__in={table.round.tournament_id for table in tables}, action__in=actions
        )
        .exclude(reason="waiting")  # a scorer's sign-off the organiser has yet to confirm
        .order_by()
        .values("tournament_id", "round_number", "table_number")
        .annotate(first=Min("at"))
        .values_list("tournament_id", "round_number", "table_number", "first")
    )
    return {(t, r, n): at for t, r, n, at in changes if r is not None and n is not None}


class Resolver:
    """Who each source is: an account where the player linked it (her cup's
    register entry, or the circuit number that entry belongs to), else the roster
    player, register entry or entrant it stands for. Reads every link once."""

    def __init__(self) -> None:
        self.roster_users = dict(RosterLink.objects.values_list("player_id", "user_id"))
        self.register = {
            entry: (user, roster)
            for entry, user, roster in RegisterLink.objects.filter(entry__isnull=False).values_list(
                "entry_id", "user_id", "roster_id"
            )
        }
        # A circuit number's account, read for the number kept where it was merged
        # (the cups' entries follow the kept number); the kept number's own link first.
        self.numbers: dict[int, int] = {}
        circuit_links = RegisterLink.objects.filter(circuit_entry__isnull=False, user__isnull=False)
        rows = circuit_links.values_list("circuit_entry_id", "circuit_entry__merged_into_id", "user_id")
        for number, merged_into, user in sorted(rows, key=lambda row: (row[1] is not None, row[0])):
            self.numbers.setdefault(merged_into or number, user)
        self.entries: dict[int, tuple[int | None, int | None, int | None]] = {}
        self.entrants: dict[int, tuple[int | None, int | None]] = {}

    def load(self, sources: Iterable[str]) -> None:
        """Read the entrants and register entries these sources need, in a few queries."""
        wanted = {int(s[2:]) for s in sources if s.startswith("e:")}
        wanted = {pk for pk in wanted if pk not in self.entrants}
        if wanted:
            for pk, cup_player, roster in Entrant.objects.filter(pk__in=wanted).values_list(
                "pk", "cup_player_id", "roster_id"
            ):
                self.entrants[pk] = (cup_player, roster)
            self._entries({self.entrants[pk][0] for pk in wanted if pk in self.entrants} - {None})

    def _entries(self, wanted: set[int | None]) -> None:
        missing = {pk for pk in wanted if pk is not None and pk not in self.entries}
        while missing:
            rows = CupPlayer.objects.filter(pk__in=missing).values_list(
                "pk", "merged_into_id", "roster_id", "circuit_player_id"
            )
            for pk, merged, roster, number in rows:
                self.entries[pk] = (merged, roster, number)
            for gone in missing - set(self.entries):
                self.entries[gone] = (None, None, None)  # deleted meanwhile: counts on its own
            following = {self.entries[pk][0] for pk in missing}
            missing = {pk for pk in following if pk is not None and pk not in self.entries}

    def key(self, source: str) -> str:
        kind, _, raw = source.partition(":")
        pk = int(raw)
        if kind == "g":
            return self.roster(pk)
        if kind == "c":
            return self.entry(pk)
        if kind == "e":
            if pk not in self.entrants:
                self.load([source])
            cup_player, roster = self.entrants.get(pk, (None, None))
            if cup_player is not None:
                return self.entry(cup_player)
            if roster is not None:
                return self.roster(roster)
        return source

    def roster(self, pk: int) -> str:
        user = self.roster_users.get(pk)
        return f"u:{user}" if user is not None else f"g:{pk}"

    def entry(self, pk: int) -> str:
        if pk not in self.entries:
            self._entries({pk})
        seen: set[int] = set()
        while pk in self.entries and self.entries[pk][0] is not None and pk not in seen:
            seen.add(pk)
            pk = self.entries[pk][0]  # type: ignore[assignment]
        user, linked_roster = self.register.get(pk, (None, None))
        if user is not None:
            return f"u:{user}"
        _, roster, number = self.entries.get(pk, (None, None, None))
        if number is not None and number in self.numbers:
            return f"u:{self.numbers[number]}"  # her circuit number, linked with its PIN
        if linked_roster is not None:
            return self.roster(linked_roster)
        return self.roster(roster) if roster is not None else f"c:{pk}"
