"""Seating a round: table sizes, the seeded draw, repeats kept low, byes.

The draw is reproducible from the seed and the entrants' start numbers, so
anyone can check it (TOURNAMENTS.md §1.4, §2.1, §2.4):

1. order the round's entrants by the hex SHA-256 of ``"{seed}:{round}:{number}"``;
2. cut that order into tables (four-tables first, five-tables last);
3. with ``avoid_repeats="minimise"`` and earlier rounds, swap entrants to lower
   Σ m² per table (m: how often a pair met before), in a fixed order;
4. the first dealer of each table comes from ``"{seed}:{round}:table{t}:dealer"``.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

AVOID_REPEATS = ("minimise", "off")
MAX_PASSES = 10
# A pair of team-mates (``teams``: ``pairs`` or ``fours``, §14.6) weighs as many
# meetings as this in the cost of step 3, in every round [decision].
TEAM_MATE_MEETINGS = 10
# Fields the §1.4 rule cannot seat at tables of four and five.
UNSEATABLE = frozenset({0, 1, 2, 3, 6, 7, 11})

Tables = list[list[int]]


class CannotSeat(ValueError):
    """``players`` entrants cannot be cut into tables of four and five."""

    def __init__(self, players: int) -> None:
        self.players = players
        super().__init__(f"{players} players cannot be seated at tables of 4 and 5")


def table_sizes(n: int) -> list[int]:
    """The tables for ``n`` players: ⌊n/4⌋ tables, ``n mod 4`` of them
    five-tables, which are the highest-numbered. Raises ``CannotSeat`` where that
    needs more five-tables than there are tables (n < 4 and 6, 7, 11)."""
    tables, fives = divmod(n, 4)
    if n < 4 or fives > tables:
        raise CannotSeat(n)
    return [4] * (tables - fives) + [5] * fives


def sizes_with_byes(n: int) -> tuple[list[int], int]:
    """Tables and byes under ``short_field: bye``: 6 → one five-table and 1 bye,
    7 → one five-table and 2 byes, 11 → two five-tables and 1 bye; every other
    seatable field has no bye. Below 5 players there is no five-table to fill."""
    if n in (6, 7):
        return [5], n - 5
    if n == 11:
        return [5, 5], 1
    return table_sizes(n), 0


def _hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def draw_order(seed: str, round_number: int, numbers: Sequence[int]) -> list[int]:
    """Start numbers ordered by the hex SHA-256 of ``"{seed}:{round}:{number}"``."""
    return sorted(numbers, key=lambda number: _hex(f"{seed}:{round_number}:{number}"))


def first_dealer(seed: str, round_number: int, table_number: int, size: int) -> int:
    """The first dealer's seat (1-based) at table ``table_number`` of a round."""
    return int(_hex(f"{seed}:{round_number}:table{table_number}:dealer"), 16) % size + 1


def pair_counts(history: Sequence[Sequence[Sequence[int]]]) -> Counter[frozenset[int]]:
    """How often each pair sat at one table in the rounds of ``history``."""
    met: Counter[frozenset[int]] = Counter()
    for tables in history:
        for table in tables:
            met.update(frozenset(pair) for pair in combinations(table, 2))
    return met


def table_cost(table: Sequence[int], met: Mapping[frozenset[int], int]) -> int:
    """Σ m² over the pairs of a table, m = how often the pair met before."""
    return sum(met.get(frozenset(pair), 0) ** 2 for pair in combinations(table, 2))


def cut(order: Sequence[int], sizes: Sequence[int]) -> Tables:
    """``order`` cut into consecutive blocks of ``sizes``, table 1 first."""
    tables: Tables = []
    start = 0
    for size in sizes:
        tables.append(list(order[start : start + size]))
        start += size
    return tables


def draw_round(
    seed: str,
    round_number: int,
    numbers: Sequence[int],
    history: Sequence[Sequence[Sequence[int]]],
    *,
    avoid_repeats: str = "minimise",
    sizes: Sequence[int] | None = None,
    apart: Sequence[tuple[int, int]] = (),
) -> Tables:
    """The tables of round ``round_number`` (start numbers in seat order), drawn
    from ``seed`` among ``numbers``; ``history`` holds the earlier rounds' tables.
    ``sizes`` defaults to ``table_sizes(len(numbers))``. ``apart``: pairs of
    team-mates (§14.6), each weighing ``TEAM_MATE_MEETINGS`` meetings more, from
    round 1 on (with ``minimise``)."""
    if avoid_repeats not in AVOID_REPEATS:
        raise ValueError(f"avoid_repeats: must be one of {', '.join(AVOID_REPEATS)} (got {avoid_repeats!r})")
    if len(set(numbers)) != len(numbers):
        raise ValueError("numbers: each start number may be drawn once")
    sizes = table_sizes(len(numbers)) if sizes is None else list(sizes)
    if sum(sizes) != len(numbers) or any(size not in (4, 5) for size in sizes):
        raise ValueError(f"sizes: tables of 4 and 5 seating all {len(numbers)} players (got {list(sizes)})")
    tables = cut(draw_order(seed, round_number, numbers), sizes)
    if avoid_repeats == "minimise" and (history or apart):
        met = pair_counts(history)
        for a, b in apart:
            met[frozenset((a, b))] += TEAM_MATE_MEETINGS
        _minimise(tables, met)
    return tables


