"""Marks: what the ratings have still to follow, written in the transaction of
the change that needs it (an evening closed or reopened, a table signed or
opened again, a link made or removed): one small row, never the computation.
``ratings_update`` follows them, in a thread after the answer
(``background``) or from ``manage.py update_ratings``."""

from __future__ import annotations

import operator
from functools import reduce
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from club.services.links import group_id_of
from ratings.models import RatingMark
from ratings.services import background
from ratings.services.recompute import family_recompute, follow
from scoring.models import Session
from tournaments.models import TableRound

LOCKED = TableRound.LOCKED
BATCH = 1000  # marks followed in one go: each family recomputed once for all of them


def mark(*sources: str) -> None:
    """Leave marks in the caller's transaction; once it commits, the ratings follow them."""
    if not sources:
        return
    now = timezone.now()
    RatingMark.objects.bulk_create(  # one statement: INSERT … ON CONFLICT (source) DO UPDATE
        [RatingMark(source=source, marked_at=now) for source in dict.fromkeys(sources)],
        update_conflicts=True,
        unique_fields=["source"],
        update_fields=["marked_at"],
    )
    transaction.on_commit(background.kick)


def on_evening_settled(*, session: Session, **_: Any) -> None:
    """An evening of a group closed, reopened, deleted, restored or a name corrected."""
    if not session.managed and group_id_of(session) is not None:
        mark(f"evening:{session.pk}")


def on_table_changed(*, table: TableRound, **_: Any) -> None:
    """A table-round signed, ended, typed in, confirmed or opened again."""
    mark(f"table:{table.pk}")


def on_table_deleted(*, instance: TableRound, **_: Any) -> None:
    """A locked table-round deleted with its tournament (or its owner's account):
    its event stops counting. A table that never locked is no event."""
    if instance.status in LOCKED:
        mark(f"table:{instance.pk}")


def on_evening_deleted(*, instance: Session, **_: Any) -> None:
    """An evening removed for good while it still counted (with its owner's account):
    its event stops counting. One deleted first (``session_delete``) was marked then."""
    counted = instance.closed_at is not None and instance.deleted_at is None
    # Asked before the deletion: the club's link to the evening goes with it.
    if counted and not instance.managed and group_id_of(instance) is not None:
        mark(f"evening:{instance.pk}")


def ratings_update() -> int:
    """Follow every mark: each event written again, each family recomputed from
    its earliest changed event, then the marks taken away (a mark made again
    meanwhile stays for the next round). Returns how many marks were followed."""
    followed = 0
    while marks := list(RatingMark.objects.order_by("marked_at", "id")[:BATCH]):
        with transaction.atomic():
            starts = follow(found.source for found in marks)
        for family, start in sorted(starts.items()):
            family_recompute(family, start)
        for chunk in range(0, len(marks), 100):
            done = [Q(pk=found.pk, marked_at=found.marked_at) for found in marks[chunk : chunk + 100]]
            RatingMark.objects.filter(reduce(operator.or_, done)).delete()
        followed += len(marks)
    return followed
