"""Playing a random evening's operations (tests/engine/evening_cases.py) on an
``Evening``, and what an evening is compared by: each hand's stored snapshot
(live or deleted, by its number), the sums, the next dealer, the counts toward
the round's target.

This module imports only the standard library and the engine, so that it runs as
it stands under Pyodide on the phone's engine bundle (tests/pyodide/run_evenings.mjs,
``replay_all``) as well as on CPython beside the server's services
(tests/scoring/test_evening_pyodide.py). An operation is a list or tuple: ("record",
hand), ("correct", i, hand), ("delete", i), ("restore", i); ``i`` picks among the
live (deleted) hands by number, modulo their number."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from scoring.engine import InvalidInput, get_variant
from scoring.engine.evening import Evening, Snapshot
from scoring.engine.variant import Summary


@dataclass
class Played:
    """What the operations made of an evening: each one's outcome (``ok``, or the
    fields the engine named in refusing it), the hands each wrote or scored again
    (by key), and the evening at the end with its deleted hands."""

    outcomes: list[Any]
    evening: Any
    deleted: dict[Any, Any]
    steps: list[Any]  # the evening after each operation


def pick(keys: list[Any], index: int) -> Any:
    return keys[index % len(keys)] if keys else None


def play(
    evening: Any,
    ops: Sequence[Sequence[Any]],
    after: Callable[[Any, Mapping[Any, Any]], None] | None = None,
) -> Played:
    """The operations on the ``Evening`` as the server makes them: keys are the
    hands' numbers (1, 2, …); a deleted hand comes back in the place its number
    gives. ``after``: told the evening and its deleted hands after each operation."""
    outcomes: list[Any] = []
    deleted: dict[Any, Any] = {}
    steps: list[Any] = []
    number = 0
    for op in ops:
        steps.append(evening)  # as it stands before the operation, until it is made
        outcome, evening, number = _step(evening, op, deleted, number)
        outcomes.append(outcome)
        steps[-1] = evening
        if after is not None:
            after(evening, deleted)
    return Played(outcomes, evening, deleted, steps)


def _step(evening: Any, op: Sequence[Any], deleted: dict[Any, Any], number: int) -> tuple[Any, Any, int]:
    """One operation: its outcome, the evening after it and the last number given."""
    live = [hand.key for hand in evening.hands]
    try:
        if op[0] == "record":
            change = evening.record(op[1], key=number + 1)
            number += 1
        elif op[0] == "correct":
            if not live:
                return "none", evening, number
            change = evening.correct(pick(live, op[1]), op[2])
        elif op[0] == "delete":
            if not live:
                return "none", evening, number
            key = pick(live, op[1])
            change = evening.delete(key)
            deleted[key] = change.hand
        else:
            key = pick(sorted(deleted), op[1])
            if key is None:
                return "none", evening, number
            at = sum(1 for other in live if other < key)
            change = evening.restore(deleted[key], at)
            del deleted[key]
    except InvalidInput as error:
        return sorted(problem.field for problem in error.problems), evening, number
    return ("ok", change.hand.key, tuple(hand.key for hand in change.rescored)), change.evening, number


# -- what two evenings are compared by ------------------------------------------------


def plain(value: Any) -> Any:
    """A value as JSON writes it: dataclasses as objects, tuples as lists, mappings with
    text keys, exact numbers (``int`` or ``Fraction``: a sum is either) as their text."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Fraction) or (isinstance(value, int) and not isinstance(value, bool)):
        return str(Fraction(value))
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    return value


def canonical(value: Any) -> str:
    """``value`` as JSON text, the same for the same values on any Python."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def hand_text(hand: Snapshot) -> str:
    """A hand's stored snapshot (its inputs and the engine's result) as ``canonical``
    writes it, without its key."""
    return canonical({f.name: getattr(hand, f.name) for f in dataclasses.fields(hand) if f.name != "key"})


def fingerprint(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class Digests:
    """An evening's hands after each step, each as ``[number, deleted, the fingerprint
    of its hand_text]`` in number order (``listed``). A snapshot is written out once,
    kept with the object (an ``Evening`` hands on a hand it did not change as the
    same object)."""

    def __init__(self) -> None:
        self.known: dict[int, tuple[Any, str, str]] = {}

    def _kept(self, hand: Snapshot) -> tuple[Any, str, str]:
        kept = self.known.get(id(hand))
        if kept is None or kept[0] is not hand:
            text = hand_text(hand)
            kept = self.known[id(hand)] = (hand, text, fingerprint(text))
        return kept

    def text(self, hand: Snapshot) -> str:
        """``hand_text`` of the snapshot."""
        return self._kept(hand)[1]

    def of(self, hands: Sequence[tuple[int, bool, Snapshot]]) -> list[list[Any]]:
        return listed([(number, deleted, self._kept(hand)[2]) for number, deleted, hand in hands])


def listed(hands: Sequence[tuple[int, bool, str]]) -> list[list[Any]]:
    """An evening's hands as a step is compared by: ``[number, deleted, fingerprint]``
    in number order."""
    return sorted([number, deleted, found] for number, deleted, found in hands)


def hands_of(evening: Evening, deleted: Mapping[Any, Snapshot]) -> list[tuple[int, bool, Snapshot]]:
    """The evening's hands, live and deleted, with their numbers."""
    live = [(int(hand.key), False, hand) for hand in evening.hands]
    return sorted([*live, *((int(key), True, hand) for key, hand in deleted.items())], key=lambda row: row[0])


def summary_json(summary: Summary) -> Any:
    """The evening's sums (totals, net, series, money), as JSON writes them."""
    return json.loads(canonical(plain(summary)))


@dataclass(frozen=True)
class Counts:
    """What counts toward the round's target: the live hands, those played (redeals
    are not), and the target (None: none)."""

    count: int
    played: int
    target: int | None


def final_of(
    hands: Sequence[tuple[int, bool, str]], summary: Summary, next_dealer: str, counts: Counts
) -> Any:
    """How an evening ends: every hand's snapshot (its ``hand_text``), the sums, the
    next dealer, the counts toward the target."""
    return {
        "hands": [[number, deleted, json.loads(text)] for number, deleted, text in hands],
        "summary": summary_json(summary),
        "next_dealer": next_dealer,
        "counts": dataclasses.asdict(counts),
    }


def replay(case: Mapping[str, Any]) -> dict[str, Any]:
    """A case (``variant``, ``players``, ``options``, ``target``, ``first`` dealer,
    ``ops``) on an ``Evening``: each operation's outcome with the hands after it, by
    their fingerprints (``Digests``), and how the evening ends (``final_of``)."""
    variant = get_variant(case["variant"])
    players = tuple(case["players"])
    evening = Evening(
        variant,
        players,
        variant.parse_options(case["options"], players),
        target=case["target"],
        first=case["first"],
    )
    digests = Digests()
    after: list[list[list[Any]]] = []
    played = play(evening, case["ops"], lambda now, gone: after.append(digests.of(hands_of(now, gone))))
    end = played.evening
    hands = [(number, deleted, digests.text(hand)) for number, deleted, hand in hands_of(end, played.deleted)]
    return {
        "steps": [[outcome, found] for outcome, found in zip(played.outcomes, after, strict=True)],
        "final": final_of(
            hands, end.summary(), end.next_dealer(), Counts(end.count(), end.played(), end.target)
        ),
    }


def replay_all(text: str) -> str:
    """``replay`` for each case of a JSON list, as a JSON list (``canonical``)."""
    return canonical([replay(case) for case in json.loads(text)])
