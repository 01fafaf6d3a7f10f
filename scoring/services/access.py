"""Who may see and change what. Anything a user may not work on does not exist
for them (``DoesNotExist``), so a stranger cannot even learn that it is there.

One rule decides what a user may do with an evening (``Right``), written once
in SQL (``plumbing.queries.right_sql``, where every statement is written out) and
read with the evening's row in the same statement:

- an evening in no circle: its owner owns it; the editors named on it record and
  correct hands; nobody else has any right;
- an evening of a circle (a regular table's group): the rights come from the
  circle first, as the circle gives them (a group's owner owns the evening, its
  members record and correct hands); then the editors named on the evening
  record and correct hands. Whoever started the evening and has left the circle
  (or was taken out of it) still reads it, as it stands, and changes nothing.

Who is in a circle is the business of the app that keeps it (the ``club`` app's
groups): it registers its SQL with ``circles.circle_register`` when it is ready,
and the rule names neither its models nor its tables.
"""

from __future__ import annotations

import enum

from django.contrib.auth.models import User
from django.db.models import QuerySet

from plumbing import queries
from scoring.models import Hand, Session
from scoring.services import circles
from scoring.services.sessions import restorable_since


class Right(enum.IntEnum):
    """What a user may do with an evening; each right includes the ones before it."""

    NONE = queries.RIGHT_NONE
    READ = queries.RIGHT_READ  # the sheet, its hands, the settlement, the print view and the files
    RECORD = queries.RIGHT_RECORD  # record, correct, delete and restore hands
    OWN = (
        queries.RIGHT_OWN
    )  # its settings, players' names, house rules, closing, reopening, deleting, sharing, editors

    @property
    def records(self) -> bool:
        return self >= Right.RECORD

    @property
    def owns(self) -> bool:
        return self is Right.OWN


def session_for(user: User, pk: int, *, need: Right = Right.READ) -> Session:
    """A session on which the user has at least the right ``need``; a deleted
    session is not there any more."""
    return session_and_right(user, pk, need=need)[0]


def session_and_right(user: User, pk: int, *, need: Right) -> tuple[Session, Right]:
    """A session on which the user has at least the right ``need``, and the right
    they have (what the page offers them): one query."""
    found = queries.session_and_right(user.pk, pk, circles.rights())
    if found is None or found.right < need:
        raise Session.DoesNotExist
    return found.session, Right(found.right)


def sessions_of(user: User) -> QuerySet[Session]:
    """Every session the user may open, not deleted, the one played last first
    (the same day: the one opened last); not the managed ones (a tournament's
    tables), which their tournament lists."""
    return (
        Session.objects.alias(right=queries.right_of(user.pk, circles.rights()))
        .filter(right__gte=Right.READ, deleted_at__isnull=True, managed=False)
        .order_by("-played_on", "-created_at", "-id")
    )


def session_deleted_for(user: User, pk: int) -> Session:
    """A deleted session the user owns and can still restore."""
    return deleted_sessions(user).get(pk=pk)


def deleted_sessions(user: User) -> QuerySet[Session]:
    """The deleted sessions the user owns that can still be restored, the latest first."""
    return (
        Session.objects.alias(right=queries.right_of(user.pk, circles.rights()))
        .filter(right=Right.OWN, deleted_at__isnull=False, deleted_at__gt=restorable_since())
        .order_by("-deleted_at")
    )


def session_shared(token: str) -> Session:
    """The session behind a share link (read-only); ``Session.DoesNotExist`` if
    revoked or the session was deleted."""
    session: Session = shared_row(token).session()
    return session


def shared_row(token: str) -> queries.SessionRow:
    """The row of the session behind a share link, not yet made a ``Session``:
    a watcher's poll with nothing changed needs only its version
    (``row_version``); ``Session.DoesNotExist`` if revoked or deleted."""
    row = queries.shared_session(token, circles.rights())
    if row is None:
        raise Session.DoesNotExist
    return row


def row_version(row: queries.SessionRow) -> str:
    """The version of a session's row, as a watching phone sends it back."""
    return str(row.version)


def hand_of(user: User, pk: int, hand_id: int, *, need: Right) -> tuple[Hand, Right]:
    """A hand of a session on which the user has at least the right ``need``, with
    its session, and the right they have, in one query (``Hand.DoesNotExist`` otherwise)."""
    found = queries.hand_and_right(user.pk, hand_id, pk, circles.rights())
    if found is None or found.right < need:
        raise Hand.DoesNotExist
    hand: Hand = found.hand
    return hand, Right(found.right)


def hand_for(session: Session, hand_id: int) -> Hand:
    """A hand of a session the caller may already work on (``Hand.DoesNotExist`` otherwise)."""
    hand = Hand.objects.get(pk=hand_id, session_id=session.pk)
    hand.session = session
    return hand
