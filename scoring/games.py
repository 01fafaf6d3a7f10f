"""The games of this deployment: the engine's built-in games and those the
setting ``TAROCK_EXTRA_GAMES`` names (dotted paths of engine ``Variant``
classes). Nothing is registered at run time: each call reads the setting and
gets the engine's read-only mapping for it, built once per list of games."""

from __future__ import annotations

from collections.abc import Mapping

from django.conf import settings

from scoring.engine import Variant
from scoring.engine.registry import games, tournament_games

SETTING = "TAROCK_EXTRA_GAMES"


def registry() -> Mapping[str, Variant]:
    """Every game of this deployment, by key, the built-in games first."""
    return games(tuple(getattr(settings, SETTING, ())))


def get_variant(key: str) -> Variant:
    """The game of ``key`` (``KeyError`` when this deployment has none)."""
    return registry()[key]


def for_tournaments() -> Mapping[str, Variant]:
    """The games of this deployment offered for tournaments, the default first."""
    return tournament_games(tuple(getattr(settings, SETTING, ())))
