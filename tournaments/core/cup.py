"""Cup points per tournament and the season table (TOURNAMENTS.md §5.2–§5.4)."""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any, Generic, TypeVar

K = TypeVar("K", bound=Hashable)

# Places 1–50 under ``fixed`` [ABAKUS-CUP tFIXPUNKTE]; place 51 and below get 0.
FIXED = (
    223, 198, 180, 168, 156, 147, 138, 131, 124, 117,
    110, 105, 100, 95, 90, 85, 80, 76, 72, 68,
    64, 60, 56, 52, 49, 46, 43, 40, 37, 34,
    31, 28, 26, 24, 22, 20, 18, 16, 14, 12,
    10, 9, 8, 7, 6, 5, 4, 3, 2, 1,
)  # fmt: skip
SCHEMES = ("fixed", "heine", "tirol_formula", "custom")
# The schemes whose points go by place: under them places are unique, so a tie-break
# chain ending in ``shared`` is refused (§4.2); ``heine`` counts the total only.
BY_PLACE = ("fixed", "tirol_formula", "custom")
FACTORS = (1, 2)
BEST_N_WORDS = ("all", "half")
FINAL_MODES = ("extra", "regular", "none")


def heine(total: Fraction | int) -> Fraction:
    """Heine points from a tournament total T: T ≤ 0 → 0, T ≤ 100 → T,
    100 < T < 300 → 100 + ⌊(T − 100)/2⌋, T ≥ 300 → 200. A total with a half
    keeps it where the formula takes T as it is (1.5 → 1.5): ⌊⌋ only where written."""
    total = Fraction(total)
    if total <= 0:
        return Fraction(0)
    if total <= 100:
        return total
    if total < 300:
        return Fraction(100 + math.floor((total - 100) / 2))
    return Fraction(200)


def tirol_exact(place: int, n: int) -> Fraction:
    """200 · ((N − place)/(N − 1))³, exactly; a field of one gets 200."""
    _check_place(place, n)
    if n == 1:
        return Fraction(200)
    return 200 * Fraction(n - place, n - 1) ** 3


def tirol_formula(place: int, n: int) -> int:
    """The Tirol formula's points: ``tirol_exact`` rounded half up."""
    return math.floor(tirol_exact(place, n) + Fraction(1, 2))


def tirol_text(place: int, n: int) -> str:
    """The exact value to two decimals, for display: ``"150.26"``."""
    value = tirol_exact(place, n)
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return f"{exact.quantize(Decimal('0.01'), rounding=ROUND_HALF_UP):f}"


def _check_place(place: int, n: int) -> None:
    if not 1 <= place <= n:
        raise ValueError(f"place: between 1 and {n} (got {place})")


def schemes_for(heine: bool) -> tuple[str, ...]:
    """The cup schemes a game offers: ``heine`` only where its bends fit the game's
    scores (its ``TournamentTerms.heine``; French Tarot's run to the hundreds) [decision]."""
    return tuple(scheme for scheme in SCHEMES if heine or scheme != "heine")


def points(
    scheme: str,
    *,
    place: int,
    total: Fraction | int,
    ranked: int,
    points_table: Sequence[int] = (),
    factor: int = 1,
) -> Fraction:
    """A player's cup points from his ``place`` among ``ranked`` players (or his
    ``total`` under ``heine``, which may keep a half), times ``factor``."""
    if factor not in FACTORS:
        raise ValueError(f"factor: must be one of 1, 2 (got {factor!r})")
    _check_place(place, ranked)
    if scheme == "fixed":
        base = Fraction(FIXED[place - 1] if place <= len(FIXED) else 0)
    elif scheme == "heine":
        base = heine(total)
    elif scheme == "tirol_formula":
        base = Fraction(tirol_formula(place, ranked))
    elif scheme == "custom":
        base = Fraction(points_table[place - 1] if place <= len(points_table) else 0)
    else:
        raise ValueError(f"scheme: must be one of {', '.join(SCHEMES)} (got {scheme!r})")
    return base * factor


# --------------------------------------------------------------------------
# The season


@dataclass(frozen=True)
class Result:
    """One tournament of a player's season: its ``tournament`` (an id or order),
    his cup points and place there; ``final``: that tournament was the cup's final."""

    tournament: int
    points: Fraction | int
    place: int
    final: bool = False


@dataclass(frozen=True)
class SeasonRow(Generic[K]):
    """A line of the season table. ``counted``: the points that count, best
    first (the final's under ``final: extra`` are ``final_points``, not here);
    ``podiums``: how often first, second, third."""

    key: K
    place: int
    total: Fraction
    final_points: Fraction | None
    counted: tuple[Fraction, ...]
    participations: int
    podiums: tuple[int, int, int]
    best_place: int | None


def counted_n(best_n: str | int, held: int) -> int | None:
    """How many results count: ``best_n`` as a number, ``None`` for ``all``;
    ``half`` is ⌈k/2⌉ of the k tournaments held if k ≤ 10, else ⌊k/2⌋."""
    if best_n == "all":
        return None
    if best_n == "half":
        return (held + 1) // 2 if held <= 10 else held // 2
    if isinstance(best_n, int) and not isinstance(best_n, bool) and best_n >= 1:
        return best_n
    raise ValueError(f"best_n: must be a number from 1, all or half (got {best_n!r})")


def season(
    players: Mapping[K, Sequence[Result]], *, best_n: str | int, final_mode: str, held: int
) -> list[SeasonRow[K]]:
    """The season table (§5.3, §5.4): each player's best ``best_n`` results,
    the final by ``final_mode`` (``extra``: added on top; ``regular``: one more
    tournament; ``none``: not counted); ``held``: tournaments held so far (for
    ``half``). Ordered by total, then the counted results best first, then more
    participations, then the better place in the final; players equal in all of
    these share the place."""
    if final_mode not in FINAL_MODES:
        raise ValueError(f"final_mode: must be one of {', '.join(FINAL_MODES)} (got {final_mode!r})")
    n = counted_n(best_n, held)
    rows: list[tuple[tuple[Any, ...], SeasonRow[K]]] = []
    for key, results in players.items():
        finals = [result for result in results if result.final]
        regular = [result for result in results if not result.final]
        final = min(finals, key=lambda result: result.place) if finals else None
        pool = results if final_mode == "regular" else regular
        counted = tuple(sorted((Fraction(result.points) for result in pool), reverse=True)[:n])
        final_points = Fraction(final.points) if final is not None and final_mode != "none" else None
        total = sum(counted, Fraction(0)) + (
            final_points if final_mode == "extra" and final_points is not None else 0
        )
        places = [result.place for result in results]
        row = SeasonRow(
            key=key,
            place=0,
            total=total,
            final_points=final_points,
            counted=counted,
            participations=len(results),
            podiums=(places.count(1), places.count(2), places.count(3)),
            best_place=min(places, default=None),
        )
        order = (
            -total,
            # Counted results best first; a 0 at the end is no better than none.
            _trimmed(counted),
            -len(results),
            final.place if final is not None else math.inf,
        )
        rows.append((order, row))
    rows.sort(key=lambda item: item[0])
    table: list[SeasonRow[K]] = []
    for index, (order, row) in enumerate(rows):
        place = table[-1].place if index and rows[index - 1][0] == order else index + 1
        table.append(replace(row, place=place))
    return table


def _trimmed(counted: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
    """``counted`` negated for sorting, without trailing zeros."""
    values = list(counted)
    while values and values[-1] == 0:
        values.pop()
    return tuple(-points for points in values)
