"""Random evenings for the ``Evening``'s property tests: a game at a table with its
house rules (and a round's target or none), and a sequence of operations on it —
record, correct, delete, restore — drawn from hands of the project's session files
(each with or without its dealer, so the deal follows the hands before it; some are
refused in their new place, which the tests want too).

Shared by tests/engine/test_evening_properties.py (the engine alone, on CPython and
under Pyodide) and tests/scoring/test_evening_server.py (the server's services ≡ the
``Evening``), drawn by Hypothesis (``evenings``). ``EVENING_EXAMPLES`` sets the
examples per game (default 500: 2,000 sequences over the four games).
tests/scoring/test_evening_pyodide.py draws the same evenings from a seeded
``random.Random`` instead (``seeded_cases``): made once, without Hypothesis, they
go through the server's services and, in one batch, through the phone's engine.
Playing them on an ``Evening`` is tests/engine/evening_play.py."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol, TypeVar

from hypothesis import strategies as st

from .evening_play import Played, pick, play
from .support import FIVE, FIXTURES

__all__ = ["EXAMPLES", "GAMES", "Played", "Table", "evenings", "pick", "play", "seeded_cases", "tables"]

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


T = TypeVar("T")


class Draws(Protocol):
    """Where the random choices of an evening come from: Hypothesis (``evenings``,
    shrinking a failure to its simplest case) or a seeded ``random.Random`` (``seeded_cases``)."""

    def one_of(self, options: Sequence[T]) -> T: ...

    def between(self, low: int, high: int) -> int: ...

    def coin(self) -> bool: ...


@dataclass(frozen=True)
class HypothesisDraws:
    draw: st.DrawFn

    def one_of(self, options: Sequence[T]) -> T:
        return self.draw(st.sampled_from(options))

    def between(self, low: int, high: int) -> int:
        return self.draw(st.integers(low, high))

    def coin(self) -> bool:
        return self.draw(st.booleans())


@dataclass(frozen=True)
class SeededDraws:
    random: random.Random

    def one_of(self, options: Sequence[T]) -> T:
        return self.random.choice(options)

    def between(self, low: int, high: int) -> int:
        return self.random.randint(low, high)

    def coin(self) -> bool:
        return self.random.random() < 0.5


def house_rules(draw: Draws, table: Table) -> dict[str, Any]:
    """The table's house rules, with the options that change an evening's rules drawn."""
    options = dict(table.options)
    if table.variant == "koenigrufen":
        options["doubled_radl"] = draw.one_of((True, True, True, False))
    return options


def raw_hand(draw: Draws, table: Table, dealer: bool = False) -> dict[str, Any]:
    """A hand of the table's pool, maybe without its dealer (and who sits out);
    ``dealer``: as the pool has it (a correction names its dealer: the form posts it)."""
    hand = dict(draw.one_of(table.hands))
    if not dealer and draw.coin():
        hand.pop("dealer", None)
        if draw.coin():
            hand.pop("sitting_out", None)
    return hand


def operations(draw: Draws, table: Table) -> list[tuple[Any, ...]]:
    """A few hands recorded, then up to ten operations: ("record", hand), ("correct",
    i, hand), ("delete", i), ("restore", i); ``i`` picks among the live (deleted)
    hands, modulo their number."""
    found: list[tuple[Any, ...]] = [("record", raw_hand(draw, table)) for _ in range(draw.between(0, 6))]
    for _ in range(draw.between(1, 10)):
        kind = draw.one_of(("record", "record", "correct", "delete", "delete", "restore"))
        if kind == "record":
            found.append((kind, raw_hand(draw, table)))
        elif kind == "correct":
            found.append((kind, draw.between(0, 50), raw_hand(draw, table, dealer=True)))
        else:
            found.append((kind, draw.between(0, 50)))
    return found


Case = tuple[Table, dict[str, Any], int | None, list[tuple[Any, ...]]]


def evening_case(draw: Draws, variant: str) -> Case:
    """A table, its house rules, a round's target (or none) and the operations."""
    table = draw.one_of(tables(variant))
    options = house_rules(draw, table)
    target = draw.between(1, 6) if draw.coin() else None
    return table, options, target, operations(draw, table)


@st.composite
def evenings(draw: st.DrawFn, variant: str) -> Case:
    """``evening_case`` drawn by Hypothesis."""
    return evening_case(HypothesisDraws(draw), variant)


def seeded_cases(per_game: int, seed: int) -> list[dict[str, Any]]:
    """``per_game`` evenings of each game from ``random.Random(seed)``, as JSON values
    (the case ``evening_play.replay`` reads), each with a first dealer drawn too
    (none chosen: the last in playing order deals first)."""
    draw = SeededDraws(random.Random(seed))
    found = []
    for variant in GAMES:
        for _ in range(per_game):
            table, options, target, ops = evening_case(draw, variant)
            first = draw.one_of(("", *table.players))
            found.append(
                {
                    "variant": variant,
                    "players": list(table.players),
                    "options": options,
                    "target": target,
                    "first": first,
                    "ops": json.loads(json.dumps(ops)),
                }
            )
    return found
