"""The running-total chart: every line's end label readable, none on another."""

from __future__ import annotations

import itertools
import re
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from scoring.chart import LABEL_CHAR, LABEL_GAP, MOST_POINTS, RIGHT, WIDTH, running_total_svg, spread_labels


def test_a_label_stays_at_its_line_end_when_there_is_room():
    assert spread_labels([50.0, 120.0, 200.0], top=10, bottom=260) == [50.0, 120.0, 200.0]


def test_equal_totals_get_labels_one_below_the_other():
    assert spread_labels([100.0, 100.0, 100.0], top=10, bottom=260) == [100.0, 116.0, 132.0]


def test_labels_at_the_bottom_move_up_instead_of_falling_off_the_chart():
    # Three defenders ending on the lowest value, as after a single won Garde.
    assert spread_labels([20.0, 250.0, 250.0, 250.0], top=10, bottom=260) == [20.0, 228.0, 244.0, 260.0]


@given(st.lists(st.floats(min_value=14, max_value=254), min_size=1, max_size=6))
def test_labels_never_overlap_and_never_leave_the_chart(wanted):
    spots = spread_labels(wanted, top=18, bottom=266)
    assert all(18 <= spot <= 266 for spot in spots)
    ordered = sorted(spots)
    assert all(b - a >= LABEL_GAP - 1e-9 for a, b in itertools.pairwise(ordered))


def test_the_chart_labels_each_line_with_the_player_and_final_total():
    svg = running_total_svg(
        ["Anna", "Bert", "Carl", "Dora"],
        [[Fraction(204), Fraction(-68), Fraction(-68), Fraction(-68)]],
    )
    for label in ("Anna 204", "Bert \u221268", "Carl \u221268", "Dora \u221268"):
        assert f">{label}</text>" in svg


def test_a_long_evenings_chart_draws_a_few_hundred_points_a_line_and_ends_at_the_last_total():
    totals = [[Fraction(40 * hand), Fraction(-40 * hand)] for hand in range(1, 2001)]
    svg = running_total_svg(["Anna", "Bert"], totals)
    lines = re.findall(r'<polyline points="([^"]+)"', svg)
    assert len(lines) == 2
    for points in lines:
        drawn = points.split()
        assert len(drawn) <= MOST_POINTS + 2
        assert drawn[-1].split(",")[0] == f"{WIDTH - RIGHT:.1f}"  # the last hand is always drawn
    assert ">Anna 80000</text>" in svg and ">Bert \u221280000</text>" in svg


def test_whole_labels_keep_a_games_name_and_the_drawing_leaves_room_for_it():
    names = ["Französisches Tarock", "Illustriertes Tarock"]
    svg = running_total_svg(names, [[Fraction(-12345), Fraction(678)]], whole_labels=True)
    labels = re.findall(r'<text x="([\d.]+)" y="[\d.]+" fill="[^"]+">([^<]+)</text>', svg)
    assert [text for _, text in labels] == ["Französisches Tarock \u221212345", "Illustriertes Tarock 678"]
    for x, text in labels:
        assert float(x) + LABEL_CHAR * len(text) <= WIDTH, text
    # Player names are shortened to nine letters as the sheet's heads are: an
    # initial form where one fits, else their first letters marked with a dot.
    assert "F. Tarock" in running_total_svg(names, [[Fraction(1), Fraction(-1)]])
    assert "I. Tarock" in running_total_svg(names, [[Fraction(1), Fraction(-1)]])
    assert "Französi…" not in running_total_svg(names, [[Fraction(1), Fraction(-1)]])
