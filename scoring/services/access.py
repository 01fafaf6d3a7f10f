"""Who may see and change what. Anything a user may not work on does not exist
for them (``DoesNotExist``), so a stranger cannot even learn that it is there.

One rule decides what a user may do with an evening (``Right``), written once
in SQL (``_RIGHT``) and read with the evening's row in the same statement:

- an evening in no group: its owner owns it; the editors named on it record and
  correct hands; nobody else has any right;
- an evening of a group: the rights come from the group. Its owner owns the
  evening; its members and the editors named on the evening record and correct
  hands. Whoever started the evening and has left the group (or was taken out of
  it) still reads it, as it stands, and changes nothing.

Membership of a group is the regular table's (the ``club`` app's ``Membership``):
the rule names its table through Django's app registry, so this module (and the
scoring app) imports nothing of the club app.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any

from django.apps import apps
from django.contrib.auth.models import User
from django.db.models import IntegerField, QuerySet
from django.db.models.expressions import RawSQL

from plumbing import queries
from scoring.models import Hand, Session
from scoring.services.sessions import restorable_since


class Right(enum.IntEnum):
    """What a user may do with an evening; each right includes the ones before it."""

    NONE = 0
    READ = 1  # the sheet, its hands, the settlement, the print view and the files
    RECORD = 2  # record, correct, delete and restore hands
    OWN = 3  # its settings, players' names, house rules, closing, reopening, deleting, sharing, editors

    @property
    def records(self) -> bool:
        return self >= Right.RECORD

    @property
    def owns(self) -> bool:
        return self is Right.OWN


def _right_sql(session: str) -> str:
    """The rule: the user's ``Right`` on the session row ``session`` (a table alias),
    in SQL taking the user's id ``_RIGHT_PARAMS`` times."""
    Membership = apps.get_model("club", "Membership")
    member = (
        f'SELECT 1 FROM "{Membership._meta.db_table}" m'
        f' WHERE m."group_id" = {session}."group_id" AND m."user_id" = %s'
    )
    editor = (
        f'SELECT 1 FROM "{Session.editors.through._meta.db_table}" e'
        f' WHERE e."session_id" = {session}."id" AND e."user_id" = %s'
    )
    return (
        "CASE"
        f' WHEN {session}."group_id" IS NULL AND {session}."owner_id" = %s THEN {Right.OWN:d}'
        f" WHEN EXISTS ({member} AND m.\"role\" = '{Membership.Role.OWNER.value}') THEN {Right.OWN:d}"
        f" WHEN EXISTS ({member}) THEN {Right.RECORD:d}"
        f" WHEN EXISTS ({editor}) THEN {Right.RECORD:d}"
        f' WHEN {session}."owner_id" = %s THEN {Right.READ:d}'  # started it in a group she has left
        f" ELSE {Right.NONE:d} END"
    )


_RIGHT_PARAMS = 5


def _right_params(user: User) -> list[Any]:
    return [user.pk] * _RIGHT_PARAMS


def _right_of(user: User) -> RawSQL:
    """The rule for the ORM's queries of sessions."""
    return RawSQL(_right_sql(f'"{Session._meta.db_table}"'), _right_params(user), output_field=IntegerField())


# The session's row as every page reads it, with the user's right on it, in one
# statement written out once (``plumbing.queries``): building the same query with
# the ORM on every request cost more than running it.
SESSION_COLUMNS = queries.columns(Session, "s")
_SESSION_WIDTH = len(Session._meta.concrete_fields)
_VERSION = [field.attname for field in Session._meta.concrete_fields].index("version")
_SESSIONS = f'SELECT {SESSION_COLUMNS} FROM "{Session._meta.db_table}" s WHERE s."deleted_at" IS NULL'
_SESSION_AND_RIGHT = (
    f'SELECT {SESSION_COLUMNS}, {_right_sql("s")} FROM "{Session._meta.db_table}" s'
    ' WHERE s."deleted_at" IS NULL AND s."id" = %s'
)
_HAND_AND_SESSION_AND_RIGHT = (
    f"SELECT {SESSION_COLUMNS}, {queries.columns(Hand, 'h')}, {_right_sql('s')}"
    f' FROM "{Hand._meta.db_table}" h INNER JOIN "{Session._meta.db_table}" s ON s."id" = h."session_id"'
    ' WHERE s."deleted_at" IS NULL AND h."id" = %s AND s."id" = %s'
)


