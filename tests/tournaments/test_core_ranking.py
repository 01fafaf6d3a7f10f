"""The ranking (TOURNAMENTS.md §4.1, §4.2): table ranks, totals, the tie-break
chains, lots, shared places, players listed below the finishers."""

from __future__ import annotations

import hashlib
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.core.ranking import TIE_BREAKS, Entry, chain_of, lots_key, rank, table_ranks

SEED = "482915"


def entry(number, rounds, ranks=(), **more):
    return Entry(
        number,
        f"P{number}",
        tuple(None if v is None else Fraction(v) for v in rounds),
        tuple(ranks),
        **more,
    )


def test_table_ranks_share_the_better_rank():
    assert table_ranks({"a": 10, "b": 3, "c": 3, "d": -16}) == {"a": 1, "b": 2, "c": 2, "d": 4}
    assert table_ranks({"a": 0, "b": 0, "c": 0, "d": 0, "e": 0}) == dict.fromkeys("abcde", 1)
    assert table_ranks({"a": Fraction(1, 2), "b": Fraction(-1, 2)}) == {"a": 1, "b": 2}


@given(st.dictionaries(st.text(min_size=1, max_size=3), st.integers(-200, 200), min_size=1, max_size=5))
def test_table_ranks_properties(sums):
    ranks = table_ranks(sums)
    assert set(ranks) == set(sums)
    for a in sums:
        assert ranks[a] == 1 + sum(1 for b in sums if sums[b] > sums[a])
        for b in sums:
            if sums[a] > sums[b]:
                assert ranks[a] < ranks[b]
            if sums[a] == sums[b]:
                assert ranks[a] == ranks[b]
    assert min(ranks.values()) == 1


def test_presets_and_chains():
    assert chain_of("better_rounds") == ("rounds_desc", "lots") == TIE_BREAKS["better_rounds"]
    assert chain_of("tirol_2019") == ("best_round", "table_ranks", "lots")
    assert chain_of(["table_ranks"]) == ("table_ranks", "lots")
    assert chain_of([]) == ("lots",)
    assert chain_of(["best_round", "shared"]) == ("best_round", "shared")
    assert chain_of(["rounds_desc", "lots"]) == ("rounds_desc", "lots")


@pytest.mark.parametrize(
    ("given_", "message"),
    [
        ("alphabetical", "tie_break: must be one of better_rounds, tirol_2019 or a list of rounds_desc, "
         "best_round, table_ranks, lots, shared (got 'alphabetical')"),
        (["age"], "tie_break: each criterion must be one of rounds_desc, best_round, table_ranks, lots, "
         "shared (got 'age')"),
        (["best_round", "best_round"], "tie_break: best_round is given twice"),
        (["lots", "best_round"], "tie_break: lots can only be the last criterion"),
        (["shared", "lots"], "tie_break: shared can only be the last criterion"),
    ],
)  # fmt: skip
def test_a_bad_chain_is_refused_naming_the_allowed_values(given_, message):
    with pytest.raises(ValueError) as refused:
        chain_of(given_)
    assert str(refused.value) == message


def test_lots_are_the_hash_of_seed_and_number():
    assert lots_key(SEED, 7) == hashlib.sha256(b"482915:lots:7").hexdigest()


def test_lots_decide_a_tie_no_criterion_separates():
    a, b = entry(1, (10, -10)), entry(2, (10, -10))
    first = min((1, 2), key=lambda n: lots_key(SEED, n))
    places = rank([a, b], "better_rounds", SEED)
    assert [p.entry.number for p in places] == [first, 3 - first]
    assert [p.place for p in places] == [1, 2]
    assert {p.tie_note for p in places} == {"lots"}
    assert {p.decided_by for p in places} == {"lots"}


def test_shared_places_skip_the_next():
    players = [entry(1, (10, -10)), entry(2, (10, -10)), entry(3, (5, -10)), entry(4, (20, 0))]
    places = rank(players, ["rounds_desc", "shared"], SEED)
    assert [(p.place, p.entry.number, p.tie_note) for p in places] == [
        (1, 4, ""),
        (2, 1, "shared"),
        (2, 2, "shared"),
        (4, 3, ""),
    ]


def test_a_bye_counts_zero_and_a_missed_table_rank_counts_six():
    bye = entry(1, (None, 10), (None, 1))
    played = entry(2, (0, 10), (5, 1))
    # equal totals and rounds: table ranks decide, and 6 for the bye loses to 5
    places = rank([bye, played], ["table_ranks"], SEED)
    assert [p.entry.number for p in places] == [2, 1]
    assert places[0].total == places[1].total == 10
    assert places[0].decided_by == "table_ranks:2"


def test_rank_points_are_added_to_the_total():
    a = entry(1, (10,), extra=Fraction(60))
    b = entry(2, (50,))
    assert [(p.entry.number, p.total) for p in rank([a, b], "better_rounds", SEED)] == [(1, 70), (2, 50)]


def test_withdrawn_below_finishers_come_after_everyone():
    gone = entry(1, (100, None), below=True)
    players = [gone, entry(2, (-50, 10)), entry(3, (-50, -10))]
    places = rank(players, "better_rounds", SEED)
    assert [(p.place, p.entry.number) for p in places] == [(1, 2), (2, 3), (3, 1)]


