"""TOURNAMENTS.md §9, the worked example, whole: 12 players, 3 rounds,
Königrufen ``ooe_2023``, seed 482915. The round sums come from the example's
file (fixtures/koenigrufen-cup-example.json, the §9 tables typed as desk sums)."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from scoring.engine import get_variant, read_hand
from tournaments.core.cup import FIXED, heine, points, tirol_exact, tirol_formula, tirol_text
from tournaments.core.draw import draw_round, first_dealer, pair_counts
from tournaments.core.money import kontra_cash, kontra_points, table_money, transfers
from tournaments.core.ranking import Entry, rank, table_ranks

FILE = json.loads(
    (Path(__file__).parent / "fixtures" / "koenigrufen-cup-example.json").read_text(encoding="utf-8")
)
SEED = FILE["seed"]
NAMES = FILE["entrants"]
NUMBER = {name: index for index, name in enumerate(NAMES, 1)}

# The §9 plan, * = first dealer.
PLAN = {
    1: ["Erika* Hans Bernd Anna", "Ida Dieter Gerti Christa*", "Karin Josef* Leo Franz"],
    2: ["Franz Bernd Ida Erika*", "Christa Leo Anna* Josef", "Hans* Karin Gerti Dieter"],
    3: ["Erika Ida* Dieter Josef", "Christa* Franz Karin Hans", "Leo Bernd Anna Gerti*"],
}

# The §9 ranking under better_rounds: name, rounds, total, table ranks.
RANKING = [
    ("Erika", (92, -42, 61), 111, (1, 3, 1)),
    ("Franz", (-42, 71, 44), 73, (3, 1, 1)),
    ("Karin", (118, -19, -54), 45, (1, 3, 4)),
    ("Christa", (-43, 97, -9), 45, (4, 1, 3)),
    ("Hans", (-31, 55, 19), 43, (3, 1, 2)),
    ("Bernd", (45, 29, -45), 29, (2, 2, 4)),
    ("Leo", (-24, 8, 45), 29, (2, 2, 1)),
    ("Ida", (17, -58, 36), -5, (2, 4, 2)),
    ("Gerti", (-38, 14, -27), -51, (3, 2, 3)),
    ("Dieter", (64, -50, -80), -66, (1, 4, 4)),
    ("Anna", (-106, -35, 27), -114, (4, 3, 2)),
    ("Josef", (-52, -70, -17), -139, (4, 4, 3)),
]


def drawn_plan():
    history: list[list[list[int]]] = []
    for r in (1, 2, 3):
        history.append(draw_round(SEED, r, list(range(1, 13)), history, avoid_repeats="minimise"))
    return history


def shown(r, tables):
    """A round's tables as §9 prints them: names in seat order, * = first dealer."""
    return [
        " ".join(
            NAMES[n - 1] + ("*" if seat == first_dealer(SEED, r, t, len(table)) else "")
            for seat, n in enumerate(table, 1)
        )
        for t, table in enumerate(tables, 1)
    ]


def entries():
    """Each entrant's rounds and table ranks, from the file's sums."""
    rounds: dict[str, list[Fraction]] = {name: [] for name in NAMES}
    ranks: dict[str, list[int]] = {name: [] for name in NAMES}
    for given in FILE["rounds"]:
        for table in given["tables"]:
            sums = {name: Fraction(value) for name, value in table["sums"].items()}
            assert sum(sums.values()) == 0
            for name, place in table_ranks(sums).items():
                rounds[name].append(sums[name])
                ranks[name].append(place)
    return [Entry(NUMBER[name], name, tuple(rounds[name]), tuple(ranks[name])) for name in NAMES]


def test_the_draw_seats_the_three_rounds_as_the_example():
    plan = drawn_plan()
    assert {r: shown(r, tables) for r, tables in enumerate(plan, 1)} == PLAN


def test_the_file_holds_the_drawn_plan():
    plan = drawn_plan()
    for r, given in enumerate(FILE["rounds"], 1):
        for t, table in enumerate(given["tables"]):
            assert table["players"] == [NAMES[n - 1] for n in plan[r - 1][t]]
            assert table["players"].index(table["dealer"]) + 1 == first_dealer(SEED, r, t + 1, 4)


