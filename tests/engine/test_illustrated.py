"""Illustriertes Tarock (docs/rules.md §2): game, premiums, kontra, valat,
renonce, Mondfang, Trischaken and series, as a rulebook."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scoring.engine import VARIANTS, dumps_session, read_session, score_session
from scoring.engine.illustrated import (
    CardCount,
    IllustratedOptions,
    Profile,
    ValatScoring,
    card_points,
    series_notation,
)
from tests.engine.support import deltas, fixture, one_hand, session

PLAYERS = ["A", "B", "C"]


def hand(**fields: Any) -> dict[str, Any]:
    """A played hand: A declares an announced Dreiblatt, unless told otherwise."""
    return {"declarer": "A", "game": "dreiblatt", "bid": "announced", **fields}


def written(played: dict[str, Any], options: dict[str, Any] | None = None) -> dict[str, int | float]:
    return deltas(one_hand("illustrated", PLAYERS, played, options))


def lines(played: dict[str, Any], options: dict[str, Any] | None = None) -> list[str]:
    return one_hand("illustrated", PLAYERS, played, options).rendered()


GRAZ = {"profile": "graz"}


# --------------------------------------------------------------------------
# The seed's worked example (docs/rules.md §2.4, 2.9)


def test_seed_series_writes_the_classic_notation_and_settles():
    result = score_session(read_session(fixture("illustrated-seed-series.json")))
    assert [deltas(h) for h in result.hands] == [
        {"A": 18, "B": 0, "C": 0},
        {"A": 8, "B": 0, "C": 6},
        {"A": 0, "B": 0, "C": 22},
        {"A": 0, "B": 28, "C": 0},
        {"A": 84, "B": 6, "C": 0},
    ]
    (section,) = result.summary.sections
    notation = series_notation(PLAYERS, [h.deltas for h in result.hands], section)
    assert {name: str(row) for name, row in notation.items()} == {
        "A": "18, 26, 110 | 120",
        "B": "28, 34",
        "C": "6, 28",
    }
    printed = result.to_json()
    assert printed["series"] == [
        {"hands": [0, 4], "totals": {"A": 120, "B": 34, "C": 28}, "bonus": {"A": 10}}
    ]
    assert printed["totals"] == {"A": 120, "B": 34, "C": 28}
    assert printed["settlement"]["net"] == {"A": 178, "B": -80, "C": -98}


def test_seed_breakdown_reads_line_by_line():
    result = score_session(read_session(fixture("illustrated-seed-series.json")))
    assert result.hands[0].rendered() == [
        "(3 + 10) × 1 = 13 for A (Dreiblatt won with 45)",
        "Vierzig after the talon: 5 × 1 = 5 for A",
        "A +18 (13 + 5)",
    ]
    assert result.hands[1].rendered()[0] == (
        "(4 + 2) × 1 = 6 each for A and C (Dreiblatt lost by B with 33, "
        "gehalten counts 4: Beck 5, the Wikipedia example 4, set under “Game points by bid”)"
    )


def test_seed_check_announced_zweiblatt_won_with_39_and_koepfe_before_the_talon():
    played = hand(
        declarer="C",
        game="zweiblatt",
        points=39,
        premiums=[{"type": "koepfe", "player": "C", "announced": "before_talon"}],
    )
    assert written(played) == {"A": 0, "B": 0, "C": 22}
    assert lines(played)[:2] == [
        "(3 + 4) × 2 = 14 for C (Zweiblatt won with 39)",
        "Köpfe before the talon: 2 × 2 × 2 = 8 for C",
    ]


def test_seed_check_opponents_koepfe_after_the_talon_in_an_einblatt():
    played = hand(
        game="einblatt",
        points=50,
        premiums=[{"type": "koepfe", "player": "B", "announced": "after_talon"}],
    )
    assert written(played)["B"] == 6
    assert "Köpfe after the talon: 2 × 3 = 6 for B" in lines(played)


# --------------------------------------------------------------------------
# The game (docs/rules.md §2.3)


@pytest.mark.parametrize(
    ("game", "bid", "points", "expected"),
    [
        ("dreiblatt", "announced", 36, {"A": 4, "B": 0, "C": 0}),  # (3 + 1) × 1
        ("zweiblatt", "unterer", 40, {"A": 18, "B": 0, "C": 0}),  # (4 + 5) × 2
        ("einblatt", "held", 50, {"A": 60, "B": 0, "C": 0}),  # (5 + 15) × 3
        ("solo", "announced", 70, {"A": 152, "B": 0, "C": 0}),  # (3 + 35) × 4
        ("dreiblatt", "announced", 35, {"A": 0, "B": 3, "C": 3}),  # (3 + 0) × 1 each
        ("zweiblatt", "unterer", 0, {"A": 0, "B": 78, "C": 78}),  # (4 + 35) × 2 each
        ("solo", "held", 20, {"A": 0, "B": 80, "C": 80}),  # (5 + 15) × 4 each
    ],
)
def test_game_won_credits_the_declarer_and_lost_credits_each_opponent(game, bid, points, expected):
    assert written(hand(game=game, bid=bid, points=points)) == expected


def test_game_won_with_36_points_lost_with_35():
    assert written(hand(points=36))["A"] == 4
    assert written(hand(points=35)) == {"A": 0, "B": 3, "C": 3}


def test_points_may_be_written_as_text():
    assert written(hand(points="45")) == {"A": 13, "B": 0, "C": 0}


def test_game_points_house_rule_changes_what_a_held_game_is_worth():
    options = {"game_points": {"held": 4}}
    assert written(hand(bid="held", points=40), options)["A"] == 9  # (4 + 5) × 1
    assert written(hand(bid="held", points=40))["A"] == 10  # the default 5
    assert written(hand(bid="unterer", points=40), {"game_points": {"unterer": 7}})["A"] == 12


# --------------------------------------------------------------------------
# Kontra


@pytest.mark.parametrize(
    ("kontra", "factor", "name"), [(0, 1, None), (1, 2, "Kontra"), (2, 4, "Rekontra"), (3, 8, "Subkontra")]
)
def test_beck_kontra_doubles_every_value_of_the_hand(kontra, factor, name):
    played = hand(
        points=40,
        kontra=kontra,
        premiums=[
            {"type": "pagat", "player": "A", "announced": "after_talon"},
            {"type": "koepfe", "player": "B"},
        ],
    )
    # game (3 + 5), Pagat 5 × 2, the opponent's Köpfe 2: all times 2^kontra
    assert written(played) == {"A": 18 * factor, "B": 2 * factor, "C": 0}
    if name:
        assert f"(3 + 5) × 1 × {factor} = {8 * factor} for A (Dreiblatt won with 40, {name})" in lines(played)


@pytest.mark.parametrize(
    ("game_kontra", "pagat_kontra", "expected_a"),
    [(0, 0, 18), (1, 0, 26), (0, 3, 88), (2, 1, 52), (3, 3, 144)],
)
def test_graz_kontra_is_given_to_the_game_and_each_announced_premium_apart(
    game_kontra, pagat_kontra, expected_a
):
    played = hand(
        points=40,
        kontra=game_kontra,
        premiums=[
            {"type": "pagat", "player": "A", "announced": "after_talon", "kontra": pagat_kontra},
            {"type": "koepfe", "player": "B"},
        ],
    )
    # (3 + 5) · 2^game + 5 · 2 · 2^pagat; the silent Köpfe keeps its base value
    assert written(played, GRAZ) == {"A": expected_a, "B": 2, "C": 0}


def test_graz_kontra_on_a_pagat_shows_in_its_line():
    played = hand(
        points=40, premiums=[{"type": "pagat", "player": "A", "announced": "after_talon", "kontra": 2}]
    )
    assert "Pagat after the talon, Rekontra: 5 × 2 × 1 × 4 = 40 for A" in lines(played, GRAZ)


# --------------------------------------------------------------------------
# Premiums (docs/rules.md §2.4): each premium, each announcement, in a Zweiblatt (M = 2)


@pytest.mark.parametrize(
    ("premium", "player", "announced", "points", "value"),
    [
        ("koenigstrull", "A", "silent", 40, 10),
        ("koenigstrull", "A", "after_talon", 40, 10),
        ("koenigstrull", "B", "before_talon", 40, 20),
        ("tarocktrull", "A", "silent", 40, 8),
        ("tarocktrull", "C", "before_talon", 40, 16),
        ("koepfe", "B", "silent", 40, 4),
        ("koepfe", "A", "before_talon", 40, 8),
        ("ohne_koenige", "A", "after_talon", 40, 10),
        ("ohne_koenige", "A", "before_talon", 40, 20),
        ("ohne_trull", "A", "silent", 40, 8),
        ("ohne_trull", "A", "before_talon", 40, 16),
        ("vierzig", "A", "silent", 40, 10),
        ("vierzig", "A", "before_talon", 44, 20),
        ("fuenfzig", "A", "after_talon", 50, 20),
        ("fuenfzig", "A", "before_talon", 55, 40),
        ("pagat", "A", "silent", 40, 10),
        ("pagat", "A", "after_talon", 40, 20),
        ("pagat", "A", "before_talon", 40, 40),
        ("pagat", "B", "after_talon", 40, 20),
        ("uhu", "A", "silent", 40, 10),
        ("uhu", "C", "before_talon", 40, 40),
    ],
)
def test_each_premium_made_is_worth_base_times_announcement_times_game(
    premium, player, announced, points, value
):
    played = hand(
        game="zweiblatt",
        points=points,
        premiums=[{"type": premium, "player": player, "announced": announced}],
    )
    game = (3 + points - 35) * 2
    expected = {"A": game, "B": 0, "C": 0}
    expected[player] += value
    assert written(played, {"uhu": True}) == expected


def test_card_combinations_count_for_the_holder_whatever_the_game():
    played = hand(
        points=20, premiums=[{"type": "koenigstrull", "player": "A"}, {"type": "koepfe", "player": "B"}]
    )
    # the game lost: (3 + 15) each opponent; A still writes his Königstrull
    assert written(played) == {"A": 5, "B": 20, "C": 18}


def test_pagat_announced_after_talon_and_lost_credits_each_opponent():
    played = hand(
        points=45, premiums=[{"type": "pagat", "player": "A", "announced": "after_talon", "made": False}]
    )
    assert written(played) == {"A": 13, "B": 10, "C": 10}
    assert "Pagat after the talon, lost by A: 5 × 2 × 1 = 10 each for B and C" in lines(played)


def test_opponents_pagat_announced_before_talon_and_lost_credits_the_declarer():
    played = hand(
        points=45, premiums=[{"type": "pagat", "player": "B", "announced": "before_talon", "made": False}]
    )
    assert written(played) == {"A": 13 + 20, "B": 0, "C": 0}


def test_vierzig_announced_and_not_reached_credits_each_opponent():
    played = hand(
        points=38, premiums=[{"type": "vierzig", "player": "A", "announced": "after_talon", "made": False}]
    )
    assert written(played) == {"A": 6, "B": 5, "C": 5}


def test_fuenfzig_announced_before_talon_and_missed_in_a_zweiblatt():
    played = hand(
        game="zweiblatt",
        points=45,
        premiums=[{"type": "fuenfzig", "player": "A", "announced": "before_talon", "made": False}],
    )
    assert written(played) == {"A": 26, "B": 40, "C": 40}


def test_silent_vierzig_not_reached_counts_nothing():
    played = hand(points=39, premiums=[{"type": "vierzig", "player": "A", "made": False}])
    assert written(played) == {"A": 7, "B": 0, "C": 0}
    assert "silent Vierzig: not reached with 39 points, counts nothing" in lines(played)


def test_silent_pagat_lost_credits_the_other_side_by_default():
    played = hand(points=45, premiums=[{"type": "pagat", "player": "A", "made": False}])
    assert written(played) == {"A": 13, "B": 5, "C": 5}


def test_silent_pagat_lost_counts_nothing_with_the_house_rule_off():
    played = hand(points=45, premiums=[{"type": "pagat", "player": "A", "made": False}])
    assert written(played, {"silent_ultimo_loss_counts": False}) == {"A": 13, "B": 0, "C": 0}
    assert any("counts nothing" in line for line in lines(played, {"silent_ultimo_loss_counts": False}))


def test_silent_uhu_of_an_opponent_lost_credits_the_declarer():
    played = hand(points=30, premiums=[{"type": "uhu", "player": "C", "made": False}])
    assert written(played, {"uhu": True}) == {"A": 5, "B": 8, "C": 8}


def test_graz_card_combinations_count_only_silently_at_base_value():
    played = hand(
        game="einblatt",
        points=52,
        premiums=[
            {"type": "tarocktrull", "player": "B"},
            {"type": "ohne_koenige", "player": "A"},
            {"type": "fuenfzig", "player": "A"},
        ],
    )
    # game (3 + 17) × 3, Ohne Könige 5 × 3, Fünfzig 10 × 3; B's Tarocktrull 4 × 3
    assert written(played, GRAZ) == {"A": 60 + 15 + 30, "B": 12, "C": 0}


# --------------------------------------------------------------------------
# Valat (docs/rules.md §2.6)


def test_valat_made_silently_by_the_declarer_adds_12():
    played = hand(points=67, talon_rest=3, valat={"by": "declarer"})
    assert written(played) == {"A": 35 + 12, "B": 0, "C": 0}
    assert lines(played)[:2] == [
        "(3 + 32) × 1 = 35 for A (Dreiblatt won with 67, silent Valat made)",
        "silent Valat made: 12 × 1 = 12 for A",
    ]


@pytest.mark.parametrize(("announced", "value"), [("silent", 12), ("after_talon", 24), ("before_talon", 48)])
def test_beck_additive_valat_adds_its_value_times_game_and_kontra(announced, value):
    played = hand(game="einblatt", points=70, kontra=1, valat={"by": "declarer", "announced": announced})
    assert written(played)["A"] == (3 + 35) * 3 * 2 + value * 3 * 2


def test_valat_made_by_the_opponents_is_scored_for_each_as_the_declarers_would_be():
    played = hand(points=5, valat={"by": "opponents"}, premiums=[{"type": "koepfe", "player": "B"}])
    # A keeps only his discard, 5 points; the opponents have 70 − 5 = 65:
    # each (3 + 30) × 1 = 33 and the valat 12; B also his Köpfe 2
    assert written(played) == {"A": 0, "B": 33 + 12 + 2, "C": 33 + 12}
    assert lines(played)[:2] == [
        "(3 + 30) × 1 = 33 each for B and C (Dreiblatt lost by A with 5, silent Valat made)",
        "silent Valat made: 12 × 1 = 12 each for B and C",
    ]


@pytest.mark.parametrize(
    ("game", "points", "each"),
    [
        ("dreiblatt", 1, (3 + 34) * 1 + 12),  # three plain cards discarded: 3 − 2 = 1
        ("dreiblatt", 13, (3 + 22) * 1 + 12),  # three cards worth 5: 15 − 2 = 13
        ("zweiblatt", 1, (3 + 34) * 2 + 12 * 2),  # two plain cards: 2 − 4/3, rounded 1
        ("zweiblatt", 9, (3 + 26) * 2 + 12 * 2),  # two worth 5: 10 − 4/3, rounded 9
        ("einblatt", 0, (3 + 35) * 3 + 12 * 3),  # one plain card: 1 − 2/3, rounded 0
        ("einblatt", 4, (3 + 31) * 3 + 12 * 3),  # one worth 5: 5 − 2/3, rounded 4
        ("solo", 0, (3 + 35) * 4 + 12 * 4),  # a Solo takes nothing from the talon, discards nothing
    ],
)
def test_in_an_opponents_valat_the_declarers_points_are_his_own_discard(game, points, each):
    played = hand(game=game, points=points, valat={"by": "opponents"})
    # each opponent: (G + (70 − points) − 35) · M, and the silent valat 12 · M
    assert written(played) == {"A": 0, "B": each, "C": each}


def test_announced_valat_that_fails_gives_the_game_to_the_opponents_with_the_points_in_play():
    played = hand(
        points=60, talon_rest=5, valat={"by": "declarer", "announced": "after_talon", "made": False}
    )
    # each opponent: (3 + 35 − 5) × 1 and the announced valat 24
    assert written(played) == {"A": 0, "B": 33 + 24, "C": 33 + 24}
    assert lines(played)[0] == (
        "(3 + 35 − 5) × 1 = 33 each for B and C "
        "(Valat after the talon failed: the game goes to the other side with the 65 points in play)"
    )


def test_opponents_announced_valat_that_fails_gives_the_declarer_the_game():
    played = hand(points=10, valat={"by": "opponents", "announced": "before_talon", "made": False})
    assert written(played) == {"A": 38 + 48, "B": 0, "C": 0}


def test_beck_factor_valat_multiplies_the_sides_game_and_premiums_but_not_the_others():
    played = hand(
        points=70,
        valat={"by": "declarer"},
        premiums=[{"type": "pagat", "player": "A"}, {"type": "koepfe", "player": "B"}],
    )
    options = {"valat_scoring": "beck_factor"}
    assert written(played, options) == {"A": 38 * 12 + 5 * 12, "B": 2, "C": 0}
    assert "(3 + 35) × 1 × 12 = 456 for A (Dreiblatt won with 70, silent Valat made, Valat ×12)" in lines(
        played, options
    )


def test_beck_factor_valat_failed_multiplies_only_the_game():
    played = hand(
        points=50,
        valat={"by": "declarer", "announced": "after_talon", "made": False},
        premiums=[{"type": "koepfe", "player": "A"}],
    )
    assert written(played, {"valat_scoring": "beck_factor"}) == {"A": 2, "B": 38 * 24, "C": 38 * 24}


def test_graz_valat_multiplies_game_card_combinations_and_ultimos_but_never_fuenfzig():
    played = hand(
        points=70,
        valat={"by": "declarer"},
        premiums=[
            {"type": "pagat", "player": "A"},
            {"type": "koepfe", "player": "A"},
            {"type": "fuenfzig", "player": "A"},
        ],
    )
    assert written(played, GRAZ) == {"A": 38 * 6 + 5 * 6 + 2 * 6 + 10, "B": 0, "C": 0}


def test_graz_valat_announced_with_its_own_kontra_doubles_its_factor():
    played = hand(points=70, kontra=1, valat={"by": "declarer", "announced": "after_talon", "kontra": 1})
    # (3 + 35) × 1 × 2 (game Kontra) × 24 (12 · 2 for the valat's Kontra)
    assert written(played, GRAZ)["A"] == 38 * 2 * 24


def test_graz_valat_by_the_opponents_multiplies_their_card_combinations():
    played = hand(points=4, valat={"by": "opponents"}, premiums=[{"type": "koepfe", "player": "B"}])
    # the opponents have 70 − 4 = 66: (3 + 31) × 6 each; B's Köpfe 2 × 6
    assert written(played, GRAZ) == {"A": 0, "B": 34 * 6 + 2 * 6, "C": 34 * 6}


def test_graz_announced_valat_that_fails_is_multiplied_by_12():
    played = hand(
        points=40, talon_rest=2, valat={"by": "declarer", "announced": "after_talon", "made": False}
    )
    assert written(played, GRAZ) == {"A": 0, "B": 36 * 12, "C": 36 * 12}


@pytest.mark.parametrize(
    ("options", "factor"), [({"valat_scoring": "beck_factor"}, 24), ({"profile": "graz"}, 12)]
)
def test_a_failed_announced_valat_never_multiplies_the_premiums(options, factor):
    played = hand(
        points=50,
        valat={"by": "declarer", "announced": "after_talon", "made": False},
        premiums=[
            {"type": "koepfe", "player": "A"},
            {"type": "pagat", "player": "B"},
            {"type": "koenigstrull", "player": "C"},
        ],
    )
    # the game goes to B and C: (3 + 35) × 1 × the valat factor each;
    # the premiums as usual: A's Köpfe 2, B's silent Pagat 5, C's Königstrull 5
    assert written(played, options) == {"A": 2, "B": 38 * factor + 5, "C": 38 * factor + 5}


# --------------------------------------------------------------------------
# Renonce (docs/rules.md §2.7)

RENONCE_PREMIUMS = [
    {"type": "pagat", "player": "A", "announced": "after_talon"},
    {"type": "vierzig", "player": "A", "announced": "before_talon"},
    {"type": "koenigstrull", "player": "A"},
    {"type": "koepfe", "player": "B", "announced": "after_talon"},
]


def test_renonce_by_the_declarer_gives_each_opponent_the_game_at_ten_and_his_announcements():
    played = hand(renonce="A", premiums=RENONCE_PREMIUMS)
    # (3 + 10) × 1, Pagat 5 × 2, Vierzig 5 × 2; the silent Königstrull and B's Köpfe do not count
    assert written(played) == {"A": 0, "B": 33, "C": 33}
    assert "Renonce: nothing else of this hand counts" in lines(played)


def test_renonce_by_an_opponent_gives_the_declarer_the_game_and_his_announcements_as_made():
    played = hand(renonce="B", premiums=RENONCE_PREMIUMS)
    assert written(played) == {"A": 33, "B": 0, "C": 0}


def test_renonce_hand_ignores_the_points_and_a_valat_and_keeps_the_kontra():
    played = hand(
        game="zweiblatt",
        points=20,
        kontra=1,
        renonce="C",
        valat={"by": "opponents", "announced": "after_talon", "made": False},
    )
    assert written(played) == {"A": (3 + 10) * 2 * 2, "B": 0, "C": 0}


def test_renonce_counts_the_declarers_announced_card_combinations_and_ohne():
    premiums = [
        {"type": "koenigstrull", "player": "A", "announced": "before_talon"},
        {"type": "ohne_trull", "player": "A", "announced": "after_talon"},
        {"type": "koepfe", "player": "B", "announced": "before_talon"},
    ]
    # (3 + 10) × 1 = 13, Königstrull before the talon 5 × 2 = 10, Ohne Trull after it 4;
    # B's Köpfe is an opponent's premium and does not count
    assert written(hand(renonce="A", premiums=premiums)) == {"A": 0, "B": 27, "C": 27}
    assert written(hand(renonce="C", premiums=premiums)) == {"A": 27, "B": 0, "C": 0}


def test_renonce_does_not_count_the_declarers_silent_card_combinations_and_ohne():
    premiums = [{"type": "koenigstrull", "player": "A"}, {"type": "ohne_trull", "player": "A"}]
    # only the game at (3 + 10) × 1
    assert written(hand(renonce="B", premiums=premiums)) == {"A": 13, "B": 0, "C": 0}


def test_renonce_keeps_the_mondfang():
    played = hand(renonce="A", mondfang={"captured_by": "B", "played_by": "A"})
    assert written(played, GRAZ) == {"A": -5, "B": 13 + 5, "C": 13}


# --------------------------------------------------------------------------
# Mondfang (docs/rules.md §2.5)


def test_mondfang_is_plus_five_for_the_capturer_and_minus_five_for_the_player_of_the_xxi():
    played = hand(game="solo", points=40, kontra=2, mondfang={"captured_by": "C", "played_by": "A"})
    # flat: neither the Solo nor the Rekontra multiplies it
    assert written(played, GRAZ) == {"A": (3 + 5) * 4 * 4 - 5, "B": 0, "C": 5}
    assert "Mondfang: −5 for A (played the XXI)" in lines(played, GRAZ)


@pytest.mark.parametrize(
    ("valat", "points", "captured_by", "played_by", "expected"),
    [
        # A's silent valat: (3 + 35) × 1 × 6 = 228; A took B's XXI: +5 and −5, flat
        ("declarer", 70, "A", "B", {"A": 228 + 5, "B": -5, "C": 0}),
        # the opponents' valat, A's discard 4: each (3 + 31) × 1 × 6 = 204; C took B's XXI
        ("opponents", 4, "C", "B", {"A": 0, "B": 204 - 5, "C": 204 + 5}),
        # … or B took A's XXI
        ("opponents", 4, "B", "A", {"A": -5, "B": 204 + 5, "C": 204}),
    ],
)
def test_mondfang_in_a_made_valat_is_taken_by_the_side_that_made_it(
    valat, points, captured_by, played_by, expected
):
    played = hand(
        points=points, valat={"by": valat}, mondfang={"captured_by": captured_by, "played_by": played_by}
    )
    assert written(played, GRAZ) == expected


# --------------------------------------------------------------------------
# Trischaken (docs/rules.md §2.8)

TRISCHAKEN = {"all_pass": "trischaken"}


def trischaken(points: dict[str, int], no_trick: list[str] | None = None) -> dict[str, Any]:
    return {"type": "trischaken", "points": points, "no_trick": no_trick or []}


def test_trischaken_most_points_lose_ten_the_others_win_five():
    assert written(trischaken({"A": 30, "B": 20, "C": 10}), TRISCHAKEN) == {"A": -10, "B": 5, "C": 5}


def test_trischaken_without_a_trick_wins_five_more():
    played = trischaken({"A": 40, "B": 20, "C": 0}, ["C"])
    assert written(played, TRISCHAKEN) == {"A": -10, "B": 5, "C": 10}
    assert "Trischaken won without a trick: C 5 + 5 = +10" in lines(played, TRISCHAKEN)


def test_trischaken_tied_for_the_most_points_all_of_them_lose():
    assert written(trischaken({"A": 25, "B": 25, "C": 10}), TRISCHAKEN) == {"A": -10, "B": -10, "C": 5}


def test_trischaken_tied_three_ways_everyone_loses():
    assert written(trischaken({"A": 20, "B": 20, "C": 20}), TRISCHAKEN) == {"A": -10, "B": -10, "C": -10}


def test_a_redeal_writes_nothing():
    assert written({"type": "redeal"}) == {"A": 0, "B": 0, "C": 0}


# --------------------------------------------------------------------------
# Series (docs/rules.md §2.9)


def test_series_ends_where_someone_reaches_the_target_and_the_next_starts_from_zero():
    hands = [
        hand(game="solo", points=50),  # A 72
        hand(declarer="B", game="einblatt", points=55),  # B 69
        hand(game="dreiblatt", points=60),  # A 28: 100, series ends
        hand(declarer="C", points=40),  # C 8, unfinished
    ]
    result = session("illustrated", PLAYERS, hands)
    printed = result.to_json()
    assert printed["series"] == [
        {"hands": [0, 2], "totals": {"A": 110, "B": 69, "C": 0}, "bonus": {"A": 10}},
        {"hands": [3, 3], "totals": {"A": 0, "B": 0, "C": 8}, "bonus": {}},
    ]
    assert printed["totals"] == {"A": 110, "B": 69, "C": 8}
    # each series settles pair by pair: 3·s − Σs, summed over the series
    assert printed["settlement"]["net"] == {"A": 330 - 179 - 8, "B": 207 - 179 - 8, "C": 0 - 179 + 24 - 8}
    assert [section.complete for section in result.summary.sections] == [True, False]


def test_every_player_at_or_above_the_target_gets_the_bonus():
    options = {"series_target": 20, "series_bonus": 5}
    hands = [
        hand(declarer="B", points=50),  # B 18
        hand(points=20, premiums=[{"type": "koenigstrull", "player": "B"}]),  # B 41: ends; C 18 does not
        hand(points=20),  # B 18, C 18: a new series, still below 20
    ]
    result = session("illustrated", PLAYERS, hands, options)
    first = result.summary.sections[0]
    assert (first.first, first.last) == (0, 1)
    assert dict(first.bonus) == {"B": 5}
    second = result.summary.sections[1]
    assert not second.complete and dict(second.bonus) == {}


def test_two_players_reaching_the_target_in_one_hand_both_get_the_bonus():
    options = {"series_target": 18}
    result = session("illustrated", PLAYERS, [hand(points=20)], options)
    assert result.to_json()["series"] == [
        {"hands": [0, 0], "totals": {"A": 0, "B": 28, "C": 28}, "bonus": {"B": 10, "C": 10}}
    ]


def test_series_ended_by_a_renonce_hand_gives_no_bonus():
    options = {"series_target": 20}
    hands = [hand(points=40), hand(game="zweiblatt", renonce="A")]  # B, C: 26 each
    printed = session("illustrated", PLAYERS, hands, options).to_json()
    assert printed["series"] == [{"hands": [0, 1], "totals": {"A": 8, "B": 26, "C": 26}, "bonus": {}}]


def test_series_bonus_zero_lists_no_bonus():
    printed = session(
        "illustrated", PLAYERS, [hand(points=70)], {"series_target": 30, "series_bonus": 0}
    ).to_json()
    assert printed["series"][0]["bonus"] == {}
    assert printed["series"][0]["totals"]["A"] == 38


def test_a_session_without_hands_has_no_series():
    result = session("illustrated", PLAYERS, [])
    assert result.summary.sections == ()
    assert result.to_json()["series"] == []


def test_trischaken_and_mondfang_can_bring_a_total_below_zero():
    options = {"all_pass": "trischaken", "profile": "graz"}
    hands = [
        trischaken({"A": 30, "B": 20, "C": 10}),
        hand(points=36, mondfang={"captured_by": "B", "played_by": "C"}),
    ]
    assert session("illustrated", PLAYERS, hands, options).to_json()["totals"] == {"A": -6, "B": 10, "C": 0}


# --------------------------------------------------------------------------
# House rules and the session file


def test_default_house_rules_are_those_of_the_rulebook():
    options = VARIANTS["illustrated"].default_options(PLAYERS)
    assert options == IllustratedOptions()
    assert (options.game_points.announced, options.game_points.unterer, options.game_points.held) == (3, 4, 5)
    assert options.valat_scoring is ValatScoring.BECK_ADDITIVE
    assert (options.series_target, options.series_bonus) == (100, 10)
    assert not options.uhu and options.silent_ultimo_loss_counts


def test_profile_graz_implies_valat_scoring_graz():
    options = VARIANTS["illustrated"].parse_options({"profile": "graz"}, PLAYERS)
    assert options.profile is Profile.GRAZ and options.valat_scoring is ValatScoring.GRAZ


def test_session_file_round_trip_keeps_house_rules_and_hands():
    document = {
        "variant": "illustrated",
        "players": PLAYERS,
        "options": {"profile": "graz", "game_points": {"held": 4}, "all_pass": "trischaken", "uhu": True},
        "hands": [
            hand(
                points=70,
                kontra=1,
                valat={"by": "declarer", "announced": "after_talon", "kontra": 2},
                premiums=[{"type": "uhu", "player": "A", "announced": "after_talon", "kontra": 1}],
                mondfang={"captured_by": "A", "played_by": "B"},
            ),
            trischaken({"A": 30, "B": 0, "C": 20}, ["B"]),
            {"type": "redeal"},
            hand(bid="held", renonce="B"),
        ],
    }
    first = read_session(document)
    text = dumps_session(first)
    saved = json.loads(text)
    # every house rule in force, the defaults and the profile's own valat scoring included
    assert saved["options"] == {
        "profile": "graz",
        "game_points": {"announced": 3, "unterer": 4, "held": 4},
        "valat_scoring": "graz",
        "uhu": True,
        "silent_ultimo_loss_counts": True,
        "all_pass": "trischaken",
        "series_target": 100,
        "series_bonus": 10,
    }
    assert saved["hands"][0]["valat"] == {"by": "declarer", "announced": "after_talon", "kontra": 2}
    assert saved["hands"][1] == {
        "type": "trischaken",
        "points": {"A": 30, "B": 0, "C": 20},
        "no_trick": ["B"],
    }
    again = read_session(text)
    assert dumps_session(again) == text
    assert score_session(again).to_json() == score_session(first).to_json()


# --------------------------------------------------------------------------
# The score sheet


def test_describe_gives_the_hand_in_short():
    variant = VARIANTS["illustrated"]
    result = score_session(read_session(fixture("illustrated-seed-series.json")))
    assert [str(variant.describe(record)) for record in result.session.hands] == [
        "A · Dreiblatt · 45 · Vierzig",
        "B · Dreiblatt · 33 · Köpfe (A)",
        "C · Zweiblatt · 39 · Köpfe",
        "B · Dreiblatt · 45 · Pagat · Vierzig · Köpfe",
        "A · Einblatt · 50 · Fünfzig · Köpfe (B)",
    ]


def test_describe_names_kontra_valat_failures_and_renonce():
    options = {"all_pass": "trischaken"}
    hands = [
        hand(
            points=60,
            kontra=1,
            valat={"by": "declarer", "announced": "after_talon", "made": False},
            premiums=[{"type": "pagat", "player": "A", "announced": "after_talon", "made": False}],
        ),
        hand(renonce="C"),
        trischaken({"A": 30, "B": 0, "C": 20}, ["B"]),
    ]
    result = session("illustrated", PLAYERS, hands, options)
    variant = VARIANTS["illustrated"]
    assert [str(variant.describe(record)) for record in result.session.hands] == [
        "A · Dreiblatt · Kontra · 60 · Pagat lost · Valat failed",
        "A · Dreiblatt · Renonce C",
        "Trischaken · A 30 · B 0 · C 20",
    ]


def test_breakdown_lines_keep_numbers_as_arguments():
    score = one_hand("illustrated", PLAYERS, hand(points=45))
    game_line = score.breakdown[0]
    assert "{formula}" in game_line.text and "45" not in game_line.text
    assert game_line.render(number=lambda value: f"<{value}>") == (
        "(<3> + <10>) × <1> = <13> for A (Dreiblatt won with <45>)"
    )


# --------------------------------------------------------------------------
# Counting card points (docs/rules.md §2.1)


def test_counting_by_threes_king_cavall_and_a_plain_card_make_seven():
    assert card_points(CardCount(fives=1, cavalls=1, others=1)) == 7


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        (CardCount(fives=1), 4),  # 5 − 2/3 = 4 1/3
        (CardCount(fives=2), 9),  # 10 − 4/3 = 8 2/3
        (CardCount(others=2), 1),  # 2 − 4/3 = 2/3
        (CardCount(), 0),
        (CardCount(fives=7, queens=4, cavalls=4, jacks=4, others=35), 70),
    ],
)
def test_a_remainder_of_one_or_two_cards_loses_two_thirds_each_then_rounds(cards, points):
    assert card_points(cards) == points
