"""Share links, editors, and the state a watching phone compares."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from scoring.models import Session
from scoring.services.sessions import check_unmanaged


@dataclass(frozen=True)
class BoardState:
    """What a watching phone compares: ``version`` changes whenever anything on the
    sheet changes; ``last_change`` is when. Read from the session row alone."""

    version: str
    last_change: datetime | None

    @classmethod
    def of(cls, session: Session) -> BoardState:
        """The state of a session row read just now."""
        return cls(version=str(session.version), last_change=session.changed_at)


def session_board_state(session: Session) -> BoardState:
    """The session's current version, read afresh from its row (one query, no hands)."""
    return BoardState.of(Session.objects.only("version", "changed_at").get(pk=session.pk))


@transaction.atomic
def session_share(*, session: Session) -> str:
    """A new unguessable share link; an earlier link stops working. A managed
    session is shared by what manages it (``SessionManaged``)."""
    check_unmanaged(session)
    session.share_token = secrets.token_urlsafe(24)
    session.save(update_fields=["share_token"])
    return session.share_token


@transaction.atomic
def session_unshare(*, session: Session) -> None:
    check_unmanaged(session)
    session.share_token = None
    session.save(update_fields=["share_token"])


class EditorRefused(ValueError):
    """The named user cannot be made an editor: ``reason`` is "unknown" or "owner"."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"username: {reason}")


@transaction.atomic
def session_add_editor(*, session: Session, username: str) -> User:
    """Another account records hands too; a managed session's recorders are its
    manager's to choose (``SessionManaged``)."""
    check_unmanaged(session)
    try:
        editor = User.objects.get(username=username.strip())
    except User.DoesNotExist:
        raise EditorRefused("unknown") from None
    if editor.pk == session.owner_id:
        raise EditorRefused("owner")
    session.editors.add(editor)
    return editor


@transaction.atomic
def sessions_set_editors(*, session_ids: Any, users: Sequence[User]) -> None:
    """The recorders of managed sessions, as what manages them names them (a
    tournament's organisers at its tables): every one of ``session_ids`` (ids, or a
    query of them) gets exactly ``users``."""
    for session in Session.objects.filter(pk__in=session_ids, managed=True):
        session.editors.set(users)


@transaction.atomic
def session_remove_editor(*, session: Session, user_id: int) -> None:
    check_unmanaged(session)
    session.editors.remove(user_id)