def session_for(user: User, pk: int, *, need: Right = Right.READ) -> Session:
    """A session on which the user has at least the right ``need``; a deleted
    session is not there any more."""
    return session_and_right(user, pk, need=need)[0]


def session_and_right(user: User, pk: int, *, need: Right) -> tuple[Session, Right]:
    """A session on which the user has at least the right ``need``, and the right
    they have (what the page offers them): one query."""
    row = queries.fetch_one(_SESSION_AND_RIGHT, [*_right_params(user), pk])
    if row is None or row[-1] < need:
        raise Session.DoesNotExist
    return session_from_row(row[:-1]), Right(row[-1])


def session_from_row(row: Sequence[Any]) -> Session:
    """The session of a row read with ``SESSION_COLUMNS``."""
    return queries.from_row(Session, row)


def sessions_of(user: User) -> QuerySet[Session]:
    """Every session the user may open, not deleted, the one played last first
    (the same day: the one opened last)."""
    return (
        Session.objects.alias(right=_right_of(user))
        .filter(right__gte=Right.READ, deleted_at__isnull=True)
        .order_by("-played_on", "-created_at", "-id")
    )


def session_deleted_for(user: User, pk: int) -> Session:
    """A deleted session the user owns and can still restore."""
    return deleted_sessions(user).get(pk=pk)


def deleted_sessions(user: User) -> QuerySet[Session]:
    """The deleted sessions the user owns that can still be restored, the latest first."""
    return (
        Session.objects.alias(right=_right_of(user))
        .filter(right=Right.OWN, deleted_at__isnull=False, deleted_at__gt=restorable_since())
        .order_by("-deleted_at")
    )


def session_shared(token: str) -> Session:
    """The session behind a share link (read-only); ``Session.DoesNotExist`` if
    revoked or the session was deleted."""
    return session_from_row(shared_row(token))


def shared_row(token: str) -> tuple[Any, ...]:
    """The row of the session behind a share link, not yet made a ``Session``:
    a watcher's poll with nothing changed needs only its version
    (``row_version``); ``Session.DoesNotExist`` if revoked or deleted."""
    row = queries.fetch_one(f'{_SESSIONS} AND s."share_token" = %s', [token]) if token else None
    if row is None:
        raise Session.DoesNotExist
    return row


def row_version(row: Sequence[Any]) -> str:
    """The version of a session's row, as a watching phone sends it back."""
    return str(row[_VERSION])


def hand_of(user: User, pk: int, hand_id: int, *, need: Right) -> tuple[Hand, Right]:
    """A hand of a session on which the user has at least the right ``need``, with
    its session, and the right they have, in one query (``Hand.DoesNotExist`` otherwise)."""
    row = queries.fetch_one(_HAND_AND_SESSION_AND_RIGHT, [*_right_params(user), hand_id, pk])
    if row is None or row[-1] < need:
        raise Hand.DoesNotExist
    hand = queries.from_row(Hand, row[_SESSION_WIDTH:-1])
    hand.session = session_from_row(row[:_SESSION_WIDTH])
    return hand, Right(row[-1])


def hand_for(session: Session, hand_id: int) -> Hand:
    """A hand of a session the caller may already work on (``Hand.DoesNotExist`` otherwise)."""
    hand = Hand.objects.get(pk=hand_id, session_id=session.pk)
    hand.session = session
    return hand
