"""Tarock von Chambéry: docs/rules.md §3, scored hand by hand."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine import PARTIE, VARIANTS, HandScore, Line, read_session, score_session
from scoring.engine.chambery import Chambery, ChamberyOptions, Deck, FourPlayerForm, Mode, Payment
from scoring.engine.types import Formula, HandType, Join, Table

from .support import FIVE, FOUR, SIX, THREE, deltas, fixture, one_hand

SIMPLIFIED = {"deck": "simplified"}
DUMMETT = {"payment": "dummett"}
CROISE = {"four_player_form": "croise"}


def row(players: list[str], hand: dict[str, Any], options: dict[str, Any] | None = None) -> list[int | float]:
    """The hand's deltas in playing order."""
    result = deltas(one_hand("chambery", players, hand, options))
    return [result[p] for p in players]


def call(dealer: str, partner: str | None, points: int) -> dict[str, Any]:
    return {"dealer": dealer, "mode": "call", "partner": partner, "points": points}


def solo(dealer: str, soloist: str, cards: int, points: int) -> dict[str, Any]:
    return {"dealer": dealer, "mode": "solo", "soloist": soloist, "cards_requested": cards, "points": points}


def croise(dealer: str, points: int) -> dict[str, Any]:
    return {"dealer": dealer, "mode": "croise", "points": points}


def texts(score: HandScore) -> list[str]:
    return score.rendered()


# --------------------------------------------------------------------------
# The variant


def test_the_variant_is_registered_under_its_session_file_key():
    variant = VARIANTS["chambery"]
    assert isinstance(variant, Chambery)
    assert variant.name == "Tarock von Chambéry"
    assert variant.table_sizes == (3, 4, 5, 6)
    assert variant.section_kind is PARTIE


def test_house_rules_default_to_the_full_deck_standard_payment_and_call_and_solo():
    assert Chambery().default_options(FIVE) == ChamberyOptions(
        deck=Deck.FULL, payment=Payment.STANDARD, four_player_form=FourPlayerForm.CALL_SOLO
    )


def test_house_rules_are_read_as_their_enums():
    options = Chambery().parse_options(
        {"deck": "simplified", "payment": "dummett", "four_player_form": "croise"}, FOUR
    )
    assert options.deck is Deck.SIMPLIFIED
    assert options.payment is Payment.DUMMETT
    assert options.four_player_form is FourPlayerForm.CROISE
    assert Chambery().dump_options(options) == {
        "deck": "simplified",
        "payment": "dummett",
        "four_player_form": "croise",
    }


def test_every_house_rule_has_a_label_a_one_line_help_and_a_default():
    for field in Chambery.option_fields:
        assert field.label
        assert field.help and "\n" not in field.help
        assert field.default in field.choices


# --------------------------------------------------------------------------
# Three players (docs/rules.md §3.3)


def test_seed_three_players_each_for_himself():
    result = score_session(read_session(fixture("chambery-seed-three-players.json")))
    assert deltas(result.hands[0]) == {"Amélie": 22, "Béatrice": 6, "Cécile": -28}
    assert texts(result.hands[0]) == [
        "Amélie: 37 points, 11 above 26",
        "Béatrice: 29 points, 3 above 26",
        "Cécile: 12 points, 14 below 26 and fewer than 13: pays 2 × 14 = 28",
        "Amélie, Béatrice share the 28 paid in proportion to their differences 11 : 3",
        "Amélie +22 (28 × 11 / 14), Béatrice +6 (28 × 3 / 14), Cécile −28",
    ]


THREE_PLAYER_HANDS = [
    # full deck: 78 points, average 26, doubled below 13
    ("below_the_average_pays_the_difference", {}, (30, 30, 18), [4, 4, -8]),
    ("thirteen_is_not_below_the_line", {}, (39, 26, 13), [13, 0, -13]),
    ("below_thirteen_pays_double", {}, (40, 26, 12), [28, 0, -28]),
    ("one_above_the_average_takes_all_that_was_paid", {}, (50, 16, 12), [38, -10, -28]),
    ("everyone_at_the_average_is_a_draw", {}, (26, 26, 26), [0, 0, 0]),
    ("the_one_player_above_takes_a_double_payment", {}, (20, 52, 6), [-6, 46, -40]),
    # simplified deck: 72 points, average 24, doubled below 12
    ("simplified_twelve_is_not_below_the_line", SIMPLIFIED, (30, 30, 12), [6, 6, -12]),
    ("simplified_shares_in_proportion", SIMPLIFIED, (36, 25, 11), [24, 2, -26]),
    ("simplified_everyone_at_twenty_four_is_a_draw", SIMPLIFIED, (24, 24, 24), [0, 0, 0]),
]


