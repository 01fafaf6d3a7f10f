"""What the Austrian games with 54 cards share (docs/rules.md §2 and §4): the cards
counted in thirds, Kontra levels, and premiums and the Valat as items that are
silent or announced, made or failed.

Card points are exact to the third: ``n`` cards whose counting values add up to
``Σ`` are worth ``3·Σ − 2·n`` thirds; the 54 cards hold 210 thirds = 70 points.
Königrufen writes them as points and Blatt (``41/2`` = 125 thirds);
Illustriertes rounds them to whole points.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from fractions import Fraction
from typing import Protocol

from .schema import Field, Kind
from .types import gettext_noop

THIRDS = 210  # the whole deck, 70 points
POINTS = 70
# Counting values: kings, Sküs, Mond and Pagat 5; queens 4; Reiter 3; Buben 2; every other card 1.
CARD_VALUE = {"fives": 5, "queens": 4, "cavalls": 3, "jacks": 2, "others": 1}
CARD_LIMIT = {"fives": 7, "queens": 4, "cavalls": 4, "jacks": 4, "others": 35}

# Kontra levels: 0 none, 1 Kontra ×2, 2 Re ×4, 3 Sub ×8 (the highest in every set).
MAX_KONTRA = 3
KONTRA_LABEL = {1: gettext_noop("Kontra"), 2: gettext_noop("Rekontra"), 3: gettext_noop("Subkontra")}
KONTRA_CHOICE_LABELS = {0: gettext_noop("none"), **KONTRA_LABEL}


def kontra_factor(level: int) -> int:
    """×1, ×2, ×4, ×8."""
    return 1 << level


def kontra_field(name: str, label: str, help_text: str) -> Field:
    """A Kontra level asked on an item: none, Kontra, Rekontra or Subkontra."""
    return Field(
        name,
        Kind.INT,
        label,
        help=help_text,
        minimum=Fraction(0),
        maximum=Fraction(MAX_KONTRA),
        choice_labels=KONTRA_CHOICE_LABELS,
        default=0,
    )


def card_thirds(counts: Mapping[str, int]) -> int:
    """The thirds of a set of cards given by kind (``fives``, ``queens``, …): 3·Σ − 2·n."""
    value = sum(CARD_VALUE[kind] * number for kind, number in counts.items())
    cards = sum(counts.values())
    return 3 * value - 2 * cards


class Side(StrEnum):
    """The two sides of a game: the declarer's (with his partner) and the opponents'."""

    DECLARER = "declarer"
    OPPONENTS = "opponents"

    @property
    def other(self) -> Side:
        return Side.OPPONENTS if self is Side.DECLARER else Side.DECLARER


class Announceable(Protocol):
    """A premium or a Valat as recorded: whose side, announced or silent, made or failed."""

    @property
    def side(self) -> Side: ...
    @property
    def announced(self) -> bool: ...
    @property
    def made(self) -> bool: ...


def premium_winner(item: Announceable, silent_failure_counts: bool) -> Side | None:
    """Who wins a premium's item: made, its side; announced and failed, the other
    side; silent and failed, nobody (or the other side by house rule)."""
    if item.made:
        return item.side
    if item.announced or silent_failure_counts:
        return item.side.other
    return None
