"""The game contract: a static registry, each game's declared types, one call
for everything a hand's snapshot stores, and a game's own kinds of hand."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import typing
from pathlib import Path
from types import MappingProxyType

import pytest

from scoring.engine import VARIANTS, HandType, ScoredHand, VariantOf, get_variant, read_session
from scoring.engine.chambery import Chambery, ChamberyOptions, TeamHand, ThreeHand
from scoring.engine.french import French, FrenchHand, FrenchOptions
from scoring.engine.illustrated import (
    TRISCHAKEN,
    Illustrated,
    IllustratedHand,
    IllustratedOptions,
    TrischakenHand,
)
from scoring.engine.koenigrufen import Koenigrufen
from scoring.engine.registry import BUILT_IN, games

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
DUMMY = "tests.scoring.dummy_game.Dummy"


def test_the_registry_is_one_line_per_game_and_read_only():
    assert (French, Illustrated, Chambery, Koenigrufen) == BUILT_IN
    assert list(VARIANTS) == ["french", "illustrated", "chambery", "koenigrufen"]
    assert isinstance(VARIANTS, MappingProxyType)
    with pytest.raises(TypeError):
        VARIANTS["other"] = French()
    assert get_variant("illustrated") is VARIANTS["illustrated"]
    with pytest.raises(KeyError):
        get_variant("koenig")


def test_extra_games_make_a_mapping_of_their_own_once_and_leave_the_built_in_one_alone():
    with_dummy = games((DUMMY,))
    assert list(with_dummy) == ["french", "illustrated", "chambery", "koenigrufen", "dummy"]
    assert games((DUMMY,)) is with_dummy and games(()) is VARIANTS
    assert with_dummy["french"] is VARIANTS["french"] and "dummy" not in VARIANTS
    with pytest.raises(ValueError, match="two games with the key 'dummy'"):
        games((DUMMY, DUMMY))
    with pytest.raises(TypeError, match="is not a game"):
        games(("scoring.engine.french.FrenchOptions",))


@pytest.mark.parametrize(
    ("game", "types"),
    [
        (French, (FrenchOptions, FrenchHand)),
        (Illustrated, (IllustratedOptions, IllustratedHand | TrischakenHand)),
        (Chambery, (ChamberyOptions, TeamHand | ThreeHand)),
    ],
)
def test_each_game_declares_its_options_and_its_hand(game, types):
    (base,) = [b for b in game.__orig_bases__ if typing.get_origin(b) is VariantOf]
    assert typing.get_args(base) == types
    assert game.options_type is types[0]
    options = game().default_options(("A", "B", "C", "D"))
    assert isinstance(options, types[0])
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.__setattr__(dataclasses.fields(options)[0].name, None)


# The session files among the fixtures (illustrated-golden.json holds expected results).
SEEDS = sorted(path.name for path in FIXTURES.glob("*.json") if path.name != "illustrated-golden.json")


@pytest.mark.parametrize("name", SEEDS)
def test_one_call_gives_everything_a_snapshot_stores_as_the_separate_calls_do(name):
    session = read_session((FIXTURES / name).read_text(encoding="utf-8"))
    variant, options = session.variant, session.options
    assert session.hands
    for record in session.hands:
        scored = variant.scored_hand(record, options)
        assert isinstance(scored, ScoredHand) and scored.record is record
        assert scored.score == variant.score_record(record, options)
        assert scored.deltas == scored.score.deltas and scored.breakdown == tuple(scored.score.breakdown)
        assert scored.inputs == variant.dump_play(record.type, record.play, record.table, options)
        assert scored.description == variant.describe_record(record)
        assert scored.facts == variant.hand_facts(record)
        assert scored.stats == variant.hand_stats(record, options)
        assert scored.stored() == variant.stored(record, scored.score)
        with pytest.raises(dataclasses.FrozenInstanceError):
            scored.facts = frozenset()  # type: ignore[misc]


def test_trischaken_is_illustriertes_own_kind_of_hand_and_keeps_its_stored_word():
    assert not hasattr(HandType, "TRISCHAKEN")
    assert (HandType.PLAYED.value, HandType.REDEAL.value, TRISCHAKEN.value) == (
        "played",
        "redeal",
        "trischaken",
    )
    assert TRISCHAKEN == "trischaken" and TRISCHAKEN.label == "Trischaken"
    assert VARIANTS["illustrated"].hand_type("trischaken") is TRISCHAKEN
    assert VARIANTS["illustrated"].hand_type("redeal") is HandType.REDEAL
    with pytest.raises(ValueError, match="french has no kind of hand 'trischaken'"):
        VARIANTS["french"].hand_type("trischaken")
    # one object per kind: copies are the kind itself, a pickled one equal to it
    assert copy.copy(TRISCHAKEN) is TRISCHAKEN and copy.deepcopy(HandType.PLAYED) is HandType.PLAYED
    again = pickle.loads(pickle.dumps(TRISCHAKEN))
    assert again == TRISCHAKEN and again.label == "Trischaken"