@pytest.mark.parametrize(
    ("options", "points", "expected"),
    [case[1:] for case in THREE_PLAYER_HANDS],
    ids=[case[0] for case in THREE_PLAYER_HANDS],
)
def test_three_players_pay_below_the_average_and_share_in_proportion(options, points, expected):
    hand = {"points": dict(zip(THREE, points, strict=True))}
    assert row(THREE, hand, options) == expected


def test_three_players_may_leave_the_dealer_out():
    assert row(THREE, {"points": {"Anna": 37, "Bert": 29, "Carl": 12}}) == [22, 6, -28]


def test_three_players_with_the_simplified_deck_the_dealer_may_have_no_point():
    hand = {"dealer": "Anna", "points": {"Anna": 0, "Bert": 36, "Carl": 36}}
    assert row(THREE, hand, SIMPLIFIED) == [-48, 24, 24]


def test_three_players_ignore_the_payment_house_rule():
    hand = {"points": {"Anna": 37, "Bert": 29, "Carl": 12}}
    assert row(THREE, hand, DUMMETT) == row(THREE, hand) == [22, 6, -28]


# --------------------------------------------------------------------------
# Five players (docs/rules.md §3.2): 68 points, tie 34, doubled below 17


FIVE_STANDARD = [
    # call: the dealer and his partner against three
    ("call_won_pair_shares_three_times_the_amount", call("Anna", "Carl", 40), [9, -6, 9, -6, -6]),
    ("call_won_dealer_gets_the_odd_point", call("Anna", "Carl", 41), [11, -7, 10, -7, -7]),
    ("call_won_by_one_dealer_gets_two_partner_one", call("Anna", "Carl", 35), [2, -1, 1, -1, -1]),
    ("call_lost_dealer_pays_the_odd_point", call("Anna", "Carl", 27), [-11, 7, -10, 7, 7]),
    ("call_lost_even_amount_pair_pays_half_each", call("Anna", "Carl", 28), [-9, 6, -9, 6, 6]),
    ("call_won_losers_below_the_line_double", call("Anna", "Carl", 52), [54, -36, 54, -36, -36]),
    ("call_lost_below_the_line_doubles", call("Anna", "Carl", 16), [-54, 36, -54, 36, 36]),
    ("call_losers_with_seventeen_are_not_doubled", call("Anna", "Carl", 51), [26, -17, 25, -17, -17]),
    ("call_at_the_tie_is_a_draw", call("Anna", "Carl", 34), [0, 0, 0, 0, 0]),
    # the dealer alone: paid like a solo, without the solo factors
    ("dealer_alone_won_gets_four_times", call("Anna", None, 44), [40, -10, -10, -10, -10]),
    ("dealer_alone_lost_pays_four_times", call("Anna", None, 30), [-16, 4, 4, 4, 4]),
    ("dealer_alone_below_the_line_doubles_only_for_that", call("Anna", None, 60), [208, -52, -52, -52, -52]),
    # solo: one against four
    ("solo_two_cards_won", solo("Anna", "Bert", 2, 40), [-6, 24, -6, -6, -6]),
    ("solo_two_cards_lost", solo("Anna", "Bert", 2, 30), [4, -16, 4, 4, 4]),
    ("solo_one_card_doubles", solo("Anna", "Bert", 1, 40), [-12, 48, -12, -12, -12]),
    ("solo_a_point_doubles_twice", solo("Anna", "Bert", 0, 40), [-24, 96, -24, -24, -24]),
    ("solo_two_cards_losers_below_the_line_double", solo("Anna", "Bert", 2, 52), [-36, 144, -36, -36, -36]),
    ("solo_one_card_losers_below_the_line_four_fold", solo("Anna", "Bert", 1, 52), [-72, 288, -72, -72, -72]),
    (
        "solo_a_point_losers_below_the_line_eight_fold",
        solo("Anna", "Bert", 0, 52),
        [-144, 576, -144, -144, -144],
    ),
    ("solo_a_point_lost_below_the_line_eight_fold", solo("Anna", "Bert", 0, 10), [192, -768, 192, 192, 192]),
    ("solo_one_card_lost_doubles", solo("Anna", "Bert", 1, 30), [8, -32, 8, 8, 8]),
    ("solo_at_the_tie_is_a_draw", solo("Anna", "Bert", 0, 34), [0, 0, 0, 0, 0]),
    ("the_dealer_may_play_a_solo_with_its_factors", solo("Anna", "Anna", 0, 40), [96, -24, -24, -24, -24]),
]


