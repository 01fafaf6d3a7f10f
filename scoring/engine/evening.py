"""An evening's rules, written once for the server and the phone.

An ``Evening`` is a game (variant, players, house rules), the round's target of
played hands, the first dealer chosen, and the evening's live hands in order as
stored (``Snapshot``: a hand's inputs as the session file writes them and what
the engine made of them, in the JSON values a stored hand keeps). Recording,
correcting, deleting and restoring a hand each return a ``Change``: the new
evening, the hand as it is to be stored, and every later hand whose snapshot
changed because it was scored again in its new place (doubled Radl). The round's
target, the limit of hands, the next dealer and the sums are read here too.

``scoring.services.hands`` locks, loads the snapshots, asks an ``Evening``,
stores what changed and keeps the history; the phone's ``offline.score_table``
asks the same ``Evening`` on the snapshots its page carries.

Where the house rules make no hand's score depend on the hands before it, the
server need not load the hands before the one it writes: ``Before`` says what
the rules need of them (how many, how many played, the last dealer).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from .session_file import MAX_HANDS, hand_document, next_dealer, read_hand
from .types import (
    HandType,
    InvalidInput,
    gettext_noop,
    invalid,
    line_to_json,
    points_from_json,
    points_to_json,
)
from .variant import ScoredHand, StoredHand, Summary, Variant

# A session played to a number of hands (a tournament table) takes no more played hands
# once it has them (redeals do not count): the server's words, the phone's too.
ROUND_COMPLETE = gettext_noop("Round complete: {played} of {target}")
FULL = gettext_noop("a session holds at most {n} hands: start a new one")

REDEAL = HandType.REDEAL.value


@dataclass(frozen=True)
class Snapshot:
    """A hand as stored: its inputs as the session file writes them (``type``,
    ``dealer``, ``sitting_out``, ``inputs``, ``note``) and the engine's result, in
    JSON values. ``key``: the stored hand's id (None: not stored yet). ``inputs``
    None: not known (the phone is given a hand's inputs only where later hands
    depend on it); such a hand is never scored again."""

    key: Any = None
    type: str = HandType.PLAYED.value
    dealer: str = ""
    sitting_out: str = ""
    inputs: Mapping[str, Any] | None = None
    note: str = ""
    deltas: Mapping[str, Any] = field(default_factory=dict)
    money: Mapping[str, Any] | None = None
    breakdown: Sequence[Any] = ()
    description: Any = None
    facts: Sequence[str] = ()
    stats: Mapping[str, Any] | None = None

    @classmethod
    def of(cls, scored: ScoredHand, key: Any = None) -> Snapshot:
        """What a scored hand stores."""
        record, money = scored.record, scored.score.money
        return cls(
            key=key,
            type=record.type.value,
            dealer=record.table.dealer or "",
            sitting_out=record.table.sitting_out or "",
            inputs=dict(scored.inputs),
            note=record.note,
            deltas={name: points_to_json(value) for name, value in scored.deltas.items()},
            money=None if money is None else {name: points_to_json(value) for name, value in money.items()},
            breakdown=[line_to_json(line) for line in scored.breakdown],
            description=line_to_json(scored.description),
            facts=sorted(scored.facts),
            stats=scored.stats.to_json(),
        )

    @classmethod
    def from_record(cls, record: Mapping[str, Any] | None, **result: Any) -> Snapshot:
        """A snapshot from a hand as the session file writes it (or none) and its result."""
        if record is None:
            return cls(**result)
        inputs = {k: v for k, v in record.items() if k not in ("dealer", "type", "sitting_out", "note")}
        common = {
            "type": str(record.get("type") or HandType.PLAYED.value),
            "dealer": str(record.get("dealer") or ""),
            "sitting_out": str(record.get("sitting_out") or ""),
            "note": str(record.get("note") or ""),
        }
        return cls(**{**common, **result, "inputs": inputs})

    def record(self) -> dict[str, Any] | None:
        """The hand as the session file writes it (None: its inputs are not known)."""
        if self.inputs is None:
            return None
        return hand_document(self.type, self.dealer, self.sitting_out, self.inputs, self.note)

    def stored(self) -> StoredHand:
        """What the engine sums of it (read once: an evening reads its hands again at each step)."""
        return self._stored

    @cached_property
    def _stored(self) -> StoredHand:
        return StoredHand(
            self.dealer or None,
            {name: points_from_json(value) for name, value in self.deltas.items()},
            frozenset(self.facts),
            None if self.money is None else {name: points_from_json(v) for name, v in self.money.items()},
        )

    def same(self, other: Snapshot) -> bool:
        """Whether both store the same (whatever their keys)."""
        return replace(self, key=None) == replace(other, key=None)


@dataclass(frozen=True)
class Before:
    """What the rules need of the live hands before those an ``Evening`` holds,
    where they were not loaded (no hand's score depends on them): how many there
    are, how many of them count toward a target, and the last dealer known."""

    count: int = 0
    played: int = 0
    last_dealer: str | None = None


@dataclass(frozen=True)
class Change:
    """What one write makes of an evening: the evening after it, the hand written
    (as it is to be stored; a deleted hand as it was) with the result of scoring it
    where it was scored, and the later hands whose snapshots changed, in order."""

    evening: Evening
    hand: Snapshot
    scored: ScoredHand | None = None
    rescored: tuple[Snapshot, ...] = ()


def proposed_dealer(players: Sequence[str], last: str | None, first: str = "") -> str:
    """Who deals next: the player after the last known dealer. Before the first
    hand: the first dealer chosen when the session was opened; where none was
    chosen, the last in playing order, so the first player in that order leads."""
    if first not in players:
        first = players[-1]
    return next_dealer(players, last) or first


@dataclass(frozen=True)
class Evening:
    """The evening's live hands under its rules (module doc)."""

    variant: Variant
    players: tuple[str, ...]
    options: Any
    hands: tuple[Snapshot, ...] = ()
    target: int | None = None
    first: str = ""
    before: Before = Before()

    # -- what it says --------------------------------------------------------

    def looks_back(self) -> bool:
        """Whether a hand's score depends on the hands before it (doubled Radl):
        only then are later hands scored again, and only then must the server
        give the evening every live hand."""
        return bool(self.variant.looks_back(self.options))

    def count(self) -> int:
        """The live hands."""
        return self.before.count + len(self.hands)

    def played(self) -> int:
        """The live hands that count toward a target: redeals do not."""
        return self.before.played + sum(1 for hand in self.hands if hand.type != REDEAL)

    def last_dealer(self) -> str | None:
        """The last known dealer (imported hands may know none)."""
        found = next((hand.dealer for hand in reversed(self.hands) if hand.dealer), None)
        return found or self.before.last_dealer

    def next_dealer(self) -> str:
        return proposed_dealer(self.players, self.last_dealer(), self.first)

    def stored(self) -> list[StoredHand]:
        return [hand.stored() for hand in self.hands]

    def summary(self) -> Summary:
        """The sums of the evening (every live hand must be held)."""
        if self.before.count:
            raise ValueError("the evening's sums need every live hand")
        return self.variant.summarize(self.players, self.stored(), self.options)

    def index(self, key: Any) -> int:
        """Where the hand stored as ``key`` stands (``LookupError``: not a live hand held)."""
        for at, hand in enumerate(self.hands):
            if hand.key == key:
                return at
        raise LookupError(key)

    def check_room(self) -> None:
        """Refuses one more live hand in a session that holds ``MAX_HANDS`` already."""
        if self.count() >= MAX_HANDS:
            raise invalid("hands", FULL, n=MAX_HANDS)

    def check_target(self) -> None:
        """Refuses one more played hand in a session played to a target it has reached."""
        if self.target is not None and (played := self.played()) >= self.target:
            raise invalid("hands", ROUND_COMPLETE, played=played, target=self.target)

    def score(
        self,
        raw: Mapping[str, Any],
        *,
        at: int | None = None,
        previous_dealer: str | None = None,
        from_form: bool = False,
    ) -> ScoredHand:
        """A hand scored in place ``at`` (None: after the last), without storing it.
        A hand that names no dealer is dealt by the player after ``previous_dealer``;
        ``from_form``: entered at the table, every choice that changes the score made.
        Every problem of the hand is raised at once (``InvalidInput``)."""
        record = read_hand(
            self.variant, self.players, self.options, raw, previous_dealer, from_form=from_form
        )
        held = self.hands if at is None else self.hands[:at]
        earlier = [hand.stored() for hand in held] if self.looks_back() else []
        return self.variant.scored_hand(record, self.options, earlier)

    # -- what it does --------------------------------------------------------

    def record(self, raw: Mapping[str, Any], *, key: Any = None, from_form: bool = False) -> Change:
        """The next hand, dealt after the last known dealer where it names none;
        refused when the session is full, when the engine refuses it, and (a
        played hand) when the round's target is reached."""
        self.check_room()
        scored = self.score(raw, previous_dealer=self.last_dealer(), from_form=from_form)
        if scored.record.type is not HandType.REDEAL:
            self.check_target()
        hand = Snapshot.of(scored, key)
        return Change(replace(self, hands=(*self.hands, hand)), hand, scored)

    def correct(self, key: Any, raw: Mapping[str, Any], *, from_form: bool = False) -> Change:
        """The hand ``key`` as corrected, scored in its place, and the hands after it
        scored again where they depend on it."""
        at = self.index(key)
        scored = self.score(raw, at=at, from_form=from_form)
        hand = Snapshot.of(scored, key)
        hands = (*self.hands[:at], hand, *self.hands[at + 1 :])
        evening, rescored = replace(self, hands=hands).rescored(at + 1)
        return Change(evening, hand, scored, rescored)

    def delete(self, key: Any) -> Change:
        """The evening without the hand ``key``, the hands after it scored again."""
        at = self.index(key)
        evening, rescored = replace(self, hands=(*self.hands[:at], *self.hands[at + 1 :])).rescored(at)
        return Change(evening, self.hands[at], None, rescored)

    def restore(self, hand: Snapshot, at: int) -> Change:
        """A deleted hand put back in place ``at``, as stored, and from it on the
        hands scored again. Refused (it stays deleted) when the session is full, when
        the house rules no longer allow it, and (a played hand) when the round's
        target is reached."""
        self.check_room()
        self.variant.scored_hand(
            read_hand(self.variant, self.players, self.options, hand.record() or {}, None), self.options
        )
        if hand.type != REDEAL:
            self.check_target()
        evening, rescored = replace(self, hands=(*self.hands[:at], hand, *self.hands[at:])).rescored(at)
        return Change(evening, hand, None, rescored)

    def rescored(self, start: int) -> tuple[Evening, tuple[Snapshot, ...]]:
        """The hands from place ``start`` on scored again in their places, where a
        hand's score depends on the hands before it; and those whose snapshots
        changed. A hand the rules now refuse, or whose inputs are not known, stays
        as stored (``session_rescore`` reports it)."""
        if not self.looks_back():
            return self, ()
        hands = list(self.hands)
        changed: list[Snapshot] = []
        earlier: list[StoredHand] = []
        previous: str | None = self.before.last_dealer
        for at, hand in enumerate(hands):
            record = hand.record()
            if at >= start and record is not None:
                try:
                    scored = self.variant.scored_hand(
                        read_hand(self.variant, self.players, self.options, record, previous),
                        self.options,
                        earlier,
                    )
                except InvalidInput:
                    scored = None
                again = None if scored is None else Snapshot.of(scored, hand.key)
                if again is not None and not again.same(hand):
                    hands[at] = hand = again
                    changed.append(again)
            earlier.append(hand.stored())
            previous = hand.dealer or previous
        return replace(self, hands=tuple(hands)), tuple(changed)
