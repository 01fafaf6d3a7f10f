"""The games the engine knows, by the key a session file uses: the one list of games."""

from __future__ import annotations

from collections.abc import Iterable

from .chambery import Chambery
from .french import French
from .illustrated import Illustrated
from .variant import Variant

BUILT_IN: tuple[Variant, ...] = (French(), Illustrated(), Chambery())

VARIANTS: dict[str, Variant] = {variant.key: variant for variant in BUILT_IN}


def register(extra: Iterable[Variant]) -> None:
    """Make the registry the built-in games and ``extra`` (games a deployment adds
    from its settings), in that order. ``VARIANTS`` is changed in place: every
    module holds that one dict. A key taken twice is refused."""
    games = {variant.key: variant for variant in BUILT_IN}
    for variant in extra:
        if variant.key in games:
            raise ValueError(f"two games with the key {variant.key!r}")
        games[variant.key] = variant
    VARIANTS.clear()
    VARIANTS.update(games)