@pytest.mark.parametrize(
    ("hand", "expected"), [case[1:] for case in FIVE_STANDARD], ids=[case[0] for case in FIVE_STANDARD]
)
def test_five_players_standard_payment(hand, expected):
    assert row(FIVE, hand) == expected


FIVE_DUMMETT = [
    # when the declaring side wins, both readings agree
    ("call_won_as_standard", call("Anna", "Carl", 41), [11, -7, 10, -7, -7]),
    ("solo_won_as_standard", solo("Anna", "Bert", 2, 40), [-6, 24, -6, -6, -6]),
    # the losers pay the amount once; the winners share it
    ("call_lost_divides_evenly", call("Anna", "Carl", 28), [-6, 4, -6, 4, 4]),
    (
        "call_lost_remainder_to_the_first_winners_after_the_dealer",
        call("Anna", "Carl", 27),
        [-7, 5, -7, 5, 4],
    ),
    (
        "call_lost_remainder_goes_round_the_table",
        call("Dora", "Anna", 27),
        [-7, 5, 4, -7, 5],
    ),
    ("solo_lost_by_one_four_opponents_share_one_point", solo("Anna", "Bert", 2, 33), [1, -1, 0, 0, 0]),
    ("solo_lost_remainder_starts_with_the_dealer", solo("Anna", "Bert", 2, 31), [1, -3, 1, 1, 0]),
    (
        "solo_lost_remainder_skips_the_soloist",
        solo("Emil", "Anna", 2, 31),
        [-3, 1, 1, 0, 1],
    ),
    ("solo_a_point_lost_below_the_line_pays_once", solo("Anna", "Bert", 0, 10), [48, -192, 48, 48, 48]),
    ("dealer_alone_lost_four_share_evenly", call("Anna", None, 30), [-4, 1, 1, 1, 1]),
    ("dealer_alone_lost_remainder_from_the_first_after_him", call("Anna", None, 29), [-5, 2, 1, 1, 1]),
]


@pytest.mark.parametrize(
    ("hand", "expected"), [case[1:] for case in FIVE_DUMMETT], ids=[case[0] for case in FIVE_DUMMETT]
)
def test_five_players_dummett_payment(hand, expected):
    assert row(FIVE, hand, DUMMETT) == expected


# --------------------------------------------------------------------------
# Four players: 72 points, tie 36, doubled below 18 (simplified: 68, 34, 17)