def _minimise(tables: Tables, met: Mapping[frozenset[int], int]) -> None:
    """§2.1 step 3, in place. A pass goes through every seat in table and seat
    order; an entrant who met a table-mate before is tried against each entrant of
    every other table (table 1 first, seat order), and the first swap that lowers
    the two tables' summed cost is kept. The pass then goes on with the next seat
    (the entrant swapped in is not tried again in this pass). Passes repeat until
    one changes nothing, at most ``MAX_PASSES``."""

    def m(a: int, b: int) -> int:
        return met.get(frozenset((a, b)), 0)

    for _ in range(MAX_PASSES):
        changed = False
        for here, table in enumerate(tables):
            for seat in range(len(table)):
                player = table[seat]
                if not any(m(player, other) for other in table if other != player):
                    continue
                if _first_better_swap(tables, here, seat, m):
                    changed = True
        if not changed:
            return


def _first_better_swap(tables: Tables, here: int, seat: int, m: Callable[[int, int], int]) -> bool:
    table = tables[here]
    player = table[seat]
    mates = [other for other in table if other != player]
    for there, other_table in enumerate(tables):
        if there == here:
            continue
        for other_seat, candidate in enumerate(other_table):
            theirs = [other for other in other_table if other != candidate]
            # The change of the two tables' Σ m² if player and candidate swap.
            change = sum(m(candidate, x) ** 2 - m(player, x) ** 2 for x in mates) + sum(
                m(player, y) ** 2 - m(candidate, y) ** 2 for y in theirs
            )
            if change < 0:
                table[seat], other_table[other_seat] = candidate, player
                return True
    return False


@dataclass(frozen=True)
class Move:
    """One player moved from a five-table to a table left with three (§2.5);
    tables by number (1-based), ``added`` the change of the round's Σ m²."""

    number: int
    from_table: int
    to_table: int
    added: int


def fewest_repeats_move(
    tables: Sequence[Sequence[int]], short: int, met: Mapping[frozenset[int], int]
) -> Move | None:
    """The repair of table ``short`` (a table number, left with three players after
    a withdrawal, §2.5): the player of a five-table of the round whose move there
    adds the fewest repeats, counted as the draw counts them (``table_cost``: Σ m²,
    m = how often a pair met in the round's other rounds, ``met``), so a move that
    takes a repeat away from its five-table counts in its favour. Equal moves go to
    the lower start number. None when the round has no five-table."""
    if not 1 <= short <= len(tables) or len(tables[short - 1]) != 3:
        raise ValueError(f"short: the number of a table of three (got {short})")
    here = list(tables[short - 1])
    before = table_cost(here, met)
    moves = []
    for index, table in enumerate(tables, 1):
        if len(table) != 5:
            continue
        for number in table:
            rest = [other for other in table if other != number]
            added = table_cost([*here, number], met) - before + table_cost(rest, met) - table_cost(table, met)
            moves.append(Move(number, index, short, added))
    return min(moves, key=lambda move: (move.added, move.number), default=None)


def choose_byes(ordered_numbers: Sequence[int], byes_so_far: Mapping[int, int], k: int) -> list[int]:
    """The ``k`` entrants who sit out: those with the fewest byes so far, then by
    ``ordered_numbers`` (the round's draw order)."""
    if not 0 <= k <= len(ordered_numbers):
        raise ValueError(f"byes: between 0 and {len(ordered_numbers)} (got {k})")
    position = {number: index for index, number in enumerate(ordered_numbers)}
    ranked = sorted(ordered_numbers, key=lambda number: (byes_so_far.get(number, 0), position[number]))
    return ranked[:k]


def by_standings(numbers_in_standing_order: Sequence[int], sizes: Sequence[int]) -> Tables:
    """The last round by standings (§2.4): places 1–4 at table 1 and so on, the
    five-tables (last in ``sizes``) at the bottom; seats in standing order."""
    if sum(sizes) != len(numbers_in_standing_order):
        raise ValueError(
            f"sizes: tables of 4 and 5 seating all {len(numbers_in_standing_order)} players (got {list(sizes)})"
        )
    return cut(numbers_in_standing_order, sizes)
