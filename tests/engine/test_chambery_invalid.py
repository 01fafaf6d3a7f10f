"""Tarock von Chambéry: input the rules do not allow is refused, naming the field
and what is allowed."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from scoring.engine import InvalidInput
from scoring.engine.chambery import CardCount, Chambery, Deck, card_points
from scoring.engine.types import HandType, Table

from .support import FIVE, FOUR, SIX, THREE, refused, session

CROISE = {"four_player_form": "croise"}
SIMPLIFIED = {"deck": "simplified"}


def call(points: Any = 40, **extra: Any) -> dict[str, Any]:
    return {"dealer": "Anna", "mode": "call", "partner": "Carl", "points": points, **extra}


def solo(cards: Any = 2, points: Any = 40, **extra: Any) -> dict[str, Any]:
    return {
        "dealer": "Anna",
        "mode": "solo",
        "soloist": "Bert",
        "cards_requested": cards,
        "points": points,
        **extra,
    }


REFUSED = [
    # (name, players, hand, options, field, words the message must contain)
    ("points_above_the_total_of_five", FIVE, call(69), {}, "points", ["0 to 68"]),
    ("points_above_the_total_of_four", FOUR, call(73), {}, "points", ["0 to 72"]),
    ("points_above_the_simplified_total", FOUR, call(69), SIMPLIFIED, "points", ["0 to 68"]),
    ("points_below_zero", FIVE, call(-1), {}, "points", ["0 to 68"]),
    ("half_points", FIVE, call("40.5"), {}, "points", ["a whole number"]),
    (
        "points_missing",
        FIVE,
        {"dealer": "Anna", "mode": "call", "partner": "Carl"},
        {},
        "points",
        ["missing"],
    ),
    (
        "the_dealers_side_without_its_discard_point",
        FIVE,
        call(0),
        {},
        "points",
        ["discard", "1 to 68"],
    ),
    (
        "a_soloist_with_the_dealers_discard_point",
        FIVE,
        solo(2, 68),
        {},
        "points",
        ["discard", "0 to 67"],
    ),
    (
        "the_dealer_alone_without_his_discard_point",
        FOUR,
        {"dealer": "Anna", "mode": "call", "points": 0},
        {},
        "points",
        ["1 to 72"],
    ),
    # modes
    (
        "croise_with_five_players",
        FIVE,
        {"dealer": "Anna", "mode": "croise", "points": 40},
        {},
        "mode",
        ["call, solo"],
    ),
    (
        "croise_with_six_at_the_table",
        SIX,
        {"dealer": "Anna", "mode": "croise", "points": 40},
        {},
        "mode",
        ["call, solo"],
    ),
    (
        "croise_with_the_four_player_form_call_solo",
        FOUR,
        {"dealer": "Anna", "mode": "croise", "points": 40},
        {},
        "mode",
        ["call, solo"],
    ),
    ("call_with_the_croise_form", FOUR, call(), CROISE, "mode", ["croise"]),
    ("solo_with_the_croise_form", FOUR, solo(), CROISE, "mode", ["croise"]),
    ("an_unknown_mode", FIVE, call(mode="valat"), {}, "mode", ["call, solo"]),
    ("no_mode", FIVE, {"dealer": "Anna", "points": 40}, {}, "mode", ["missing"]),
    # solo
    ("a_solo_asking_for_three_cards", FIVE, solo(3), {}, "cards_requested", ["2, 1, 0"]),
    ("a_solo_without_cards_requested", FIVE, solo(None), {}, "cards_requested", ["2, 1, 0"]),
    (
        "a_solo_without_soloist",
        FIVE,
        {"dealer": "Anna", "mode": "solo", "cards_requested": 1, "points": 40},
        {},
        "soloist",
        ["Anna, Bert, Carl, Dora, Emil"],
    ),
    (
        "a_partner_in_a_solo",
        FIVE,
        solo(partner="Carl"),
        {},
        "partner",
        ["a Solo records Game, Points, Soloist, Cards requested"],
    ),
    (
        "a_soloist_not_at_the_table",
        FIVE,
        solo(soloist="Zoe"),
        {},
        "soloist",
        ["Anna, Bert, Carl, Dora, Emil"],
    ),
    # call
    (
        "a_soloist_in_a_call",
        FIVE,
        call(soloist="Bert"),
        {},
        "soloist",
        ["a Call records Game, Points, Partner (holder of the called card)"],
    ),
    (
        "cards_requested_in_a_call",
        FIVE,
        call(cards_requested=1),
        {},
        "cards_requested",
        ["a Call records Game, Points, Partner (holder of the called card)"],
    ),
    ("the_dealer_as_his_own_partner", FIVE, call(partner="Anna"), {}, "partner", ["empty"]),
    (
        "a_partner_not_at_the_table",
        FIVE,
        call(partner="Zoe"),
        {},
        "partner",
        ["Anna, Bert, Carl, Dora, Emil"],
    ),
    # croisé
    (
        "a_partner_in_croise",
        FOUR,
        {"dealer": "Anna", "mode": "croise", "partner": "Carl", "points": 40},
        CROISE,
        "partner",
        ["a Croisé records Game, Points"],
    ),
    # the table
    (
        "a_team_game_without_its_dealer",
        FIVE,
        {"mode": "call", "partner": "Carl", "points": 40},
        {},
        "dealer",
        ["Anna"],
    ),
    (
        "four_players_without_the_dealer",
        FOUR,
        {"mode": "call", "partner": "Carl", "points": 40},
        {},
        "dealer",
        ["Dora"],
    ),
    (
        "six_without_the_dealer",
        SIX,
        {"mode": "call", "partner": "Carl", "points": 40},
        {},
        "dealer",
        ["Fritz"],
    ),
    ("the_wrong_player_sitting_out", SIX, call(sitting_out="Bert"), {}, "sitting_out", ["Fritz"]),
    ("sitting_out_with_five_at_the_table", FIVE, call(sitting_out="Bert"), {}, "sitting_out", ["nobody"]),
    (
        "the_one_sitting_out_as_partner",
        SIX,
        call(partner="Fritz"),
        {},
        "partner",
        ["Anna, Bert, Carl, Dora, Emil"],
    ),
    (
        "an_unknown_field",
        FIVE,
        call(taker="Carl"),
        {},
        "taker",
        ["mode, points, partner"],
    ),
    (
        "trischaken_is_not_a_chambery_hand",
        FIVE,
        {"dealer": "Anna", "type": "trischaken"},
        {},
        "type",
        ["redeal"],
    ),
    # three players
    (
        "three_players_points_not_adding_up",
        THREE,
        {"points": {"Anna": 37, "Bert": 29, "Carl": 13}},
        {},
        "points",
        ["add up to 78", "got 79"],
    ),
    (
        "three_players_simplified_points_not_adding_up",
        THREE,
        {"points": {"Anna": 37, "Bert": 29, "Carl": 12}},
        SIMPLIFIED,
        "points",
        ["add up to 72"],
    ),
    (
        "three_players_a_player_left_out",
        THREE,
        {"points": {"Anna": 49, "Bert": 29}},
        {},
        "points.Carl",
        ["missing"],
    ),
    (
        "three_players_a_stranger",
        THREE,
        {"points": {"Anna": 37, "Bert": 29, "Carl": 12, "Dora": 0}},
        {},
        "points.Dora",
        ["Anna, Bert, Carl"],
    ),
    (
        "three_players_points_above_the_total",
        THREE,
        {"points": {"Anna": 79, "Bert": 0, "Carl": -1}},
        {},
        "points.Anna",
        ["0 to 78"],
    ),
    ("three_players_points_as_a_list", THREE, {"points": [37, 29, 12]}, {}, "points", ["Anna, Bert, Carl"]),
    (
        "three_players_the_dealer_without_his_discard_point",
        THREE,
        {"dealer": "Anna", "points": {"Anna": 0, "Bert": 39, "Carl": 39}},
        {},
        "points.Anna",
        ["discard", "1 to 78"],
    ),
    (
        "three_players_with_a_mode",
        THREE,
        {"mode": "call", "points": {"Anna": 37, "Bert": 29, "Carl": 12}},
        {},
        "mode",
        ["points"],
    ),
    # house rules
    (
        "the_simplified_deck_with_five_players",
        FIVE,
        call(),
        SIMPLIFIED,
        "options.deck",
        ["3 or 4", "use Full (78)"],
    ),
    (
        "the_simplified_deck_with_six_at_the_table",
        SIX,
        call(),
        SIMPLIFIED,
        "options.deck",
        ["3 or 4", "use Full (78)"],
    ),
    (
        "the_croise_form_with_five_players",
        FIVE,
        call(),
        CROISE,
        "options.four_player_form",
        ["use Call and solo"],
    ),
    (
        "the_croise_form_with_three_players",
        THREE,
        {"points": {"Anna": 37, "Bert": 29, "Carl": 12}},
        CROISE,
        "options.four_player_form",
        ["Croisé is a four-player form", "use Call and solo"],
    ),
    ("an_unknown_deck", FIVE, call(), {"deck": "short"}, "options.deck", ["full, simplified"]),
    ("an_unknown_payment", FIVE, call(), {"payment": "pagat"}, "options.payment", ["standard, dummett"]),
    ("an_unknown_house_rule", FIVE, call(), {"round_to": 5}, "options.round_to", ["deck"]),
]


@pytest.mark.parametrize(
    ("players", "hand", "options", "field", "words"),
    [case[1:] for case in REFUSED],
    ids=[case[0] for case in REFUSED],
)
def test_refused(players, hand, options, field, words):
    error = refused("chambery", players, hand, options)
    assert error.field == field
    for word in words:
        assert word in str(error), str(error)


# --------------------------------------------------------------------------
# The discard point (docs/rules.md §3.1): wherever it counts, the dealer's side has at least
# 1 point and a side without the dealer at most total − 1.

DISCARD_POINT_TABLES = [
    # (name, players, options, total)
    ("five_full", FIVE, {}, 68),
    ("four_full", FOUR, {}, 72),
    ("four_simplified", FOUR, SIMPLIFIED, 68),
]


@pytest.mark.parametrize(
    ("players", "options", "total"),
    [case[1:] for case in DISCARD_POINT_TABLES],
    ids=[case[0] for case in DISCARD_POINT_TABLES],
)
def test_the_dealers_side_has_at_least_the_discard_point(players, options, total):
    for hand in (call(0), {"dealer": "Anna", "mode": "call", "points": 0}):  # with a partner, alone
        error = refused("chambery", players, hand, options)
        assert error.field == "points"
        assert f"from 1 to {total} points (got 0)" in str(error)
    result = session("chambery", players, [call(1), {"dealer": "Bert", "mode": "call", "points": 1}], options)
    # 1 point is the discard alone: the dealer's side lost, and pays
    assert [hand.deltas["Anna"] < 0 for hand in result.hands] == [True, False]
    assert result.hands[1].deltas["Bert"] < 0


@pytest.mark.parametrize(
    ("players", "options", "total"),
    [case[1:] for case in DISCARD_POINT_TABLES],
    ids=[case[0] for case in DISCARD_POINT_TABLES],
)
def test_a_soloist_who_is_not_the_dealer_has_at_most_total_minus_one(players, options, total):
    error = refused("chambery", players, solo(2, total), options)
    assert error.field == "points"
    assert f"from 0 to {total - 1} points (got {total})" in str(error)
    # every card and trick but the dealer's discard point: the soloist won
    assert session("chambery", players, [solo(2, total - 1)], options).hands[0].deltas["Bert"] > 0


@pytest.mark.parametrize(("options", "total"), [(CROISE, 72), ({**CROISE, **SIMPLIFIED}, 68)])
def test_croise_the_dealers_side_has_at_least_the_discard_point(options, total):
    error = refused("chambery", FOUR, {"dealer": "Anna", "mode": "croise", "points": 0}, options)
    assert error.field == "points"
    assert f"from 1 to {total} points (got 0)" in str(error)
    accepted = session("chambery", FOUR, [{"dealer": "Anna", "mode": "croise", "points": 1}], options)
    assert accepted.hands[0].deltas["Anna"] < 0


def test_three_players_with_the_full_deck_the_dealer_may_have_just_the_discard_point():
    result = session("chambery", THREE, [{"dealer": "Anna", "points": {"Anna": 1, "Bert": 38, "Carl": 39}}])
    # Anna 25 below 26 and below 13: pays 2 × 25 = 50; Bert 12 and Carl 13 above share it 12 : 13
    assert {name: int(value) for name, value in result.hands[0].deltas.items()} == {
        "Anna": -50,
        "Bert": 24,
        "Carl": 26,
    }


def test_a_refused_hand_names_its_number():
    with pytest.raises(InvalidInput) as caught:
        session(
            "chambery",
            FIVE,
            [call(), {"mode": "solo", "soloist": "Bert", "cards_requested": 3, "points": 40}],
        )
    assert caught.value.hand == 2
    assert caught.value.field == "cards_requested"


# --------------------------------------------------------------------------
# The game module called directly, as a form would, with values already cleaned


def build(players: list[str], values: dict[str, Any], options: dict[str, Any] | None = None) -> Any:
    variant = Chambery()
    dealer = players[0]
    table = Table(tuple(players), dealer, variant.sitting_out(players, dealer))
    full = {"partner": None, "soloist": None, "cards_requested": None, **values}
    return variant.build_hand(HandType.PLAYED, full, table, variant.parse_options(options or {}, players))


@pytest.mark.parametrize(
    ("players", "values", "options", "words"),
    [
        (
            FIVE,
            {"mode": "croise", "points": Fraction(40)},
            {},
            ["Croisé is a four-player form", "one of Call, Solo"],
        ),
        (
            FOUR,
            {"mode": "croise", "points": Fraction(40)},
            {},
            ["house rule “Four players: form: Croisé”", "plays Call, Solo"],
        ),
        (
            FOUR,
            {"mode": "call", "points": Fraction(40), "partner": "Carl"},
            CROISE,
            ["croisé every hand is Croisé", "no solo"],
        ),
        (
            FOUR,
            {"mode": "solo", "points": Fraction(40), "soloist": "Bert"},
            CROISE,
            ["croisé every hand is Croisé", "no solo"],
        ),
        (FIVE, {"mode": None, "points": Fraction(40)}, {}, ["one of Call, Solo"]),
    ],
)
def test_build_hand_explains_why_a_mode_is_refused(players, values, options, words):
    with pytest.raises(InvalidInput) as caught:
        build(players, values, options)
    assert caught.value.field == "mode"
    for word in words:
        assert word in str(caught.value)


def test_build_hand_refuses_points_above_the_total():
    with pytest.raises(InvalidInput) as caught:
        build(FIVE, {"mode": "call", "points": Fraction(70), "partner": "Carl"})
    assert caught.value.field == "points"
    assert "0 to 68" in str(caught.value)


def test_build_hand_refuses_a_team_game_without_a_dealer():
    variant = Chambery()
    table = Table(tuple(FIVE))
    with pytest.raises(InvalidInput) as caught:
        variant.build_hand(
            HandType.PLAYED,
            {
                "mode": "call",
                "points": Fraction(40),
                "partner": "Carl",
                "soloist": None,
                "cards_requested": None,
            },
            table,
            variant.default_options(FIVE),
        )
    assert caught.value.field == "dealer"


def test_build_hand_refuses_three_player_points_for_someone_else():
    with pytest.raises(InvalidInput) as caught:
        build(
            THREE,
            {
                "points": {
                    "Anna": Fraction(37),
                    "Bert": Fraction(29),
                    "Carl": Fraction(12),
                    "Zoe": Fraction(0),
                }
            },
        )
    assert caught.value.field == "points.Zoe"


# --------------------------------------------------------------------------
# The card-point counter


@pytest.mark.parametrize(
    ("kwargs", "field", "words"),
    [
        ({"players": 6}, "players", ["3, 4 or 5"]),
        ({"players": 5, "deck": "simplified"}, "deck", ["3 or 4"]),
        ({"players": 5, "tricks": 16}, "tricks", ["0 to 15"]),
        ({"players": 4, "tricks": 20}, "tricks", ["0 to 19"]),
        ({"players": 5, "tricks": -1}, "tricks", ["0 to 15"]),
    ],
)
def test_the_card_counter_refuses_impossible_tables_and_tricks(kwargs, field, words):
    args = {"players": 5, "tricks": 3, "discard": False, **kwargs}
    with pytest.raises(InvalidInput) as caught:
        card_points(CardCount(), args.pop("tricks"), **args)
    assert caught.value.field == field
    for word in words:
        assert word in str(caught.value)


@pytest.mark.parametrize(
    ("cards", "field", "limit"),
    [
        ({"bouts": 4}, "cards.bouts", "3"),
        ({"kings": 5}, "cards.kings", "4"),
        ({"queens": -1}, "cards.queens", "4"),
        ({"cavalls": 5}, "cards.cavalls", "4"),
        ({"jacks": 5}, "cards.jacks", "4"),
        ({"others": 60}, "cards.others", "59"),
    ],
)
def test_the_card_counter_refuses_more_cards_than_the_deck_has(cards, field, limit):
    with pytest.raises(InvalidInput) as caught:
        card_points(CardCount(**cards), 3, discard=False, players=5)
    assert caught.value.field == field
    assert f"0 to {limit}" in str(caught.value)


def test_the_card_counter_knows_the_simplified_deck_has_fewer_plain_cards():
    with pytest.raises(InvalidInput) as caught:
        card_points(CardCount(others=44), 3, discard=False, players=4, deck=Deck.SIMPLIFIED)
    assert caught.value.field == "cards.others"
    assert "0 to 43" in str(caught.value)
