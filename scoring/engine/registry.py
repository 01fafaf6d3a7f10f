"""The games the engine knows, by the key a session file uses: the one list of games.

A game is a module and one line in ``BUILT_IN`` (python-chess's ``find_variant``).
Nothing here changes at run time: ``VARIANTS`` is a read-only mapping of the
built-in games, and ``games(extra)`` is the read-only mapping of the built-in
games and the extra ones a deployment names (dotted paths of ``Variant``
classes), built once per list of extra games.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType

from .chambery import Chambery
from .french import French
from .illustrated import Illustrated
from .koenigrufen import Koenigrufen
from .variant import TournamentTerms, Variant, VariantOf

# One line per game.
BUILT_IN: tuple[type[Variant], ...] = (
    French,
    Illustrated,
    Chambery,
    Koenigrufen,
)

VARIANTS: Mapping[str, Variant] = MappingProxyType({game.key: game() for game in BUILT_IN})


def games(extra: tuple[str, ...] = ()) -> Mapping[str, Variant]:
    """The built-in games and the ``extra`` ones (dotted paths of ``Variant``
    classes), in that order, as a read-only mapping; built once per ``extra``.
    A key taken twice is refused."""
    return _with_extra(extra) if extra else VARIANTS


@lru_cache(maxsize=8)
def _with_extra(extra: tuple[str, ...]) -> Mapping[str, Variant]:
    found = dict(VARIANTS)
    for path in extra:
        variant = _import(path)()
        if variant.key in found:
            raise ValueError(f"two games with the key {variant.key!r}")
        found[variant.key] = variant
    return MappingProxyType(found)


def get_variant(key: str, extra: tuple[str, ...] = ()) -> Variant:
    """The game of ``key`` (``KeyError`` when there is none)."""
    return games(extra)[key]


def tournament_games(extra: tuple[str, ...] = ()) -> Mapping[str, Variant]:
    """The games offered for tournaments (those with ``TournamentTerms``), the
    default game first: what the tournaments and cups ask instead of naming games."""
    return _for_tournaments(extra)


@lru_cache(maxsize=8)
def _for_tournaments(extra: tuple[str, ...]) -> Mapping[str, Variant]:
    offered = [game for game in games(extra).values() if game.tournament is not None]
    offered.sort(key=lambda game: game.tournament.order if game.tournament is not None else 0)
    return MappingProxyType({game.key: game for game in offered})


def terms_of(game: Variant) -> TournamentTerms:
    """What a tournament needs of ``game`` (``KeyError`` when it is not offered for tournaments)."""
    if game.tournament is None:
        raise KeyError(game.key)
    return game.tournament


def _import(path: str) -> type[Variant]:
    module, _dot, name = path.rpartition(".")
    game = getattr(importlib.import_module(module), name)
    if not (isinstance(game, type) and issubclass(game, VariantOf)):
        raise TypeError(f"{path} is not a game (a Variant class)")
    return game
