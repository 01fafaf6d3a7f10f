"""Who may see and change what. Anything a user may not work on does not exist
for them (``DoesNotExist``), so a stranger cannot even learn that it is there."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet

from scoring.models import Group, Hand, Membership, Session
from scoring.services.sessions import restorable_since


def session_for(user: User, pk: int, *, owner_only: bool = False) -> Session:
    """A session the user may work on: their own, one they were made an editor of,
    or an evening of a group they are a member of; a deleted session is not there any more."""
    sessions = Session.objects.filter(pk=pk, deleted_at__isnull=True)
    access = (
        Q(owner=user) if owner_only else Q(owner=user) | Q(editors=user) | Q(group__memberships__user=user)
    )
    return sessions.filter(access).distinct().get()


def session_deleted_for(user: User, pk: int) -> Session:
    """A session its owner deleted and can still restore."""
    return deleted_sessions(user).get(pk=pk)


def deleted_sessions(user: User) -> QuerySet[Session]:
    """The owner's deleted sessions that can still be restored, the latest first."""
    return Session.objects.filter(
        owner=user, deleted_at__isnull=False, deleted_at__gt=restorable_since()
    ).order_by("-deleted_at")


def group_for(user: User, pk: int, *, owner_only: bool = False) -> Group:
    """A group the user is a member of (its owner, with ``owner_only``)."""
    memberships = Membership.objects.filter(group_id=pk, user=user)
    if owner_only:
        memberships = memberships.filter(role=Membership.Role.OWNER)
    if not memberships.exists():
        raise Group.DoesNotExist
    return Group.objects.get(pk=pk)


def session_shared(token: str) -> Session:
    """The session behind a share link (read-only); ``Session.DoesNotExist`` if
    revoked or the session was deleted."""
    if not token:
        raise Session.DoesNotExist
    return Session.objects.get(share_token=token, deleted_at__isnull=True)


def hand_for(session: Session, hand_id: int) -> Hand:
    """A hand of a session the caller may already work on (``Hand.DoesNotExist`` otherwise)."""
    hand = Hand.objects.get(pk=hand_id, session_id=session.pk)
    hand.session = session
    return hand
