"""Re-scoring a session: the explicit act that may change stored history.

A hand's snapshot (deltas, breakdown, description) is what the engine said
when the hand was recorded; pages and exports show it as it was. Re-scoring
runs today's engine (or other house rules) over every hand, reports what
would change, and — unless it is a dry run — stores the new snapshots, each
with a history entry. A hand the rules refuse is reported and left alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.contrib.auth.models import User
from django.db import transaction

from scoring.engine import InvalidInput, Line, StoredHand
from scoring.models import Hand, HandChange, Session
from scoring.services.games import Game, game_of
from scoring.services.hands import SNAPSHOT_FIELDS, audit, hand_check, snapshot, store
from scoring.services.sessions import check_open, mark_changed


@dataclass(frozen=True)
class RescoredHand:
    hand: Hand
    before: dict[str, Fraction]
    after: dict[str, Fraction] | None  # None: refused
    refused: InvalidInput | None
    # What of the stored snapshot differs (names from SNAPSHOT_FIELDS, in that
    # order): numbers, wording, breakdown, facts, …; empty: unchanged or refused.
    differences: tuple[str, ...] = ()
    # The hand in short as stored, and as today's engine words it.
    before_description: Line | None = None
    after_description: Line | None = None

    @property
    def number(self) -> int:
        """The hand's number on the sheet (a deleted hand's too: it keeps it)."""
        return self.hand.number

    @property
    def changed(self) -> bool:
        return bool(self.differences)

    @property
    def deleted(self) -> bool:
        return self.hand.deleted_at is not None

    @property
    def numbers_changed(self) -> bool:
        return self.after is not None and self.after != self.before


@dataclass(frozen=True)
class Rescore:
    hands: tuple[RescoredHand, ...]
    stored: bool  # the changes were written (not a dry run, and something changed)

    @property
    def changed(self) -> list[RescoredHand]:
        return [hand for hand in self.hands if hand.changed]

    @property
    def refused(self) -> list[RescoredHand]:
        return [hand for hand in self.hands if hand.refused is not None]


@transaction.atomic
def session_rescore(
    *, session: Session, user: User | None = None, dry_run: bool = False, game: Game | None = None
) -> Rescore:
    """Score every hand again with today's engine (or ``game``: the same players
    under other house rules) and store what changed, unless ``dry_run``. Deleted
    hands are scored too: restored, they come back under the rules in force, and
    a rule they break is found now, not on restoring. A closed evening is only
    looked at (``SessionClosed`` unless ``dry_run``)."""
    locked = Session.objects.select_for_update().get(pk=session.pk)
    if not dry_run:
        check_open(locked)
    game = game or game_of(locked)
    results: list[RescoredHand] = []
    updates: list[tuple[Hand, dict[str, object]]] = []
    previous: str | None = None  # the dealer of the last live hand: a deleted one passes no deal on
    earlier: list[StoredHand] = []  # the live hands before, as they will stand (doubled Radl reads them)
    for hand in Hand.objects.filter(session=locked).order_by("number"):
        deleted = hand.deleted_at is not None
        before = hand.delta_points()
        try:
            scored = hand_check(
                game=game, raw=hand.as_session_hand(), previous_dealer=previous, earlier=earlier
            )
        except InvalidInput as error:
            results.append(RescoredHand(hand, before, None, error))
            previous = previous if deleted else hand.dealer or previous
            if not deleted:
                earlier.append(hand.stored())  # left as stored
            continue
        previous = previous if deleted else scored.record.table.dealer
        again = Hand(session=locked)
        store(again, scored)
        if not deleted:
            earlier.append(again.stored())
        differences = tuple(name for name in SNAPSHOT_FIELDS if getattr(again, name) != getattr(hand, name))
        results.append(
            RescoredHand(
                hand,
                before,
                again.delta_points(),
                None,
                differences,
                hand.description_line(),
                again.description_line(),
            )
        )
        if differences:
            updates.append((hand, {name: getattr(again, name) for name in SNAPSHOT_FIELDS}))
    store_now = bool(updates) and not dry_run
    if store_now:
        for hand, values in updates:
            previous_state = snapshot(hand)
            for name, value in values.items():
                setattr(hand, name, value)
            hand.version += 1
            hand.save()
            audit(hand, user, HandChange.Action.RESCORED, before=previous_state)
        mark_changed(locked)
    return Rescore(tuple(results), stored=store_now)
