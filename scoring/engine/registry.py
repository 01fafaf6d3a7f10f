"""The games the engine knows, by the key a session file uses: the one list of games."""

from __future__ import annotations

from .chambery import Chambery
from .french import French
from .illustrated import Illustrated
from .variant import Variant

VARIANTS: dict[str, Variant] = {variant.key: variant for variant in (French(), Illustrated(), Chambery())}
