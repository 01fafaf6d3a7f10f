"""Random evenings for the ``Evening``'s property tests: a game at a table with its
house rules (and a round's target or none), and a sequence of operations on it —
record, correct, delete, restore — drawn from hands of the project's session files
(each with or without its dealer, so the deal follows the hands before it; some are
refused in their new place, which the tests want too).

Shared by tests/engine/test_evening_properties.py (the engine alone, on CPython and
under Pyodide) and tests/web/test_evening_server.py (the server's services ≡ the
``Evening``). ``EVENING_EXAMPLES`` sets the examples per game (default 500: 2,000
sequences over the four games)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import cache
from typing import Any

from hypothesis import strategies as st

from .support import FIVE, FIXTURES

GAMES = ("koenigrufen", "illustrated", "chambery", "french")
EXAMPLES = int(os.environ.get("EVENING_EXAMPLES", "500"))


@dataclass(frozen=True)
class Table:
    variant: str
    players: tuple[str, ...]
    options: dict[str, Any]
    hands: tuple[dict[str, Any], ...]  # the pool the operations draw from


def _document(name: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return found


@cache
def tables(variant: str) -> tuple[Table, ...]:
    """The tables of a game, from its session files (and, at five for Königrufen, the
    rulebook's doubled Radl example)."""
    files = {
        "koenigrufen": ("koenigrufen-ooe-trischaken.json", "koenigrufen-ooe-renonce.json"),
        "illustrated": ("rich-illustrated.json", "illustrated-seed-series.json"),
        "chambery": ("rich-chambery.json", "chambery-seed-three-players.json"),
        "french": ("rich-french.json", "french-seed-table.json"),
    }[variant]
    found = []
    for name in files:
        document = _document(name)
        found.append(
            Table(
                variant,
                tuple(document["players"]),
                dict(document.get("options") or {}),
                tuple(document["hands"]),
            )
        )
    if variant == "koenigrufen":
        won = {"declarer": "Dora", "game": "dreier", "points": 40}
        jungfrau = {"Anna": "20/0", "Carl": "30/1", "Dora": "19/2", "Emil": 0}
        trischaken = {"declarer": "Carl", "game": "trischaken", "points": jungfrau}
        hands = ({"dealer": "Anna", **won}, trischaken, won, {"type": "redeal"}, {"dealer": "Emil", **won})
        found.append(Table(variant, tuple(FIVE), {}, hands))
    return tuple(found)


@st.composite
def house_rules(draw: st.DrawFn, table: Table) -> dict[str, Any]:
    """The table's house rules, with the options that change an evening's rules drawn."""
    options = dict(table.options)
    if table.variant == "koenigrufen":
        options["doubled_radl"] = draw(st.sampled_from((True, True, True, False)))
    return options


@st.composite
def raw_hands(draw: st.DrawFn, table: Table, dealer: bool = False) -> dict[str, Any]:
    """A hand of the table's pool, maybe without its dealer (and who sits out);
    ``dealer``: as the pool has it (a correction names its dealer: the form posts it)."""
    hand = dict(draw(st.sampled_from(table.hands)))
    if not dealer and draw(st.booleans()):
        hand.pop("dealer", None)
        if draw(st.booleans()):
            hand.pop("sitting_out", None)
    return hand


@st.composite
def operations(draw: st.DrawFn, table: Table) -> list[tuple[Any, ...]]:
    """A few hands recorded, then up to ten operations: ("record", hand), ("correct",
    i, hand), ("delete", i), ("restore", i); ``i`` picks among the live (deleted)
    hands, modulo their number."""
    found: list[tuple[Any, ...]] = [
        ("record", draw(raw_hands(table))) for _ in range(draw(st.integers(0, 6)))
    ]
    for _ in range(draw(st.integers(1, 10))):
        kind = draw(st.sampled_from(("record", "record", "correct", "delete", "delete", "restore")))
        if kind == "record":
            found.append((kind, draw(raw_hands(table))))
        elif kind == "correct":
            found.append((kind, draw(st.integers(0, 50)), draw(raw_hands(table, dealer=True))))
        else:
            found.append((kind, draw(st.integers(0, 50))))
    return found


@st.composite
def evenings(
    draw: st.DrawFn, variant: str
) -> tuple[Table, dict[str, Any], int | None, list[tuple[Any, ...]]]:
    """A table, its house rules, a round's target (or none) and the operations."""
    table = draw(st.sampled_from(tables(variant)))
    return (
        table,
        draw(house_rules(table)),
        draw(st.one_of(st.none(), st.integers(1, 6))),
        draw(operations(table)),
    )


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


def play(evening: Any, ops: list[tuple[Any, ...]]) -> Played:
    """The operations on the ``Evening`` as the server makes them: keys are the
    hands' numbers (1, 2, …); a deleted hand comes back in the place its number gives."""
    from scoring.engine import InvalidInput

    outcomes: list[Any] = []
    deleted: dict[Any, Any] = {}
    steps: list[Any] = []
    number = 0
    for op in ops:
        steps.append(evening)  # as it stands before the operation, until it is made
        live = [hand.key for hand in evening.hands]
        try:
            if op[0] == "record":
                change = evening.record(op[1], key=number + 1)
                number += 1
            elif op[0] == "correct":
                if not live:
                    outcomes.append("none")
                    continue
                change = evening.correct(pick(live, op[1]), op[2])
            elif op[0] == "delete":
                if not live:
                    outcomes.append("none")
                    continue
                key = pick(live, op[1])
                change = evening.delete(key)
                deleted[key] = change.hand
            else:
                key = pick(sorted(deleted), op[1])
                if key is None:
                    outcomes.append("none")
                    continue
                at = sum(1 for other in live if other < key)
                change = evening.restore(deleted[key], at)
                del deleted[key]
        except InvalidInput as error:
            outcomes.append(sorted(problem.field for problem in error.problems))
            continue
        outcomes.append(("ok", change.hand.key, tuple(hand.key for hand in change.rescored)))
        evening = steps[-1] = change.evening
    return Played(outcomes, evening, deleted, steps)
