"""Opening and closing a session and keeping its version: every change that
shows on the sheet goes through ``mark_changed`` in the same transaction."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from scoring.engine import variant_for
from scoring.engine.session_file import read_players
from scoring.models import Player, Seat, Session
from scoring.services import kasse, standings
from scoring.services.games import options_json


def mark_changed(session: Session) -> None:
    """The sheet of this session changed: a new version for caches and watchers.
    The increment happens in the database, so concurrent changes each count;
    the object's own ``version`` is exact when the caller holds the row lock."""
    now = timezone.now()
    Session.objects.filter(pk=session.pk).update(version=F("version") + 1, changed_at=now)
    session.version += 1
    session.changed_at = now
    if session.group_id is not None:
        standings.evening_refresh(session)  # the group's statistics follow every change


@transaction.atomic
def session_create(
    *,
    owner: User,
    name: str,
    variant: str,
    players: Sequence[str],
    options: dict[str, Any],
    money_rate: Decimal | None = None,
    played_on: date | None = None,
) -> Session:
    """Open a session; players are found by name among the owner's or created.
    It was played today unless ``played_on`` says otherwise."""
    game_variant = variant_for(variant)
    names = read_players(list(players), game_variant)
    parsed = game_variant.parse_options(options, names)
    session = Session.objects.create(
        owner=owner,
        name=name,
        variant=variant,
        options=options_json(parsed),
        money_rate=money_rate,
        played_on=played_on or timezone.localdate(),
        changed_at=timezone.now(),
    )
    for position, player_name in enumerate(names):
        player, _ = Player.objects.get_or_create(owner=owner, name=player_name)
        Seat.objects.create(session=session, player=player, position=position, name=player_name)
    return session


@transaction.atomic
def session_close(*, session: Session, user: User | None) -> Session:
    """Close the evening. An evening of a group with a money rate books its
    settlement into the group's Kasse. Closing a closed session changes nothing."""
    row = Session.objects.select_for_update().get(pk=session.pk)
    if row.closed_at is None:
        row.closed_at = timezone.now()
        row.save(update_fields=["closed_at"])
        mark_changed(row)
        kasse.evening_book(session=row, user=user)
    return row


@transaction.atomic
def session_reopen(*, session: Session, user: User | None) -> Session:
    """Open a closed evening again; what it booked into the Kasse is reversed by
    a counter-booking (closing it again books it anew)."""
    row = Session.objects.select_for_update().get(pk=session.pk)
    if row.closed_at is not None:
        row.closed_at = None
        row.save(update_fields=["closed_at"])
        mark_changed(row)
        kasse.evening_unbook(session=row, user=user)
    return row
