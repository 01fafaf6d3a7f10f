"""Who may see and change what. Anything a user may not work on does not exist
for them (``DoesNotExist``), so a stranger cannot even learn that it is there."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import Exists, OuterRef, Q

from scoring.models import Hand, Session


def session_for(user: User, pk: int, *, owner_only: bool = False) -> Session:
    """A session the user may work on: their own, or one they were made an editor of."""
    editor = Session.editors.through.objects.filter(session_id=OuterRef("pk"), user_id=user.pk)
    access = Q(owner=user) if owner_only else Q(owner=user) | Exists(editor)
    return Session.objects.filter(access, pk=pk).get()


def session_shared(token: str) -> Session:
    """The session behind a share link (read-only); ``Session.DoesNotExist`` if revoked."""
    if not token:
        raise Session.DoesNotExist
    return Session.objects.get(share_token=token)


def hand_of(user: User, pk: int, hand_id: int) -> Hand:
    """A hand of a session the user may work on, with its session, in one query
    (``Hand.DoesNotExist`` for anyone else)."""
    editor = Session.editors.through.objects.filter(session_id=OuterRef("session_id"), user_id=user.pk)
    return (
        Hand.objects.select_related("session")
        .filter(Q(session__owner=user) | Exists(editor), pk=hand_id, session_id=pk)
        .get()
    )


def hand_for(session: Session, hand_id: int) -> Hand:
    """A hand of a session the caller may already work on (``Hand.DoesNotExist`` otherwise)."""
    hand = Hand.objects.get(pk=hand_id, session_id=session.pk)
    hand.session = session
    return hand