FOUR_HANDS = [
    ("call_won_each_winner_gets_the_amount", {}, call("Anna", "Carl", 40), [4, -4, 4, -4]),
    ("call_lost_each_loser_pays_the_amount", {}, call("Anna", "Bert", 30), [-6, -6, 6, 6]),
    ("call_losers_below_eighteen_double", {}, call("Anna", "Carl", 55), [38, -38, 38, -38]),
    ("call_losers_with_eighteen_are_not_doubled", {}, call("Anna", "Carl", 54), [18, -18, 18, -18]),
    ("call_at_thirty_six_is_a_draw", {}, call("Anna", "Carl", 36), [0, 0, 0, 0]),
    ("solo_won_gets_three_times", {}, solo("Anna", "Bert", 2, 40), [-4, 12, -4, -4]),
    ("solo_one_card_won", {}, solo("Anna", "Bert", 1, 40), [-8, 24, -8, -8]),
    ("solo_lost_pays_three_times", {}, solo("Anna", "Bert", 2, 30), [6, -18, 6, 6]),
    ("solo_a_point_lost_below_the_line_eight_fold", {}, solo("Anna", "Bert", 0, 17), [152, -456, 152, 152]),
    ("dealer_alone_won_gets_three_times", {}, call("Anna", None, 40), [12, -4, -4, -4]),
    ("dealer_alone_lost_pays_three_times", {}, call("Anna", None, 30), [-18, 6, 6, 6]),
    ("dummett_call_lost_as_standard", DUMMETT, call("Anna", "Bert", 30), [-6, -6, 6, 6]),
    ("dummett_solo_lost_three_share", DUMMETT, solo("Anna", "Bert", 2, 34), [1, -2, 1, 0]),
    ("dummett_solo_lost_shares_evenly", DUMMETT, solo("Anna", "Bert", 2, 33), [1, -3, 1, 1]),
    ("dummett_dealer_alone_lost_by_one", DUMMETT, call("Anna", None, 35), [-1, 1, 0, 0]),
    ("dummett_dealer_alone_won_as_standard", DUMMETT, call("Anna", None, 40), [12, -4, -4, -4]),
    # simplified deck
    ("simplified_call_won", SIMPLIFIED, call("Anna", "Carl", 40), [6, -6, 6, -6]),
    ("simplified_losers_below_seventeen_double", SIMPLIFIED, call("Anna", "Carl", 52), [36, -36, 36, -36]),
    ("simplified_at_thirty_four_is_a_draw", SIMPLIFIED, call("Anna", "Carl", 34), [0, 0, 0, 0]),
    (
        "simplified_solo_a_point_lost_below_the_line",
        SIMPLIFIED,
        solo("Anna", "Bert", 0, 16),
        [144, -432, 144, 144],
    ),
    ("simplified_dealer_alone_lost", SIMPLIFIED, call("Anna", None, 30), [-12, 4, 4, 4]),
    (
        "simplified_dummett_solo_lost",
        {**SIMPLIFIED, **DUMMETT},
        solo("Carl", "Bert", 2, 32),
        [0, -2, 1, 1],
    ),
]


@pytest.mark.parametrize(
    ("options", "hand", "expected"), [case[1:] for case in FOUR_HANDS], ids=[case[0] for case in FOUR_HANDS]
)
def test_four_players_call_and_solo(options, hand, expected):
    assert row(FOUR, hand, options) == expected


CROISE_HANDS = [
    ("dealers_side_wins", {}, croise("Anna", 40), [4, -4, 4, -4]),
    ("dealers_side_loses", {}, croise("Bert", 20), [16, -16, 16, -16]),
    ("losers_below_eighteen_double", {}, croise("Bert", 17), [38, -38, 38, -38]),
    ("at_thirty_six_is_a_draw", {}, croise("Carl", 36), [0, 0, 0, 0]),
    ("dummett_is_the_same_two_against_two", DUMMETT, croise("Bert", 20), [16, -16, 16, -16]),
    ("simplified_deck", SIMPLIFIED, croise("Dora", 30), [4, -4, 4, -4]),
]


@pytest.mark.parametrize(
    ("options", "hand", "expected"),
    [case[1:] for case in CROISE_HANDS],
    ids=[case[0] for case in CROISE_HANDS],
)
def test_four_players_croise_first_and_third_against_second_and_fourth(options, hand, expected):
    assert row(FOUR, hand, {**CROISE, **options}) == expected


def test_croise_hands_may_leave_the_mode_out():
    assert row(FOUR, {"dealer": "Bert", "points": 20}, CROISE) == [16, -16, 16, -16]


# --------------------------------------------------------------------------
# Six at the table


def test_six_at_the_table_the_player_to_the_dealers_left_sits_out_and_gets_nothing():
    score = one_hand("chambery", SIX, call("Carl", "Dora", 40))
    assert deltas(score) == {"Anna": -6, "Bert": 0, "Carl": 9, "Dora": 9, "Emil": -6, "Fritz": -6}
    assert texts(score)[0] == "Bert sits out, to the left of the dealer Carl, and scores nothing"


