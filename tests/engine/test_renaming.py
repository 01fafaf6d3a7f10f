"""A player's name corrected in what a hand stored: only where the game's fields
name a player, and in the players' places of the lines that explain it."""

from __future__ import annotations

from fractions import Fraction

from scoring.engine import VARIANTS, HandType, Line, Table
from scoring.engine.schema import Field, Kind, renamed
from scoring.engine.types import Join, Signed, line_from_json, line_json_renamed, line_to_json

FIELDS = (
    Field("taker", Kind.PLAYER, "Taker"),
    Field("contract", Kind.CHOICE, "Contract", choices=("garde", "petite")),
    Field("points", Kind.PLAYER_POINTS, "Points"),
    Field("no_trick", Kind.PLAYER_LIST, "No trick"),
    Field("poignees", Kind.LIST, "Poignées", fields=(Field("player", Kind.PLAYER, "Player"),)),
    Field("mondfang", Kind.RECORD, "Mondfang", fields=(Field("captured_by", Kind.PLAYER, "By"),)),
)


def test_every_kind_of_player_field_takes_the_new_name():
    stored = {
        "taker": "Fritz",
        "points": {"Anna": 30, "Fritz": 14},
        "no_trick": ["Fritz", "Anna"],
        "poignees": [{"player": "Fritz"}, {"player": "Anna"}],
        "mondfang": {"captured_by": "Fritz"},
    }
    assert renamed(FIELDS, stored, "Fritz", "Friedrich") == {
        "taker": "Friedrich",
        "points": {"Anna": 30, "Friedrich": 14},
        "no_trick": ["Friedrich", "Anna"],
        "poignees": [{"player": "Friedrich"}, {"player": "Anna"}],
        "mondfang": {"captured_by": "Friedrich"},
    }


def test_a_word_that_reads_like_the_name_and_keys_no_field_names_stay_as_they_are():
    stored = {"taker": "garde", "contract": "garde", "old_key": "garde"}
    assert renamed(FIELDS, stored, "garde", "Gerda") == {
        "taker": "Gerda",
        "contract": "garde",
        "old_key": "garde",
    }


def test_a_line_takes_the_new_name_at_any_depth_and_keeps_its_numbers():
    line = Line(
        "{taker}: {items}",
        {
            "taker": "Fritz",
            "items": Join(
                (Line("{player} {delta}", {"player": "Fritz", "delta": Signed(Fraction(80))}), "Anna")
            ),
            "n": Fraction(3),
        },
    )
    again = line_from_json(line_json_renamed(line_to_json(line), "Fritz", "Friedrich"))
    assert again.render() == "Friedrich: Friedrich +80, Anna"
    assert again.args["n"] == Fraction(3)


def test_a_redeal_has_no_inputs_to_rename():
    french = VARIANTS["french"]
    options = french.default_options(("A", "B", "C", "D"))
    table = Table(("A", "B", "C", "D"), "A")
    assert french.renamed_inputs(HandType.REDEAL, table, options, {}, "A", "Z") == {}
