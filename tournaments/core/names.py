"""An entrant's name and the key two names are told apart by (TOURNAMENTS.md §1.2).

Names are unique within a tournament, and "unique" means what the hall sees: two
names that look the same on a slip, a board or the hall screen are one name. So
names are compared by ``name_key``: NFKC (the fullwidth "Ａｎｎａ" is "Anna", a
decomposed "ä" the composed one), case-folded ("ANNA" is "anna"), invisible format
characters (Unicode category Cf, such as U+200B and U+FEFF) removed, and the Cyrillic
and Greek letters that look like Latin ones read as those (the Cyrillic "Аnna" is
"Anna"). A name that carries an invisible character is refused outright
(``name_problem``): nobody can see it, so nobody could tell two such names apart.

One function for every way an entrant comes in: typed at the desk, picked from a
group's roster, read from a tournament file (the import and ``score_tournament``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from fractions import Fraction

from scoring.engine.types import Line, gettext_noop

# Cyrillic and Greek letters (after case folding) that look like a Latin letter in
# at least one of their cases: "А" and "а", "В", "Н", "Р" … [decision: the letters
# of the scripts a hall in Austria meets; not the whole of Unicode's confusables].
LOOKALIKES = str.maketrans(
    {
        # Cyrillic
        "а": "a",
        "в": "b",
        "е": "e",
        "з": "3",
        "і": "i",
        "ј": "j",
        "к": "k",
        "м": "m",
        "н": "h",
        "о": "o",
        "р": "p",
        "с": "c",
        "т": "t",
        "у": "y",
        "х": "x",
        "ѕ": "s",
        "һ": "h",
        "ԁ": "d",
        "ԛ": "q",
        "ԝ": "w",
        "ӏ": "l",
        # Greek
        "α": "a",
        "β": "b",
        "ε": "e",
        "ζ": "z",
        "η": "h",
        "ι": "i",
        "κ": "k",
        "μ": "m",
        "ν": "n",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "y",
        "χ": "x",
    }
)


def _visible(name: str) -> str:
    return "".join(char for char in name if unicodedata.category(char) != "Cf")


def name_key(name: str) -> str:
    """What two names are compared by: equal keys are the same name to the eye."""
    folded = unicodedata.normalize("NFKC", _visible(name)).casefold()
    # Decomposed for the look-alikes (the Cyrillic "ё" is "е" and its dots), composed again.
    mapped = unicodedata.normalize("NFD", folded).translate(LOOKALIKES)
    return " ".join(unicodedata.normalize("NFC", mapped).split())


def name_problem(name: str) -> Line | None:
    """Why ``name`` cannot be an entrant's name beyond a player's name rules: an
    invisible format character (category Cf), by code point and position."""
    for at, char in enumerate(name, 1):
        if unicodedata.category(char) == "Cf":
            return Line(
                gettext_noop("must be a name without invisible characters (found {code} at character {at})"),
                {"code": f"U+{ord(char):04X}", "at": Fraction(at)},
            )
    return None


def same_as(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that reads as ``name`` (``name_key``), or None."""
    key = name_key(name)
    return next((other for other in others if name_key(other) == key), None)
