"""The schema-form layer on its own: posted data into the session file's shape,
and each kind of field drawn as the inputs a player fills in."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from django.http import QueryDict
from django.utils import translation

from scoring.engine import InvalidInput, Line
from scoring.engine.schema import Field, Kind
from scoring.schema_forms import SchemaForm

PLAYERS = ("Anna", "Bert", "Carl")

TAKER = Field("taker", Kind.PLAYER, "Taker", required=True)
PARTNER = Field("partner", Kind.PLAYER, "Partner", nullable=True, null_label="alone")
CONTRACT = Field("contract", Kind.CHOICE, "Contract", choices=("prise", "garde"), required=True)
LONG_CHOICE = Field(
    "announced",
    Kind.CHOICE,
    "Announced",
    choices=("silent", "after_talon", "before_talon"),
    choice_labels={
        "silent": "silent, said at the end",
        "after_talon": "after the talon was shown",
        "before_talon": "before the talon was shown",
    },
)
MANY_CHOICES = Field(
    "premium",
    Kind.CHOICE,
    "Premium",
    choices=("koenigstrull", "tarocktrull", "koepfe", "ohne_koenige", "ohne_trull", "vierzig"),
    choice_labels={
        "koenigstrull": "Königstrull",
        "tarocktrull": "Tarocktrull",
        "koepfe": "Köpfe",
        "ohne_koenige": "Ohne Könige",
        "ohne_trull": "Ohne Trull",
        "vierzig": "Vierzig",
    },
    required=True,
)
BOUTS = Field("bouts", Kind.INT, "Bouts", minimum=Fraction(0), maximum=Fraction(3))
KONTRA = Field("stake", Kind.INT, "Stake", minimum=Fraction(1), maximum=Fraction(100))
POINTS = Field("points", Kind.POINTS, "Points", maximum=Fraction(91), step=Fraction(1, 2))
SILENT = Field("silent", Kind.BOOL, "Silent")
NOTE = Field("note", Kind.TEXT, "Note", max_length=50)
POIGNEE = Field(
    "poignees",
    Kind.LIST,
    "Poignées",
    fields=(
        Field("player", Kind.PLAYER, "Player", required=True),
        Field("size", Kind.CHOICE, "Size", choices=("simple", "double")),
    ),
    max_items=3,
    rare=True,
)
VALAT = Field(
    "valat",
    Kind.RECORD,
    "Valat",
    nullable=True,
    fields=(Field("by", Kind.CHOICE, "By", choices=("declarer", "opponents"), required=True), SILENT),
)
SCORES = Field("points", Kind.PLAYER_POINTS, "Points")
NO_TRICK = Field("no_trick", Kind.PLAYER_LIST, "No trick")
MODE = Field("mode", Kind.CHOICE, "Mode", choices=("call", "solo"), required=True)
CARDS = Field("cards", Kind.INT, "Cards", choices=(2, 1, 0), shown_when=("mode", ("solo",)))


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def posted(**values: str | list[str]) -> QueryDict:
    data = QueryDict(mutable=True)
    for name, value in values.items():
        data.setlist(name.replace("__", "."), value if isinstance(value, list) else [value])
    return data


class TestReading:
    def test_a_filled_in_form_reads_as_the_session_file_writes_a_hand(self):
        form = SchemaForm(
            (TAKER, CONTRACT, BOUTS, POINTS, SILENT, NOTE),
            PLAYERS,
            data=posted(taker="Anna", contract="garde", bouts="2", points=" 47.5 ", silent="on", note="x"),
        )
        assert form.raw == {
            "taker": "Anna",
            "contract": "garde",
            "bouts": 2,
            "points": "47.5",
            "silent": True,
            "note": "x",
        }

    def test_an_empty_input_is_left_out_and_an_empty_optional_choice_is_null(self):
        form = SchemaForm((TAKER, PARTNER, BOUTS), PLAYERS, data=posted(taker="", partner="", bouts=""))
        assert form.raw == {"partner": None}

    def test_a_number_that_is_not_one_goes_to_the_engine_as_typed(self):
        assert SchemaForm((BOUTS,), PLAYERS, data=posted(bouts="zwei")).raw == {"bouts": "zwei"}
        assert SchemaForm((BOUTS,), PLAYERS, data=posted(bouts="-1")).raw == {"bouts": -1}

    def test_an_unticked_box_is_false(self):
        assert SchemaForm((SILENT,), PLAYERS, data=posted()).raw == {"silent": False}

    def test_a_list_keeps_its_filled_rows_up_to_its_limit(self):
        data = posted(
            **{
                "poignees__rows": "9",
                "poignees[1]__player": "Anna",
                "poignees[1]__size": "simple",
                "poignees[2]__size": "double",  # no player: an unfilled row, dropped
                "poignees[3]__player": "Carl",
                "poignees[4]__player": "Bert",  # beyond max_items
            }
        )
        assert SchemaForm((POIGNEE,), PLAYERS, data=data).raw == {
            "poignees": [{"player": "Anna", "size": "simple"}, {"player": "Carl"}]
        }

    def test_a_list_whose_row_count_is_not_a_number_has_no_rows(self):
        data = posted(**{"poignees__rows": "-3", "poignees[1]__player": "Anna"})
        assert SchemaForm((POIGNEE,), PLAYERS, data=data).raw == {"poignees": []}

    def test_an_optional_record_nobody_filled_in_is_null(self):
        assert SchemaForm((VALAT,), PLAYERS, data=posted(valat__silent="on")).raw == {"valat": None}
        filled = SchemaForm((VALAT,), PLAYERS, data=posted(valat__by="opponents")).raw
        assert filled == {"valat": {"by": "opponents", "silent": False}}

    def test_points_per_player_keep_only_the_given_ones(self):
        assert SchemaForm((SCORES,), PLAYERS, data=posted(points__Anna="30", points__Carl="")).raw == {
            "points": {"Anna": "30"}
        }
        assert SchemaForm((SCORES,), PLAYERS, data=posted()).raw == {}

    def test_a_list_of_players_keeps_the_playing_order_and_only_players(self):
        data = posted(no_trick=["Carl", "Mallory", "Anna"])
        assert SchemaForm((NO_TRICK,), PLAYERS, data=data).raw == {"no_trick": ["Anna", "Carl"]}

    def test_an_input_for_another_choice_is_dropped_but_still_drawn_hidden(self):
        form = SchemaForm((MODE, CARDS), PLAYERS, data=posted(mode="call", cards="1"))
        assert form.raw == {"mode": "call"}
        assert [(w.name, w.hidden) for w in form.widgets()] == [("mode", False), ("cards", True)]
        solo = SchemaForm((MODE, CARDS), PLAYERS, data=posted(mode="solo", cards="1"))
        assert solo.raw == {"mode": "solo", "cards": 1}
        assert [(w.name, w.refresh, w.hidden) for w in solo.widgets()] == [
            ("mode", True, False),
            ("cards", False, False),
        ]

    def test_an_input_for_a_choice_not_made_yet_is_dropped_and_hidden(self):
        form = SchemaForm((MODE, CARDS), PLAYERS, data=posted(cards="1"))
        assert form.raw == {}
        assert [(w.name, w.hidden) for w in form.widgets()] == [("mode", False), ("cards", True)]

    def test_the_choices_an_input_shows_for_are_named_for_the_stylesheet(self):
        mode, cards = SchemaForm((MODE, CARDS), PLAYERS, data=posted(mode="call")).widgets()
        assert mode.controls == 1
        assert [(c.value, c.number) for c in mode.options] == [("call", 1), ("solo", 2)]
        assert cards.when == ["for-1-2"]


class TestDrawing:
    def widget(self, field: Field, **initial: object):
        (widget,) = SchemaForm((field,), PLAYERS, initial=initial).widgets()
        return widget

    def test_a_player_is_a_row_of_buttons_and_an_optional_one_offers_its_empty_choice(self):
        assert self.widget(TAKER).kind == "radio"
        assert self.widget(TAKER).choices == [("Anna", "Anna"), ("Bert", "Bert"), ("Carl", "Carl")]
        assert self.widget(PARTNER).choices[0] == ("", "alone")

    def test_a_few_choices_are_buttons_even_with_long_labels_one_tap_each(self):
        assert self.widget(CONTRACT).kind == "radio"
        assert self.widget(LONG_CHOICE).kind == "radio"

    def test_many_choices_are_a_list_without_a_preselected_choice(self):
        drawn = self.widget(MANY_CHOICES)
        assert drawn.kind == "select" and drawn.choices[0] == ("", "—") and drawn.value == ""

    def test_a_small_range_is_buttons_and_a_wide_one_a_number_input(self):
        assert [value for value, _ in self.widget(BOUTS).choices] == ["0", "1", "2", "3"]
        wide = self.widget(KONTRA, stake=4)
        assert (wide.kind, wide.value, wide.attrs) == (
            "number",
            "4",
            {"inputmode": "numeric", "enterkeyhint": "next", "min": "1", "max": "100"},
        )

    def test_half_points_have_a_decimal_keypad_and_whole_points_the_digits_only(self):
        drawn = self.widget(POINTS, points=Fraction(95, 2))
        assert (drawn.kind, drawn.value) == ("points", "47.5")
        assert drawn.attrs == {
            "inputmode": "decimal",
            "autocomplete": "off",
            "enterkeyhint": "next",
            "max": "91",
            "step": "0.5",
        }
        whole = Field("points", Kind.POINTS, "Points", maximum=Fraction(70))
        assert self.widget(whole).attrs["inputmode"] == "numeric"

    def test_a_box_a_text_a_record_and_points_per_player(self):
        assert (self.widget(SILENT, silent=True).kind, self.widget(SILENT, silent=True).value) == (
            "checkbox",
            "true",
        )
        assert self.widget(NOTE).attrs == {"maxlength": "50"}
        record = self.widget(VALAT, valat={"by": "declarer"})
        assert [(c.name, c.value) for c in record.children] == [
            ("valat.by", "declarer"),
            ("valat.silent", ""),
        ]
        per_player = self.widget(SCORES, points={"Bert": 12})
        assert [(c.name, c.value) for c in per_player.children] == [
            ("points.Anna", ""),
            ("points.Bert", "12"),
            ("points.Carl", ""),
        ]
        assert self.widget(NO_TRICK, no_trick=["Bert"]).values == ["Bert"]

    def test_a_list_draws_its_rows_and_one_more_up_to_its_limit(self):
        one = self.widget(POIGNEE, poignees=[{"player": "Anna", "size": "simple"}])
        assert one.value == "2"
        assert [[c.name for c in row] for row in one.rows] == [
            ["poignees[1].player", "poignees[1].size"],
            ["poignees[2].player", "poignees[2].size"],
        ]
        full = self.widget(POIGNEE, poignees=[{"player": p} for p in PLAYERS])
        assert full.value == "3"

    def test_a_rarely_used_field_is_folded_away_until_it_holds_something(self):
        assert self.widget(POIGNEE).rare
        assert not self.widget(POIGNEE, poignees=[{"player": "Anna"}]).rare


class TestErrors:
    def test_an_error_lands_beside_the_input_it_names(self):
        form = SchemaForm((TAKER, POINTS), PLAYERS, data=posted(taker="Anna", points="99"))
        form.add_error(InvalidInput("points", Line("0 to 91")))
        assert form.errors == {"points": ["0 to 91"]}
        assert [w.errors for w in form.widgets()] == [[], ["0 to 91"]]

    def test_an_error_on_part_of_a_row_falls_back_to_what_is_drawn(self):
        form = SchemaForm((VALAT,), PLAYERS, data=posted(valat__by="declarer"))
        form.add_error(InvalidInput("valat.kontra", Line("no kontra here")))
        assert form.errors == {"valat": ["no kontra here"]}

    def test_an_error_on_nothing_drawn_is_listed_in_words_without_a_path(self):
        form = SchemaForm((TAKER,), PLAYERS, data=posted(taker="Anna"))
        form.add_error(InvalidInput("sitting_out", Line("nobody sits out"), label=Line("Sitting out")))
        assert form.other_errors == ["Sitting out: nobody sits out"]

    def test_several_problems_land_each_beside_its_input(self):
        form = SchemaForm((TAKER, CONTRACT, POINTS), PLAYERS, data=posted(points="99"))
        form.add_error(
            InvalidInput.several(
                [
                    InvalidInput("taker", Line("{field} missing", {"field": Line("Taker")})),
                    InvalidInput("points", Line("0 to 91"), label=Line("Points")),
                ]
            )
        )
        assert form.errors == {"taker": ["Taker missing"], "points": ["Points: 0 to 91"]}


ASKED_PARTNER = Field(
    "partner", Kind.PLAYER, "Partner", nullable=True, null_label="alone", ask=True, other_than="taker"
)


class TestAskedChoices:
    """A choice that changes the score is never preset: the form tells "not
    chosen yet" from the chosen "alone"."""

    def test_not_chosen_is_left_out_and_alone_is_null(self):
        assert SchemaForm((TAKER, ASKED_PARTNER), PLAYERS, data=posted(taker="Anna")).raw == {"taker": "Anna"}
        alone = SchemaForm((TAKER, ASKED_PARTNER), PLAYERS, data=posted(taker="Anna", partner=""))
        assert alone.raw == {"taker": "Anna", "partner": None}

    def test_alone_is_offered_after_the_players_and_nothing_is_checked_until_chosen(self):
        (_, partner) = SchemaForm((TAKER, ASKED_PARTNER), PLAYERS, data=posted(taker="Anna")).widgets()
        assert [(c.value, c.label, c.checked) for c in partner.options] == [
            ("Anna", "Anna", False),
            ("Bert", "Bert", False),
            ("Carl", "Carl", False),
            ("", "alone", False),
        ]
        assert partner.required
        (_, alone) = SchemaForm(
            (TAKER, ASKED_PARTNER), PLAYERS, data=posted(taker="Anna", partner="")
        ).widgets()
        assert [c.value for c in alone.options if c.checked] == [""]

    def test_a_stored_hand_without_a_partner_was_played_alone(self):
        (_, partner) = SchemaForm((TAKER, ASKED_PARTNER), PLAYERS, initial={"taker": "Anna"}).widgets()
        assert [c.value for c in partner.options if c.checked] == [""]

    def test_the_partner_list_knows_whose_seat_each_choice_is_and_hides_the_taker_by_it(self):
        taker, partner = SchemaForm((TAKER, ASKED_PARTNER), PLAYERS, data=posted(taker="Bert")).widgets()
        assert taker.seat_source and not partner.seat_source
        assert partner.other_than == "taker"
        assert [c.seat for c in partner.options] == [1, 2, 3, None]

    def test_a_partner_who_is_the_taker_is_shown_as_not_chosen_yet(self):
        data = posted(taker="Bert", partner="Bert")
        (_, partner) = SchemaForm((TAKER, ASKED_PARTNER), PLAYERS, data=data).widgets()
        assert [c for c in partner.options if c.checked] == []


