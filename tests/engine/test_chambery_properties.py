"""Tarock von Chambéry: invariants over every valid hand (Hypothesis)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.engine import read_session, score_session
from scoring.engine.chambery import Deck, count_for
from tests.engine.examples import examples

from .support import SIX, one_hand

PEOPLE = SIX


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[str], dict[str, Any], str, str | None, int]:
    """Players, house rules, dealer, the one sitting out, how many play."""
    at_table = draw(st.sampled_from([3, 4, 5, 6]))
    players = PEOPLE[:at_table]
    playing = 5 if at_table == 6 else at_table
    deck = draw(st.sampled_from(["full", "simplified"])) if playing in (3, 4) else "full"
    payment = draw(st.sampled_from(["standard", "dummett"]))
    form = draw(st.sampled_from(["call_solo", "croise"])) if playing == 4 else "call_solo"
    options = {"deck": deck, "payment": payment, "four_player_form": form}
    dealer = draw(st.sampled_from(players))
    sitting_out = players[(players.index(dealer) - 1) % 6] if at_table == 6 else None
    return players, options, dealer, sitting_out, playing


@st.composite
def valid_hands(draw: st.DrawFn) -> tuple[list[str], dict[str, Any], dict[str, Any], tuple[str, ...]]:
    """A valid hand of any form, and its declaring side (empty with three players)."""
    players, options, dealer, sitting_out, playing = draw(tables())
    count = count_for(playing, Deck(options["deck"]))
    active = [p for p in players if p != sitting_out]
    if playing == 3:
        first = draw(st.integers(0, count.total))
        second = draw(st.integers(0, count.total - first))
        points = draw(st.permutations([first, second, count.total - first - second]))
        hand: dict[str, Any] = {"points": dict(zip(active, points, strict=True))}
        if draw(st.booleans()):
            assume(not count.discard_point or hand["points"][dealer] >= 1)
            hand["dealer"] = dealer
        return players, options, hand, ()

    hand = {"dealer": dealer}
    if options["four_player_form"] == "croise":
        hand["mode"] = "croise"
        side: tuple[str, ...] = (dealer, active[(active.index(dealer) + 2) % 4])
    elif draw(st.booleans()):
        partner = draw(st.sampled_from([None, *(p for p in active if p != dealer)]))
        hand.update(mode="call", partner=partner)
        side = (dealer,) if partner is None else (dealer, partner)
    else:
        soloist = draw(st.sampled_from(active))
        hand.update(mode="solo", soloist=soloist, cards_requested=draw(st.sampled_from([2, 1, 0])))
        side = (soloist,)
    with_dealer = dealer in side
    low, high = (1, count.total) if with_dealer else (0, count.total - 1)
    hand["points"] = draw(st.integers(low, high))
    return players, options, hand, side


@settings(max_examples=examples(400), deadline=None)
@given(valid_hands())
def test_every_valid_hand_sums_to_exactly_zero_in_whole_points(case):
    players, options, hand, _ = case
    score = one_hand("chambery", players, hand, options)
    assert list(score.deltas) == players
    assert all(isinstance(value, Fraction) and value.denominator == 1 for value in score.deltas.values())
    assert sum(score.deltas.values()) == 0
    assert score.breakdown


@settings(max_examples=examples(300), deadline=None)
@given(valid_hands())
def test_nobody_sitting_out_scores_and_no_winner_pays(case):
    players, options, hand, side = case
    score = one_hand("chambery", players, hand, options)
    if len(players) == 6:
        dealer = hand["dealer"]
        assert score.deltas[players[players.index(dealer) - 1]] == 0
    playing = 5 if len(players) == 6 else len(players)
    count = count_for(playing, Deck(options["deck"]))
    if not side:
        for player, points in hand["points"].items():
            sign = (points > count.tie) - (points < count.tie)
            assert score.deltas[player] * sign >= 0
            if sign < 0:
                assert score.deltas[player] < 0
        return
    diff = hand["points"] - count.tie
    for player in players:
        delta = score.deltas[player]
        if diff == 0:
            assert delta == 0
        elif player in side:
            assert delta * diff > 0
        else:
            assert delta * diff <= 0
            # an opponent never pays or gets more than eight times the difference
            assert abs(delta) <= 8 * abs(diff)


@settings(max_examples=examples(200), deadline=None)
@given(valid_hands())
def test_when_the_declaring_side_wins_both_payment_readings_agree(case):
    players, options, hand, side = case
    playing = 5 if len(players) == 6 else len(players)
    count = count_for(playing, Deck(options["deck"]))
    assume(side and hand["points"] >= count.tie)
    standard = one_hand("chambery", players, hand, {**options, "payment": "standard"})
    dummett = one_hand("chambery", players, hand, {**options, "payment": "dummett"})
    assert standard.deltas == dummett.deltas


@settings(max_examples=examples(100), deadline=None)
@given(
    st.lists(
        st.one_of(
            st.just({"type": "redeal"}),
            st.permutations([37, 29, 12]).map(lambda p: {"points": dict(zip(PEOPLE[:3], p, strict=True))}),
        ),
        max_size=12,
    )
)
def test_parties_cover_every_hand_once_and_add_up_to_the_totals(hands):
    result = score_session(read_session({"variant": "chambery", "players": PEOPLE[:3], "hands": hands}))
    sections = result.summary.sections
    covered = [i for s in sections for i in range(s.first, s.last + 1)]
    assert covered == list(range(len(hands)))
    assert all(s.complete for s in sections[:-1])
    assert all(s.last - s.first == 2 for s in sections if s.complete)
    for player in PEOPLE[:3]:
        assert sum(s.totals[player] for s in sections) == result.summary.totals[player]
    assert result.summary.net == result.summary.totals
    assert sum(result.summary.net.values()) == 0