def test_round_two_repeats_three_pairs_round_three_six_none_three_times():
    plan = drawn_plan()

    def repeats(r):
        met = pair_counts(plan[: r - 1])
        return sum(
            1 for table in plan[r - 1] for a in table for b in table if a < b and met[frozenset((a, b))]
        )

    assert repeats(2) == 3
    assert repeats(3) == 6
    assert max(pair_counts(plan).values()) == 2


def test_without_minimise_the_plain_cut_repeats_more():
    plain = [draw_round(SEED, 1, list(range(1, 13)), [])]
    plain.append(draw_round(SEED, 2, list(range(1, 13)), plain, avoid_repeats="off"))
    assert shown(2, plain[1]) != PLAN[2]


def test_table_ranks_of_the_example():
    by_name = {entry.name: entry.table_ranks for entry in entries()}
    assert by_name == {name: ranks for name, _, _, ranks in RANKING}


def test_ranking_under_better_rounds():
    places = rank(entries(), "better_rounds", SEED)
    assert [(p.place, p.entry.name, p.entry.played(), p.total) for p in places] == [
        (place, name, tuple(map(Fraction, rounds)), total)
        for place, (name, rounds, total, _) in enumerate(RANKING, 1)
    ]
    notes = {p.entry.name: (p.tie_note, p.decided_by) for p in places if p.tie_note}
    assert notes == {
        "Karin": ("rounds", "rounds_desc:1"),  # best round 118
        "Christa": ("rounds", "rounds_desc:1"),  # best round 97
        "Bernd": ("rounds", "rounds_desc:2"),  # best 45 each, second best 29
        "Leo": ("rounds", "rounds_desc:2"),  # second best 8
    }
    assert sum(p.total for p in places) == 0


def test_ranking_under_tirol_2019_puts_leo_before_bernd():
    places = rank(entries(), "tirol_2019", SEED)
    names = [p.entry.name for p in places]
    expected = [name for name, *_ in RANKING]
    expected[5], expected[6] = "Leo", "Bernd"
    assert names == expected
    notes = {p.entry.name: (p.tie_note, p.decided_by) for p in places if p.tie_note}
    assert notes == {
        "Karin": ("best_round", "best_round"),
        "Christa": ("best_round", "best_round"),
        "Leo": ("table_ranks", "table_ranks:1"),
        "Bernd": ("table_ranks", "table_ranks:1"),
    }


@pytest.mark.parametrize(
    ("place", "total", "fixed", "heine_points", "tirol", "exact"),
    [
        (1, 111, 223, 105, 200, "200.00"),
        (2, 73, 198, 73, 150, "150.26"),
        (3, 45, 180, 45, 110, "109.54"),
        (4, 45, 168, 45, 77, "76.93"),
        (5, 43, 156, 43, 52, "51.54"),
    ],
)
def test_cup_points_of_the_top_five(place, total, fixed, heine_points, tirol, exact):
    assert points("fixed", place=place, total=total, ranked=12) == fixed == FIXED[place - 1]
    assert points("heine", place=place, total=total, ranked=12) == heine_points
    assert points("tirol_formula", place=place, total=total, ranked=12) == tirol == tirol_formula(place, 12)
    assert tirol_text(place, 12) == exact
    assert abs(float(tirol_exact(place, 12)) - float(exact)) < 0.005


def test_heine_further_values():
    assert [heine(t) for t in (101, 131, 350, -5)] == [100, 115, 200, 0]


def test_cup_points_follow_the_ranking():
    places = rank(entries(), "better_rounds", SEED)
    got = {p.entry.name: points("fixed", place=p.place, total=p.total, ranked=12) for p in places}
    assert [got[name] for name, *_ in RANKING[:5]] == [223, 198, 180, 168, 156]


