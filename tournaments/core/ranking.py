"""The ranking of a tournament: totals, table ranks and the tie-breaks
(TOURNAMENTS.md §4.1, §4.2).

A player's total is the sum of his round results (a bye or a missed round
counts 0) plus rank points the caller summed (``Entry.extra``). Equal totals go
through the ``tie_break`` chain in turn; ``lots`` (the hash of
``"{seed}:lots:{start number}"``) ends every chain unless ``shared`` does, so
places are unique unless tied players are meant to share one.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cached_property
from typing import Any, TypeVar

K = TypeVar("K", bound=Hashable)

CRITERIA = ("rounds_desc", "best_round", "table_ranks", "lots", "shared")
TIE_BREAKS: dict[str, tuple[str, ...]] = {
    "better_rounds": ("rounds_desc", "lots"),
    "tirol_2019": ("best_round", "table_ranks", "lots"),
}
# The table rank a bye or missed round counts as under ``table_ranks`` [decision].
MISSED_TABLE_RANK = 6
# The short note a place carries when a criterion separated it from a tied player.
NOTES = {
    "rounds_desc": "rounds",
    "best_round": "best_round",
    "table_ranks": "table_ranks",
    "lots": "lots",
    "shared": "shared",
}


def table_ranks(sums: Mapping[K, Fraction | int | Decimal]) -> dict[K, int]:
    """Each player's place at his table by round result; ties share the better
    rank (1, 2, 2, 4)."""
    return {key: 1 + sum(1 for other in sums.values() if other > value) for key, value in sums.items()}


@dataclass(frozen=True)
class Entry:
    """One ranked player: ``rounds`` are his round results (``None``: a bye or a
    missed round, counting 0), ``table_ranks`` his rank at his table in each round
    (``None`` counts as ``MISSED_TABLE_RANK``). ``below``: withdrawn and listed
    below every finisher (``withdrawn: below_finishers``). ``extra``: rank points,
    already summed, added to the total."""

    number: int
    name: str
    rounds: tuple[Fraction | None, ...]
    table_ranks: tuple[int | None, ...] = ()
    below: bool = False
    extra: Fraction = Fraction(0)

    @cached_property
    def total(self) -> Fraction:
        """The round results summed with the rank points (worked out once: a
        ranking compares each entry's total many times)."""
        return sum(self.played(), Fraction(self.extra))

    def played(self) -> tuple[Fraction, ...]:
        """The round results with a bye or missed round as 0."""
        return self._played

    @cached_property
    def _played(self) -> tuple[Fraction, ...]:
        zero = Fraction(0)
        return tuple(
            zero if value is None else value if type(value) is Fraction else Fraction(value)
            for value in self.rounds
        )


@dataclass(frozen=True)
class Place:
    """A place in the ranking. ``tie_note``: ``""`` when no one has the same
    total, else the short key of what set this player apart from the tied player
    next to him (``rounds``, ``best_round``, ``table_ranks``, ``lots``), or
    ``shared`` when they share the place. ``decided_by``: the same criterion with
    where it decided, ``"rounds_desc:2"`` (the second-best round), ``"best_round"``,
    ``"table_ranks:1"``, ``"lots"``; ``None`` without a tie or when shared."""

    place: int
    entry: Entry
    total: Fraction
    tie_note: str = ""
    decided_by: str | None = None


def chain_of(tie_break: str | Sequence[str]) -> tuple[str, ...]:
    """The criteria of a ``tie_break`` setting, a preset or a list: each at most
    once, ``lots`` or ``shared`` only last, and ``lots`` added at the end when
    neither is there. Raises ``ValueError`` naming the allowed values."""
    if isinstance(tie_break, str):
        if tie_break in TIE_BREAKS:
            return TIE_BREAKS[tie_break]
        raise ValueError(
            f"tie_break: must be one of {', '.join(TIE_BREAKS)} or a list of {', '.join(CRITERIA)} "
            f"(got {tie_break!r})"
        )
    chain = list(tie_break)
    for index, criterion in enumerate(chain):
        if criterion not in CRITERIA:
            raise ValueError(
                f"tie_break: each criterion must be one of {', '.join(CRITERIA)} (got {criterion!r})"
            )
        if criterion in chain[:index]:
            raise ValueError(f"tie_break: {criterion} is given twice")
        if criterion in ("lots", "shared") and index != len(chain) - 1:
            raise ValueError(f"tie_break: {criterion} can only be the last criterion")
    if not chain or chain[-1] not in ("lots", "shared"):
        chain.append("lots")
    return tuple(chain)


def shares_places(tie_break: str | Sequence[str]) -> bool:
    """Whether the chain ends in ``shared``: tied players may share a place (§4.2)."""
    return not isinstance(tie_break, str) and "shared" in tie_break


def lots_key(seed: str, number: int) -> str:
    """The lot of start number ``number``: the hex SHA-256 of ``"{seed}:lots:{number}"``
    (ascending: the lower lot ranks higher)."""
    return hashlib.sha256(f"{seed}:lots:{number}".encode()).hexdigest()


def _scale(entries: Sequence[Entry]) -> int:
    """A whole number every round result and rank point times it is whole: the
    ranking compares whole numbers (exactly as the fractions compare), not
    ``Fraction``s, thousands of times."""
    denominators = {
        _exact(value).denominator for entry in entries for value in entry.rounds if value is not None
    }
    denominators.update(_exact(entry.extra).denominator for entry in entries)
    return math.lcm(*denominators) if denominators else 1


def _exact(value: Fraction | int | Decimal) -> Fraction | int:
    return value if type(value) is Fraction or type(value) is int else Fraction(value)


def _scaled(entry: Entry, scale: int) -> tuple[list[int], int]:
    """The entry's round results (a bye or missed round as 0) and its total, times ``scale``."""
    played = []
    for value in entry.rounds:
        exact = 0 if value is None else _exact(value)
        played.append(exact.numerator * (scale // exact.denominator))
    extra = _exact(entry.extra)
    return played, sum(played) + extra.numerator * (scale // extra.denominator)


def _keys(played: Sequence[Any], entry: Entry, criterion: str, seed: str) -> tuple[Any, ...]:
    """The criterion's values, compared one by one, lower first (``played``: the
    round results, scaled to whole numbers by ``rank`` or as they are)."""
    if criterion == "rounds_desc":
        return tuple(-value for value in sorted(played, reverse=True))
    if criterion == "best_round":
        return (-max(played, default=0),)
    if criterion == "table_ranks":
        return tuple(sorted(MISSED_TABLE_RANK if rank is None else rank for rank in entry.table_ranks))
    if criterion == "lots":
        return (lots_key(seed, entry.number),)
    return ()


def _decided(
    a: Entry, b: Entry, chain: Sequence[str], seed: str, keys: Mapping[int, tuple[Any, ...]] | None = None
) -> tuple[str, str | None]:
    """What separates two entries of equal total: (criterion, decided_by).
    ``keys``: each entry's sort key by start number, as ``rank`` worked it out."""
    for index, criterion in enumerate(chain):
        if criterion == "shared":
            return criterion, None
        if keys is not None:  # (below, -total, criterion 1, criterion 2, …)
            mine, theirs = keys[a.number][2 + index], keys[b.number][2 + index]
        else:
            mine, theirs = _keys(a.played(), a, criterion, seed), _keys(b.played(), b, criterion, seed)
        for position, (x, y) in enumerate(zip(mine, theirs, strict=False), 1):
            if x != y:
                where = (
                    f"{criterion}:{position}" if criterion in ("rounds_desc", "table_ranks") else criterion
                )
                return criterion, where
        if len(mine) != len(theirs):
            return criterion, criterion
    return "shared", None  # pragma: no cover - lots end every chain without shared


def rank(entries: Sequence[Entry], tie_break: str | Sequence[str], seed: str) -> list[Place]:
    """Every entry with its place: by total, then the ``tie_break`` chain;
    entries marked ``below`` after all others. Places are 1 … n, unique unless the
    chain ends with ``shared``, where players tied on everything share a place."""
    chain = chain_of(tie_break)
    numbers = [entry.number for entry in entries]
    if len(set(numbers)) != len(numbers):
        raise ValueError("entries: each start number may be ranked once")

    # Each entry's key worked out once, in whole numbers (``_scale``): sorting, the
    # notes and the shared places compare them; its total made a fraction once.
    scale = _scale(entries)
    keys: dict[int, tuple[Any, ...]] = {}
    totals: dict[int, Fraction] = {}
    for entry in entries:
        played, total = _scaled(entry, scale)
        keys[entry.number] = (
            entry.below,
            -total,
            *(_keys(played, entry, criterion, seed) for criterion in chain),
        )
        totals[entry.number] = Fraction(total, scale)

    def key(entry: Entry) -> tuple[Any, ...]:
        return keys[entry.number]

    ordered = sorted(entries, key=key)
    places: list[Place] = []
    # Each tied player's note is the deepest criterion that set him apart from a neighbour.
    notes: dict[int, tuple[int, str, str | None]] = {}
    for index, entry in enumerate(ordered):
        for neighbour in ordered[max(index - 1, 0) : index] + ordered[index + 1 : index + 2]:
            if key(neighbour)[:2] != key(entry)[:2]:  # (below, -total)
                continue
            criterion, decided_by = _decided(entry, neighbour, chain, seed, keys)
            depth = chain.index(criterion)
            if entry.number not in notes or depth > notes[entry.number][0]:
                notes[entry.number] = (depth, NOTES[criterion], decided_by)
    for index, entry in enumerate(ordered):
        place = index + 1
        if index and key(ordered[index - 1]) == key(entry) and chain[-1] == "shared":
            place = places[-1].place
        _, note, decided_by = notes.get(entry.number, (0, "", None))
        places.append(Place(place, entry, totals[entry.number], note, decided_by))
    return places
