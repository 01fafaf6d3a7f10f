"""Who may see and change what. Anything a user may not work on does not exist
for them (``DoesNotExist``), so a stranger cannot even learn that it is there."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Exists, OuterRef, Q, QuerySet

from scoring import rows
from scoring.models import Group, Hand, Membership, Session
from scoring.services.sessions import restorable_since

# The session's row as every page reads it, in one statement written out once
# (``scoring.rows``): building the same query with the ORM on every request cost
# more than running it.
SESSION_COLUMNS = rows.columns(Session, "s")
_VERSION = [field.attname for field in Session._meta.concrete_fields].index("version")
_MAY_WORK_ON = (
    's."owner_id" = %s'
    f' OR EXISTS (SELECT 1 FROM "{Session.editors.through._meta.db_table}" e'
    ' WHERE e."session_id" = s."id" AND e."user_id" = %s)'
    f' OR EXISTS (SELECT 1 FROM "{Membership._meta.db_table}" m'
    ' WHERE m."group_id" = s."group_id" AND m."user_id" = %s)'
)
_SESSIONS = f'SELECT {SESSION_COLUMNS} FROM "{Session._meta.db_table}" s WHERE s."deleted_at" IS NULL'


def session_for(user: User, pk: int, *, owner_only: bool = False) -> Session:
    """A session the user may work on: their own, one they were made an editor of,
    or an evening of a group they are a member of; a deleted session is not there any more."""
    if owner_only:
        row = rows.fetch_one(f'{_SESSIONS} AND s."id" = %s AND s."owner_id" = %s', [pk, user.pk])
    else:
        row = rows.fetch_one(f'{_SESSIONS} AND s."id" = %s AND ({_MAY_WORK_ON})', [pk, *[user.pk] * 3])
    if row is None:
        raise Session.DoesNotExist
    return session_from_row(row)


def session_from_row(row: Sequence[Any]) -> Session:
    """The session of a row read with ``SESSION_COLUMNS``."""
    return rows.from_row(Session, row)


def _may_work_on(user: User, path: str) -> Q:
    """The owner, a named editor, or a member of the session's group. ``path`` leads
    from the model queried to its session (``""`` for a session, ``"session__"`` for a hand);
    each test is an EXISTS, so a session is found once without DISTINCT."""
    session_id = f"{path}id" if path else "pk"
    owner = Q(**{f"{path}owner": user})
    editor = Session.editors.through.objects.filter(session_id=OuterRef(session_id), user_id=user.pk)
    member = Membership.objects.filter(group_id=OuterRef(f"{path}group_id"), user_id=user.pk)
    return owner | Exists(editor) | Exists(member)


def session_deleted_for(user: User, pk: int) -> Session:
    """A session its owner deleted and can still restore."""
    return deleted_sessions(user).get(pk=pk)


def deleted_sessions(user: User) -> QuerySet[Session]:
    """The owner's deleted sessions that can still be restored, the latest first."""
    return Session.objects.filter(
        owner=user, deleted_at__isnull=False, deleted_at__gt=restorable_since()
    ).order_by("-deleted_at")


def group_for(user: User, pk: int, *, owner_only: bool = False) -> Group:
    """A group the user is a member of (its owner, with ``owner_only``): one query."""
    group, owner = group_and_role(user, pk)
    if owner_only and not owner:
        raise Group.DoesNotExist
    return group


def group_and_role(user: User, pk: int) -> tuple[Group, bool]:
    """A group the user is a member of, and whether they own it: one query."""
    row = rows.fetch_one(_GROUP_OF_MEMBER, [user.pk, pk])
    if row is None:
        raise Group.DoesNotExist
    return rows.from_row(Group, row[:-1]), row[-1] == Membership.Role.OWNER.value


_GROUP_OF_MEMBER = (
    f'SELECT {rows.columns(Group, "g")}, m."role" FROM "{Group._meta.db_table}" g'
    f' INNER JOIN "{Membership._meta.db_table}" m ON m."group_id" = g."id" AND m."user_id" = %s'
    ' WHERE g."id" = %s'
)


def session_shared(token: str) -> Session:
    """The session behind a share link (read-only); ``Session.DoesNotExist`` if
    revoked or the session was deleted."""
    return session_from_row(shared_row(token))


def shared_row(token: str) -> tuple[Any, ...]:
    """The row of the session behind a share link, not yet made a ``Session``:
    a watcher's poll with nothing changed needs only its version
    (``row_version``); ``Session.DoesNotExist`` if revoked or deleted."""
    row = rows.fetch_one(f'{_SESSIONS} AND s."share_token" = %s', [token]) if token else None
    if row is None:
        raise Session.DoesNotExist
    return row


def row_version(row: Sequence[Any]) -> str:
    """The version of a session's row, as a watching phone sends it back."""
    return str(row[_VERSION])


def hand_of(user: User, pk: int, hand_id: int) -> Hand:
    """A hand of a session the user may work on, with its session, in one query
    (``Hand.DoesNotExist`` for anyone else)."""
    return (
        Hand.objects.select_related("session")
        .filter(_may_work_on(user, "session__"), pk=hand_id, session_id=pk, session__deleted_at__isnull=True)
        .get()
    )


def hand_for(session: Session, hand_id: int) -> Hand:
    """A hand of a session the caller may already work on (``Hand.DoesNotExist`` otherwise)."""
    hand = Hand.objects.get(pk=hand_id, session_id=session.pk)
    hand.session = session
    return hand