SIDED = Field(
    "points",
    Kind.POINTS,
    "Points",
    maximum=Fraction(91),
    step=Fraction(1, 2),
    complement=Fraction(91),
    side_labels=("Attack", "Defence"),
)


class TestEitherSide:
    def test_points_counted_for_the_defence_are_stored_as_the_attacks(self):
        form = SchemaForm((SIDED,), PLAYERS, data=posted(points="44", points__side="other"))
        assert form.raw == {"points": "47"}
        assert [line.render() for line in form.conversions()] == ["Defence 44 → Attack 47"]
        (widget,) = form.widgets()
        assert widget.value == "44"  # shown as typed, the defence's side chosen
        assert [(c.label, c.checked) for c in widget.sides] == [("Attack", False), ("Defence", True)]

    def test_half_points_of_the_defence_and_the_attacks_own_points(self):
        assert SchemaForm((SIDED,), PLAYERS, data=posted(points="44,5", points__side="other")).raw == {
            "points": "46.5"
        }
        own = SchemaForm((SIDED,), PLAYERS, data=posted(points="47", points__side=""))
        assert own.raw == {"points": "47"} and own.conversions() == []

    def test_what_is_not_such_a_number_goes_to_the_engine_as_typed(self):
        for typed in ("95", "many", "-3"):
            assert SchemaForm((SIDED,), PLAYERS, data=posted(points=typed, points__side="other")).raw == {
                "points": typed
            }


