"""The ``Evening`` (scoring/engine/evening.py) over random sequences of recording,
correcting, deleting and restoring hands, for every game, with and without doubled
Radl and a round's target (tests/engine/evening_cases.py): what it keeps after each
step is what scoring every live hand again from the first would give, its counts,
dealer and sums follow from its hands, and it refuses what the rules refuse. Runs
on CPython and under Pyodide (tests/pyodide/run_engine_tests.mjs); the server's
services are held to the same sequences in tests/scoring/test_evening_server.py."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine import InvalidInput, get_variant
from scoring.engine.evening import Evening, Snapshot, proposed_dealer
from scoring.engine.session_file import read_hand
from tests.engine.examples import examples

from .evening_cases import EXAMPLES, GAMES, Table, evenings, play, tables
from .support import FOUR


def evening_of(table: Table, options: dict[str, Any], target: int | None) -> Evening:
    variant = get_variant(table.variant)
    players = table.players
    return Evening(variant, players, variant.parse_options(options, players), target=target)


def scored_again(evening: Evening) -> list[Snapshot]:
    """Every live hand scored again from the first, in its place (one refused keeps its
    snapshot): what an evening built step by step must hold."""
    hands: list[Snapshot] = []
    previous = None
    for hand in evening.hands:
        again = hand
        if evening.looks_back():
            try:
                record = read_hand(
                    evening.variant, evening.players, evening.options, hand.record() or {}, previous
                )
                earlier = [h.stored() for h in hands]
                again = Snapshot.of(evening.variant.scored_hand(record, evening.options, earlier), hand.key)
            except InvalidInput:
                pass
        hands.append(again)
        previous = again.dealer or previous
    return hands


@pytest.mark.parametrize("variant", GAMES)
def test_every_sequence_keeps_what_scoring_the_evening_again_would_give(variant: str) -> None:
    @settings(max_examples=examples(EXAMPLES), suppress_health_check=[HealthCheck.too_slow])
    @given(evenings(variant))
    def check(case: tuple[Table, dict[str, Any], int | None, list[tuple[Any, ...]]]) -> None:
        table, options, target, ops = case
        played = play(evening_of(table, options, target), ops)
        for after, outcome, op in zip(played.steps, played.outcomes, ops, strict=True):
            assert scored_again(after) == list(after.hands)
            assert after.count() == len(after.hands)
            assert after.played() == sum(1 for hand in after.hands if hand.type != "redeal")
            dealers = [hand.dealer for hand in after.hands if hand.dealer]
            assert after.next_dealer() == proposed_dealer(after.players, dealers[-1] if dealers else None)
            totals = after.summary().totals
            if variant != "illustrated":  # an Illustriertes series adds its bonus
                plain = {
                    name: sum((Fraction(str(h.deltas[name])) for h in after.hands), Fraction(0))
                    for name in after.players
                }
                assert {name: totals.get(name, 0) for name in after.players} == plain
            if op[0] == "record" and outcome[0] == "ok" and target is not None:
                assert after.played() <= target or after.hands[-1].type == "redeal"

    check()


@pytest.mark.parametrize("variant", GAMES)
def test_a_played_hand_past_the_target_is_refused_and_a_redeal_is_not(variant: str) -> None:
    table = tables(variant)[0]
    hand = next(h for h in table.hands if h.get("type") != "redeal")
    evening = evening_of(table, table.options, 1).record(hand, key=1).evening
    with pytest.raises(InvalidInput) as refused:
        evening.record(hand, key=2)
    assert [problem.field for problem in refused.value.problems] == ["hands"]
    assert evening.record({"type": "redeal"}, key=2).evening.played() == 1


def test_doubled_radl_scores_the_later_hands_again_when_the_trischaken_goes() -> None:
    table = next(t for t in tables("koenigrufen") if len(t.players) == 5)
    evening = evening_of(table, {"doubled_radl": True}, None)
    for number, hand in enumerate(table.hands[:3], start=1):
        evening = evening.record(hand, key=number).evening
    doubled = evening.hands[2].deltas
    change = evening.delete(2)
    assert [hand.key for hand in change.rescored] == [3]
    assert {n: 2 * v for n, v in change.rescored[0].deltas.items()} == doubled
    back = change.evening.restore(change.hand, 1)
    assert [hand.key for hand in back.rescored] == [3]
    assert back.evening.hands == evening.hands
    assert FOUR[0] in back.evening.players


@given(st.data())
@settings(max_examples=examples(20))
def test_a_refused_hand_leaves_the_evening_as_it_was(data: st.DataObject) -> None:
    table = data.draw(st.sampled_from(tables("koenigrufen")))
    evening = evening_of(table, table.options, None)
    with pytest.raises(InvalidInput):
        evening.record({"game": "no such game"})
    assert evening.hands == ()