def test_six_at_the_table_the_one_sitting_out_moves_with_the_deal():
    hands = [
        call("Anna", "Bert", 40),
        {"mode": "solo", "soloist": "Carl", "cards_requested": 2, "points": 40},
    ]
    result = read_session({"variant": "chambery", "players": SIX, "hands": hands})
    assert [hand.table.sitting_out for hand in result.hands] == ["Fritz", "Anna"]
    assert [hand.table.dealer for hand in result.hands] == ["Anna", "Bert"]


def test_six_at_the_table_a_correct_sitting_out_may_be_given():
    hand = {**call("Anna", "Bert", 40), "sitting_out": "Fritz"}
    assert row(SIX, hand) == [9, 9, -6, -6, -6, 0]


def test_six_at_the_table_the_dealer_alone_gets_four_times():
    assert row(SIX, call("Bert", None, 44)) == [0, 40, -10, -10, -10, -10]


def test_six_at_the_table_dummett_shares_among_the_five_who_play():
    # Carl deals, Bert sits out; Carl's pair lost by 7: Dora, Emil, Anna share 14.
    assert row(SIX, call("Carl", "Fritz", 27), DUMMETT) == [4, 0, -7, 5, 5, -7]


def test_a_redeal_scores_nothing_and_passes_the_deal():
    result = score_session(
        read_session(
            {
                "variant": "chambery",
                "players": FIVE,
                "hands": [{"dealer": "Anna", "type": "redeal"}, call("Bert", "Anna", 40)],
            }
        )
    )
    assert deltas(result.hands[0]) == dict.fromkeys(FIVE, 0)
    assert deltas(result.hands[1]) == {"Anna": 9, "Bert": 9, "Carl": -6, "Dora": -6, "Emil": -6}


# --------------------------------------------------------------------------
# The breakdown


def lines_of(score: HandScore) -> list[Line]:
    found: list[Line] = []

    def walk(arg: Any) -> None:
        if isinstance(arg, Line):
            found.append(arg)
            for inner in arg.args.values():
                walk(inner)
        elif isinstance(arg, Join):
            for inner in arg.items:
                walk(inner)

    for line in score.breakdown:
        walk(line)
    return found


def test_solo_a_point_with_losers_below_the_line_pays_eight_fold():
    score = one_hand("chambery", FIVE, solo("Anna", "Bert", 0, 52))
    assert texts(score) == [
        "Bert solo à point: 52 of 68 points, the others 16; the tie is 34: won by 18",
        "× 2: the losers have 16 points, fewer than 17",
        "× 2: a solo asking for at most one card (0 requested)",
        "× 2: a solo à point (no card requested)",
        "The game is worth 18 × 8 = 144",
        "Anna, Carl, Dora, Emil pay 144 each",
        "Bert gets 4 × 144 = 576",
        "Anna −144, Bert +576 (4 × 144), Carl −144, Dora −144, Emil −144",
    ]


def test_eight_fold_is_the_most_a_game_is_worth():
    # Every doubling at once: a solo à point won with the opponents left one point.
    score = one_hand("chambery", FIVE, solo("Anna", "Bert", 0, 67))
    assert deltas(score)["Bert"] == 4 * 33 * 8
    worth = next(line for line in score.breakdown if line.text.startswith("The game is worth"))
    assert worth.args["formula"] == Formula((33, " × ", 8))


def test_call_breakdown_names_the_dealers_odd_point():
    assert texts(one_hand("chambery", FIVE, call("Anna", "Carl", 27))) == [
        "Anna (dealer) with Carl: 27 of 68 points, the others 41; the tie is 34: lost by 7",
        "The game is worth 7",
        "Bert, Dora, Emil get 7 each",
        "Anna, Carl share the 3 × 7 = 21 they pay: 10 each",
        "the dealer, Anna, pays the odd point",
        "Anna −11 (10 + 1), Bert +7, Carl −10, Dora +7, Emil +7",
    ]


def test_dummett_breakdown_names_who_gets_the_points_left_over():
    assert texts(one_hand("chambery", FIVE, call("Anna", "Carl", 27), DUMMETT)) == [
        "Anna (dealer) with Carl: 27 of 68 points, the others 41; the tie is 34: lost by 7",
        "The game is worth 7",
        "Anna, Carl pay 7 each",
        "Bert, Dora, Emil share the 2 × 7 = 14 they get: 4 each",
        "2 left over: one more point each for Bert, Dora, in playing order from the dealer",
        "Anna −7, Bert +5 (4 + 1), Carl −7, Dora +5 (4 + 1), Emil +4",
    ]


