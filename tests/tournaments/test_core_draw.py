"""The draw (TOURNAMENTS.md §1.4, §2.1, §2.4): table sizes, the seeded order,
repeats kept low, byes, the last round by standings. The §9 plan is in
test_core_example.py; here the rules at any size, against a reference written
out plainly in this file."""

from __future__ import annotations

import hashlib
import itertools
import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.core.draw import (
    CannotSeat,
    Move,
    by_standings,
    choose_byes,
    draw_order,
    draw_round,
    fewest_repeats_move,
    first_dealer,
    pair_counts,
    sizes_with_byes,
    table_sizes,
)

FIXTURES = Path(__file__).parent / "fixtures"
REFERENCE = json.loads((FIXTURES / "draw-reference.json").read_text(encoding="utf-8"))


# --------------------------------------------------------------------------
# A reference of §2.1, written out plainly: no code shared with the app.


def reference_sizes(n):
    if n < 4:
        return None
    fours_and_fives = None
    for fives in range(0, n // 5 + 1):
        rest = n - 5 * fives
        if rest >= 0 and rest % 4 == 0:
            fours = rest // 4
            if fours + fives == n // 4:
                fours_and_fives = (fours, fives)
    if fours_and_fives is None:
        return None
    fours, fives = fours_and_fives
    return [4] * fours + [5] * fives


def reference_cost(table, met):
    total = 0
    for i in range(len(table)):
        for j in range(i + 1, len(table)):
            key = (min(table[i], table[j]), max(table[i], table[j]))
            total += met.get(key, 0) ** 2
    return total


def reference_round(seed, r, numbers, history, minimise=True):
    hashes = {}
    for number in numbers:
        hashes[number] = hashlib.sha256(f"{seed}:{r}:{number}".encode()).hexdigest()
    order = sorted(numbers, key=lambda number: hashes[number])
    tables = []
    position = 0
    for size in reference_sizes(len(numbers)):
        tables.append(order[position : position + size])
        position += size
    if not minimise or not history:
        return tables
    met: dict[tuple[int, int], int] = {}
    for earlier in history:
        for table in earlier:
            for i in range(len(table)):
                for j in range(i + 1, len(table)):
                    key = (min(table[i], table[j]), max(table[i], table[j]))
                    met[key] = met.get(key, 0) + 1
    for _ in range(10):
        changed = False
        for t in range(len(tables)):
            for s in range(len(tables[t])):
                player = tables[t][s]
                repeats = False
                for other in tables[t]:
                    if other != player and met.get((min(player, other), max(player, other)), 0) > 0:
                        repeats = True
                if not repeats:
                    continue
                swapped = False
                for u in range(len(tables)):
                    if u == t or swapped:
                        continue
                    for v in range(len(tables[u])):
                        before = reference_cost(tables[t], met) + reference_cost(tables[u], met)
                        mine = list(tables[t])
                        theirs = list(tables[u])
                        mine[s], theirs[v] = theirs[v], mine[s]
                        if reference_cost(mine, met) + reference_cost(theirs, met) < before:
                            tables[t], tables[u] = mine, theirs
                            swapped = True
                            changed = True
                            break
        if not changed:
            break
    return tables


def reference_plan(seed, n, rounds=3, minimise=True):
    history: list[list[list[int]]] = []
    for r in range(1, rounds + 1):
        history.append(reference_round(seed, r, list(range(1, n + 1)), history, minimise))
    return history


def plan(seed, n, rounds=3, avoid_repeats="minimise"):
    history: list[list[list[int]]] = []
    for r in range(1, rounds + 1):
        history.append(draw_round(seed, r, list(range(1, n + 1)), history, avoid_repeats=avoid_repeats))
    return history


def total_cost(tables, history):
    met = pair_counts(history)
    return sum(met[frozenset(pair)] ** 2 for table in tables for pair in itertools.combinations(table, 2))


# --------------------------------------------------------------------------
# Table sizes (§1.4)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 6, 7, 11])
def test_fields_that_cannot_be_seated_are_refused_naming_the_number(n):
    with pytest.raises(CannotSeat) as refused:
        table_sizes(n)
    assert refused.value.players == n
    assert str(refused.value) == f"{n} players cannot be seated at tables of 4 and 5"


@pytest.mark.parametrize(
    ("n", "sizes"),
    [
        (4, [4]),
        (5, [5]),
        (8, [4, 4]),
        (9, [4, 5]),
        (10, [5, 5]),
        (12, [4, 4, 4]),
        (13, [4, 4, 5]),
        (15, [5, 5, 5]),
        (23, [4, 4, 5, 5, 5]),
        (29, [4, 4, 4, 4, 4, 4, 5]),
    ],
)
def test_table_sizes_put_the_five_tables_last(n, sizes):
    assert table_sizes(n) == sizes


@given(st.integers(min_value=0, max_value=400))
def test_table_sizes_match_the_reference_for_every_field(n):
    expected = reference_sizes(n)
    if expected is None:
        with pytest.raises(CannotSeat):
            table_sizes(n)
    else:
        assert table_sizes(n) == expected
        assert sum(table_sizes(n)) == n


def test_byes_for_the_short_fields():
    assert sizes_with_byes(6) == ([5], 1)
    assert sizes_with_byes(7) == ([5], 2)
    assert sizes_with_byes(11) == ([5, 5], 1)
    assert sizes_with_byes(13) == ([4, 4, 5], 0)
    with pytest.raises(CannotSeat):
        sizes_with_byes(3)


def test_byes_go_to_the_fewest_byes_so_far_then_by_draw_order():
    order = [7, 3, 5, 1, 2, 4, 6]
    assert choose_byes(order, {}, 2) == [7, 3]
    assert choose_byes(order, {7: 1}, 2) == [3, 5]
    assert choose_byes(order, {7: 1, 3: 1, 5: 2}, 3) == [1, 2, 4]
    with pytest.raises(ValueError, match="byes"):
        choose_byes(order, {}, 8)


def test_a_short_field_with_byes_can_be_drawn():
    order = draw_order("482915", 2, range(1, 8))
    sizes, byes = sizes_with_byes(7)
    out = choose_byes(order, {}, byes)
    seated = [n for n in range(1, 8) if n not in out]
    tables = draw_round("482915", 2, seated, [], sizes=sizes)
    assert [len(t) for t in tables] == [5]
    assert sorted(tables[0] + out) == list(range(1, 8))


def test_by_standings_seats_four_at_a_time_from_the_top_fives_at_the_bottom():
    standings = [5, 6, 11, 3, 8, 2, 7, 12, 9, 4, 1, 10, 13]
    assert by_standings(standings, table_sizes(13)) == [[5, 6, 11, 3], [8, 2, 7, 12], [9, 4, 1, 10, 13]]
    with pytest.raises(ValueError, match="sizes"):
        by_standings(standings, [4, 4, 4])


def test_draw_round_refuses_what_it_cannot_draw():
    with pytest.raises(ValueError, match="avoid_repeats: must be one of minimise, off"):
        draw_round("1", 1, range(1, 9), [], avoid_repeats="never")
    with pytest.raises(CannotSeat):
        draw_round("1", 1, range(1, 7), [])
    with pytest.raises(ValueError, match="sizes"):
        draw_round("1", 1, range(1, 9), [], sizes=[4, 5])
    with pytest.raises(ValueError, match="once"):
        draw_round("1", 1, [1, 2, 3, 4, 4, 5, 6, 7], [])


# --------------------------------------------------------------------------
# The draw against the reference (§2.1)


def test_the_order_is_by_the_hash_of_seed_round_and_number():
    digests = {n: hashlib.sha256(f"777777:2:{n}".encode()).hexdigest() for n in range(1, 30)}
    assert draw_order("777777", 2, range(1, 30)) == sorted(digests, key=digests.__getitem__)


def test_the_first_dealer_is_the_hash_mod_size_plus_one():
    digest = hashlib.sha256(b"777777:3:table4:dealer").hexdigest()
    assert first_dealer("777777", 3, 4, 5) == int(digest, 16) % 5 + 1


@pytest.mark.parametrize("n", ["23", "40"])
def test_stored_plans_are_what_the_reference_computes(n):
    stored = REFERENCE[n]
    assert reference_plan(stored["seed"], int(n)) == stored["rounds"]


@pytest.mark.parametrize("n", ["23", "40"])
def test_the_draw_reproduces_the_stored_plans(n):
    stored = REFERENCE[n]
    assert plan(stored["seed"], int(n)) == stored["rounds"]


@pytest.mark.parametrize("seed", ["000001", "104729", "271828", "482915", "999999"])
@pytest.mark.parametrize("n", [5, 9, 12, 13, 17, 21, 23, 25, 40])
def test_the_draw_is_the_reference_for_many_seeds(seed, n):
    assert plan(seed, n) == reference_plan(seed, n)
    assert plan(seed, n, avoid_repeats="off") == reference_plan(seed, n, minimise=False)


@pytest.mark.parametrize("n", [23, 40])
def test_a_drawn_plan_keeps_the_rules(n):
    seed = REFERENCE[str(n)]["seed"]
    drawn = plan(seed, n)
    for r, tables in enumerate(drawn, 1):
        # every entrant exactly once a round, tables by §1.4 with the fives last
        assert sorted(itertools.chain.from_iterable(tables)) == list(range(1, n + 1))
        assert [len(t) for t in tables] == table_sizes(n)
        # minimise never raises a round's Σ m² over the plain cut
        cut = draw_round(seed, r, list(range(1, n + 1)), drawn[: r - 1], avoid_repeats="off")
        assert total_cost(tables, drawn[: r - 1]) <= total_cost(cut, drawn[: r - 1])
        for t, table in enumerate(tables, 1):
            assert 1 <= first_dealer(seed, r, t, len(table)) <= len(table)
    assert plan(seed, n) == drawn  # the same seed, the same plan
    assert max(pair_counts(drawn).values()) <= 2


@given(
    st.text(alphabet="0123456789", min_size=6, max_size=6),
    st.integers(min_value=12, max_value=60).filter(lambda n: n not in (6, 7, 11)),
    st.integers(min_value=2, max_value=4),
)
def test_minimise_never_raises_the_cost_of_a_round(seed, n, r):
    numbers = list(range(1, n + 1))
    history = plan(seed, n, rounds=r - 1)
    minimised = draw_round(seed, r, numbers, history)
    plain = draw_round(seed, r, numbers, history, avoid_repeats="off")
    assert total_cost(minimised, history) <= total_cost(plain, history)
    assert sorted(itertools.chain.from_iterable(minimised)) == numbers
    assert [len(t) for t in minimised] == [len(t) for t in plain]


def test_a_large_field_is_drawn_quickly_and_without_repeats():
    import time

    started = time.perf_counter()
    drawn = plan("123456", 400)
    assert time.perf_counter() - started < 2
    assert Counter(pair_counts(drawn).values())[2] == 0


# --------------------------------------------------------------------------
# §2.5: a four-table left with three after a withdrawal takes a five-table's player.


def test_the_move_adding_the_fewest_repeats_is_chosen_over_the_last_seat():
    met = pair_counts([[[1, 6], [2, 7]]])  # 6 met 1, 7 met 2 before
    tables = [[1, 2, 3], [4, 5, 6, 7, 8]]
    assert fewest_repeats_move(tables, 1, met) == Move(number=4, from_table=2, to_table=1, added=0)


def test_equal_moves_go_to_the_lower_start_number_on_any_five_table():
    tables = [[1, 2, 3, 4], [5, 6, 7], [20, 21, 22, 23, 24], [9, 10, 11, 12, 13]]
    assert fewest_repeats_move(tables, 2, {}) == Move(number=9, from_table=4, to_table=2, added=0)


def test_a_move_taking_a_repeat_off_its_five_table_counts_in_its_favour():
    # 8 met 1 once (m² = 1 added at the new table) and 4 twice (m² = 4 taken off the
    # five-table): −3. Moving 4 instead takes the same 4 off but adds 4 (he met 2
    # twice): 0. Moving 5, 6 or 7 changes nothing: 0.
    met = pair_counts([[[1, 8]], [[4, 8], [2, 4]], [[4, 8], [2, 4]]])
    move = fewest_repeats_move([[1, 2, 3], [4, 5, 6, 7, 8]], 1, met)
    assert move == Move(number=8, from_table=2, to_table=1, added=1 - 4)


def test_without_a_five_table_there_is_no_move():
    assert fewest_repeats_move([[1, 2, 3], [4, 5, 6, 7]], 1, {}) is None


@pytest.mark.parametrize("short", [0, 2, 3])
def test_only_a_table_of_three_is_repaired(short):
    with pytest.raises(ValueError, match="short"):
        fewest_repeats_move([[1, 2, 3], [4, 5, 6, 7, 8]], short, {})