def test_money_of_round_one_table_one():
    sums = {name: Fraction(value) for name, value in FILE["rounds"][0]["tables"][0]["sums"].items()}
    money = table_money(sums, Decimal(FILE["settings"]["money_rate"]))
    assert money == {
        "Erika": Decimal("9.20"),
        "Hans": Decimal("-3.10"),
        "Bernd": Decimal("4.50"),
        "Anna": Decimal("-10.60"),
    }
    assert transfers(money) == [
        ("Hans", "Bernd", Decimal("3.10")),
        ("Anna", "Erika", Decimal("9.20")),
        ("Anna", "Bernd", Decimal("1.40")),
    ]


def hand_seven():
    """Erika's Besserrufer with Bernd, Pagat announced, made and kontra'd
    (docs/rules.md §4.17 a #2), scored by the engine at a cup table."""
    variant = get_variant("koenigrufen")
    players = ("Erika", "Hans", "Bernd", "Anna")
    options = variant.parse_options(
        {"tariff": "ooe_2023", "kontra_in_score": False, "doubled_radl": False}, players
    )
    raw = {
        "dealer": "Bernd",
        "declarer": "Erika",
        "game": "besserrufer",
        "bird": "pagat",
        "partner": "Bernd",
        "points": "47/0",
        "premiums": [{"type": "pagat", "side": "declarer", "announced": True, "kontra": 1}],
    }
    record = read_hand(variant, players, options, raw, None)
    return variant.score_record(record, options)


def test_kontra_of_hand_seven_is_money_minus_schrift():
    score = hand_seven()
    assert score.deltas == {"Erika": 3, "Hans": -3, "Bernd": 3, "Anna": -3}
    assert score.money == {"Erika": 5, "Hans": -5, "Bernd": 5, "Anna": -5}
    assert kontra_points(score.deltas, score.money) == {"Erika": 2, "Hans": -2, "Bernd": 2, "Anna": -2}


def test_kontra_cash_of_hand_seven_per_hand():
    score = hand_seven()
    plain = {name: Fraction(0) for name in score.deltas}
    cash = kontra_cash([plain, kontra_points(score.deltas, score.money)], Decimal("0.10"), "per_hand")
    assert cash.amounts == {
        "Erika": Decimal("0.20"),
        "Hans": Decimal("-0.20"),
        "Bernd": Decimal("0.20"),
        "Anna": Decimal("-0.20"),
    }
    assert cash.hands == ((), (("Hans", "Erika", Decimal("0.20")), ("Anna", "Bernd", Decimal("0.20"))))
    assert cash.with_round == {} and cash.box == {}


def test_kontra_cash_of_hand_seven_with_the_round():
    score = hand_seven()
    cash = kontra_cash([kontra_points(score.deltas, score.money)], Decimal("0.10"), "with_round")
    assert cash.with_round == {
        "Erika": Decimal("0.20"),
        "Hans": Decimal("-0.20"),
        "Bernd": Decimal("0.20"),
        "Anna": Decimal("-0.20"),
    }
    assert cash.hands == ()
    # added to round 1's money, settled with it
    round_money = table_money(
        {name: Fraction(v) for name, v in FILE["rounds"][0]["tables"][0]["sums"].items()}, Decimal("0.10")
    )
    assert round_money is not None
    together = {name: round_money[name] + cash.with_round[name] for name in round_money}
    assert together == {
        "Erika": Decimal("9.40"),
        "Hans": Decimal("-3.30"),
        "Bernd": Decimal("4.70"),
        "Anna": Decimal("-10.80"),
    }
    assert sum(amount for *_, amount in transfers(together)) == Decimal("10.80") + Decimal("3.30")


def test_kontra_cash_of_hand_seven_to_charity():
    score = hand_seven()
    cash = kontra_cash([kontra_points(score.deltas, score.money)], Decimal("0.10"), "charity")
    assert cash.box == {"Hans": Decimal("0.20"), "Anna": Decimal("0.20")}
    assert cash.box_total == Decimal("0.40")
    assert cash.amounts["Erika"] == cash.amounts["Bernd"] == 0