class TestListRows:
    def test_a_row_of_buttons_can_be_emptied_again(self):
        (widget,) = SchemaForm(
            (POIGNEE,), PLAYERS, initial={"poignees": [{"player": "Bert", "size": "simple"}]}
        ).widgets()
        player = widget.rows[0][0]
        assert player.choices[0] == ("", "none")
        emptied = posted(**{"poignees__rows": "2", "poignees[1]__player": "", "poignees[1]__size": ""})
        assert SchemaForm((POIGNEE,), PLAYERS, data=emptied).raw == {"poignees": []}


def test_a_number_that_may_be_negative_gets_the_minus_key_and_the_digits_keypad_from_the_script():
    """The iPhone's number keypads have no minus: the field keeps the full keyboard
    until the script gives it the digits and the ± beside it."""
    for kind in (Kind.INT, Kind.POINTS):
        f = Field("sum", kind, "Sum", minimum=Fraction(-1000), maximum=Fraction(1000))
        drawn = SchemaForm([f], ["A", "B"]).widgets()[0]
        assert drawn.keys == "sign"
        assert (drawn.attrs["inputmode"], drawn.attrs["data-keypad"]) == ("text", "numeric")
        assert re.fullmatch(drawn.attrs["pattern"], "-12") and re.fullmatch(
            drawn.attrs["pattern"], "\u221212"
        )
    positive = SchemaForm([Field("n", Kind.INT, "N", minimum=Fraction(0), maximum=Fraction(99))], ["A"])
    assert positive.widgets()[0].keys == ""
