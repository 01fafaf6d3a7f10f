"""Tarock von Chambéry over a whole session: Parties, the score sheet, the card counter."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from scoring.engine import dumps_session, read_session, score_session
from scoring.engine.chambery import COUNTS, CardCount, Chambery, Deck, card_limits, card_points, count_for
from scoring.engine.variant import Section

from .support import FIVE, FOUR, SIX, THREE, deltas

SEED = {"Anna": 37, "Bert": 29, "Carl": 12}


def three(points: tuple[int, int, int] = (37, 29, 12), **extra: Any) -> dict[str, Any]:
    return {"points": dict(zip(THREE, points, strict=True)), **extra}


def call(partner: str | None, points: int, **extra: Any) -> dict[str, Any]:
    return {"mode": "call", "partner": partner, "points": points, **extra}


def parties(players: list[str], hands: list[dict[str, Any]], options: dict[str, Any] | None = None) -> Any:
    document = {"variant": "chambery", "players": players, "options": options or {}, "hands": hands}
    return score_session(read_session(document)).summary


def spans(sections: tuple[Section, ...]) -> list[tuple[int, int, bool]]:
    return [(s.first, s.last, s.complete) for s in sections]


# --------------------------------------------------------------------------
# Parties


def test_a_partie_ends_when_every_player_has_dealt_once():
    hands = [call("Carl", 41, dealer="Anna"), call("Dora", 27), call("Anna", 34), call("Bert", 40)]
    summary = parties(FOUR, hands)
    assert spans(summary.sections) == [(0, 3, True)]
    (partie,) = summary.sections
    assert partie.kind == "partie"
    assert partie.bonus == {}
    assert partie.totals == summary.totals == summary.net


def test_the_last_unfinished_partie_is_marked_incomplete_with_its_own_subtotals():
    hands = [
        call("Carl", 41, dealer="Anna"),
        call("Dora", 27),
        call("Anna", 40),
        call("Bert", 40),
        call("Carl", 46),
    ]
    summary = parties(FOUR, hands)
    assert spans(summary.sections) == [(0, 3, True), (4, 4, False)]
    first, second = summary.sections
    # Hand 5: Anna deals, Carl partners, 46 of 72: won by 10.
    assert second.totals == {"Anna": 10, "Bert": -10, "Carl": 10, "Dora": -10}
    assert {p: first.totals[p] + second.totals[p] for p in FOUR} == summary.totals
    assert sum(summary.net.values()) == 0


def test_a_redeal_is_a_deal_of_the_partie():
    hands = [{"dealer": "Anna", "type": "redeal"}, three(), three(), three()]
    summary = parties(THREE, hands)
    assert spans(summary.sections) == [(0, 2, True), (3, 3, False)]
    assert summary.sections[0].totals == {"Anna": 44, "Bert": 12, "Carl": -56}


def test_three_players_without_dealers_count_three_hands_to_a_partie():
    summary = parties(THREE, [three() for _ in range(7)])
    assert spans(summary.sections) == [(0, 2, True), (3, 5, True), (6, 6, False)]
    assert summary.totals == {"Anna": 154, "Bert": 42, "Carl": -196}


def test_hands_before_the_first_named_dealer_count_back_from_him():
    # Hands 1 and 2 were dealt by Bert and Carl, so the first Partie ends with Anna's deal.
    hands = [three(), three(), three(dealer="Anna"), three(), three()]
    assert spans(parties(THREE, hands).sections) == [(0, 2, True), (3, 4, False)]


def test_a_player_dealing_out_of_turn_does_not_end_the_partie_early():
    hands = [three(dealer="Anna"), three(dealer="Bert"), three(dealer="Bert"), three(dealer="Carl"), three()]
    assert spans(parties(THREE, hands).sections) == [(0, 3, True), (4, 4, False)]


def test_six_at_the_table_a_partie_has_six_deals():
    hands = [call("Carl", 40, dealer="Anna")] + [call(None, 40) for _ in range(6)]
    summary = parties(SIX, hands)
    assert spans(summary.sections) == [(0, 5, True), (6, 6, False)]
    # Everyone sat out once in the first Partie.
    sitting_out = [hand.table.sitting_out for hand in read_session(_doc(SIX, hands)).hands[:6]]
    assert sorted(name or "" for name in sitting_out) == sorted(SIX)


def test_a_session_without_hands_has_no_partie():
    summary = parties(FIVE, [])
    assert summary.sections == ()
    assert summary.totals == dict.fromkeys(FIVE, 0)


def _doc(players: list[str], hands: list[dict[str, Any]]) -> dict[str, Any]:
    return {"variant": "chambery", "players": players, "hands": hands}


# --------------------------------------------------------------------------
# The score sheet


def described(players: list[str], hand: dict[str, Any], options: dict[str, Any] | None = None) -> str:
    session = read_session(
        {"variant": "chambery", "players": players, "options": options or {}, "hands": [hand]}
    )
    return str(Chambery().describe(session.hands[0]))


@pytest.mark.parametrize(
    ("players", "hand", "options", "text"),
    [
        (FIVE, call("Carl", 41, dealer="Anna"), {}, "Anna (dealer) with Carl · 41 points"),
        (FIVE, call(None, 30, dealer="Anna"), {}, "Anna (dealer) alone · 30 points"),
        (
            FIVE,
            {"dealer": "Anna", "mode": "solo", "soloist": "Bert", "cards_requested": 2, "points": 40},
            {},
            "Bert solo asking for 2 cards · 40 points",
        ),
        (
            FIVE,
            {"dealer": "Anna", "mode": "solo", "soloist": "Bert", "cards_requested": 0, "points": 40},
            {},
            "Bert solo à point · 40 points",
        ),
        (
            FOUR,
            {"dealer": "Bert", "points": 30},
            {"four_player_form": "croise"},
            "croisé: Bert (dealer) and Dora · 30 points",
        ),
        (THREE, three(), {}, "Anna 37 · Bert 29 · Carl 12"),
        (FIVE, {"dealer": "Anna", "type": "redeal"}, {}, "Redeal"),
    ],
)
def test_describe_gives_the_hand_in_short(players, hand, options, text):
    assert described(players, hand, options) == text


def test_a_session_file_reads_back_as_it_was_written():
    document = {
        "variant": "chambery",
        "players": FOUR,
        "options": {"deck": "simplified", "payment": "dummett"},
        "hands": [
            call("Carl", 41, dealer="Anna"),
            {"mode": "solo", "soloist": "Anna", "cards_requested": 0, "points": 20},
            call(None, 30),
            {"type": "redeal"},
        ],
    }
    first = read_session(document)
    text = dumps_session(first)
    again = read_session(text)
    assert dumps_session(again) == text
    assert [deltas(h) for h in score_session(again).hands] == [deltas(h) for h in score_session(first).hands]


def test_a_croise_session_file_reads_back_as_it_was_written():
    document = {
        "variant": "chambery",
        "players": FOUR,
        "options": {"four_player_form": "croise"},
        "hands": [{"dealer": "Bert", "mode": "croise", "points": 20}, {"points": 50}],
    }
    first = read_session(document)
    again = read_session(dumps_session(first))
    assert [deltas(h) for h in score_session(again).hands] == [
        {"Anna": 16, "Bert": -16, "Carl": 16, "Dora": -16},
        {"Anna": 14, "Bert": -14, "Carl": 14, "Dora": -14},
    ]


def test_a_croise_session_file_writes_the_mode_of_every_hand_and_still_reads_one_without():
    # docs/session-file.md states no default for ``mode``: another program needs it in every hand.
    document = {
        "variant": "chambery",
        "players": FOUR,
        "options": {"four_player_form": "croise"},
        "hands": [{"dealer": "Bert", "mode": "croise", "points": 20}, {"points": 50}],
    }
    written = json.loads(dumps_session(read_session(document)))
    assert [hand["mode"] for hand in written["hands"]] == ["croise", "croise"]
    assert list(written["hands"][1]) == ["dealer", "mode", "points"]
    assert dumps_session(read_session(written)) == dumps_session(read_session(document))


def test_a_three_player_session_file_reads_back_as_it_was_written():
    first = read_session({"variant": "chambery", "players": THREE, "hands": [three()]})
    assert read_session(dumps_session(first)).hands[0].play.points == {
        "Anna": Fraction(37),
        "Bert": Fraction(29),
        "Carl": Fraction(12),
    }


def test_score_session_prints_whole_numbers_and_no_series():
    result = score_session(
        read_session({"variant": "chambery", "players": THREE, "hands": [three()]})
    ).to_json()
    assert result["hands"][0]["deltas"] == {"Anna": 22, "Bert": 6, "Carl": -28}
    assert result["totals"] == {"Anna": 22, "Bert": 6, "Carl": -28}
    assert "series" not in result
    assert result["settlement"]["net"] == {"Anna": 22, "Bert": 6, "Carl": -28}


# --------------------------------------------------------------------------
# The card counter


def whole_deck(deck: Deck) -> CardCount:
    limits = card_limits(deck)
    return CardCount(**limits)


@pytest.mark.parametrize(("playing", "deck"), list(COUNTS))
def test_all_cards_all_tricks_and_the_discard_make_the_total(playing, deck):
    count = count_for(playing, deck)
    assert (
        card_points(whole_deck(deck), count.tricks, discard=True, players=playing, deck=deck) == count.total
    )
    assert playing * count.cards_each + count.discard == whole_deck(deck).cards


def test_a_side_counts_its_cards_its_tricks_and_the_discard():
    cards = CardCount(bouts=2, kings=3, queens=1, cavalls=2, jacks=0, others=40)
    # 2 × 4 + 3 × 4 + 3 + 2 × 2 = 27 for the cards, 8 tricks, 1 for the discard
    assert card_points(cards, 8, discard=True, players=5) == 36
    assert card_points(cards, 8, discard=False, players=5) == 35


def test_both_sides_together_make_the_total():
    ours = CardCount(bouts=1, kings=2, queens=3, cavalls=1, jacks=2, others=30)
    limits = card_limits(Deck.FULL)
    theirs = CardCount(**{kind: limits[kind] - number for kind, number in ours.by_kind().items()})
    total = card_points(ours, 9, discard=True, players=4) + card_points(theirs, 10, discard=False, players=4)
    assert total == 72


def test_three_players_with_the_simplified_deck_the_discard_has_no_extra_point():
    cards = CardCount(kings=1, jacks=1, others=20)
    assert card_points(cards, 7, discard=True, players=3, deck=Deck.SIMPLIFIED) == 12
    assert card_points(cards, 7, discard=True, players=3, deck=Deck.FULL) == 13
