"""Illustriertes Tarock: input the rules do not allow is refused, naming the
field and what is allowed (docs/rules.md §2.2–2.8)."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine import InvalidInput
from scoring.engine.illustrated import CardCount, card_points
from tests.engine.support import one_hand, refused

PLAYERS = ["A", "B", "C"]
GRAZ = {"profile": "graz"}


def hand(**fields: Any) -> dict[str, Any]:
    return {"declarer": "A", "game": "dreiblatt", "bid": "announced", "points": 40, **fields}


def premium(**fields: Any) -> dict[str, Any]:
    return hand(premiums=[fields])


def refusal(played: dict[str, Any], options: dict[str, Any] | None = None) -> InvalidInput:
    error = refused("illustrated", PLAYERS, played, options)
    assert error.hand == 1
    return error


@pytest.mark.parametrize(
    ("played", "options", "field", "says"),
    [
        # the hand's own fields
        (hand(points=71), None, "points", "from 0 to 70"),
        (hand(points=40.5), None, "points", "a whole number"),
        (hand(points=None), None, "points", "only a renonce hand"),
        ({"declarer": "A", "game": "dreiblatt", "bid": "announced"}, None, "points", "missing"),
        (hand(kontra=4), None, "kontra", "from 0 to 3"),
        (hand(declarer="Zoe"), None, "declarer", "A, B, C"),
        (hand(game="dreierl"), None, "game", "dreiblatt, zweiblatt, einblatt, solo"),
        (hand(bid="raised"), None, "bid", "announced, unterer, held"),
        (hand(talon_rest=14), None, "talon_rest", "at most 13"),
        (hand(game="solo", talon_rest=27), None, "talon_rest", "at most 26"),
        (hand(points=65, talon_rest=10), None, "talon_rest", "at most 5"),
        (hand(renonce="Zoe"), None, "renonce", "A, B, C"),
        (hand(contra=1), None, "contra", "kontra"),
        # premiums
        (
            premium(type="uhu", player="A"),
            None,
            "premiums[1].type",
            "“Play Uhu”; premiums here: Königstrull, Tarocktrull",
        ),
        (
            premium(type="vierzig", player="A"),
            GRAZ,
            "premiums[1].type",
            "Graz rules have no Vierzig; premiums here: Kön",
        ),
        (premium(type="trull", player="A"), None, "premiums[1].type", "koenigstrull"),
        (premium(type="pagat", player="Zoe"), None, "premiums[1].player", "A, B, C"),
        (premium(type="ohne_koenige", player="B"), None, "premiums[1].player", "only the declarer (A)"),
        (premium(type="vierzig", player="C"), None, "premiums[1].player", "only the declarer (A)"),
        (premium(type="koepfe", player="A", announced="loudly"), None, "premiums[1].announced", "silent"),
        (
            premium(type="koepfe", player="A", announced="after_talon"),
            GRAZ,
            "premiums[1].announced",
            "under the Graz rules Köpfe may be announced: silent (got after the talon)",
        ),
        (
            premium(type="pagat", player="A", announced="before_talon"),
            GRAZ,
            "premiums[1].announced",
            "Pagat may be announced: silent, after the talon (got before the talon)",
        ),
        (
            premium(type="pagat", player="A", announced="after_talon", kontra=1),
            None,
            "premiums[1].kontra",
            "under the Beck rules a premium has no Kontra of its own",
        ),
        (premium(type="pagat", player="A", kontra=1), GRAZ, "premiums[1].kontra", "silent premium"),
        (
            premium(type="pagat", player="A", announced="after_talon", kontra=4),
            GRAZ,
            "premiums[1].kontra",
            "from 0 to 3",
        ),
        (
            premium(type="koenigstrull", player="B", made=False),
            None,
            "premiums[1].made",
            "Königstrull cannot fail",
        ),
        (premium(type="ohne_trull", player="A", made=False), None, "premiums[1].made", "cannot fail"),
        (
            premium(type="vierzig", player="A", made=False),
            None,
            "premiums[1].made",
            "has 40 points, so Vierzig (40) was made",
        ),
        (
            hand(points=39, premiums=[{"type": "vierzig", "player": "A", "announced": "after_talon"}]),
            None,
            "premiums[1].made",
            "has 39 points, so Vierzig (40) failed",
        ),
        (
            hand(points=49, premiums=[{"type": "fuenfzig", "player": "A"}]),
            None,
            "premiums[1].made",
            "has 49 points, so Fünfzig (50) failed",
        ),
        (
            hand(premiums=[{"type": "pagat", "player": "A"}, {"type": "pagat", "player": "A"}]),
            None,
            "premiums[2].type",
            "once per hand",
        ),
        (
            hand(premiums=[{"type": "tarocktrull", "player": "A"}, {"type": "koepfe", "player": "B"}]),
            None,
            "premiums[2].type",
            "Köpfe and Tarocktrull",
        ),
        (
            hand(premiums=[{"type": "ohne_koenige", "player": "A"}, {"type": "koenigstrull", "player": "A"}]),
            None,
            "premiums[2].type",
            "Königstrull and Ohne Könige",
        ),
        (
            hand(premiums=[{"type": "pagat", "player": "A"}, {"type": "ohne_trull", "player": "A"}]),
            None,
            "premiums[2].type",
            "Ohne Trull and Pagat",
        ),
        (hand(premiums=[{"type": "pagat"}]), None, "premiums[1].player", "missing"),
        # valat
        (
            hand(points=70, valat={"by": "declarer", "made": False}),
            None,
            "valat.made",
            "a silent valat is recorded only when made",
        ),
        (hand(valat={"by": "all"}), None, "valat.by", "declarer, opponents"),
        (
            hand(points=70, valat={"by": "declarer", "announced": "before_talon"}),
            GRAZ,
            "valat.announced",
            "a valat may be announced: silent, after the talon (got before the talon)",
        ),
        (
            hand(points=70, valat={"by": "declarer", "announced": "after_talon", "kontra": 1}),
            None,
            "valat.kontra",
            "under the Beck rules the valat has no Kontra of its own",
        ),
        (hand(points=70, valat={"by": "declarer", "kontra": 1}), GRAZ, "valat.kontra", "silent valat"),
        (hand(points=60, valat={"by": "declarer"}), None, "points", "left in the talon (0): 70 (got 60)"),
        (
            hand(points=60, talon_rest=4, valat={"by": "declarer"}),
            None,
            "points",
            "left in the talon (4): 66 (got 60)",
        ),
        # an opponents' valat: the declarer's points are his own discard (docs/rules.md §2.6)
        (
            hand(points=0, valat={"by": "opponents"}),
            None,
            "points",
            "discard of 3 cards in this Dreiblatt, from 1 to 13 (got 0)",
        ),
        (hand(points=14, valat={"by": "opponents"}), None, "points", "from 1 to 13 (got 14)"),
        (
            hand(game="zweiblatt", points=0, valat={"by": "opponents"}),
            None,
            "points",
            "2 cards in this Zweiblatt, from 1 to 9",
        ),
        (
            hand(game="zweiblatt", points=10, valat={"by": "opponents"}),
            None,
            "points",
            "from 1 to 9 (got 10)",
        ),
        (
            hand(game="einblatt", points=5, valat={"by": "opponents"}),
            None,
            "points",
            "1 card in this Einblatt, from 0 to 4",
        ),
        (
            hand(game="solo", points=1, valat={"by": "opponents"}),
            None,
            "points",
            "no discard: points must be 0 (got 1)",
        ),
        (
            hand(points=70, valat={"by": "declarer"}, premiums=[{"type": "pagat", "player": "B"}]),
            None,
            "premiums[1].made",
            "took every trick",
        ),
        # Mondfang
        (
            hand(mondfang={"captured_by": "B", "played_by": "A"}),
            None,
            "mondfang",
            "only under the Graz rules",
        ),
        (hand(mondfang={"captured_by": "B", "played_by": "B"}), GRAZ, "mondfang.played_by", "two players"),
        (hand(mondfang={"captured_by": "B"}), GRAZ, "mondfang.played_by", "missing"),
        (
            hand(
                mondfang={"captured_by": "B", "played_by": "C"},
                premiums=[{"type": "tarocktrull", "player": "C"}],
            ),
            GRAZ,
            "mondfang",
            "Premiums 1 (Tarocktrull of C) rules out",
        ),
        (
            hand(
                mondfang={"captured_by": "A", "played_by": "C"},
                premiums=[{"type": "ohne_trull", "player": "A"}],
            ),
            GRAZ,
            "mondfang",
            "Premiums 1 (Ohne Trull of A)",
        ),
        (
            hand(
                mondfang={"captured_by": "B", "played_by": "A"},
                premiums=[{"type": "ohne_trull", "player": "A"}],
            ),
            GRAZ,
            "mondfang",
            "rules out this Mondfang",
        ),
        # in a made valat the other side took no trick, so not the XXI either (docs/rules.md §2.5)
        (
            hand(points=70, valat={"by": "declarer"}, mondfang={"captured_by": "B", "played_by": "A"}),
            GRAZ,
            "mondfang.captured_by",
            "one of A (got B)",
        ),
        (
            hand(points=4, valat={"by": "opponents"}, mondfang={"captured_by": "A", "played_by": "B"}),
            GRAZ,
            "mondfang.captured_by",
            "one of B, C (got A)",
        ),
        # Trischaken
        (
            {"type": "trischaken", "points": {"A": 30, "B": 20, "C": 10}},
            None,
            "type",
            "house rule “When everyone passes: Trischaken”",
        ),
        (
            {"type": "trischaken", "points": {"A": 30, "B": 20, "C": 10}},
            {"all_pass": "talon_keep"},
            "type",
            "(this session: Keep the talon (Graz))",
        ),
        # the untouched talon holds 2 to 26 points (docs/rules.md §2.8)
        (
            {"type": "trischaken", "points": {"A": 40, "B": 20, "C": 11}},
            {"all_pass": "trischaken"},
            "points",
            "add up to 44 to 68 (got 71)",
        ),
        (
            {"type": "trischaken", "points": {"A": 40, "B": 20, "C": 9}},
            {"all_pass": "trischaken"},
            "points",
            "holds 2 to 26 points, so the three players' points add up to 44 to 68 (got 69)",
        ),
        (
            {"type": "trischaken", "points": {"A": 30, "B": 13, "C": 0}, "no_trick": ["C"]},
            {"all_pass": "trischaken"},
            "points",
            "add up to 44 to 68 (got 43)",
        ),
        (
            {"type": "trischaken", "points": {"A": 40, "B": 20}},
            {"all_pass": "trischaken"},
            "points.C",
            "missing",
        ),
        (
            {"type": "trischaken", "points": {"A": 40, "B": 20, "C": 5}, "no_trick": ["C"]},
            {"all_pass": "trischaken"},
            "no_trick[1]",
            "has 5 points",
        ),
        (
            {"type": "trischaken", "points": {"A": 40, "B": 20, "C": 0}},
            {"all_pass": "trischaken"},
            "points.C",
            "add C to “Took no trick”",
        ),
        (
            {"type": "trischaken", "points": {"A": 0, "B": 0, "C": 0}, "no_trick": ["A", "B", "C"]},
            {"all_pass": "trischaken"},
            "no_trick",
            "at most 2 players",
        ),
        (
            {"type": "trischaken", "points": {"A": 40, "B": 20, "C": 10}, "declarer": "A"},
            {"all_pass": "trischaken"},
            "declarer",
            "points, no_trick",
        ),
    ],
)
def test_a_refused_hand_names_the_field_and_what_is_allowed(played, options, field, says):
    error = refusal(played, options)
    assert error.field == field
    assert says in str(error)


def test_trischaken_points_may_add_up_to_44_and_to_68():
    trischaken = {"all_pass": "trischaken"}
    # the talon holding six cards worth 5 (26 points), or six plain cards (2 points)
    for points in ({"A": 30, "B": 14, "C": 0}, {"A": 30, "B": 20, "C": 18}):
        played = {"type": "trischaken", "points": points, "no_trick": [n for n, p in points.items() if not p]}
        assert one_hand("illustrated", PLAYERS, played, trischaken).deltas["A"] == -10


def test_a_renonce_hand_does_not_check_its_mondfang_against_the_valat():
    # the renonce decides the hand and a valat in it counts nothing (docs/rules.md §2.7), so the
    # Mondfang is taken as recorded: (3 + 10) for each opponent, +5 and −5 flat
    played = hand(
        renonce="A",
        points=70,
        valat={"by": "declarer"},
        mondfang={"captured_by": "B", "played_by": "A"},
    )
    assert one_hand("illustrated", PLAYERS, played, GRAZ).deltas == {"A": -5, "B": 13 + 5, "C": 13}


def test_vierzig_made_is_not_checked_against_points_in_a_renonce_hand():
    played = hand(renonce="B", premiums=[{"type": "vierzig", "player": "A", "announced": "after_talon"}])
    del played["points"]
    # the game at (3 + 10) and the announced Vierzig counted as made
    assert one_hand("illustrated", PLAYERS, played).deltas["A"] == 13 + 5


@pytest.mark.parametrize(
    ("options", "field", "says"),
    [
        (
            {"profile": "graz", "valat_scoring": "beck_factor"},
            "options.valat_scoring",
            "under the Graz rules the valat scoring is Graz (got Beck: multiplied)",
        ),
        (
            {"valat_scoring": "graz"},
            "options.valat_scoring",
            "scoring is Beck: added, Beck: multiplied (got Graz)",
        ),
        ({"profile": "vienna"}, "options.profile", "beck, graz"),
        ({"game_points": {"held": 0}}, "options.game_points.held", "from 1 to 20"),
        ({"game_points": {"gelöst": 4}}, "options.game_points.gelöst", "announced, held, unterer"),
        ({"all_pass": "pass"}, "options.all_pass", "redeal, trischaken, talon_keep"),
        ({"uhu": "yes"}, "options.uhu", "true or false"),
        ({"series_target": 0}, "options.series_target", "from 1 to 10000"),
        ({"series_bonus": -1}, "options.series_bonus", "from 0 to 1000"),
        ({"series": 100}, "options.series", "series_target"),
    ],
)
def test_a_refused_house_rule_names_the_option_and_what_is_allowed(options, field, says):
    error = refused("illustrated", PLAYERS, hand(), options)
    assert error.field == field
    assert says in str(error)


def test_illustriertes_tarock_is_played_by_three():
    error = refused("illustrated", ["A", "B", "C", "D"], {"type": "redeal"})
    assert error.field == "players"
    assert "played by 3 players" in str(error)


@pytest.mark.parametrize(
    ("cards", "field"),
    [
        (CardCount(fives=8), "cards.fives"),
        (CardCount(queens=5), "cards.queens"),
        (CardCount(others=36), "cards.others"),
        (CardCount(jacks=-1), "cards.jacks"),
    ],
)
def test_the_card_counter_refuses_more_cards_of_a_kind_than_the_deck_has(cards, field):
    with pytest.raises(InvalidInput) as caught:
        card_points(cards)
    assert caught.value.field == field
    assert "a whole number from 0 to" in str(caught.value)
