"""The regular table following its evenings: the receivers of the evenings'
events (``scoring.services.events``), connected in ``ClubConfig.ready``.

Each runs in the transaction of the evening's change, with its row lock held,
exactly as when the evening's services called them directly: the statistics
rows are written again, the Kasse settles what the evening books, a corrected
name moves the seat to the roster's player of that name. An exception here
rolls the evening's change back.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from club.models import Group
from club.services import kasse, standings
from club.services.groups import roster_player
from club.services.links import group_id_of, players_at, seat_player
from scoring.models import Seat, Session


def on_sheet_changed(*, session: Session, **_: Any) -> None:
    """The group's statistics (an evening of a group) are written again."""
    if group_id_of(session) is not None:
        standings.evening_refresh(session)


def on_evening_settled(*, session: Session, user: User | None, **_: Any) -> None:
    """The Kasse holds what the evening books now (``kasse.evening_settle``)."""
    kasse.evening_settle(session=session, user=user)


def on_seat_renamed(*, session: Session, seat: Seat, name: str, **_: Any) -> None:
    """In a group's evening the seat moves to the roster's player of the corrected
    name (a new name joins the roster), so statistics and Kasse follow the right
    person. The roster's player of the misspelt name goes when nothing else knows
    it: no other seat, no account linked, nothing booked."""
    group_id = group_id_of(session)
    if group_id is None:
        return
    former = players_at([seat]).get(seat.pk)
    seat_player(seat, roster_player(Group.objects.get(pk=group_id), name))
    if (
        former is not None
        and former.user_id is None
        and not former.seats.exists()
        and not former.booking_lines.exists()
    ):
        former.delete()
