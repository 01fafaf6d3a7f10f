"""A session as the engine sees it: the game, the players, the house rules."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scoring.engine import VARIANTS, Variant
from scoring.models import Seat, Session


@dataclass(frozen=True)
class Game:
    variant: Variant
    players: tuple[str, ...]
    options: Any


def game_of(session: Session, seats: Sequence[Seat] | None = None) -> Game:
    """The session's game; pass its seats when they were loaded already."""
    variant = VARIANTS[session.variant]
    players = tuple(seat.name for seat in (seats if seats is not None else session.seats.all()))
    return Game(variant, players, variant.parse_options(session.options, players))


def options_json(options: Any) -> dict[str, Any]:
    """Every house rule, defaults included, as stored with a session."""
    return dataclasses.asdict(options)
