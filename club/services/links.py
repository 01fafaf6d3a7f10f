"""The regular table's links to the evenings: which group an evening belongs to
(``GroupSession``) and which player of the roster sits at a seat (``RosterSeat``).
They are the club's rows, pointing at the evenings' rows; the evenings know
nothing of them, and the club writes nothing of the evenings'."""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from django.db.models import QuerySet

from club.models import Group, GroupPlayer, GroupSession, RosterSeat
from scoring.models import Seat, Session
from scoring.services import circles


def group_id_of(session: Session) -> int | None:
    """The id of the group the evening belongs to, or None (a session of its own).
    Read at most once for a session's object, and not at all where nothing needs
    reading: a tournament's table is never a group's (``groups.group_session_add``
    refuses it); a session read with its circle's key (the access rule's statement,
    a watcher's, the save's: ``scoring.services.circles``) has it; Django keeps a
    link read or made (or its absence) on the object."""
    if session.managed:
        return None
    related = GroupSession.session.field.remote_field
    if related.is_cached(session):
        link = cast(GroupSession | None, related.get_cached_value(session))
        return None if link is None else int(link.group_id)
    read, key = circles.known_key(session)
    if read:
        return None if key is None else int(key)
    try:
        return int(session.group_link.group_id)
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
    """The sign the evening's money is shown with: its group's (none outside a group,
    and then nothing is read where the session came with its circle's key)."""
    group_id = group_id_of(session)
    if group_id is None:
        return ""
    return str(Group.objects.filter(pk=group_id).values_list("currency", flat=True).first() or "")
