"""French Tarot, docs/rules.md §1.4: who gets what at 3, 4, 5 and 6 at the table,
the dealer and redeals.

Most hands here are Anna's prise with 1 bout and 55 points: 55 − 51 = 4, so the
value per defender is S = 25 + 4 = 29.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine import InvalidInput

from .support import FIVE, FOUR, SIX, THREE, deltas, one_hand, session

S29 = {"bouts": 1, "points": 55}  # (25 + 4) × 1 = 29


def play(**fields: Any) -> dict[str, Any]:
    return {"taker": "Anna", "contract": "prise", **S29, **fields}


# ---------------------------------------------------------------------------
# Three, four and five players


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (THREE, {"Anna": 58, "Bert": -29, "Carl": -29}),  # taker 2S
        (FOUR, {"Anna": 87, "Bert": -29, "Carl": -29, "Dora": -29}),  # taker 3S
        (FIVE, {"Anna": 116, "Bert": -29, "Carl": -29, "Dora": -29, "Emil": -29}),  # alone: 4S
    ],
)
def test_taker_alone_gets_s_from_each_defender(players: list[str], expected: dict[str, int]) -> None:
    assert deltas(one_hand("french", players, play())) == expected


def test_taker_alone_pays_each_defender_when_lost() -> None:
    # 1 bout, 50 points: 1 short, S = −26; three players: taker −52.
    assert deltas(one_hand("french", THREE, play(points=50))) == {"Anna": -52, "Bert": 26, "Carl": 26}


def test_five_players_with_null_partner_means_the_taker_played_alone() -> None:
    hand = play(partner=None)
    assert deltas(one_hand("french", FIVE, hand)) == {
        "Anna": 116,
        "Bert": -29,
        "Carl": -29,
        "Dora": -29,
        "Emil": -29,
    }


@pytest.mark.parametrize(
    ("options", "hand", "expected"),
    [
        # taker_double: taker 2S, partner S, three defenders −S.
        ({}, play(partner="Carl"), {"Anna": 58, "Bert": -29, "Carl": 29, "Dora": -29, "Emil": -29}),
        (
            {"five_player_split": "taker_double"},
            play(partner="Emil"),
            {"Anna": 58, "Bert": -29, "Carl": -29, "Dora": -29, "Emil": 29},
        ),
        # Lost by 1: S = −26, taker −52, partner −26.
        (
            {"five_player_split": "taker_double"},
            play(partner="Bert", points=50),
            {"Anna": -52, "Bert": -26, "Carl": 26, "Dora": 26, "Emil": 26},
        ),
        # equal: 1.5S each; 1.5 × 29 = 43.5 (halves allowed).
        (
            {"five_player_split": "equal"},
            play(partner="Carl"),
            {"Anna": 43.5, "Bert": -29, "Carl": 43.5, "Dora": -29, "Emil": -29},
        ),
        # equal, lost by 1: 1.5 × −26 = −39.
        (
            {"five_player_split": "equal"},
            play(partner="Dora", points=50),
            {"Anna": -39, "Bert": 26, "Carl": 26, "Dora": -39, "Emil": 26},
        ),
        # equal, garde: S = 58, 1.5 × 58 = 87.
        (
            {"five_player_split": "equal"},
            play(partner="Bert", contract="garde"),
            {"Anna": 87, "Bert": 87, "Carl": -58, "Dora": -58, "Emil": -58},
        ),
        # equal, taker alone: the split does not apply, 4S.
        (
            {"five_player_split": "equal"},
            play(),
            {"Anna": 116, "Bert": -29, "Carl": -29, "Dora": -29, "Emil": -29},
        ),
    ],
)
def test_five_players_share_the_attack(
    options: dict[str, Any], hand: dict[str, Any], expected: dict[str, float]
) -> None:
    assert deltas(one_hand("french", FIVE, hand, options)) == expected


def test_five_players_taker_double_is_the_default() -> None:
    result = one_hand("french", FIVE, play(partner="Carl"))
    assert result.deltas["Anna"] == 2 * result.deltas["Carl"] == 58


def test_equal_split_rounds_the_value_before_the_shares() -> None:
    # S = 25 (won by 0) is a multiple of 5 and stays: 1.5 × 25 = 37.5 each,
    # a half point that rounding the shares would have removed.
    hand = play(partner="Carl", points=51)
    options = {"five_player_split": "equal", "round_to": 5}
    assert deltas(one_hand("french", FIVE, hand, options)) == {
        "Anna": 37.5,
        "Bert": -25,
        "Carl": 37.5,
        "Dora": -25,
        "Emil": -25,
    }


def test_equal_split_shares_the_rounded_value() -> None:
    # S = −26 → −30 (multiples of 10), then 1.5 × −30 = −45 each (not 1.5 × −26 = −39 → −40).
    hand = play(partner="Carl", points=50)
    options = {"five_player_split": "equal", "round_to": 10}
    assert deltas(one_hand("french", FIVE, hand, options)) == {
        "Anna": -45,
        "Bert": 30,
        "Carl": -45,
        "Dora": 30,
        "Emil": 30,
    }


@pytest.mark.parametrize(
    ("players", "partner", "points", "taker", "defender"),
    [
        # 2 bouts, 41 needed. 40.5: lost by 1, S = −26; 41.5: won by 1, S = 26.
        (THREE, None, 40.5, -52, 26),  # taker 2S
        (THREE, None, 41.5, 52, -26),
        (FOUR, None, 40.5, -78, 26),  # taker 3S
        (FOUR, None, 41.5, 78, -26),
        (FIVE, None, 40.5, -104, 26),  # alone: 4S
        (FIVE, None, 41.5, 104, -26),
        (FIVE, "Bert", 40.5, -52, 26),  # taker_double: 2S
        (FIVE, "Bert", 41.5, 52, -26),
    ],
)
def test_half_point_goes_to_the_winning_side_at_every_table(
    players: list[str], partner: str | None, points: float, taker: int, defender: int
) -> None:
    hand = {"taker": "Anna", "partner": partner, "contract": "prise", "bouts": 2, "points": points}
    if partner is None:
        del hand["partner"]
    result = deltas(one_hand("french", players, hand))
    assert result["Anna"] == taker
    assert result["Carl"] == defender


def test_five_players_half_point_short_loses_by_one() -> None:
    # 2 bouts, 40.5: −(25 + 1) = −26; taker_double: −52 / −26.
    hand = {"taker": "Anna", "partner": "Bert", "contract": "prise", "bouts": 2, "points": 40.5}
    assert deltas(one_hand("french", FIVE, hand)) == {
        "Anna": -52,
        "Bert": -26,
        "Carl": 26,
        "Dora": 26,
        "Emil": 26,
    }


def test_three_players_half_point_over_wins_by_one() -> None:
    # 2 bouts, 41.5: 25 + 1 = 26; taker 2 × 26.
    hand = {"taker": "Carl", "contract": "prise", "bouts": 2, "points": 41.5}
    assert deltas(one_hand("french", THREE, hand)) == {"Anna": -26, "Bert": -26, "Carl": 52}


# ---------------------------------------------------------------------------
# Poignée thresholds by the number of players in the hand (docs/rules.md §1.2/1.3)


@pytest.mark.parametrize(
    ("players", "sizes", "value"),
    [
        # 3 players: 13/15/18 trumps; one triple (18) fits in 22.
        (THREE, ["triple"], 69),  # 29 + 40
        # 4 players: 10/13/15; two simples (20) fit.
        (FOUR, ["simple", "simple"], 69),  # 29 + 20 + 20
        (FOUR, ["triple"], 69),
        # 5 players: 8/10/13; triple + simple (21) and double + double (20) fit.
        (FIVE, ["triple", "simple"], 89),  # 29 + 40 + 20
        (FIVE, ["double", "double"], 89),  # 29 + 30 + 30
        (FIVE, ["simple", "simple"], 69),  # 16 trumps
    ],
)
def test_poignees_allowed_by_player_count(players: list[str], sizes: list[str], value: int) -> None:
    shown = [{"player": player, "size": size} for player, size in zip(players[1:], sizes, strict=False)]
    result = one_hand("french", players, play(poignees=shown))
    assert -result.deltas["Bert"] == value


# ---------------------------------------------------------------------------
# Six at the table: the dealer sits out (docs/rules.md §1.4)


def test_six_at_the_table_the_dealer_sits_out_with_zero() -> None:
    hand = play(dealer="Fritz")  # Anna alone against four: 4 × 29
    assert deltas(one_hand("french", SIX, hand)) == {
        "Anna": 116,
        "Bert": -29,
        "Carl": -29,
        "Dora": -29,
        "Emil": -29,
        "Fritz": 0,
    }


def test_six_at_the_table_five_play_with_a_partner() -> None:
    hand = play(dealer="Dora", partner="Fritz")  # Dora sits out; taker 2S, partner S
    assert deltas(one_hand("french", SIX, hand)) == {
        "Anna": 58,
        "Bert": -29,
        "Carl": -29,
        "Dora": 0,
        "Emil": -29,
        "Fritz": 29,
    }


def test_six_at_the_table_uses_the_five_player_poignee_thresholds() -> None:
    # double + double = 10 + 10 trumps with five in the hand: 29 + 30 + 30 = 89.
    shown = [{"player": "Bert", "size": "double"}, {"player": "Carl", "size": "double"}]
    result = one_hand("french", SIX, play(dealer="Fritz", poignees=shown))
    assert deltas(result)["Anna"] == 4 * 89
    assert deltas(result)["Fritz"] == 0


def test_six_at_the_table_the_next_dealer_is_derived_and_sits_out() -> None:
    first = play(dealer="Fritz")
    second = {"taker": "Bert", "contract": "prise", **S29}  # Anna deals next (after Fritz) and sits out
    result = session("french", SIX, [first, second])
    assert result.session.hands[1].table.dealer == "Anna"
    assert result.session.hands[1].table.sitting_out == "Anna"
    assert deltas(result.hands[1]) == {
        "Anna": 0,
        "Bert": 116,
        "Carl": -29,
        "Dora": -29,
        "Emil": -29,
        "Fritz": -29,
    }


def test_six_at_the_table_sitting_out_may_be_given_when_it_is_the_dealer() -> None:
    given = one_hand("french", SIX, play(dealer="Carl", sitting_out="Carl"))
    derived = one_hand("french", SIX, play(dealer="Carl"))
    assert given.deltas == derived.deltas
    assert given.deltas["Carl"] == 0


def test_six_at_the_table_a_wrong_sitting_out_is_refused() -> None:
    hands = [play(dealer="Fritz"), {"sitting_out": "Bert", "taker": "Carl", "contract": "prise", **S29}]
    with pytest.raises(InvalidInput) as caught:
        session("french", SIX, hands)
    error = caught.value
    assert (error.field, error.hand) == ("sitting_out", 2)
    assert "Anna" in str(error)  # the player the rule names: Anna deals hand 2


def test_six_at_the_table_the_first_hand_must_name_its_dealer() -> None:
    with pytest.raises(InvalidInput) as caught:
        session("french", SIX, [play()])
    error = caught.value
    assert (error.field, error.hand) == ("dealer", 1)
    for name in SIX:
        assert name in str(error)


def test_six_at_the_table_the_dealer_cannot_take() -> None:
    with pytest.raises(InvalidInput) as caught:
        session("french", SIX, [play(dealer="Anna")])
    assert (caught.value.field, caught.value.hand) == ("taker", 1)


def test_six_at_the_table_the_dealer_cannot_be_the_partner() -> None:
    with pytest.raises(InvalidInput) as caught:
        session("french", SIX, [play(dealer="Bert", partner="Bert")])
    assert (caught.value.field, caught.value.hand) == ("partner", 1)


# ---------------------------------------------------------------------------
# The dealer and redeals (general rules, docs/rules.md §1.4)


def test_hand_without_dealer_is_dealt_by_the_next_player_in_playing_order() -> None:
    hands = [play(dealer="Carl"), play(), play(), play()]
    result = session("french", FOUR, hands)
    assert [hand.table.dealer for hand in result.session.hands] == ["Carl", "Dora", "Anna", "Bert"]


def test_with_four_players_the_first_hand_need_not_name_its_dealer() -> None:
    result = session("french", FOUR, [play()])
    assert deltas(result.hands[0]) == {"Anna": 87, "Bert": -29, "Carl": -29, "Dora": -29}


@pytest.mark.parametrize("players", [THREE, FOUR, FIVE, SIX])
def test_redeal_scores_zero_for_everyone(players: list[str]) -> None:
    result = session("french", players, [{"dealer": players[-1], "type": "redeal"}])
    assert deltas(result.hands[0]) == dict.fromkeys(players, 0)
    assert result.hands[0].rendered(), "a redeal still says why nobody scores"


def test_redeal_passes_the_deal_on() -> None:
    hands = [{"dealer": "Dora", "type": "redeal"}, {"type": "redeal"}, play()]
    result = session("french", FOUR, hands)
    assert [hand.table.dealer for hand in result.session.hands] == ["Dora", "Anna", "Bert"]


def test_redeal_at_six_passes_the_deal_and_who_sits_out() -> None:
    hands: list[dict[str, Any]] = [
        {"dealer": "Fritz", "type": "redeal"},
        {"taker": "Bert", "contract": "prise", **S29},
    ]
    result = session("french", SIX, hands)
    assert deltas(result.hands[0]) == dict.fromkeys(SIX, 0)
    assert deltas(result.hands[1])["Anna"] == 0  # Anna deals hand 2 and sits out
    assert deltas(result.hands[1])["Bert"] == 116


def test_redeal_leaves_the_running_totals_unchanged() -> None:
    result = session("french", FOUR, [play(), {"type": "redeal"}, play()])
    assert {k: int(v) for k, v in result.summary.totals.items()} == {
        "Anna": 174,
        "Bert": -58,
        "Carl": -58,
        "Dora": -58,
    }
