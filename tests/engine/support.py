"""Small helpers so engine tests read like the rulebook."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scoring.engine import HandScore, InvalidInput, SessionResult, read_session, score_session

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

FOUR = ["Anna", "Bert", "Carl", "Dora"]
THREE = ["Anna", "Bert", "Carl"]
FIVE = ["Anna", "Bert", "Carl", "Dora", "Emil"]
SIX = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fritz"]


def session(
    variant: str, players: list[str], hands: list[dict[str, Any]], options: dict[str, Any] | None = None
) -> SessionResult:
    return score_session(
        read_session({"variant": variant, "players": players, "options": options or {}, "hands": hands})
    )


def one_hand(
    variant: str, players: list[str], hand: dict[str, Any], options: dict[str, Any] | None = None
) -> HandScore:
    return session(variant, players, [hand], options).hands[0]


def deltas(score: HandScore) -> dict[str, int | float]:
    """Deltas as plain numbers (ints, or floats ending in .5) for comparing."""
    return {k: (int(v) if v.denominator == 1 else float(v)) for k, v in score.deltas.items()}


def refused(
    variant: str, players: list[str], hand: dict[str, Any], options: dict[str, Any] | None = None
) -> InvalidInput:
    with pytest.raises(InvalidInput) as caught:
        session(variant, players, [hand], options)
    return caught.value


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")
