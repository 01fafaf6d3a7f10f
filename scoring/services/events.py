"""What other apps hear of an evening, in the transaction that changes it.

The evenings know nothing of what is built on them: the regular table (the
``club`` app) keeps each player's evening (``EveningResult``) and the Kasse's
bookings, and must see every change of an evening in the same transaction, so
that a page never shows statistics or money of an evening as it no longer is.
Rather than calling the club app (an arrow back up), the evening's services send
these Django signals; the club app connects its receivers in its
``AppConfig.ready``.

The semantics are those of a direct call, on purpose: ``Signal.send`` (never
``send_robust``) runs each receiver at once, in the caller's transaction and
with its row lock held, and an exception a receiver raises (an evening whose
money no longer fits, ``InvalidInput``) propagates and rolls the whole change
back. Every argument is keyword-only.

- ``sheet_changed(session)``: the sheet got a new version (``mark_changed``):
  a hand recorded, corrected, deleted or restored, a player renamed, the
  evening closed, reopened, deleted or restored, its rules or day changed.
- ``evening_settled(session, user)``: what the evening books may have changed
  (closed, reopened, deleted, restored, a player renamed); sent after
  ``sheet_changed``.
- ``seat_renamed(session, seat, name)``: a player's name at the session's table
  was corrected to ``name``; sent before the ``sheet_changed`` of the same correction.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.dispatch import Signal

from scoring.models import Seat, Session

sheet_changed = Signal()
evening_settled = Signal()
seat_renamed = Signal()


def send_sheet_changed(session: Session) -> None:
    sheet_changed.send(sender=Session, session=session)


def send_evening_settled(session: Session, user: User | None) -> None:
    evening_settled.send(sender=Session, session=session, user=user)


def send_seat_renamed(session: Session, seat: Seat, name: str) -> None:
    seat_renamed.send(sender=Seat, session=session, seat=seat, name=name)