def test_dealer_alone_breakdown_has_no_solo_factor():
    assert texts(one_hand("chambery", FOUR, call("Anna", None, 56))) == [
        "Anna (dealer) alone: 56 of 72 points, the others 16; the tie is 36: won by 20",
        "× 2: the losers have 16 points, fewer than 18",
        "The game is worth 20 × 2 = 40",
        "Bert, Carl, Dora pay 40 each",
        "Anna gets 3 × 40 = 120",
        "Anna +120 (3 × 40), Bert −40, Carl −40, Dora −40",
    ]


def test_croise_breakdown_names_the_dealers_side():
    assert texts(one_hand("chambery", FOUR, croise("Bert", 20), CROISE))[0] == (
        "croisé: Bert (dealer) and Dora: 20 of 72 points, the others 52; the tie is 36: lost by 16"
    )


def test_a_draw_says_nobody_pays():
    assert texts(one_hand("chambery", FIVE, solo("Anna", "Bert", 1, 34))) == [
        "Bert solo asking for 1 card: 34 of 68 points, the others 34; the tie is 34: a draw, nobody pays"
    ]


@pytest.mark.parametrize(
    ("players", "hand", "options"),
    [
        (FIVE, solo("Anna", "Bert", 0, 52), {}),
        (FIVE, call("Anna", "Carl", 27), DUMMETT),
        (FOUR, croise("Bert", 17), CROISE),
        (SIX, call("Carl", "Dora", 40), {}),
        (THREE, {"points": {"Anna": 37, "Bert": 29, "Carl": 12}}, {}),
        (THREE, {"points": {"Anna": 50, "Bert": 16, "Carl": 12}}, {}),
    ],
)
def test_breakdown_templates_carry_no_numbers_of_their_own(players, hand, options):
    score = one_hand("chambery", players, hand, options)
    for line in lines_of(score):
        assert not any(ch.isdigit() for ch in line.text), line.text
    assert all(isinstance(line, Line) for line in score.breakdown)


# --------------------------------------------------------------------------
# Modes


def test_a_mode_is_one_of_the_games_the_table_and_form_allow():
    variant = Chambery()
    assert [f.name for f in variant.hand_fields(*_table_args(FIVE, {}))] == [
        "mode",
        "points",
        "partner",
        "soloist",
        "cards_requested",
    ]
    assert _field(FIVE, {}, "mode").choices == (Mode.CALL, Mode.SOLO)
    assert _field(FOUR, {}, "mode").choices == (Mode.CALL, Mode.SOLO)
    assert _field(FOUR, CROISE, "mode").choices == (Mode.CROISE,)
    assert _field(FOUR, CROISE, "mode").default is Mode.CROISE
    assert _field(SIX, {}, "points").maximum == 68
    assert _field(FOUR, {}, "points").maximum == 72
    assert _field(FOUR, SIMPLIFIED, "points").maximum == 68
    assert [f.name for f in variant.hand_fields(*_table_args(THREE, {}))] == ["points"]
    assert _field(THREE, {}, "points").maximum == 78


def test_the_fields_of_a_mode_say_when_they_are_shown():
    assert _field(FIVE, {}, "partner").shown_when == ("mode", (Mode.CALL,))
    assert _field(FIVE, {}, "soloist").shown_when == ("mode", (Mode.SOLO,))
    assert _field(FIVE, {}, "cards_requested").shown_when == ("mode", (Mode.SOLO,))
    assert _field(FIVE, {}, "cards_requested").choices == (2, 1, 0)


def _table_args(players: list[str], options: dict[str, Any]) -> tuple[Any, ...]:
    variant = Chambery()
    dealer = players[0]
    table = Table(tuple(players), dealer, variant.sitting_out(players, dealer))
    return HandType.PLAYED, table, variant.parse_options(options, players)


def _field(players: list[str], options: dict[str, Any], name: str) -> Any:
    return next(f for f in Chambery().hand_fields(*_table_args(players, options)) if f.name == name)
