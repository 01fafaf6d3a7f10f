"""What the ratings read from the evenings and tournaments: each event's players
and ranks (``event_refresh``), and who each of its sources is across groups
and cups (``Resolver``)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from decimal import Decimal

from django.utils import timezone

from club.models import EveningResult
from ratings.models import RatingEvent, RegisterLink, RosterLink, family_of
from ratings.services.model import ranks_of
from scoring.models import Session
from tournaments.models import CupPlayer, Entrant, RoundResult, TableRound


def event_refresh(kind: str, source_id: int) -> RatingEvent | None:
    """The event of this evening or table-round written again from what is stored
    now: counted while the evening is closed (the table locked), with its players'
    ranks; ``None`` for something that never counted."""
    found = RatingEvent.objects.filter(kind=kind, source_id=source_id).first()
    read = _evening(source_id) if kind == RatingEvent.Kind.EVENING else _table(source_id)
    if read is None:
        if found is not None and found.counted:
            found.counted = False
            found.save(update_fields=["counted"])
        return found
    family, at, played_on, label, results = read
    ranks = ranks_of(results)
    players = [[source, ranks[source]] for source in sorted(results)]
    if found is None:
        return RatingEvent.objects.create(
            kind=kind,
            source_id=source_id,
            family=family,
            at=at,
            counted=True,
            played_on=played_on,
            label=label,
            players=players,
        )
    found.family, found.counted, found.played_on, found.label, found.players = (
        family,
        True,
        played_on,
        label,
        players,
    )
    found.save(update_fields=["family", "counted", "played_on", "label", "players"])
    return found


Read = tuple[str, datetime, date, str, dict[str, Decimal]]


def _evening(session_id: int) -> Read | None:
    """A closed evening of a group, by each roster player's total (the balance its settlement pays)."""
    session = (
        Session.objects.filter(
            pk=session_id, group__isnull=False, closed_at__isnull=False, deleted_at__isnull=True
        )
        .select_related("group")
        .first()
    )
    if session is None or session.closed_at is None or session.group is None:
        return None
    totals = {
        f"g:{row.player_id}": row.total
        for row in EveningResult.objects.filter(session_id=session_id).only("player_id", "total")
    }
    if len(totals) < 2:
        return None
    label = f"{session.name} · {session.group.name}"
    return family_of(session.variant), session.closed_at, session.played_on, label[:200], totals


def _table(table_id: int) -> Read | None:
    """A locked table-round (signed, ended or typed in) of a tournament not deleted, by round result."""
    table = TableRound.objects.filter(pk=table_id).select_related("round__tournament").first()
    if table is None or not table.is_locked or table.round.tournament.deleted_at is not None:
        return None
    results = {
        f"e:{row.entrant_id}": row.points
        for row in RoundResult.objects.filter(table=table, counted=True, bye=False).only(
            "entrant_id", "points"
        )
    }
    if len(results) < 2:
        return None
    tournament = table.round.tournament
    at = table.signed_at or timezone.now()
    label = f"{tournament.name} · {table.round.number}/{table.number}"
    return family_of(tournament.variant), at, tournament.played_on, label[:200], results


class Resolver:
    """Who each source is: an account where the player linked it, else the roster
    player, register entry or entrant it stands for. Reads every link once."""

    def __init__(self) -> None:
        self.roster_users = dict(RosterLink.objects.values_list("player_id", "user_id"))
        self.register = {
            entry: (user, roster)
            for entry, user, roster in RegisterLink.objects.values_list("entry_id", "user_id", "roster_id")
        }
        self.entries: dict[int, tuple[int | None, int | None]] = {}
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
            rows = CupPlayer.objects.filter(pk__in=missing).values_list("pk", "merged_into_id", "roster_id")
            for pk, merged, roster in rows:
                self.entries[pk] = (merged, roster)
            for gone in missing - set(self.entries):
                self.entries[gone] = (None, None)  # deleted meanwhile: counts on its own
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
        if linked_roster is not None:
            return self.roster(linked_roster)
        roster = self.entries.get(pk, (None, None))[1]
        return self.roster(roster) if roster is not None else f"c:{pk}"
