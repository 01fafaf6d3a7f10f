"""Each player's evening in a group, one row per player and evening
(``EveningResult``), for the statistics pages.

The rows are summed from the evening's stored snapshots — each hand's deltas,
facts and statistics (``Hand.stats``, what the engine said of the hand when it
was scored) — exactly as the sheet sums them, never by scoring a hand again.
Their points are the evening's balance, what its settlement pays: where a game
settles series by series (Illustriertes Tarock) that is not the sum of the
points written on the block, and a hand's win or loss is what it moved the
balance, as the sheet's "balance after each hand" shows it. They
are written again, in the same transaction, with every change to the evening
(``sessions.mark_changed`` calls ``evening_refresh``), so corrections and
deletions show at once. Pages then read a row per player and evening instead of
every hand: a group's statistics cost the same whatever the evenings' length.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db.models import F

from club.models import MONEY_LIMIT, EveningResult, Group
from club.services.links import group_id_of, player_ids_at
from scoring.engine import HandType, Settlement, StoredHand, Summary, settle
from scoring.engine.types import gettext_noop, invalid, points_from_json
from scoring.models import Hand, Seat, Session
from scoring.services.games import Game, game_of

# What the rows read of a hand: its snapshot, never its inputs.
HAND_FIELDS = ("id", "type", "dealer", "sitting_out", "deltas", "money", "facts", "stats")


def as_decimal(value: Fraction) -> Decimal:
    """A total or delta (whole or half points) as an exact decimal."""
    return Decimal(value.numerator) / Decimal(value.denominator)


@dataclass
class Tally:
    """One player's evening as the hands are counted."""

    hands: int = 0
    best: Fraction | None = None
    best_hand: int | None = None
    worst: Fraction | None = None
    worst_hand: int | None = None
    counts: Counter[str] = field(default_factory=Counter)

    def count(self, hand_id: int, delta: Fraction, stats: Mapping[str, Any], seat: int) -> None:
        """A hand the player played: its delta, and what its statistics say of the seat."""
        self.hands += 1
        if self.best is None or delta > self.best:
            self.best, self.best_hand = delta, hand_id
        if self.worst is None or delta < self.worst:
            self.worst, self.worst_hand = delta, hand_id
        if delta:
            self.counts["hands.won" if delta > 0 else "hands.lost"] += 1
        kind = stats.get("kind")
        if not kind:
            return  # a hand whose statistics could not be read counts by its delta alone
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
    """An evening summed from its stored hands: what the sheet shows, and the tallies."""

    game: Game
    summary: Summary
    settlement: Settlement
    tallies: dict[str, Tally]


def evening_of(session: Session, seats: Sequence[Seat]) -> Evening:
    """Sum an evening from its stored snapshots (one query for the hands)."""
    hands = list(
        Hand.objects.filter(session=session, deleted_at__isnull=True).order_by("number").only(*HAND_FIELDS)
    )
    return evening_from(game_of(session, seats), hands, session.money_rate)


def evening_from(game: Game, hands: Sequence[Any], money_rate: Decimal | None) -> Evening:
    """Sum an evening from its hands' stored snapshots, in order (no query: the
    hands are anything with ``HAND_FIELDS``, a migration's rows too)."""
    stored = [
        StoredHand(hand.dealer or None, _deltas(hand), frozenset(hand.facts), _money(hand)) for hand in hands
    ]
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
    """Each player's row of the evening (``EveningResult``'s own fields), by name:
    the points are the balance, what the settlement pays, never the block's sums
    — except where hands pay money beside their Schrift: then the Schrift, and
    the money is what is paid."""
    # Rankings count the Schrift where hands pay money beside it (Königrufen's
    # Kontras in cash); the money column is the settlement's, the money.
    summary = evening.summary
    totals = summary.net if summary.money_totals is None else summary.totals
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


def check_money(values: Mapping[str, Mapping[str, Any]]) -> None:
    """Refuse an evening of a group whose money a player is beyond what the Kasse
    keeps exactly (``MONEY_LIMIT``): the change that would make it so is not made."""
    if any(row["money"] is not None and abs(row["money"]) >= MONEY_LIMIT for row in values.values()):
        raise invalid(
            "money_rate",
            gettext_noop(
                "too much for the Kasse: an evening books less than {most} a player; lower the money per point"
            ),
            most=int(MONEY_LIMIT),
        )


def _deltas(hand: Any) -> dict[str, Fraction]:
    return {name: points_from_json(value) for name, value in hand.deltas.items()}


def _money(hand: Any) -> dict[str, Fraction] | None:
    """What the hand pays where it is stored apart from its deltas (a row without it: none)."""
    money = getattr(hand, "money", None)
    return None if money is None else {name: points_from_json(value) for name, value in money.items()}


def statistics_changed(group_id: int) -> None:
    """What the group's statistics pages show changed: a new version for their cache."""
    Group.objects.filter(pk=group_id).update(version=F("version") + 1)


def evening_refresh(session: Session) -> None:
    """Write the evening's rows again from its stored hands; a session outside
    any group has none. Called in the transaction of every change to the evening."""
    EveningResult.objects.filter(session=session).delete()
    group_id = group_id_of(session)
    if group_id is None:
        return
    statistics_changed(group_id)
    if session.deleted_at is not None:
        return  # a deleted evening counts for nothing, until it is restored
    seats = list(Seat.objects.filter(session=session).order_by("position"))
    values = result_values(evening_of(session, seats))
    check_money(values)
    players = player_ids_at(seats)
    EveningResult.objects.bulk_create(
        EveningResult(
            group_id=group_id,
            session=session,
            player_id=players[seat.pk],
            played_on=session.played_on,
            variant=session.variant,
            **values[seat.name],
        )
        for seat in seats
        if seat.pk in players
    )
