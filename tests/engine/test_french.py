"""French Tarot, docs/rules.md §1.3: the value of a hand, rule by rule.

Every expected number is worked from the formula of docs/rules.md §1.3,

    S = sign·(25 + d)·m + p·m + sign·H + C

with four players (docs/rules.md §1.4: taker +3S, each defender −S) unless a test says
otherwise. ``S`` is the value per defender, seen from the attack's side.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine import HandScore, read_session, score_session

from .support import FOUR, deltas, fixture, one_hand


def play(**fields: Any) -> dict[str, Any]:
    """A played hand: Anna takes a prise unless the test says otherwise."""
    return {"taker": "Anna", "contract": "prise", **fields}


def four_players(value: float) -> dict[str, float]:
    """docs/rules.md §1.4, four players: the taker gets 3S, each defender pays S."""
    return {"Anna": 3 * value, "Bert": -value, "Carl": -value, "Dora": -value}


def scored(hand: dict[str, Any], options: dict[str, Any] | None = None) -> HandScore:
    return one_hand("french", FOUR, hand, options)


# ---------------------------------------------------------------------------
# The seed's five-hand table (docs/rules.md §1.3 checks, 1.4 running totals)

SEED_RUNNING_TOTALS = [
    {"Anna": 240, "Bert": -80, "Carl": -80, "Dora": -80},
    {"Anna": 144, "Bert": 208, "Carl": -176, "Dora": -176},
    {"Anna": 216, "Bert": 280, "Carl": -392, "Dora": -104},
    {"Anna": 186, "Bert": 250, "Carl": -302, "Dora": -134},
    {"Anna": 108, "Bert": 172, "Carl": -380, "Dora": 100},
]

# The seed's checks, written with the sign of the attack:
SEED_VALUES = [
    # Anna, Garde, 2 bouts, 56 points: 56 − 41 = 15.
    "(25 + 15) × 2 = 80",
    # Bert, Garde, 3 bouts, 49 points: 49 − 36 = 13, petit au bout for the attack.
    "(25 + 13 + 10) × 2 = 96",
    # Carl, Garde, 2 bouts, 40 points: 41 − 40 = 1 short, petit au bout for the defence;
    # the seed: each defender receives (25 + 1 + 10) × 2 = 72.
    "−(25 + 1 + 10) × 2 = −72",
    # Carl, Garde, only 2 bouts left, 41 points: won by 0, the defence's petit au bout −10.
    "(25 + 0 − 10) × 2 = 30",
    # Dora, Garde, 3 bouts, 40 points: 40 − 36 = 4, a simple poignée (20) not multiplied.
    "(25 + 4) × 2 + 20 = 78",
]


def seed_result() -> Any:
    return score_session(read_session(fixture("french-seed-table.json")))


def test_seed_table_running_totals_after_every_hand() -> None:
    result = seed_result()
    running: dict[str, int | float] = dict.fromkeys(FOUR, 0)
    for number, (hand, expected) in enumerate(zip(result.hands, SEED_RUNNING_TOTALS, strict=True), 1):
        for name, delta in deltas(hand).items():
            running[name] += delta
        assert running == expected, f"after hand {number}"
    assert {k: int(v) for k, v in result.summary.totals.items()} == SEED_RUNNING_TOTALS[-1]


@pytest.mark.parametrize(("number", "formula"), list(enumerate(SEED_VALUES, 1)))
def test_seed_checks_are_the_first_breakdown_line(number: int, formula: str) -> None:
    first_line = seed_result().hands[number - 1].rendered()[0]
    assert first_line.startswith(formula + " ("), first_line


def test_seed_first_hand_breakdown_reads_as_in_the_rulebook() -> None:
    assert seed_result().hands[0].rendered()[0] == "(25 + 15) × 2 = 80 (Garde)"


def test_seed_hand_four_petit_lost_in_the_last_trick_still_won_with_two_bouts() -> None:
    # Carl counted 3 bouts before the last trick; the Petit went to the defence, so
    # 2 bouts and 41 needed: exactly reached, won by 0, and the defence's −10 × 2.
    score = seed_result().hands[3]
    assert deltas(score) == {"Anna": -30, "Bert": -30, "Carl": 90, "Dora": -30}


# ---------------------------------------------------------------------------
# Contracts and their multipliers (docs/rules.md §1.2)


@pytest.mark.parametrize(
    ("contract", "value"),
    [
        ("prise", 35),  # (25 + 10) × 1
        ("petite", 35),  # another name for prise
        ("garde", 70),  # (25 + 10) × 2
        ("garde_sans", 140),  # (25 + 10) × 4
        ("garde_contre", 210),  # (25 + 10) × 6
    ],
)
def test_contract_multiplies_the_game_value(contract: str, value: int) -> None:
    # 2 bouts, 51 points: 51 − 41 = 10.
    assert deltas(scored(play(contract=contract, bouts=2, points=51))) == four_players(value)


def test_petite_is_scored_and_written_as_prise() -> None:
    petite = scored(play(contract="petite", bouts=1, points=60))
    prise = scored(play(contract="prise", bouts=1, points=60))
    assert petite.deltas == prise.deltas
    assert petite.rendered()[0] == prise.rendered()[0]


# ---------------------------------------------------------------------------
# Bouts, points needed, won and lost (docs/rules.md §1.3)


@pytest.mark.parametrize(
    ("bouts", "points", "value"),
    [
        (3, 36, 25),  # 36 needed, reached exactly: won by 0
        (3, 35, -26),  # 1 short
        (2, 41, 25),
        (2, 40, -26),
        (1, 51, 25),
        (1, 50, -26),
        (0, 56, 25),
        (0, 55, -26),
        (3, 46, 35),  # 46 − 36 = 10
        (1, 61, 35),  # 61 − 51 = 10
        (0, 40, -41),  # 56 − 40 = 16: −(25 + 16)
        (2, 87, 71),  # 87 − 41 = 46
        (3, 13.5, -48),  # 36 − 13.5 = 22.5, the half to the defence: −(25 + 23)
    ],
)
def test_points_needed_depend_on_the_bouts(bouts: int, points: float, value: int) -> None:
    assert deltas(scored(play(bouts=bouts, points=points))) == four_players(value)


@pytest.mark.parametrize(
    ("bouts", "points", "value"),
    [
        (2, 40.5, -26),  # half a point short loses by one: −(25 + 1)
        (2, 41.5, 26),  # half a point over wins by one: 25 + 1
        (3, 35.5, -26),
        (3, 36.5, 26),
        (1, 50.5, -26),
        (0, 56.5, 26),
        (1, 60.5, 35),  # 9.5 over, rounded up to 10 for the winner
        (0, 45.5, -36),  # 10.5 short, rounded up to 11 for the defence
    ],
)
def test_half_point_difference_is_rounded_up_for_the_winning_side(
    bouts: int, points: float, value: int
) -> None:
    assert deltas(scored(play(bouts=bouts, points=points))) == four_players(value)


def test_half_point_short_with_garde_loses_by_one_times_two() -> None:
    # −(25 + 1) × 2 = −52
    assert deltas(scored(play(contract="garde", bouts=2, points=40.5))) == four_players(-52)


# ---------------------------------------------------------------------------
# Petit au bout (docs/rules.md §1.3: p = ±10, multiplied, does not decide the contract)


@pytest.mark.parametrize(
    ("contract", "points", "side", "value"),
    [
        ("prise", 51, "attack", 45),  # (25 + 10 + 10) × 1
        ("garde", 51, "attack", 90),  # (25 + 10 + 10) × 2
        ("garde_sans", 51, "attack", 180),  # (25 + 10 + 10) × 4
        ("garde_contre", 51, "attack", 270),  # (25 + 10 + 10) × 6
        ("garde", 51, "defence", 50),  # (25 + 10 − 10) × 2
        ("garde_contre", 51, "defence", 150),  # (25 + 10 − 10) × 6
        ("garde", 41, "defence", 30),  # won by 0: (25 + 0 − 10) × 2, still won
        ("garde", 40, "attack", -32),  # lost by 1: −(25 + 1) × 2 + 10 × 2, still lost
        ("garde", 40, "defence", -72),  # −(25 + 1) × 2 − 10 × 2
        ("garde_contre", 40, "defence", -216),  # −(25 + 1) × 6 − 10 × 6
        ("prise", 40, "attack", -16),  # −(25 + 1) + 10
    ],
)
def test_petit_au_bout_for_either_side_is_multiplied_by_the_contract(
    contract: str, points: int, side: str, value: int
) -> None:
    hand = play(contract=contract, bouts=2, points=points, petit_au_bout=side)
    assert deltas(scored(hand)) == four_players(value)


def test_petit_au_bout_does_not_decide_who_wins_the_contract() -> None:
    # Lost by 1 with the attack's petit au bout: the defenders still receive.
    lost = deltas(scored(play(bouts=1, points=50, petit_au_bout="attack")))
    assert lost == four_players(-16)  # −(25 + 1) + 10
    # Won by 0 with the defence's petit au bout: the defenders still pay.
    won = deltas(scored(play(bouts=1, points=51, petit_au_bout="defence")))
    assert won == four_players(15)  # 25 + 0 − 10


# ---------------------------------------------------------------------------
# Poignées (docs/rules.md §1.3: simple 20, double 30, triple 40, to the winner, not multiplied)


@pytest.mark.parametrize(
    ("contract", "points", "poignees", "value"),
    [
        ("garde", 51, [("Bert", "simple")], 90),  # (25 + 10) × 2 + 20: a defender showed it
        ("garde", 51, [("Anna", "simple")], 90),  # the taker showed it
        ("garde", 51, [("Carl", "double")], 100),  # 70 + 30
        ("garde", 51, [("Anna", "triple")], 110),  # 70 + 40
        ("garde", 51, [("Anna", "simple"), ("Dora", "simple")], 110),  # 70 + 20 + 20
        ("garde", 40, [("Anna", "simple")], -72),  # −((25 + 1) × 2 + 20): the taker's goes to the defence
        ("garde", 40, [("Bert", "double")], -82),  # −(52 + 30)
        ("garde", 40, [("Bert", "simple"), ("Anna", "simple")], -92),  # −(52 + 40)
        ("garde_contre", 51, [("Bert", "simple")], 230),  # 35 × 6 + 20: not multiplied
        ("prise", 51, [("Dora", "triple")], 75),  # 35 + 40
    ],
)
def test_poignees_go_to_the_winning_side_and_are_not_multiplied(
    contract: str, points: int, poignees: list[tuple[str, str]], value: int
) -> None:
    shown = [{"player": player, "size": size} for player, size in poignees]
    hand = play(contract=contract, bouts=2, points=points, poignees=shown)
    assert deltas(scored(hand)) == four_players(value)


def test_poignee_with_petit_au_bout_only_the_petit_is_multiplied() -> None:
    # (25 + 10 + 10) × 6 + 30 = 300
    hand = play(
        contract="garde_contre",
        bouts=2,
        points=51,
        petit_au_bout="attack",
        poignees=[{"player": "Carl", "size": "double"}],
    )
    assert deltas(scored(hand)) == four_players(300)


# ---------------------------------------------------------------------------
# Chelem (docs/rules.md §1.3: +400 / −200 / +200 / −200, not multiplied)


@pytest.mark.parametrize(
    ("contract", "bouts", "points", "chelem", "value"),
    [
        ("prise", 3, 91, "announced_made", 480),  # (25 + 55) × 1 + 400
        ("garde", 3, 91, "announced_made", 560),  # (25 + 55) × 2 + 400
        ("garde", 2, 87, "announced_made", 542),  # the defence kept its Excuse: (25 + 46) × 2 + 400
        ("garde", 3, 91, "unannounced_made", 360),  # 160 + 200
        ("garde_contre", 3, 91, "unannounced_made", 680),  # 80 × 6 + 200
        ("prise", 2, 87, "unannounced_made", 271),  # 71 + 200
        ("garde", 2, 51, "announced_failed", -130),  # won: (25 + 10) × 2 − 200
        ("garde", 2, 40, "announced_failed", -252),  # lost: −(25 + 1) × 2 − 200
        ("garde_sans", 2, 66, "announced_failed", 0),  # (25 + 25) × 4 − 200
        ("garde", 0, 0, "defence_made", -362),  # −(25 + 56) × 2 − 200
        ("prise", 1, 4.5, "defence_made", -272),  # 51 − 4.5 = 46.5 → 47: −(25 + 47) − 200
        ("garde_contre", 0, 3, "defence_made", -668),  # −(25 + 53) × 6 − 200 = −468 − 200
    ],
)
def test_chelem_is_added_after_the_multiplier(
    contract: str, bouts: int, points: float, chelem: str, value: int
) -> None:
    hand = play(contract=contract, bouts=bouts, points=points, chelem=chelem)
    assert deltas(scored(hand)) == four_players(value)


def test_announced_chelem_with_petit_au_bout_and_poignee() -> None:
    # (25 + 55 + 10) × 2 + 40 + 400 = 620
    hand = play(
        contract="garde",
        bouts=3,
        points=91,
        petit_au_bout="attack",
        poignees=[{"player": "Anna", "size": "triple"}],
        chelem="announced_made",
    )
    assert deltas(scored(hand)) == four_players(620)


def test_defence_chelem_with_petit_au_bout_and_poignee() -> None:
    # −((25 + 56) × 1 + 20) − 10 × 1 − 200 = −311
    hand = play(
        bouts=0,
        points=0,
        petit_au_bout="defence",
        poignees=[{"player": "Bert", "size": "simple"}],
        chelem="defence_made",
    )
    assert deltas(scored(hand)) == four_players(-311)


# ---------------------------------------------------------------------------
# House rule round_to (docs/rules.md §1.3: |S| up to a multiple, sign kept)


@pytest.mark.parametrize(
    ("round_to", "hand", "value"),
    [
        (1, play(bouts=1, points=55), 29),  # 25 + 4, exact
        (5, play(bouts=1, points=55), 30),  # 29 → 30
        (10, play(bouts=1, points=55), 30),  # 29 → 30
        (5, play(bouts=1, points=51), 25),  # a multiple stays
        (10, play(bouts=1, points=51), 30),  # 25 → 30
        (5, play(bouts=2, points=51), 35),
        (10, play(bouts=2, points=51), 40),  # 35 → 40
        (5, play(contract="garde", bouts=2, points=51), 70),
        (10, play(contract="garde", bouts=2, points=51), 70),
        (5, play(bouts=1, points=50), -30),  # −26 → −30: sign kept, magnitude up
        (10, play(bouts=1, points=50), -30),
        (5, play(bouts=1, points=40), -40),  # −(25 + 11) = −36 → −40
        (1, play(bouts=1, points=40), -36),
        (5, play(bouts=1, points=50.5), -30),  # lost by 1 (half point): −26 → −30
        # The whole value is rounded, poignées and chelem included:
        (10, play(bouts=2, points=51, poignees=[{"player": "Bert", "size": "simple"}]), 60),  # 55 → 60
        (5, play(bouts=2, points=51, poignees=[{"player": "Bert", "size": "simple"}]), 55),
        (5, play(bouts=1, points=52, chelem="announced_failed"), -175),  # 26 − 200 = −174
        (10, play(bouts=1, points=52, chelem="announced_failed"), -180),
        (10, play(bouts=3, points=91, chelem="unannounced_made"), 280),  # 80 + 200 stays
    ],
)
def test_round_to_rounds_the_value_per_defender_up(round_to: int, hand: dict[str, Any], value: int) -> None:
    assert deltas(scored(hand, {"round_to": round_to})) == four_players(value)


def test_round_to_shows_the_rounding_in_the_breakdown() -> None:
    lines = scored(play(bouts=1, points=55), {"round_to": 5}).rendered()
    assert any("29" in line and "30" in line for line in lines), lines


def test_round_to_one_is_the_default() -> None:
    assert deltas(scored(play(bouts=1, points=55))) == four_players(29)


# ---------------------------------------------------------------------------
# The breakdown


def test_breakdown_of_a_lost_hand_names_the_shortfall() -> None:
    lines = scored(play(bouts=2, points=40.5)).rendered()
    assert lines[0].endswith("= −26 (Prise)"), lines
    assert "lost by 1" in lines[1]


def test_breakdown_shows_every_part_of_the_value() -> None:
    hand = play(
        contract="garde",
        bouts=3,
        points=91,
        petit_au_bout="attack",
        poignees=[{"player": "Anna", "size": "triple"}],
        chelem="announced_made",
    )
    first = scored(hand).rendered()[0]
    assert first.startswith("(25 + 55 + 10) × 2 + 40 + 400 = 620 ("), first


def test_breakdown_lists_each_players_delta() -> None:
    last = scored(play(bouts=1, points=55)).rendered()[-1]
    for text in ("Anna +87", "Bert −29", "Carl −29", "Dora −29"):
        assert text in last


def test_one_bout_is_written_in_the_singular():
    score = one_hand("french", FOUR, {"taker": "Anna", "contract": "prise", "bouts": 1, "points": 51})
    assert score.rendered()[1] == "Anna: 51 points, 1 bout, 51 needed: won by 0"
