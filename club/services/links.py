"""The regular table's links to the evenings: which group an evening belongs to
(``GroupSession``) and which player of the roster sits at a seat (``RosterSeat``).
They are the club's rows, pointing at the evenings' rows; the evenings know
nothing of them, and the club writes nothing of the evenings'."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import QuerySet

from club.models import Group, GroupPlayer, GroupSession, RosterSeat
from scoring.models import Seat, Session


def group_id_of(session: Session) -> int | None:
    """The id of the group the evening belongs to, or None (a session of its own).
    A tournament's table is never a group's (``groups.group_session_add`` refuses
    it): nothing is read for it. Read once for a session's object: Django keeps the
    link (or its absence) on it."""
    if session.managed:
        return None
    try:
        return session.group_link.group_id
    except GroupSession.DoesNotExist:
        return None


def group_of(session: Session) -> Group | None:
    """The group the evening belongs to, or None."""
    group_id = group_id_of(session)
    return None if group_id is None else Group.objects.get(pk=group_id)


def group_join(session: Session, group: Group) -> None:
    """The evening belongs to the group from now on."""
    GroupSession.objects.create(session=session, group=group)


def evenings_of(group: Group) -> QuerySet[Session]:
    """The group's evenings, deleted ones too."""
    return Session.objects.filter(group_link__group=group)


def outside_groups() -> QuerySet[Session]:
    """The sessions that belong to no group."""
    return Session.objects.filter(group_link__isnull=True)


def players_at(seats: Iterable[Seat]) -> dict[int, GroupPlayer]:
    """The roster's player at each seat that has one, by the seat's id (one query)."""
    ids = [seat.pk for seat in seats]
    links = RosterSeat.objects.filter(seat_id__in=ids).select_related("player")
    return {link.seat_id: link.player for link in links}


def player_ids_at(seats: Iterable[Seat]) -> dict[int, int]:
    """The id of the roster's player at each seat that has one, by the seat's id (one query)."""
    ids = [seat.pk for seat in seats]
    return dict(RosterSeat.objects.filter(seat_id__in=ids).values_list("seat_id", "player_id"))


def seat_player(seat: Seat, player: GroupPlayer) -> None:
    """The roster's player sitting at the seat from now on."""
    RosterSeat.objects.update_or_create(seat=seat, defaults={"player": player})


def currency_of(session: Session) -> str:
    """The sign the evening's money is shown with: its group's (none outside a group)."""
    if session.managed:
        return ""
    found = GroupSession.objects.filter(session_id=session.pk).values_list("group__currency", flat=True)
    return str(found.first() or "")
