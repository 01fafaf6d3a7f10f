"""A hand's own page (read): what it moved for each player, in playing order,
and its history, read for the page and for a share link's page alike."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from scoring.models import Hand, HandChange
from scoring.services.games import game_of


@dataclass(frozen=True)
class HandPage:
    deltas: tuple[tuple[str, Fraction | int], ...]  # each player's delta, in playing order
    changes: tuple[HandChange, ...]  # the hand's history, with who made each change


def hand_page(hand: Hand, *, history: bool) -> HandPage:
    """What a hand's page shows besides the stored hand itself; its history only
    with ``history`` (never behind a share link)."""
    game = game_of(hand.session)
    points = hand.delta_points()
    return HandPage(
        deltas=tuple((name, points.get(name, 0)) for name in game.players),
        changes=tuple(hand.changes.select_related("user")) if history else (),
    )