def test_three_way_tie_notes_name_what_separated_each():
    # equal totals 30: best rounds 40, 40, 35; the two with 40 have equal second best too
    a = entry(1, (40, -10))
    b = entry(2, (40, -10))
    c = entry(3, (35, -5))
    places = rank([c, a, b], "better_rounds", SEED)
    assert [p.entry.number for p in places][2] == 3
    notes = {p.entry.number: p.tie_note for p in places}
    assert notes == {1: "lots", 2: "lots", 3: "rounds"}


def test_the_same_start_number_twice_is_refused():
    with pytest.raises(ValueError, match="once"):
        rank([entry(1, (1,)), entry(1, (-1,))], "better_rounds", SEED)


tables_of_rounds = st.integers(min_value=1, max_value=4).flatmap(
    lambda rounds: st.lists(
        st.lists(st.integers(-150, 150), min_size=rounds, max_size=rounds), min_size=4, max_size=24
    )
)


@given(tables_of_rounds, st.sampled_from(["better_rounds", "tirol_2019", ("table_ranks",), ("best_round",)]))
def test_places_are_unique_and_ordered_by_total(rows, tie_break):
    players = [entry(n, row, [1 + (n + i) % 4 for i in range(len(row))]) for n, row in enumerate(rows, 1)]
    places = rank(players, tie_break, SEED)
    assert [p.place for p in places] == list(range(1, len(players) + 1))
    assert sorted(p.entry.number for p in places) == list(range(1, len(players) + 1))
    totals = [p.total for p in places]
    assert totals == sorted(totals, reverse=True)
    for p in places:
        assert p.total == sum(Fraction(v) for v in p.entry.rounds if v is not None)
        tied = [q for q in places if q.total == p.total and q is not p]
        assert bool(p.tie_note) == bool(tied)


@given(st.lists(st.integers(-100, 100), min_size=3, max_size=3), st.integers(0, 5))
def test_totals_sum_to_zero_when_the_round_sums_do(first_three, seed_number):
    # three rounds at one table of four: each round's sums add to 0
    rounds = [[*first_three, -sum(first_three)] for _ in range(3)]
    rounds[1] = rounds[1][::-1]
    rounds[2] = rounds[2][1:] + rounds[2][:1]
    players = [entry(n + 1, [rounds[r][n] for r in range(3)]) for n in range(4)]
    places = rank(players, "better_rounds", str(seed_number))
    assert sum(p.total for p in places) == 0


def reference_rank(entries, tie_break, seed):
    """The ranking as §4.1–4.2 state it, in fractions, compared criterion by criterion:
    what ``rank`` works out in whole numbers must give the same places, totals and notes."""
    chain = chain_of(tie_break)

    def criterion_key(e, criterion):
        played = [Fraction(0) if v is None else Fraction(v) for v in e.rounds]
        if criterion == "rounds_desc":
            return tuple(-v for v in sorted(played, reverse=True))
        if criterion == "best_round":
            return (-max(played, default=Fraction(0)),)
        if criterion == "table_ranks":
            return tuple(sorted(6 if r is None else r for r in e.table_ranks))
        if criterion == "lots":
            return (lots_key(seed, e.number),)
        return ()

    def total(e):
        return sum((Fraction(0) if v is None else Fraction(v) for v in e.rounds), Fraction(e.extra))

    def key(e):
        return (e.below, -total(e), *(criterion_key(e, c) for c in chain))

    ordered = sorted(entries, key=key)
    places: list[tuple[int, int, Fraction]] = []
    for index, e in enumerate(ordered):
        place = index + 1
        if index and key(ordered[index - 1]) == key(e) and chain[-1] == "shared":
            place = places[-1][0]
        places.append((place, e.number, total(e)))
    return places


halves = st.one_of(st.none(), st.integers(-240, 240).map(lambda n: Fraction(n, 2)))


@given(
    st.lists(
        st.tuples(
            st.lists(halves, min_size=3, max_size=3), st.lists(st.integers(1, 5), min_size=3, max_size=3)
        ),
        min_size=1,
        max_size=30,
    ),
    st.sampled_from(["better_rounds", "tirol_2019", ("table_ranks",), ("best_round", "shared"), ("shared",)]),
    st.lists(st.booleans(), min_size=30, max_size=30),
    st.integers(0, 3).map(lambda n: Fraction(n, 3)),
)
def test_the_ranking_in_whole_numbers_agrees_with_the_ranking_in_fractions(rows, tie_break, below, extra):
    """Halves (French Tarot), thirds of rank points and ties on every criterion."""
    entries = [
        Entry(n + 1, f"P{n + 1}", tuple(rounds), tuple(ranks), below=below[n], extra=extra * (n % 2))
        for n, (rounds, ranks) in enumerate(rows)
    ]
    got = rank(entries, tie_break, SEED)
    assert [(p.place, p.entry.number, p.total) for p in got] == reference_rank(entries, tie_break, SEED)
    assert all(type(p.total) is Fraction for p in got)
