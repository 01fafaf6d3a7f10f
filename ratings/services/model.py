"""The rating model of §15: OpenSkill's Plackett–Luce model with the package's
defaults, one update per event, ties sharing a rank; and the number shown."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import NamedTuple

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # μ = 25, σ = 25/3, β = 25/6, τ = 25/300: the package's defaults
SHOWN_AFTER = 10  # events before a rating is shown


class Skill(NamedTuple):
    mu: float
    sigma: float


NEW = Skill(MODEL.mu, MODEL.sigma)


def ranks_of(results: Mapping[str, Decimal | int | float]) -> dict[str, int]:
    """Competition ranks by result, highest first: 1, 2, 2, 4 (ties share a rank)."""
    return {key: 1 + sum(1 for other in results.values() if other > value) for key, value in results.items()}


def rate(before: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """Each player's μ and σ after one event where they finished at ``ranks`` (1 is first)."""
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in before]
    after = MODEL.rate(teams, ranks=list(ranks))
    return [Skill(team[0].mu, team[0].sigma) for team in after]


def shown(mu: float, sigma: float) -> int:
    """The Wertungszahl: round-half-up(100 · (μ − 3σ) / 25) + 1000; a new player has 1000."""
    value = Decimal(100) * (Decimal(mu) - 3 * Decimal(sigma)) / 25
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP)) + 1000
