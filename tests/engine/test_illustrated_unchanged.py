"""Illustriertes Tarock scores byte for byte as before it shared the 54-card deck,
Kontra and premiums with Königrufen (``tarock54``): its stored and generated
sessions are re-scored and re-written and compared with the results recorded
before the move (``illustrated-golden.json``)."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from typing import Any

import pytest

from scoring.commandline import scored
from scoring.engine import dumps_session, read_session
from scoring.engine.illustrated import CardCount, card_points

from .support import FIXTURES

GOLDEN: list[dict[str, Any]] = json.loads((FIXTURES / "illustrated-golden.json").read_text(encoding="utf-8"))


def source(case: dict[str, Any]) -> str:
    if case["document"] is None:
        return (FIXTURES / case["name"]).read_text(encoding="utf-8")
    return json.dumps(case["document"], ensure_ascii=False)


def test_the_golden_results_cover_the_stored_and_many_generated_sessions() -> None:
    names = [case["name"] for case in GOLDEN]
    assert {"illustrated-seed-series.json", "rich-illustrated.json"} <= set(names)
    generated = [case for case in GOLDEN if case["document"] is not None]
    assert len(generated) >= 30
    assert sum(len(case["document"]["hands"]) for case in generated) >= 100


@pytest.mark.parametrize("case", GOLDEN, ids=[case["name"] for case in GOLDEN])
def test_score_session_prints_byte_for_byte_what_it_printed_before(case: dict[str, Any]) -> None:
    assert scored(source(case).encode("utf-8")).decode("utf-8") == case["printed"]


@pytest.mark.parametrize("case", GOLDEN, ids=[case["name"] for case in GOLDEN])
def test_the_session_file_is_written_byte_for_byte_as_before(case: dict[str, Any]) -> None:
    assert dumps_session(read_session(source(case))) == case["written"]


def test_the_card_counter_counts_every_possible_set_of_cards_as_before() -> None:
    limits = {"fives": 7, "queens": 4, "cavalls": 4, "jacks": 4, "others": 35}
    values = {"fives": 5, "queens": 4, "cavalls": 3, "jacks": 2, "others": 1}
    for counts in itertools.product(*(range(limit + 1) for limit in limits.values())):
        cards = dict(zip(limits, counts, strict=True))
        value = sum(values[kind] * number for kind, number in cards.items())
        before = round(value - Fraction(2 * sum(counts), 3))
        assert card_points(CardCount(**cards)) == before
