"""Cup points (TOURNAMENTS.md §5.2) and the season table (§5.3, §5.4)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.registry import VARIANTS, terms_of
from tournaments.core.cup import (
    FIXED,
    SCHEMES,
    Result,
    counted_n,
    heine,
    points,
    schemes_for,
    season,
    tirol_exact,
    tirol_formula,
)


def test_fixed_points_are_the_cups_fifty_values():
    assert len(FIXED) == 50
    assert FIXED[:5] == (223, 198, 180, 168, 156)
    assert FIXED[-3:] == (3, 2, 1)
    assert sum(FIXED) == 3210
    assert points("fixed", place=50, total=0, ranked=60) == 1
    assert points("fixed", place=51, total=0, ranked=60) == 0


def test_heine_boundaries():
    assert [heine(t) for t in (-300, -1, 0, 1, 99, 100)] == [0, 0, 0, 1, 99, 100]
    assert [heine(t) for t in (101, 102, 103, 298, 299, 300, 301, 10_000)] == [
        100,
        101,
        101,
        199,
        199,
        200,
        200,
        200,
    ]
    assert heine(Fraction(201, 2)) == 100  # ⌊(100.5 − 100)/2⌋: the floor is written there


def test_heine_keeps_a_totals_half_where_the_formula_takes_the_total_as_it_is():
    # §5.2: T = 1.5 → 1.5; ⌊⌋ rounds only where the formula writes it.
    assert heine(Fraction(3, 2)) == Fraction(3, 2)
    assert heine(Fraction(199, 2)) == Fraction(199, 2)
    assert heine(Fraction(-1, 2)) == 0
    assert heine(Fraction(403, 2)) == 150  # 100 + ⌊(201.5 − 100)/2⌋ = 100 + ⌊50.75⌋
    assert heine(Fraction(599, 2)) == 199
    assert points("heine", place=1, total=Fraction(3, 2), ranked=4, factor=2) == 3
    assert points("heine", place=1, total=Fraction(5, 2), ranked=4) == Fraction(5, 2)


@given(st.integers(-1000, 1000))
def test_heine_is_the_formula(total):
    expected = (
        0 if total <= 0 else total if total <= 100 else 200 if total >= 300 else 100 + (total - 100) // 2
    )
    assert heine(total) == expected
    assert 0 <= heine(total) <= 200
    assert heine(total) <= heine(total + 1)


def test_tirol_formula_ends_at_zero_and_rounds_half_up():
    assert tirol_formula(1, 12) == 200
    assert tirol_formula(12, 12) == 0
    assert tirol_exact(2, 12) == Fraction(200_000, 1331)
    assert tirol_formula(1, 1) == 200
    # 200 · (1/2)³ = 25 exactly; 200 · (2/4)³ too; a .5 case: N = 3 → 200·(1/2)³ = 25
    assert tirol_formula(2, 3) == 25
    with pytest.raises(ValueError, match="place"):
        tirol_formula(13, 12)


@given(st.integers(2, 120), st.sampled_from(["fixed", "tirol_formula", "custom"]), st.integers(1, 2))
def test_cup_points_fall_with_the_place(ranked, scheme, factor):
    table = [100, 80, 80, 20]
    got = [
        points(scheme, place=place, total=0, ranked=ranked, points_table=table, factor=factor)
        for place in range(1, ranked + 1)
    ]
    assert got == sorted(got, reverse=True)
    assert all(value % factor == 0 and value >= 0 for value in got)


def test_factor_doubles_and_custom_reads_its_table():
    assert points("fixed", place=1, total=0, ranked=10, factor=2) == 446
    assert points("custom", place=3, total=0, ranked=10, points_table=(10, 7, 5)) == 5
    assert points("custom", place=4, total=0, ranked=10, points_table=(10, 7, 5)) == 0
    with pytest.raises(ValueError, match="factor: must be one of 1, 2"):
        points("fixed", place=1, total=0, ranked=10, factor=3)
    with pytest.raises(ValueError, match="scheme: must be one of fixed, heine, tirol_formula, custom"):
        points("lottery", place=1, total=0, ranked=10)


def test_french_refuses_heine():
    assert schemes_for(terms_of(VARIANTS["koenigrufen"]).heine) == SCHEMES
    assert schemes_for(terms_of(VARIANTS["french"]).heine) == ("fixed", "tirol_formula", "custom")


def test_counted_n():
    assert counted_n("all", 7) is None
    assert counted_n(6, 3) == 6
    assert [counted_n("half", k) for k in (1, 2, 3, 9, 10, 11, 12, 13)] == [1, 1, 2, 5, 5, 5, 6, 6]
    bad: object
    for bad in (0, -1, "six", True, 2.5):
        with pytest.raises(ValueError, match="best_n"):
            counted_n(bad, 5)  # type: ignore[arg-type]


def test_season_best_n_with_the_final_on_top():
    players = {
        "Erika": [Result(1, 223, 1), Result(2, 100, 13), Result(3, 180, 3), Result(4, 198, 2, final=True)],
        "Franz": [Result(1, 198, 2), Result(2, 223, 1), Result(3, 10, 41)],
        "Karin": [Result(2, 5, 46)],
    }
    rows = season(players, best_n=2, final_mode="extra", held=4)
    assert [(r.key, r.place, r.total, r.final_points, r.counted) for r in rows] == [
        ("Erika", 1, 223 + 180 + 198, 198, (223, 180)),
        ("Franz", 2, 421, None, (223, 198)),
        ("Karin", 3, 5, None, (5,)),
    ]
    erika = rows[0]
    assert erika.participations == 4
    assert erika.podiums == (1, 1, 1)
    assert erika.best_place == 1


def test_season_final_as_a_regular_tournament_or_not_at_all():
    players = {"Erika": [Result(1, 100, 5), Result(2, 50, 9), Result(3, 223, 1, final=True)]}
    assert season(players, best_n=2, final_mode="regular", held=3)[0].counted == (223, 100)
    assert season(players, best_n=2, final_mode="regular", held=3)[0].total == 323
    none = season(players, best_n=2, final_mode="none", held=3)[0]
    assert (none.total, none.final_points, none.counted) == (150, None, (100, 50))
    with pytest.raises(ValueError, match="final_mode"):
        season(players, best_n=2, final_mode="twice", held=3)


def test_season_ties_counted_results_then_participations_then_final_then_shared():
    rows = season(
        {
            "a": [Result(1, 100, 5), Result(2, 50, 9)],  # 150: best 100
            "b": [Result(1, 90, 6), Result(2, 60, 8)],  # 150: best 90
            "c": [Result(1, 150, 3)],  # 150: best 150
            "d": [Result(1, 150, 3), Result(2, 0, 60)],  # 150: best 150, more participations
            "e": [Result(1, 150, 3), Result(3, 0, 70, final=True)],  # as d, with a final place
            "f": [Result(1, 150, 3), Result(3, 0, 70, final=True)],  # as e: shares e's place
        },
        best_n="all",
        final_mode="regular",
        held=3,
    )
    assert [(r.key, r.place) for r in rows] == [("e", 1), ("f", 1), ("d", 3), ("c", 4), ("a", 5), ("b", 6)]
