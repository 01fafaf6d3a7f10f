"""Illustriertes Tarock, invariants over generated sessions: any hand the rules
allow is read, scored, printed and settled without error; counting by threes."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import VARIANTS, HandType, dumps_session, read_session, score_session
from scoring.engine.illustrated import DECK, TRISCHAKEN, CardCount, card_points, count_by_threes
from tests.engine.examples import examples

PLAYERS = ["A", "B", "C"]
GAMES = ["dreiblatt", "zweiblatt", "einblatt", "solo"]
LEVELS = ["silent", "after_talon", "before_talon"]
# The most the talon cards left in each game can count (3, 4, 5 or 6 cards worth 5).
TALON_REST = {"dreiblatt": 13, "zweiblatt": 17, "einblatt": 22, "solo": 26}
# What the declarer's own discard can count when the opponents take every trick.
DISCARD = {"dreiblatt": (1, 13), "zweiblatt": (1, 9), "einblatt": (0, 4), "solo": (0, 0)}
CARD_COMBINATIONS = ["koenigstrull", "tarocktrull", "koepfe"]
OHNE = ["ohne_koenige", "ohne_trull"]
POINTS_NEEDED = {"vierzig": 40, "fuenfzig": 50}
ULTIMOS = ["pagat", "uhu"]


@st.composite
def house_rules(draw: st.DrawFn) -> dict[str, Any]:
    profile = draw(st.sampled_from(["beck", "graz"]))
    options: dict[str, Any] = {
        "profile": profile,
        "uhu": draw(st.booleans()),
        "silent_ultimo_loss_counts": draw(st.booleans()),
        "all_pass": draw(st.sampled_from(["redeal", "trischaken", "talon_keep"])),
        "game_points": {bid: draw(st.integers(1, 20)) for bid in ("announced", "unterer", "held")},
        "series_target": draw(st.integers(1, 300)),
        "series_bonus": draw(st.integers(0, 30)),
    }
    if profile == "beck":
        options["valat_scoring"] = draw(st.sampled_from(["beck_additive", "beck_factor"]))
    return options


def levels(profile: str, premium: str) -> list[str]:
    if profile == "beck":
        return LEVELS
    return ["silent", "after_talon"] if premium in ULTIMOS else ["silent"]


@st.composite
def played_hand(draw: st.DrawFn, options: dict[str, Any]) -> dict[str, Any]:
    graz = options["profile"] == "graz"
    declarer = draw(st.sampled_from(PLAYERS))
    game = draw(st.sampled_from(GAMES))
    renonce = draw(st.sampled_from(PLAYERS)) if draw(st.integers(0, 4)) == 0 else None
    talon_rest = draw(st.integers(0, TALON_REST[game]))
    hand: dict[str, Any] = {
        "declarer": declarer,
        "game": game,
        "bid": draw(st.sampled_from(["announced", "unterer", "held"])),
        "kontra": draw(st.integers(0, 3)),
        "talon_rest": talon_rest,
    }
    valat = None
    if draw(st.integers(0, 3)) == 0:
        announced = draw(st.sampled_from(["silent", "after_talon"] if graz else LEVELS))
        valat = {
            "by": draw(st.sampled_from(["declarer", "opponents"])),
            "announced": announced,
            "made": True if announced == "silent" else draw(st.booleans()),
            "kontra": draw(st.integers(0, 3)) if graz and announced != "silent" else 0,
        }
        hand["valat"] = valat
    if valat is not None and valat["made"] and renonce is None:
        points: int | None = (
            70 - talon_rest if valat["by"] == "declarer" else draw(st.integers(*DISCARD[game]))
        )
    else:
        points = draw(st.integers(0, 70 - talon_rest))
    if renonce is not None:
        hand["renonce"] = renonce
        if draw(st.booleans()):
            points = None
    if points is not None:
        hand["points"] = points

    known = CARD_COMBINATIONS + OHNE + ["fuenfzig", "pagat"]
    known += [] if graz else ["vierzig"]
    known += ["uhu"] if options["uhu"] else []
    types = draw(st.lists(st.sampled_from(known), unique=True, max_size=5))
    if "tarocktrull" in types and "koepfe" in types:
        types.remove("koepfe")
    others = [p for p in PLAYERS if p != declarer]
    premiums = []
    for kind in types:
        if kind in OHNE or kind in POINTS_NEEDED:
            player = declarer
        elif (kind == "koenigstrull" and "ohne_koenige" in types) or (
            kind in ("tarocktrull", "koepfe", "pagat") and "ohne_trull" in types
        ):
            player = draw(st.sampled_from(others))
        else:
            player = draw(st.sampled_from(PLAYERS))
        announced = draw(st.sampled_from(levels(options["profile"], kind)))
        if kind in CARD_COMBINATIONS or kind in OHNE:
            made = True
        elif kind in POINTS_NEEDED:
            made = points >= POINTS_NEEDED[kind] if points is not None else draw(st.booleans())
        else:
            made = draw(st.booleans())
            valat_taken = valat is not None and valat["made"] and renonce is None
            if valat_taken and (player == declarer) != (valat["by"] == "declarer"):
                made = False
        premiums.append(
            {
                "type": kind,
                "player": player,
                "announced": announced,
                "made": made,
                "kontra": draw(st.integers(0, 3)) if graz and announced != "silent" else 0,
            }
        )
    hand["premiums"] = premiums

    if graz and draw(st.booleans()):
        captured, played = draw(st.permutations(PLAYERS))[:2]
        if valat is not None and valat["made"] and renonce is None:
            # Only the side that took every trick can have taken the XXI.
            side = [declarer] if valat["by"] == "declarer" else others
            captured = draw(st.sampled_from(side))
            played = draw(st.sampled_from([p for p in PLAYERS if p != captured]))
        ohne_trull_rules_out = "ohne_trull" in types and declarer in (captured, played)
        if "tarocktrull" not in types and not ohne_trull_rules_out:
            hand["mondfang"] = {"captured_by": captured, "played_by": played}
    return hand


@st.composite
def trischaken_hand(draw: st.DrawFn) -> dict[str, Any]:
    no_trick = draw(st.lists(st.sampled_from(PLAYERS), unique=True, max_size=2))
    takers = [name for name in PLAYERS if name not in no_trick]
    # All but the untouched talon, which holds 2 to 26 points.
    left = draw(st.integers(44, 68))
    points = dict.fromkeys(no_trick, 0)
    for index, name in enumerate(takers):
        still = len(takers) - index - 1
        points[name] = left if not still else draw(st.integers(1, left - still))
        left -= points[name]
    return {"type": "trischaken", "points": {name: points[name] for name in PLAYERS}, "no_trick": no_trick}


@st.composite
def sessions(draw: st.DrawFn) -> dict[str, Any]:
    options = draw(house_rules())
    kinds = ["played", "played", "played", "redeal"]
    if options["all_pass"] == "trischaken":
        kinds.append("trischaken")
    hands = []
    for _ in range(draw(st.integers(0, 8))):
        kind = draw(st.sampled_from(kinds))
        if kind == "played":
            hands.append(draw(played_hand(options)))
        elif kind == "trischaken":
            hands.append(draw(trischaken_hand()))
        else:
            hands.append({"type": "redeal"})
    return {"variant": "illustrated", "players": PLAYERS, "options": options, "hands": hands}


@settings(max_examples=examples(300), deadline=None)
@given(sessions())
def test_any_valid_session_is_scored_printed_and_settled(document):
    session = read_session(document)
    result = score_session(session)
    printed = result.to_json()
    json.dumps(printed)  # plain JSON numbers and strings only

    for record, score in zip(session.hands, result.hands, strict=True):
        assert list(score.deltas) == PLAYERS
        assert all(Fraction(value).denominator == 1 for value in score.deltas.values())
        assert score.rendered()  # every hand explains itself
        if record.type is TRISCHAKEN:
            assert sorted(set(score.deltas.values()) - {-10, 5, 10}) == []
            assert -10 in score.deltas.values()
        elif record.type is HandType.PLAYED and record.play.mondfang is None:
            assert all(value >= 0 for value in score.deltas.values())
            assert any(value > 0 for value in score.deltas.values())

    summary = result.summary
    assert sum(summary.net.values()) == 0
    bonus = {name: sum(s.bonus.get(name, 0) for s in summary.sections) for name in PLAYERS}
    written = {name: sum(score.deltas[name] for score in result.hands) for name in PLAYERS}
    assert dict(summary.totals) == {name: written[name] + bonus[name] for name in PLAYERS}
    covered = [index for s in summary.sections for index in range(s.first, s.last + 1)]
    assert covered == list(range(len(session.hands)))
    assert all(s.complete for s in summary.sections[:-1])

    # What each hand moved the balance: zero-sum, and adding up to what is paid.
    game = VARIANTS["illustrated"]
    stored = [game.stored(record, score) for record, score in zip(session.hands, result.hands, strict=True)]
    moves = game.balance_moves(PLAYERS, stored, summary)
    assert all(sum(move.values()) == 0 for move in moves)
    assert {name: sum(move[name] for move in moves) for name in PLAYERS} == dict(summary.net)

    again = read_session(dumps_session(session))
    assert score_session(again).to_json() == printed


@st.composite
def some_cards(draw: st.DrawFn) -> list[int]:
    """Any multiset of the 54 cards, in any order."""
    chosen = draw(st.lists(st.sampled_from(range(len(DECK))), unique=True))
    return [DECK[index] for index in chosen]


KIND_BY_VALUE = {5: "fives", 4: "queens", 3: "cavalls", 2: "jacks", 1: "others"}


@given(some_cards())
def test_counting_by_threes_equals_the_sum_less_two_thirds_a_card(values):
    expected = round(Fraction(sum(values)) - Fraction(2, 3) * len(values))
    assert count_by_threes(values) == expected
    kinds = Counter(KIND_BY_VALUE[value] for value in values)
    assert card_points(CardCount(**kinds)) == expected


@given(st.permutations(DECK))
def test_the_whole_deck_counts_70_in_any_order(deck):
    assert count_by_threes(deck) == 70


def test_the_deck_has_54_cards_worth_106_before_counting():
    assert len(DECK) == 54
    assert sum(DECK) == 106
    assert card_points(CardCount(fives=7, queens=4, cavalls=4, jacks=4, others=35)) == 70
