"""Königrufen (docs/rules.md §4): every worked example of 4.17, each tariff set,
and every impossible hand refused naming its field."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scoring.engine import HandScore, HandType, InvalidInput, Table, read_session, score_session
from scoring.engine.koenigrufen import TARIFFS, Game, Koenigrufen, Scheme, Tariff, trischaken_deltas
from tests.engine.support import FIVE, FOUR, fixture, one_hand, refused, session

DU = ["Du", "Berta", "Carl", "Dora"]


def hand(
    h: dict[str, Any], options: dict[str, Any] | None = None, players: list[str] | None = None
) -> HandScore:
    return one_hand("koenigrufen", players or FOUR, {"dealer": (players or FOUR)[-1], **h}, options)


def row(score: HandScore) -> list[int | float]:
    return [int(v) if v.denominator == 1 else float(v) for v in score.deltas.values()]


def money(score: HandScore) -> list[int | float]:
    assert score.money is not None
    return [int(v) if v.denominator == 1 else float(v) for v in score.money.values()]


def cup(h: dict[str, Any], options: dict[str, Any] | None = None) -> HandScore:
    """A hand at a cup table: the Schrift in the deltas, the Kontras in money."""
    return hand(h, {"kontra_in_score": False, **(options or {})})


def dreier(points: Any, **extra: Any) -> dict[str, Any]:
    return {"declarer": "Anna", "game": "dreier", "points": points, **extra}


def premium(type_: str, side: str = "declarer", **extra: Any) -> dict[str, Any]:
    return {"type": type_, "side": side, **extra}


# --------------------------------------------------------------------------
# 4.17 a) the 16 OÖ settlements, Schrift and money (declarer Anna, partner Bert)

SETTLEMENTS = [
    ("rufer won, silent Trull to the opponents, silent Vier Könige", [1, 1, -1, -1], [1, 1, -1, -1]),
    ("besserrufer, pagat announced, made, kontra'd", [3, 3, -3, -3], [5, 5, -5, -5]),
    ("piccolo won, Dora's Kontra", [6, -2, -2, -2], [8, -2, -2, -4]),
    ("dreier won, silent Trull, silent Pagat to the opponents", [12, -4, -4, -4], [12, -4, -4, -4]),
    ("sechserdreier lost, Uhu announced and made", [-12, 4, 4, 4], [-12, 4, 4, 4]),
    ("sechserdreier lost, game kontra'd", [-24, 8, 8, 8], [-48, 16, 16, 16]),
    ("solorufer lost, König ultimo announced and made (2 × 2)", [2, 2, -2, -2], [2, 2, -2, -2]),
    ("solorufer, king in the talon, won; Kontra void", [6, -2, -2, -2], [6, -2, -2, -2]),
    ("besserrufer uhu, uhu announced, failed, kontra'd", [-3, -3, 3, 3], [-7, -7, 7, 7]),
    ("dreier, silent Valat (4 × 4), Trull announced; silent Pagat does not count", [54, -18, -18, -18], None),
    ("dreier won with 40/0, announced Valat failed, Pagat announced and made", [-90, 30, 30, 30], None),
    (
        "sechserdreier, the opponents' silent Valat (4 × 4 × 2), kontra'd",
        [-96, 32, 32, 32],
        [-192, 64, 64, 64],
    ),
    ("rufer, Valat announced, made, kontra'd", [8, 8, -8, -8], [16, 16, -16, -16]),
    ("farbensolo won, silent Vier Könige doubled in a solo game", [24, -8, -8, -8], None),
    ("bettel ouvert lost, Bert Kontra, Carl Rekontra, Dora nothing", [-21, 7, 7, 7], [-49, 14, 28, 7]),
    ("besserrufer uhu, king in the talon, conceded", [-15, 5, 5, 5], None),
]


def settlement_hands() -> list[dict[str, Any]]:
    hands: list[dict[str, Any]] = json.loads(fixture("koenigrufen-ooe-settlements.json"))["hands"]
    return hands


@pytest.mark.parametrize(
    ("index", "schrift", "paid"),
    [(i, s, m) for i, (_, s, m) in enumerate(SETTLEMENTS)],
    ids=[name for name, _, _ in SETTLEMENTS],
)
def test_the_sixteen_ooe_settlements(index: int, schrift: list[int], paid: list[int] | None) -> None:
    score = cup(settlement_hands()[index])
    assert row(score) == schrift
    assert money(score) == (paid or schrift)


@pytest.mark.parametrize("index", range(16))
def test_with_kontra_in_score_the_deltas_are_the_money(index: int) -> None:
    score = hand(settlement_hands()[index])
    _, schrift, paid = SETTLEMENTS[index]
    assert row(score) == (paid or schrift)
    assert score.money is None


def test_the_besserrufer_example_of_4_10_prints_schrift_and_money() -> None:
    score = cup(settlement_hands()[1])
    lines = score.rendered()
    assert "Schrift: Anna +3, Bert +3, Carl −3, Dora −3" in lines
    assert "Money: Anna +5, Bert +5, Carl −5, Dora −5" in lines


# --------------------------------------------------------------------------
# 4.17 b) OÖ single figures


@pytest.mark.parametrize(("bird", "each"), [("pagat", 3), ("uhu", 5), ("kakadu", 7), ("quapil", 9)])
def test_a_conceded_besserrufer_pays_game_and_bird_to_each_player(bird: str, each: int) -> None:
    score = hand({"declarer": "Anna", "game": "besserrufer", "bird": bird, "king_in_talon": "conceded"})
    assert row(score) == [-3 * each, each, each, each]


def test_a_conceded_rufer_pays_one_to_each_player() -> None:
    score = hand({"declarer": "Anna", "game": "rufer", "king_in_talon": "conceded"})
    assert row(score) == [-3, 1, 1, 1]


@pytest.mark.parametrize("tariff", ["ooe_2023", "sauwald_2019"])
def test_the_declarers_announced_valat_failing_in_a_sechserdreier_is_eight_times_eight(tariff: str) -> None:
    score = hand(
        {
            "declarer": "Anna",
            "game": "sechserdreier",
            "points": 50,
            "valat": {"side": "declarer", "announced": True, "made": False},
        },
        {"tariff": tariff},
    )
    assert row(score) == [-192, 64, 64, 64]


def test_an_announced_valat_made_in_a_solorufer_is_not_doubled_again() -> None:
    score = hand(
        {
            "declarer": "Anna",
            "game": "solorufer",
            "partner": "Bert",
            "points": 70,
            "valat": {"side": "declarer", "announced": True},
        }
    )
    assert row(score) == [16, 16, -16, -16]


def test_a_farbendreier_won_with_silent_vier_koenige() -> None:
    score = hand(
        {"declarer": "Anna", "game": "farbendreier", "points": 40, "premiums": [premium("vier_koenige")]}
    )
    assert row(score) == [12, -4, -4, -4]


# --------------------------------------------------------------------------
# 4.17 c) Trischaken, OÖ: thirds of the Trischaker Anna, Bert, Carl, Dora

TRISCHAKEN = [
    ("Jungfrau Dora, loser Bert 30/1", (60, 91, 59, 0), [0, -3, 0, 3]),
    ("the Trischaker Bürgermeister 36/0", (108, 40, 40, 22), [-12, 4, 4, 4]),
    ("two tied 25/0", (36, 75, 75, 24), [2, -2, -2, 2]),
    ("35/1 : 34/2, two Jungfrauen", (0, 106, 104, 0), [2, -4, 0, 2]),
    ("35/2 : 34/1, two Jungfrauen", (0, 107, 103, 0), [3, -6, 0, 3]),
    ("three tied 20/0", (30, 60, 60, 60), [3, -1, -1, -1]),
    ("the Trischaker tied 25/0", (75, 75, 30, 30), [-6, 2, 2, 2]),
    ("Bürgermeister Bert 36/2", (50, 110, 30, 20), [2, -6, 2, 2]),
    ("35 : 35, two Jungfrauen", (0, 105, 105, 0), [2, -2, -2, 2]),
]


def thirds(values: tuple[int, int, int, int]) -> dict[str, str]:
    return {name: f"{t // 3}/{t % 3}" for name, t in zip(FOUR, values, strict=True)}


def trischaken(values: tuple[int, int, int, int], **extra: Any) -> dict[str, Any]:
    return {"declarer": "Anna", "game": "trischaken", "points": thirds(values), **extra}


@pytest.mark.parametrize(
    ("thirds_", "expected"), [(t, e) for _, t, e in TRISCHAKEN], ids=[n for n, _, _ in TRISCHAKEN]
)
def test_ooe_trischaken(thirds_: tuple[int, int, int, int], expected: list[int]) -> None:
    assert row(hand(trischaken(thirds_))) == expected


def test_tarockapp_trischaken_needs_more_than_35_2_for_a_buergermeister() -> None:
    # 35/2 is a Bürgermeister in OÖ (−6) but not at tarockapp.at (−3).
    values = (50, 107, 33, 20)
    assert row(hand(trischaken(values), {"tariff": "ooe_2023"})) == [2, -6, 2, 2]
    assert row(hand(trischaken(values), {"tariff": "tarockapp"})) == [1, -3, 1, 1]


def test_sauwald_trischaken_jungfrauen_are_paid_by_the_loser() -> None:
    # One Jungfrau gets 3·f·v = 3 from the loser; the others nothing.
    assert row(hand(trischaken((60, 91, 59, 0)), {"tariff": "sauwald_2019"})) == [0, -3, 0, 3]
    # The Trischaker loses alone, f = 2: each other player 2.
    assert row(hand(trischaken((75, 75, 30, 30)), {"tariff": "sauwald_2019"})) == [-6, 2, 2, 2]
    # One player took every trick and is the Trischaker: 12 shared by the three.
    assert row(hand(trischaken((210, 0, 0, 0)), {"tariff": "sauwald_2019"})) == [-12, 4, 4, 4]


def test_a_scheme_other_than_the_tariffs_can_be_chosen() -> None:
    options = {"tariff": "ooe_2023", "trischaken": "wtc"}
    # wtc: the losing Trischaker pays 3 × 2 = 6 (v = 1), shared by the others.
    assert row(hand(trischaken((80, 50, 40, 40)), options)) == [-6, 2, 2, 2]


# --------------------------------------------------------------------------
# 4.17 d) Renonce


def test_ooe_renonce_examples_of_the_example_file() -> None:
    result = score_session(read_session(fixture("koenigrufen-ooe-renonce.json")))
    assert [row(score) for score in result.hands] == [
        [-12, 4, 4, 4],
        [12, -20, 4, 4],
        [24, -48, 12, 12],
        [-9, 3, 3, 3],
        [2, -6, 2, 2],
        [-12, 4, 4, 4],
        [3, -3, -3, 3],
    ]


def test_wtc_an_opponents_renonce_in_a_dreier_is_five_times_in_all() -> None:
    score = hand({"declarer": "Anna", "game": "dreier", "renonce": "Bert"}, {"tariff": "wtc_2020"})
    assert row(score) == [15, -25, 5, 5]


def test_wtc_a_conceded_pagatrufer_is_written_three() -> None:
    score = hand(
        {"declarer": "Anna", "game": "pagatrufer", "king_in_talon": "conceded"}, {"tariff": "wtc_2020"}
    )
    assert row(score) == [-9, 3, 3, 3]


def test_tirol_trischaken_renonce_is_three_times_four() -> None:
    score = hand({"declarer": "Anna", "game": "trischaken", "renonce": "Bert"}, {"tariff": "tirol_2020"})
    assert row(score) == [4, -12, 4, 4]


def test_the_partner_of_a_renouncing_declarer_is_paid_too() -> None:
    score = hand({"declarer": "Anna", "game": "rufer", "partner": "Carl", "renonce": "Anna"})
    assert row(score) == [-3, 1, 1, 1]


def test_a_renonce_in_a_negative_game_pays_each_opponents_kontra() -> None:
    # Bettel (2) renounced by the declarer; Bert kontra'd: Bert 4, Carl 2, Dora 2.
    score = cup({"declarer": "Anna", "game": "bettel", "kontra": {"Bert": 1}, "renonce": "Anna"})
    assert row(score) == [-6, 2, 2, 2]
    assert money(score) == [-8, 4, 2, 2]


# --------------------------------------------------------------------------
# 4.17 e) the three exercise hands


def test_the_three_exercise_hands() -> None:
    hands: list[dict[str, Any]] = [
        {
            "dealer": "Dora",
            "declarer": "Du",
            "game": "rufer",
            "partner": "Carl",
            "points": "41/2",
            "premiums": [premium("trull", "opponents"), premium("vier_koenige")],
        },
        {"declarer": "Du", "game": "piccolo", "won": True, "kontra": {"Dora": 1}},
        {
            "declarer": "Du",
            "game": "besserrufer",
            "bird": "pagat",
            "partner": "Berta",
            "points": "47/0",
            "premiums": [premium("pagat", announced=True, kontra=1)],
        },
    ]
    result = session("koenigrufen", DU, hands, {"kontra_in_score": False})
    assert [row(score) for score in result.hands] == [[1, -1, 1, -1], [6, -2, -2, -2], [3, 3, -3, -3]]
    assert [money(score) for score in result.hands] == [[1, -1, 1, -1], [8, -2, -2, -4], [5, 5, -5, -5]]


# --------------------------------------------------------------------------
# 4.17 f) Cheltenham, through game_values and premium_values

CHELTENHAM = {
    "game_values": {"solodreier": 6},
    "premium_values": {"uhu": [1, 3]},
    "silent_failure_counts": True,
    "kontra_in_score": True,
}


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ({"points": 40}, [18, -6, -6, -6]),
        ({"points": 30}, [-18, 6, 6, 6]),
        ({"points": 40, "kontra": 1}, [36, -12, -12, -12]),
        ({"points": 30, "kontra": 1}, [-36, 12, 12, 12]),
        ({"points": 40, "premiums": [premium("pagat")]}, [24, -8, -8, -8]),
        ({"points": 30, "premiums": [premium("uhu", made=False)]}, [-24, 8, 8, 8]),
    ],
    ids=["made", "lost", "kontrad made", "kontrad lost", "silent pagat", "silent uhu failed"],
)
def test_cheltenham_solodreier(extra: dict[str, Any], expected: list[int]) -> None:
    assert row(hand({"declarer": "Anna", "game": "solodreier", **extra}, CHELTENHAM)) == expected


# --------------------------------------------------------------------------
# 4.17 g) this rulebook's own readings


def test_wtc_dreier_won_with_a_silent_valat_adds_the_fixed_valat() -> None:
    score = hand(dreier(70, valat={"side": "declarer"}), {"tariff": "wtc_2020"})
    assert row(score) == [45, -15, -15, -15]


def test_tirol_solodreier_with_an_announced_valat_and_a_silent_trull_that_does_not_count() -> None:
    score = hand(
        {
            "declarer": "Anna",
            "game": "solodreier",
            "points": 70,
            "valat": {"side": "declarer", "announced": True},
            "premiums": [premium("trull")],
        },
        {"tariff": "tirol_2020"},
    )
    assert row(score) == [150, -50, -50, -50]


def test_wtc_trischaken_a_losing_trischaker_without_jungfrau() -> None:
    assert row(hand(trischaken((80, 50, 40, 40)), {"tariff": "wtc_2020"})) == [-12, 4, 4, 4]


def test_tirol_trischaken_by_rank() -> None:
    # Anna (the Trischaker) 40, Bert 80, Carl 70, Dora 20.
    assert row(hand(trischaken((40, 80, 70, 20)), {"tariff": "tirol_2020"})) == [2, -2, -2, 2]


def test_at_five_with_doubled_radl_the_next_five_hands_count_double() -> None:
    # Dealers in turn: Anna, Bert, Carl, Dora (a redeal), Emil, Anna, Bert, Carl; each sits out.
    won = {"declarer": "Dora", "game": "dreier", "points": 40}
    jungfrau = {"Anna": "20/0", "Carl": "30/1", "Dora": "19/2", "Emil": 0}
    hands: list[dict[str, Any]] = [
        {"dealer": "Anna", **won},
        {"declarer": "Carl", "game": "trischaken", "points": jungfrau},
        won,
        {"type": "redeal"},
        won,
        won,
        won,
        won,
    ]
    result = session("koenigrufen", FIVE, hands, {"doubled_radl": True})
    rows = [row(score) for score in result.hands]
    assert rows[0] == [0, -4, -4, 12, -4]
    # The Trischaker loses alone: 6 to the Jungfrau Emil; not doubled itself.
    assert rows[1] == [0, 0, -6, 0, 6]
    # The next five deals (a redeal among them) count double; the sixth no more.
    assert rows[2] == [-8, -8, 0, 24, -8]
    assert rows[3] == [0, 0, 0, 0, 0]
    assert rows[4] == [-8, -8, -8, 24, 0]
    assert rows[5] == [0, -8, -8, 24, -8]
    assert rows[6] == [-8, 0, -8, 24, -8]
    assert rows[7] == [-4, -4, 0, 12, -4]
    assert "Doubled Radl: every number of this hand × 2" in result.hands[2].rendered()


def test_two_trischaken_in_one_radl_count_four_times() -> None:
    tr = trischaken((60, 91, 59, 0))
    hands = [{"dealer": "Dora", **tr}, tr, dreier(40)]
    result = session("koenigrufen", FOUR, hands, {"doubled_radl": True})
    assert row(result.hands[1]) == [0, -6, 0, 6]
    assert row(result.hands[2]) == [48, -16, -16, -16]


# --------------------------------------------------------------------------
# The tariff sets


@pytest.mark.parametrize(
    ("tariff", "value"),
    [("ooe_2023", 4), ("sauwald_2019", 4), ("wtc_2020", 5), ("tirol_2020", 5), ("tarockapp", 4)],
)
def test_a_dreier_is_worth_the_tariffs_value_per_opponent(tariff: str, value: int) -> None:
    assert row(hand(dreier(40), {"tariff": tariff})) == [3 * value, -value, -value, -value]


@pytest.mark.parametrize("tariff", list(Tariff))
def test_every_game_of_every_tariff_scores_its_value(tariff: Tariff) -> None:
    for game, value in TARIFFS[tariff].games.items():
        if game is Game.TRISCHAKEN:
            continue
        h: dict[str, Any] = {"declarer": "Anna", "game": game.value}
        if game in (Game.PICCOLO, Game.ZWICCOLO, Game.BETTEL) or game.value.endswith("_ouvert"):
            h["won"] = True
        else:
            h["points"] = 40
        if game.value.endswith("rufer"):
            h["partner"] = "Bert"
        if game is Game.BESSERRUFER:
            h["bird"] = "pagat"
        bird = {"besserrufer": "pagat"}.get(game.value, game.value.removesuffix("rufer"))
        if game is Game.BESSERRUFER or game.value in ("pagatrufer", "uhurufer", "kakadurufer", "quapilrufer"):
            h["premiums"] = [premium(bird, announced=True)]
        score = hand(h, {"tariff": tariff.value})
        if "partner" in h:
            bird_value = (
                {"pagat": 2, "uhu": 4, "kakadu": 6, "quapil": 8}.get(bird, 0) if "premiums" in h else 0
            )
            each = value + bird_value
            assert row(score) == [each, each, -each, -each], game
        else:
            assert row(score) == [3 * value, -value, -value, -value], game


@pytest.mark.parametrize(
    ("tariff", "game"),
    [
        ("ooe_2023", "zwiccolo"),
        ("ooe_2023", "pagatrufer"),
        ("sauwald_2019", "farbendreier"),
        ("wtc_2020", "besserrufer"),
        ("tirol_2020", "zwiccolo"),
        ("tarockapp", "zwiccolo_ouvert"),
    ],
)
def test_a_game_the_tariff_lacks_is_refused_naming_the_game(tariff: str, game: str) -> None:
    error = refused("koenigrufen", FOUR, {"declarer": "Anna", "game": game, "won": True}, {"tariff": tariff})
    assert (error.hand, error.field) == (1, "game")


def test_game_values_add_a_game_the_tariff_lacks() -> None:
    options = {"tariff": "ooe_2023", "game_values": {"zwiccolo": 3}}
    score = hand({"declarer": "Anna", "game": "zwiccolo", "won": False}, options)
    assert row(score) == [-9, 3, 3, 3]


def test_tarockapp_sechserdreier_lost_writes_six_per_opponent() -> None:
    assert row(
        hand({"declarer": "Anna", "game": "sechserdreier", "points": 30}, {"tariff": "tarockapp"})
    ) == [
        -18,
        6,
        6,
        6,
    ]


def test_tirol_saecke_are_made_by_the_points() -> None:
    score = hand(dreier(50, premiums=[premium("sack_1")]), {"tariff": "tirol_2020"})
    # Dreier 5, 1. Sack 1 (50/0 is more than 45/2).
    assert row(score) == [18, -6, -6, -6]
    announced = hand(
        dreier(50, premiums=[premium("sack_2", announced=True, made=False)]), {"tariff": "tirol_2020"}
    )
    # An announced 2. Sack that failed (50/0 is less than 55/2): 2 to the opponents.
    assert row(announced) == [9, -3, -3, -3]


def test_win_threshold_35_1_wins_with_35_1() -> None:
    assert row(hand(dreier("35/1"))) == [-12, 4, 4, 4]
    assert row(hand(dreier("35/1"), {"win_threshold": "35/1"})) == [12, -4, -4, -4]


def test_35_35_is_lost() -> None:
    assert row(hand(dreier(35))) == [-12, 4, 4, 4]


def test_a_silent_pagat_that_fails_counts_only_by_house_rule() -> None:
    h = dreier(40, premiums=[premium("pagat", made=False)])
    assert row(hand(h)) == [12, -4, -4, -4]
    assert row(hand(h, {"silent_failure_counts": True})) == [9, -3, -3, -3]


def test_wtc_a_made_silent_valat_voids_the_kontra_on_the_game() -> None:
    h = dreier(70, valat={"side": "declarer"}, kontra=1)
    assert row(hand(h, {"tariff": "wtc_2020"})) == [45, -15, -15, -15]
    assert row(hand(h, {"tariff": "tirol_2020"})) == [60, -20, -20, -20]


def test_multiplier_valat_carries_the_higher_kontra_not_the_product() -> None:
    h = dreier(70, kontra=1, valat={"side": "declarer", "announced": True, "kontra": 2})
    # 4 × 8 = 32, Rekontra ×4.
    assert row(hand(h)) == [384, -128, -128, -128]


def test_at_five_the_dealer_sits_out_and_writes_zero() -> None:
    score = one_hand(
        "koenigrufen", FIVE, {"dealer": "Carl", "declarer": "Anna", "game": "dreier", "points": 40}
    )
    assert row(score) == [12, -4, 0, -4, -4]


def test_at_five_the_first_hand_may_name_who_sits_out_instead_of_the_dealer() -> None:
    result = session(
        "koenigrufen",
        FIVE,
        [
            {"sitting_out": "Emil", "declarer": "Anna", "game": "dreier", "points": 40},
            dreier(40, declarer="Bert"),
        ],
    )
    assert row(result.hands[0]) == [12, -4, -4, -4, 0]
    # The deal passes on: Anna deals the second hand and sits out.
    assert result.session.hands[1].table.sitting_out == "Anna"


def test_every_hand_sums_to_zero_in_schrift_and_money() -> None:
    for index in range(16):
        score = cup(settlement_hands()[index])
        assert sum(score.deltas.values()) == 0
        assert score.money is not None and sum(score.money.values()) == 0


def test_trischaken_schemes_pay_halves_only_where_shares_split() -> None:
    # sauwald: two tied losers share what one Jungfrau gets (3): 1.5 each.
    deltas, _ = trischaken_deltas(
        "Anna", {"Anna": 10, "Bert": 100, "Carl": 100, "Dora": 0}, Scheme.SAUWALD, 1, 108
    )
    assert [float(v) for v in deltas.values()] == [0, -1.5, -1.5, 3]


# --------------------------------------------------------------------------
# Impossible hands, each refused naming its field

REFUSALS = [
    ("a partner in a Dreier", dreier(40, partner="Bert"), None, "partner"),
    ("a king in the talon in a Dreier", dreier(40, king_in_talon="played"), None, "king_in_talon"),
    (
        "a premium in a negative game",
        {"declarer": "Anna", "game": "piccolo", "won": True, "premiums": [premium("trull")]},
        None,
        "premiums",
    ),
    (
        "a Valat in a negative game",
        {"declarer": "Anna", "game": "bettel", "won": True, "valat": {"side": "declarer"}},
        None,
        "valat",
    ),
    ("a Kontra above Sub", dreier(40, kontra=4), None, "kontra"),
    ("points above 70/0", dreier("70/1"), None, "points"),
    ("points with decimals", dreier(41.5), None, "points"),
    ("points written as a decimal number", dreier(41.0), None, "points"),
    ("points as text with decimals", dreier("41.5"), None, "points"),
    ("a Blatt of 3", dreier("41/3"), None, "points"),
    ("a bird in a Dreier", dreier(40, bird="pagat"), None, "bird"),
    (
        "a bird-caller's other bird",
        {
            "declarer": "Anna",
            "game": "pagatrufer",
            "bird": "uhu",
            "partner": "Bert",
            "points": 40,
            "premiums": [premium("pagat", announced=True)],
        },
        {"tariff": "wtc_2020"},
        "bird",
    ),
    (
        "a Besserrufer without its bird",
        {"declarer": "Anna", "game": "besserrufer", "partner": "Bert", "points": 40},
        None,
        "bird",
    ),
    (
        "a bird game without its announced bird",
        {"declarer": "Anna", "game": "besserrufer", "bird": "uhu", "partner": "Bert", "points": 40},
        None,
        "premiums",
    ),
    (
        "a conceded hand with points",
        {"declarer": "Anna", "game": "rufer", "king_in_talon": "conceded", "points": 30},
        None,
        "points",
    ),
    (
        "a conceded hand with a Kontra",
        {"declarer": "Anna", "game": "rufer", "king_in_talon": "conceded", "kontra": 1},
        None,
        "kontra",
    ),
    (
        "a conceded Solorufer",
        {"declarer": "Anna", "game": "solorufer", "king_in_talon": "conceded"},
        None,
        "king_in_talon",
    ),
    (
        "a Rufer without partner or king in the talon",
        {"declarer": "Anna", "game": "rufer", "points": 40},
        None,
        "partner",
    ),
    (
        "a partner and a king in the talon",
        {"declarer": "Anna", "game": "rufer", "partner": "Bert", "king_in_talon": "played", "points": 40},
        None,
        "partner",
    ),
    (
        "the declarer as his own partner",
        {"declarer": "Anna", "game": "rufer", "partner": "Anna", "points": 40},
        None,
        "partner",
    ),
    ("won in a positive game", dreier(40, won=True), None, "won"),
    (
        "points in a negative game",
        {"declarer": "Anna", "game": "piccolo", "won": True, "points": 10},
        None,
        "points",
    ),
    ("a negative game neither won nor lost", {"declarer": "Anna", "game": "piccolo"}, None, "won"),
    (
        "the declarer kontra'ing his own Piccolo",
        {"declarer": "Anna", "game": "piccolo", "won": True, "kontra": {"Anna": 1}},
        None,
        "kontra.Anna",
    ),
    (
        "an opponent's Kontra above Sub",
        {"declarer": "Anna", "game": "piccolo", "won": True, "kontra": {"Bert": 4}},
        None,
        "kontra.Bert",
    ),
    (
        "one level in a negative game",
        {"declarer": "Anna", "game": "piccolo", "won": True, "kontra": 1},
        None,
        "kontra",
    ),
    ("each opponent's Kontra in a positive game", dreier(40, kontra={"Bert": 1}), None, "kontra"),
    ("a positive game without points", {"declarer": "Anna", "game": "dreier"}, None, "points"),
    (
        "a premium twice",
        dreier(40, premiums=[premium("trull"), premium("trull", "opponents")]),
        None,
        "premiums[2].type",
    ),
    ("Mondfang outside Tirol", dreier(40, premiums=[premium("mondfang")]), None, "premiums[1].type"),
    (
        "Trull in a Farbenspiel",
        {"declarer": "Anna", "game": "farbensolo", "points": 40, "premiums": [premium("trull")]},
        None,
        "premiums[1].type",
    ),
    ("König ultimo in a Dreier", dreier(40, premiums=[premium("koenig_ultimo")]), None, "premiums[1].type"),
    (
        "König ultimo of the opponents",
        {
            "declarer": "Anna",
            "game": "rufer",
            "partner": "Bert",
            "points": 40,
            "premiums": [premium("koenig_ultimo", "opponents")],
        },
        None,
        "premiums[1].side",
    ),
    (
        "König ultimo with the king in a Solorufer's talon",
        {
            "declarer": "Anna",
            "game": "solorufer",
            "king_in_talon": "played",
            "points": 40,
            "premiums": [premium("koenig_ultimo")],
        },
        None,
        "premiums[1].type",
    ),
    (
        "a Kontra on a silent premium",
        dreier(40, premiums=[premium("trull", kontra=1)]),
        None,
        "premiums[1].kontra",
    ),
    (
        "a silent Trull that failed",
        dreier(40, premiums=[premium("trull", made=False)]),
        None,
        "premiums[1].made",
    ),
    (
        "a Sack that disagrees with the points",
        dreier(40, premiums=[premium("sack_1")]),
        {"tariff": "tirol_2020"},
        "premiums[1].made",
    ),
    ("a silent Valat that failed", dreier(40, valat={"side": "declarer", "made": False}), None, "valat.made"),
    ("a Kontra on a silent Valat", dreier(70, valat={"side": "declarer", "kontra": 1}), None, "valat.kontra"),
    ("a made Valat with the game lost", dreier(30, valat={"side": "declarer"}), None, "points"),
    ("the opponents' Valat with the game won", dreier(40, valat={"side": "opponents"}), None, "points"),
    (
        "a bird made beside the other side's Valat",
        dreier(0, valat={"side": "opponents"}, premiums=[premium("pagat")]),
        None,
        "premiums[1].made",
    ),
    (
        "WTC: Trull announced beside an announced Valat",
        dreier(
            70, valat={"side": "declarer", "announced": True}, premiums=[premium("trull", announced=True)]
        ),
        {"tariff": "wtc_2020"},
        "premiums[1].announced",
    ),
    (
        "Trischaken points not adding up to 70",
        {
            "declarer": "Anna",
            "game": "trischaken",
            "points": {"Anna": 20, "Bert": 20, "Carl": 20, "Dora": 20},
        },
        None,
        "points",
    ),
    (
        "Trischaken with one Blatt",
        {
            "declarer": "Anna",
            "game": "trischaken",
            "points": {"Anna": "35/0", "Bert": "0/1", "Carl": "20/0", "Dora": "14/2"},
        },
        None,
        "points.Bert",
    ),
    (
        "Trischaken without a player",
        {"declarer": "Anna", "game": "trischaken", "points": {"Anna": 35, "Bert": 35, "Carl": 0}},
        None,
        "points.Dora",
    ),
    ("Trischaken with a Kontra", {**trischaken((60, 91, 59, 0)), "kontra": 1}, None, "kontra"),
    (
        "a Renonce in a conceded hand",
        {"declarer": "Anna", "game": "rufer", "king_in_talon": "conceded", "renonce": "Bert"},
        None,
        "renonce",
    ),
    ("three offenders", dreier(40, renonce=["Anna", "Bert", "Carl"]), None, "renonce"),
    ("an offender named twice", dreier(40, renonce=["Bert", "Bert"]), None, "renonce"),
    ("an unknown field", dreier(40, talon_rest=3), None, "talon_rest"),
]


@pytest.mark.parametrize(
    ("h", "options", "field"),
    [(h, o, f) for _, h, o, f in REFUSALS],
    ids=[name for name, _, _, _ in REFUSALS],
)
def test_an_impossible_hand_is_refused_naming_its_field(
    h: dict[str, Any], options: dict[str, Any] | None, field: str
) -> None:
    error = refused("koenigrufen", FOUR, {"dealer": "Dora", **h}, options)
    assert (error.hand, error.field) == (1, field)
    # One line a reader can take in: the hand, the field, what is wrong.
    said = error.describe()
    assert said.startswith(f"hand 1, {field}: ") and "\n" not in said and "{" not in said


def test_at_five_the_first_hand_must_name_its_dealer() -> None:
    error = refused("koenigrufen", FIVE, dreier(40))
    assert (error.hand, error.field) == (1, "dealer")


def test_at_five_the_one_sitting_out_is_the_dealer() -> None:
    error = refused(
        "koenigrufen", FIVE, {"dealer": "Anna", "sitting_out": "Bert", **dreier(40, declarer="Carl")}
    )
    assert (error.hand, error.field) == (1, "sitting_out")


def test_at_five_the_dealer_cannot_play_or_renounce() -> None:
    error = refused("koenigrufen", FIVE, {"dealer": "Anna", **dreier(40)})
    assert (error.hand, error.field) == (1, "declarer")
    error = refused("koenigrufen", FIVE, {"dealer": "Emil", **dreier(40, renonce="Emil")})
    assert (error.hand, error.field) == (1, "renonce")


def test_the_table_is_four_or_five() -> None:
    with pytest.raises(Exception) as caught:
        read_session({"variant": "koenigrufen", "players": ["A", "B", "C"], "hands": []})
    assert getattr(caught.value, "field", None) == "players"


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"tariff": "graz"}, "options.tariff"),
        ({"win_threshold": "36"}, "options.win_threshold"),
        ({"trischaken": "vienna"}, "options.trischaken"),
        ({"game_values": {"dreier": 0}}, "options.game_values.dreier"),
        ({"game_values": {"skat": 3}}, "options.game_values.skat"),
        ({"premium_values": {"uhu": [1]}}, "options.premium_values.uhu"),
        ({"premium_values": {"uhu": [1, 1001]}}, "options.premium_values.uhu"),
        ({"premium_values": {"sküs": [1, 2]}}, "options.premium_values.sküs"),
        ({"kontra_in_score": "no"}, "options.kontra_in_score"),
        ({"radl": True}, "options.radl"),
    ],
)
def test_a_bad_option_is_refused_naming_it(options: dict[str, Any], field: str) -> None:
    with pytest.raises(Exception) as caught:
        read_session({"variant": "koenigrufen", "players": FOUR, "options": options, "hands": []})
    assert getattr(caught.value, "field", None) == field


# --------------------------------------------------------------------------
# What statistics keep of a hand


def stats_of(
    players: list[str], hands: list[dict[str, Any]], options: dict[str, Any] | None = None
) -> list[Any]:
    result = session("koenigrufen", players, hands, options)
    variant = result.session.variant
    return [variant.hand_stats(record, result.session.options) for record in result.session.hands]


def test_statistics_keep_declarer_partner_premiums_and_valat() -> None:
    (rufer,) = stats_of(FOUR, [{"dealer": "Dora", **settlement_hands()[12]}])
    assert rufer.kind == "rufer"
    assert rufer.roles == ("declarer", "partner", "opponent", "opponent")
    assert rufer.won == (True, True, False, False)
    assert rufer.marks == (("valat",), ("valat",), (), ())
    (besser,) = stats_of(FOUR, [settlement_hands()[8]])
    assert besser.marks[0] == ("premium_failed",)


def test_statistics_keep_the_trischaken_loser_buergermeister_and_jungfrau() -> None:
    (first, second) = stats_of(
        FOUR, [{"dealer": "Dora", **trischaken((50, 110, 50, 0))}, trischaken((60, 91, 59, 0))]
    )
    assert first.kind == "trischaken"
    assert first.marks == ((), ("trischaken_lost", "buergermeister"), (), ("jungfrau",))
    assert second.marks[1] == ("trischaken_lost",)
    assert second.won == (True, False, True, True)


def test_statistics_count_only_the_trischaker_lost_when_he_ties_for_the_most() -> None:
    # Anna (the Trischaker) and Bert 25 points each: Anna alone loses and pays (§4.13);
    # Bert, tied with her, did not lose. Without Anna among them, both tied players lost.
    (tied_with_t, tied_without_t) = stats_of(
        FOUR, [{"dealer": "Dora", **trischaken((75, 75, 30, 30))}, trischaken((36, 75, 75, 24))]
    )
    assert tied_with_t.marks == (("trischaken_lost",), (), (), ())
    assert tied_with_t.won == (False, True, True, True)
    assert tied_without_t.marks == ((), ("trischaken_lost",), ("trischaken_lost",), ())
    assert tied_without_t.won == (True, False, False, True)


def test_at_five_statistics_mark_the_dealer_out() -> None:
    (stats,) = stats_of(FIVE, [{"dealer": "Carl", "declarer": "Anna", "game": "dreier", "points": 40}])
    assert stats.roles == ("declarer", "opponent", "out", "opponent", "opponent")


def test_the_hand_form_asks_in_the_tables_order_with_only_the_tariffs_games_and_premiums() -> None:
    variant = Koenigrufen()
    options = variant.parse_options({"tariff": "wtc_2020"}, FOUR)
    fields = variant.form_fields(HandType.PLAYED, Table(tuple(FOUR), "Dora"), options)
    assert [f.name for f in fields][:5] == ["declarer", "game", "partner", "bird", "points"]
    # The king in the talon is answered among the partners: one choice, never two that contradict.
    partner = next(f for f in fields if f.name == "partner")
    assert partner.joined is not None and partner.joined.name == "king_in_talon" and not partner.null_label
    game = next(f for f in fields if f.name == "game")
    assert game.choices[:3] == (Game.TRISCHAKEN, Game.RUFER, Game.PICCOLO)
    assert Game.BESSERRUFER not in game.choices and Game.PAGATRUFER in game.choices
    premiums = next(f for f in fields if f.name == "premiums")
    types = next(f for f in premiums.fields if f.name == "type")
    assert "mondfang" not in types.choices and "trull" in types.choices


@pytest.mark.parametrize("key", ["game_values", "premium_values"])
def test_a_value_table_that_is_not_an_object_is_refused_in_words(key: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        read_session({"variant": "koenigrufen", "players": FOUR, "options": {key: [5]}, "hands": []})
    assert caught.value.field == f"options.{key}"
    assert "for example" in caught.value.describe()


def test_the_short_line_names_the_kontra_on_an_announced_premium_and_valat():
    """The sheet's line for a hand says which Kontra lay on a premium or a Valat,
    not only the one on the game."""
    hands = [
        {
            "dealer": "Dora",
            "declarer": "Anna",
            "game": "besserrufer",
            "partner": "Carl",
            "bird": "pagat",
            "points": 44,
            "premiums": [{"type": "pagat", "side": "declarer", "announced": True, "kontra": 1}],
        },
        {
            "dealer": "Dora",
            "declarer": "Bert",
            "game": "rufer",
            "partner": "Carl",
            "points": 70,
            "valat": {"side": "declarer", "announced": True, "kontra": 2},
        },
    ]
    result = session("koenigrufen", FOUR, hands)
    assert [str(Koenigrufen().describe(record)) for record in result.session.hands] == [
        "Anna · Besserrufer · Pagat · with Carl · 44/0 · Pagat announced by the declarer's side, made (Kontra)",
        "Bert · Rufer · with Carl · 70/0 · a Valat announced by the declarer's side, made (Rekontra)",
    ]


@pytest.mark.parametrize(
    ("scheme", "thirds", "says", "deltas"),
    [
        # A Bürgermeister (at least 35/2) and a Jungfrau: 3 × 1, doubled, all to the Jungfrau.
        (
            Scheme.OOE,
            {"A": 32, "B": 61, "C": 0, "D": 117},
            [
                "D pays 3 × 1 × 2 = 6: 3 × the Trischaken value 1, doubled for the Bürgermeister",
                "C, the Jungfrau, gets 6",
            ],
            {"A": 0, "B": 0, "C": 6, "D": -6},
        ),
        # The Trischaker loses alone: 6 × 1, shared by the three others.
        (
            Scheme.OOE,
            {"A": 70, "B": 60, "C": 40, "D": 40},
            [
                "A pays 6 × 1 = 6: 6 × the Trischaken value 1, the Trischaker losing alone",
                "no Jungfrau: B, C, D get 2 each",
            ],
            {"A": -6, "B": 2, "C": 2, "D": 2},
        ),
        (
            Scheme.WTC,
            {"A": 32, "B": 61, "C": 0, "D": 117},
            [
                "Payment 3 × 2 × 2 × 1 = 12: 3 × the Trischaken value, × 2 for a Bürgermeister, "
                "× 2 when the Trischaker loses"
            ],
            {"A": 0, "B": 0, "C": 12, "D": -12},
        ),
    ],
)
def test_a_trischaken_says_how_its_amount_comes_about(scheme, thirds, says, deltas) -> None:
    value = 2 if scheme is Scheme.WTC else 1
    found, lines = trischaken_deltas("A", thirds, scheme, value, 107)
    assert {name: int(delta) for name, delta in found.items()} == deltas
    rendered = [str(line) for line in lines]
    assert all(line in rendered for line in says), rendered


@pytest.mark.parametrize("renonce", [[None, "Anna"], ["Bert", None], [None]])
def test_a_null_among_the_renonce_players_is_refused_naming_the_field(renonce: list[Any]) -> None:
    with pytest.raises(InvalidInput) as caught:
        hand({"declarer": "Anna", "game": "dreier", "renonce": renonce})
    assert caught.value.field == "renonce"
    assert "null" in caught.value.describe()
