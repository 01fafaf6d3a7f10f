"""Helpers for the regular table's tests: a group with its evenings."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User

from club.models import Group, GroupPlayer
from club.services import groups
from scoring import services
from scoring.models import Hand, Session


def evening(
    group: Group,
    owner: User,
    hands: Sequence[dict[str, Any]],
    *,
    variant: str = "french",
    players: Sequence[str] = ("Anna", "Bert", "Carl", "Dora"),
    options: dict[str, Any] | None = None,
    money_rate: Decimal | None = None,
    played_on: date | None = None,
    name: str = "Dienstag",
) -> tuple[Session, list[Hand]]:
    """An evening of the group with these hands recorded through the services."""
    session = groups.group_session_create(
        group=group,
        owner=owner,
        name=name,
        variant=variant,
        players=list(players),
        options=options or {},
        money_rate=money_rate,
    )
    if played_on is not None:
        Session.objects.filter(pk=session.pk).update(played_on=played_on)
        session.refresh_from_db()
    recorded = [services.hand_record(session=session, raw=hand, user=owner) for hand in hands]
    return session, recorded


def player(group: Group, name: str) -> GroupPlayer:
    return GroupPlayer.objects.get(group=group, name=name)
