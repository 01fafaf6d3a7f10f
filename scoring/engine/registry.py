"""The games the engine knows, by the key a session file uses."""

from __future__ import annotations

from .chambery import Chambery
from .french import French
from .illustrated import Illustrated
from .variant import Variant

# Every game a session file may name; those not in VARIANTS are not available yet.
VARIANT_KEYS = ("french", "illustrated", "chambery")

VARIANTS: dict[str, Variant] = {variant.key: variant for variant in (French(), Illustrated(), Chambery())}
