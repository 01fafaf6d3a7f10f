"""How migration 0010 sums a group's evening from its stored hand snapshots: a
frozen copy of ``evening_from`` and ``result_values`` (``club.services.standings``
at the time), on the frozen engine. Never updated."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from scoring.migrations.frozen.engine import HandType, Settlement, StoredHand, Summary, Variant, settle
from scoring.migrations.frozen.engine.types import points_from_json


@dataclass(frozen=True)
class Game:
    variant: Variant
    players: tuple[str, ...]
    options: Any


def as_decimal(value: Fraction) -> Decimal:
    return Decimal(value.numerator) / Decimal(value.denominator)


@dataclass
class Tally:
    hands: int = 0
    best: Fraction | None = None
    best_hand: int | None = None
    worst: Fraction | None = None
    worst_hand: int | None = None
    counts: Counter[str] = field(default_factory=Counter)

    def count(self, hand_id: int, delta: Fraction, stats: Mapping[str, Any], seat: int) -> None:
        self.hands += 1
        if self.best is None or delta > self.best:
            self.best, self.best_hand = delta, hand_id
        if self.worst is None or delta < self.worst:
            self.worst, self.worst_hand = delta, hand_id
        if delta:
            self.counts["hands.won" if delta > 0 else "hands.lost"] += 1
        kind = stats.get("kind")
        if not kind:
            return
        self.counts[f"kind.{kind}"] += 1
        role = _at(stats.get("roles"), seat, "")
        if role:
            self.counts[f"role.{role}"] += 1
            self.counts[f"role.{role}.{kind}"] += 1
            if _at(stats.get("won"), seat, None) is True:
                self.counts[f"role.{role}.{kind}.won"] += 1
        for mark in _at(stats.get("marks"), seat, []):
            self.counts[f"mark.{mark}"] += 1


def _at(values: Any, index: int, default: Any) -> Any:
    return values[index] if isinstance(values, list) and index < len(values) else default


@dataclass(frozen=True)
class Evening:
    game: Game
    summary: Summary
    settlement: Settlement
    tallies: dict[str, Tally]


def evening_from(game: Game, hands: Sequence[Any], money_rate: Decimal | None) -> Evening:
    stored = [StoredHand(hand.dealer or None, _deltas(hand), frozenset(hand.facts)) for hand in hands]
    summary = game.variant.summarize(game.players, stored, game.options)
    tallies = {name: Tally() for name in game.players}
    moves = game.variant.balance_moves(game.players, stored, summary)
    for hand, moved in zip(hands, moves, strict=True):
        for seat, name in enumerate(game.players):
            tally = tallies[name]
            if _at(hand.stats.get("roles"), seat, "") == "out" or name == hand.sitting_out:
                tally.counts["sat_out"] += 1
            elif hand.type == HandType.REDEAL.value:
                tally.counts["redeals"] += 1
            else:
                tally.count(hand.pk, moved[name], hand.stats, seat)
    for section in summary.sections:
        if section.complete:
            for name in game.players:
                tallies[name].counts[f"{section.kind}.played"] += 1
            for name in game.variant.section_winners(section, game.options):
                tallies[name].counts[f"{section.kind}.won"] += 1
    return Evening(game, summary, settle(summary.net, money_rate, summary.parts), tallies)


def result_values(evening: Evening) -> dict[str, dict[str, Any]]:
    totals = evening.summary.net
    played = any(tally.hands for tally in evening.tallies.values())
    best = max(totals.values()) if played and len(set(totals.values())) > 1 else None
    money = evening.settlement.money or {}
    return {
        name: {
            "hands": tally.hands,
            "total": as_decimal(totals[name]),
            "money": money.get(name),
            "won": totals[name] == best,
            "best": None if tally.best is None else as_decimal(tally.best),
            "best_hand_id": tally.best_hand,
            "worst": None if tally.worst is None else as_decimal(tally.worst),
            "worst_hand_id": tally.worst_hand,
            "counts": dict(tally.counts),
        }
        for name, tally in evening.tallies.items()
    }


def _deltas(hand: Any) -> dict[str, Fraction]:
    return {name: points_from_json(value) for name, value in hand.deltas.items()}
