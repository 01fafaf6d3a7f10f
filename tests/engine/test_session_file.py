"""The ``tarockscore/1`` session file (docs/session-file.md): reading, writing, and
the document ``score_session`` prints."""

from __future__ import annotations

import datetime
import json
import re
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

from scoring.engine import InvalidInput, dumps_session, read_session, score_session, write_session
from scoring.engine.french import Split
from scoring.engine.schema import name_problem, text_problem

from .support import FIVE, FOUR, SIX, THREE, fixture

RICH_FIVE = {
    "format": "tarockscore/1",
    "variant": "french",
    "players": FIVE,
    "options": {"five_player_split": "equal", "round_to": 5},
    "hands": [
        {
            "dealer": "Emil",
            "taker": "Anna",
            "partner": "Carl",
            "contract": "petite",
            "bouts": 1,
            "points": "50.5",
            "note": "Carl called the king of hearts – «à deux»",
        },
        {"type": "redeal", "note": "blank Petit"},
        {
            "taker": "Bert",
            "partner": None,
            "contract": "garde_contre",
            "bouts": 3,
            "points": 91,
            "petit_au_bout": "attack",
            "poignees": [{"player": "Bert", "size": "triple"}, {"player": "Dora", "size": "simple"}],
            "chelem": "announced_made",
        },
        {
            "taker": "Dora",
            "partner": "Emil",
            "contract": "garde",
            "bouts": 0,
            "points": 4.5,
            "petit_au_bout": "defence",
            "chelem": "defence_made",
        },
    ],
}

SIX_AT_THE_TABLE = {
    "variant": "french",
    "players": SIX,
    "hands": [
        {
            "dealer": "Fritz",
            "taker": "Anna",
            "partner": "Carl",
            "contract": "garde",
            "bouts": 2,
            "points": 56,
        },
        {"taker": "Carl", "contract": "prise", "bouts": 1, "points": 40.5, "sitting_out": "Anna"},
        {"type": "redeal"},
        {"taker": "Anna", "contract": "garde_sans", "bouts": 2, "points": 60},
    ],
}

THREE_WITHOUT_DEALERS = {
    "variant": "french",
    "players": THREE,
    "options": {},
    "hands": [
        {"taker": "Carl", "contract": "garde", "bouts": 2, "points": 41.5},
        {"taker": "Anna", "contract": "prise", "bouts": 1, "points": 50.5, "poignees": []},
    ],
}

DOCUMENTS = {
    "seed": json.loads(fixture("french-seed-table.json")),
    "five_with_every_field": RICH_FIVE,
    "six_at_the_table": SIX_AT_THE_TABLE,
    "three_without_dealers": THREE_WITHOUT_DEALERS,
}


# ---------------------------------------------------------------------------
# Writing and reading back


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_write_read_write_is_identical(name: str) -> None:
    written = dumps_session(read_session(DOCUMENTS[name]))
    assert dumps_session(read_session(written)) == written


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_a_written_session_scores_as_the_original(name: str) -> None:
    original = score_session(read_session(DOCUMENTS[name])).to_json()
    again = score_session(read_session(dumps_session(read_session(DOCUMENTS[name])))).to_json()
    assert again == original


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_the_text_and_the_parsed_document_read_the_same(name: str) -> None:
    text = json.dumps(DOCUMENTS[name])
    assert dumps_session(read_session(text)) == dumps_session(read_session(DOCUMENTS[name]))
    assert dumps_session(read_session(text.encode())) == dumps_session(read_session(text))


def test_written_session_is_a_tarockscore_1_document() -> None:
    text = dumps_session(read_session(RICH_FIVE))
    assert text.endswith("\n")
    document = json.loads(text)
    assert document["format"] == "tarockscore/1"
    assert document["variant"] == "french"
    assert document["players"] == FIVE
    assert len(document["hands"]) == 4
    assert document["hands"][1]["type"] == "redeal"
    assert document["hands"][0]["note"] == "Carl called the king of hearts – «à deux»"
    assert "«à deux»" in text, "names and notes are written as they are, not escaped"


def test_petite_is_written_as_prise() -> None:
    document = write_session(read_session(RICH_FIVE))
    assert document["hands"][0]["contract"] == "prise"


def test_points_are_written_as_json_numbers() -> None:
    document = write_session(read_session(RICH_FIVE))
    assert document["hands"][0]["points"] == 50.5  # read from "50.5"
    assert document["hands"][2]["points"] == 91
    assert type(document["hands"][2]["points"]) is int
    text = dumps_session(read_session(RICH_FIVE))
    assert '"points": 50.5' in text
    assert '"points": 91,' in text


def test_six_at_the_table_writes_each_dealer_and_who_sits_out() -> None:
    hands = write_session(read_session(SIX_AT_THE_TABLE))["hands"]
    assert [(hand["dealer"], hand["sitting_out"]) for hand in hands] == [
        ("Fritz", "Fritz"),
        ("Anna", "Anna"),
        ("Bert", "Bert"),
        ("Carl", "Carl"),
    ]


# ---------------------------------------------------------------------------
# Numbers: card points as 56, 56.5 or "56.5"; every other number a JSON number


@pytest.mark.parametrize(
    ("written", "points"), [(56, 56), (56.5, 56.5), ("56.5", 56.5), ("56", 56), (56.0, 56)]
)
def test_points_may_be_written_as_a_number_or_as_text(written: Any, points: float) -> None:
    hand = {"taker": "Anna", "contract": "garde", "bouts": 2, "points": written}
    session = read_session({"variant": "french", "players": FOUR, "hands": [hand]})
    assert session.hands[0].play.points == Fraction(str(points))


@pytest.mark.parametrize(
    ("field", "value"),
    [("bouts", "2"), ("bouts", True), ("points", True), ("points", None), ("points", [56])],
)
def test_other_numbers_must_be_json_numbers(field: str, value: Any) -> None:
    hand = {"taker": "Anna", "contract": "garde", "bouts": 2, "points": 56, field: value}
    with pytest.raises(InvalidInput) as caught:
        read_session({"variant": "french", "players": FOUR, "hands": [hand]})
    assert (caught.value.field, caught.value.hand) == (field, 1)


@pytest.mark.parametrize("written", ["1e99999999", "-1e-99999999", "91.5", "56,25", "NaN", "Infinity", ""])
def test_points_as_text_outside_0_to_91_in_halves_are_refused(written: str) -> None:
    hand = {"taker": "Anna", "contract": "garde", "bouts": 2, "points": written}
    with pytest.raises(InvalidInput) as caught:
        read_session({"variant": "french", "players": FOUR, "hands": [hand]})
    assert (caught.value.field, caught.value.hand) == ("points", 1)
    assert "0 to 91" in str(caught.value)


@pytest.mark.parametrize("value", ["5", "10", True])
def test_round_to_must_be_a_json_number(value: Any) -> None:
    with pytest.raises(InvalidInput) as caught:
        read_session({"variant": "french", "players": FOUR, "options": {"round_to": value}, "hands": []})
    assert (caught.value.field, caught.value.hand) == ("options.round_to", None)


# ---------------------------------------------------------------------------
# Options: every key left out takes its default (docs/rules.md §1.3/1.4)


@pytest.mark.parametrize("options", [None, {}, {"five_player_split": "taker_double", "round_to": 1}])
def test_options_left_out_take_their_defaults(options: dict[str, Any] | None) -> None:
    document: dict[str, Any] = {"variant": "french", "players": FIVE, "hands": []}
    if options is not None:
        document["options"] = options
    session = read_session(document)
    assert session.options.five_player_split == Split.TAKER_DOUBLE
    assert session.options.round_to == 1
    # written back in full, so the file scores the same whatever a later default is
    assert write_session(session)["options"] == {"five_player_split": "taker_double", "round_to": 1}


def test_one_option_given_leaves_the_other_at_its_default() -> None:
    session = read_session({"variant": "french", "players": FIVE, "options": {"round_to": 10}, "hands": []})
    assert session.options.five_player_split == Split.TAKER_DOUBLE
    assert write_session(session)["options"] == {"five_player_split": "taker_double", "round_to": 10}


def test_options_that_differ_from_the_defaults_are_written() -> None:
    assert write_session(read_session(RICH_FIVE))["options"] == {"five_player_split": "equal", "round_to": 5}


def test_default_options_score_taker_double_and_exact() -> None:
    # Prise, 1 bout, 55 points: S = 25 + 4 = 29, not rounded; taker 2S, partner S.
    hand = {"taker": "Anna", "partner": "Carl", "contract": "prise", "bouts": 1, "points": 55}
    result = score_session(read_session({"variant": "french", "players": FIVE, "hands": [hand]}))
    assert result.to_json()["hands"][0]["deltas"] == {
        "Anna": 58,
        "Bert": -29,
        "Carl": 29,
        "Dora": -29,
        "Emil": -29,
    }


# ---------------------------------------------------------------------------
# What score_session prints


def printed(document: Any) -> dict[str, Any]:
    out = score_session(read_session(document)).to_json()
    # It is printed as JSON: what goes out must come back the same.
    assert json.loads(json.dumps(out)) == out
    return out


def test_printed_document_of_the_seed_table() -> None:
    out = printed(fixture("french-seed-table.json"))
    assert list(out) == ["hands", "totals", "settlement"], "no series for French Tarot"
    # Each hand's deltas from the seed's values: 3 × 80, 3 × 96, 3 × −72, 3 × 30, 3 × 78.
    assert [hand["deltas"] for hand in out["hands"]] == [
        {"Anna": 240, "Bert": -80, "Carl": -80, "Dora": -80},
        {"Anna": -96, "Bert": 288, "Carl": -96, "Dora": -96},
        {"Anna": 72, "Bert": 72, "Carl": -216, "Dora": 72},
        {"Anna": -30, "Bert": -30, "Carl": 90, "Dora": -30},
        {"Anna": -78, "Bert": -78, "Carl": -78, "Dora": 234},
    ]
    for hand in out["hands"]:
        assert list(hand) == ["deltas", "breakdown"]
        assert list(hand["deltas"]) == FOUR, "every player, in playing order"
        assert hand["breakdown"] and all(isinstance(line, str) for line in hand["breakdown"])
    assert out["hands"][0]["breakdown"][0] == "(25 + 15) × 2 = 80 (Garde)"
    assert out["totals"] == {"Anna": 108, "Bert": 172, "Carl": -380, "Dora": 100}
    assert list(out["settlement"]) == ["net", "transfers"]
    assert out["settlement"]["net"] == out["totals"]
    transfers = out["settlement"]["transfers"]
    assert all(list(t) == ["from", "to", "points"] for t in transfers)
    assert sorted((t["from"], t["to"], t["points"]) for t in transfers) == [
        ("Carl", "Anna", 108),
        ("Carl", "Bert", 172),
        ("Carl", "Dora", 100),
    ]


def printed_points(out: dict[str, Any]) -> list[Any]:
    """Every number of the printed document: deltas, totals, net, transfers."""
    values = [v for hand in out["hands"] for v in hand["deltas"].values()]
    values += list(out["totals"].values()) + list(out["settlement"]["net"].values())
    values += [t["points"] for t in out["settlement"]["transfers"]]
    return values


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_printed_numbers_are_integers_or_halves(name: str) -> None:
    out = printed(DOCUMENTS[name])
    assert "series" not in out
    for number in printed_points(out):
        if isinstance(number, float):
            assert number % 1 == 0.5, number  # 43.5, never 240.0
        else:
            assert type(number) is int, repr(number)  # never "240" or true
    assert not re.search(r"\d\.0\b", json.dumps(out, ensure_ascii=False)), "no 240.0"


def test_printed_document_of_a_session_with_every_field() -> None:
    out = printed(RICH_FIVE)
    assert [hand["deltas"] for hand in out["hands"]] == [
        # Prise, 1 bout, 50.5: lost by 1, −26 → −30 (round_to 5); equal: 1.5 × −30.
        {"Anna": -45, "Bert": 30, "Carl": -45, "Dora": 30, "Emil": 30},
        # Redeal.
        {"Anna": 0, "Bert": 0, "Carl": 0, "Dora": 0, "Emil": 0},
        # Bert alone, garde contre, 91 with 3 bouts, petit au bout, triple + simple,
        # chelem announced and made: (25 + 55 + 10) × 6 + 40 + 20 + 400 = 1000; 4 × 1000.
        {"Anna": -1000, "Bert": 4000, "Carl": -1000, "Dora": -1000, "Emil": -1000},
        # Dora with Emil, garde, 4.5 with no bout: 56 − 4.5 = 51.5 → 52; defence petit and
        # chelem: −(25 + 52) × 2 − 10 × 2 − 200 = −374 → −375; equal: 1.5 × −375 = −562.5.
        {"Anna": 375, "Bert": 375, "Carl": 375, "Dora": -562.5, "Emil": -562.5},
    ]
    assert out["totals"] == {"Anna": -670, "Bert": 4405, "Carl": -670, "Dora": -1532.5, "Emil": -1532.5}


def test_halves_are_printed_as_point_five_and_whole_sums_as_integers() -> None:
    # Five players, equal split: S = 29, taker and partner 1.5 × 29 = 43.5 each.
    hand = {"taker": "Anna", "partner": "Carl", "contract": "prise", "bouts": 1, "points": 55}
    document = {
        "variant": "french",
        "players": FIVE,
        "options": {"five_player_split": "equal"},
        "hands": [hand, hand],
    }
    out = printed(document)
    assert out["hands"][0]["deltas"] == {"Anna": 43.5, "Bert": -29, "Carl": 43.5, "Dora": -29, "Emil": -29}
    assert '"Anna": 43.5' in json.dumps(out["hands"][0])
    # Two halves make a whole: 87, written as an integer.
    assert out["totals"] == {"Anna": 87, "Bert": -58, "Carl": 87, "Dora": -58, "Emil": -58}
    assert type(out["totals"]["Anna"]) is int
    assert type(out["settlement"]["net"]["Anna"]) is int


def test_half_point_transfers_are_printed_as_point_five() -> None:
    # One hand of 43.5 / 43.5 / −29 × 3: each defender pays 29, split 29 = 14.5 + 14.5
    # between the creditors, or in fewer payments; every amount a whole or a half.
    hand = {"taker": "Anna", "partner": "Carl", "contract": "prise", "bouts": 1, "points": 55}
    document = {
        "variant": "french",
        "players": FIVE,
        "options": {"five_player_split": "equal"},
        "hands": [hand],
    }
    out = printed(document)
    paid = {name: 0.0 for name in FIVE}
    for transfer in out["settlement"]["transfers"]:
        assert (transfer["points"] * 2) % 1 == 0
        paid[transfer["from"]] -= transfer["points"]
        paid[transfer["to"]] += transfer["points"]
    assert paid == out["settlement"]["net"]
    assert len(out["settlement"]["transfers"]) == 4  # five people, one zero-sum group


def test_printed_deltas_list_the_player_sitting_out_with_zero() -> None:
    out = printed(SIX_AT_THE_TABLE)
    assert out["hands"][0]["deltas"]["Fritz"] == 0
    assert out["hands"][1]["deltas"]["Anna"] == 0
    assert all(list(hand["deltas"]) == SIX for hand in out["hands"])


# ---------------------------------------------------------------------------
# Text that is not a session


@pytest.mark.parametrize(
    "text", ['{"variant": "french",', "", "not json", b"\xff\xfe{", "{'variant': 'french'}"]
)
def test_invalid_json_text_is_refused_as_the_document(text: str | bytes) -> None:
    with pytest.raises(InvalidInput) as caught:
        read_session(text)
    assert (caught.value.field, caught.value.hand) == ("document", None)
    assert str(caught.value).startswith("document: ")


@pytest.mark.parametrize("text", ["[]", "42", '"french"', "null"])
def test_json_other_than_an_object_is_refused_as_the_document(text: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        read_session(text)
    assert (caught.value.field, caught.value.hand) == ("document", None)


def test_stored_inputs_are_written_in_field_order_whatever_order_they_were_kept_in() -> None:
    """A database may keep a hand's JSON keys in an order of its own (PostgreSQL
    does): the file is written in the fields' order, nested parts too, and a
    key no field names any more is kept at the end rather than dropped."""
    from scoring.engine import VARIANTS
    from scoring.engine.illustrated import TRISCHAKEN
    from scoring.engine.types import HandType, Table

    illustrated = VARIANTS["illustrated"]
    options = illustrated.default_options(("A", "B", "C"))
    table = Table(("A", "B", "C"), "C")
    kept = {
        "points": 40,
        "premiums": [{"player": "A", "type": "pagat", "made": True}],
        "old_field": 1,
        "game": "dreiblatt",
        "declarer": "A",
    }
    written = illustrated.stored_in_order(HandType.PLAYED, table, options, kept)
    assert list(written) == ["declarer", "game", "points", "premiums", "old_field"]
    assert list(written["premiums"][0]) == ["type", "player", "made"]
    trischaken = illustrated.stored_in_order(
        TRISCHAKEN, table, options, {"no_trick": [], "points": {"C": 20, "A": 30, "B": 14}}
    )
    assert list(trischaken) == ["points", "no_trick"] and list(trischaken["points"]) == ["A", "B", "C"]


# ---------------------------------------------------------------------------
# The session's name, day and money rate (optional)

EVENING = {
    "format": "tarockscore/1",
    "name": "Tarot zu fünft bei Carl",
    "date": "2026-11-20",
    "variant": "french",
    "players": FOUR,
    "money_rate": "0.10",
    "options": {"five_player_split": "taker_double", "round_to": 1},
    "hands": [{"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}],
}


def test_name_date_and_money_rate_are_read() -> None:
    session = read_session(EVENING)
    assert session.name == "Tarot zu fünft bei Carl"
    assert session.date == datetime.date(2026, 11, 20)
    assert session.money_rate == Decimal("0.10")


def test_name_date_and_money_rate_are_optional() -> None:
    session = read_session({key: value for key, value in EVENING.items() if key in ("variant", "players")})
    assert (session.name, session.date, session.money_rate) == (None, None, None)
    assert list(write_session(session)) == ["format", "variant", "players", "options", "hands"]


def test_a_written_session_carries_name_date_money_rate_and_every_option() -> None:
    text = dumps_session(read_session(EVENING))
    assert json.loads(text) == EVENING
    assert list(json.loads(text)) == list(EVENING)
    assert dumps_session(read_session(text)) == text


@pytest.mark.parametrize(
    ("written", "rate", "text"),
    [
        ("0.10", Decimal("0.10"), "0.10"),
        ("0.1000", Decimal("0.1"), "0.10"),
        (0.1, Decimal("0.1"), "0.10"),
        (2, Decimal(2), "2.00"),
        ("0.0125", Decimal("0.0125"), "0.0125"),
        ("9999.9999", Decimal("9999.9999"), "9999.9999"),
        (100, Decimal(100), "100.00"),
    ],
)
def test_money_rate_is_a_decimal_string_or_a_json_number(written: Any, rate: Decimal, text: str) -> None:
    session = read_session({**EVENING, "money_rate": written})
    assert session.money_rate == rate
    # written back the one way, with the cents at least: export → import → export is stable
    assert write_session(session)["money_rate"] == text


@pytest.mark.parametrize(
    ("key", "value", "says"),
    [
        ("name", "", "1 to 80 characters"),
        ("name", "   ", "1 to 80 characters"),
        ("name", " Freitag", "without leading or trailing spaces"),
        ("name", "x" * 81, "1 to 80 characters"),
        ("name", 7, "1 to 80 characters"),
        ("date", "22.11.2026", "YYYY-MM-DD"),
        ("date", "2026-02-30", '(got "2026-02-30")'),
        ("date", "20261122", "YYYY-MM-DD"),
        ("date", "2026-11-22T20:00", "YYYY-MM-DD"),
        ("date", 20261122, "(got 20261122)"),
        ("date", None, "(got NoneType)"),
        ("money_rate", "0", "greater than 0"),
        ("money_rate", 0, "greater than 0"),
        ("money_rate", "-0.10", "greater than 0"),
        ("money_rate", "0,10", '(got "0,10")'),
        ("money_rate", "1e2", 'for example "0.10"'),
        ("money_rate", "0.00001", "at most 4 decimals"),
        ("money_rate", 1e-05, "at most 4 decimals"),
        ("money_rate", "10000", "below 10000"),
        ("money_rate", True, "(got true)"),
        ("money_rate", None, "(got NoneType)"),
        ("money_rate", "NaN", '(got "NaN")'),
    ],
)
def test_a_bad_name_date_or_money_rate_is_refused_naming_it(key: str, value: Any, says: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        read_session({**EVENING, key: value})
    assert (caught.value.field, caught.value.hand) == (key, None)
    assert says in str(caught.value)


def test_name_date_and_money_rate_do_not_change_the_score() -> None:
    plain = {key: value for key, value in EVENING.items() if key not in ("name", "date", "money_rate")}
    assert score_session(read_session(EVENING)).to_json() == score_session(read_session(plain)).to_json()


# ---------------------------------------------------------------------------
# What no field may hold (the input policy shared by every way a file comes in)


def test_a_key_given_twice_is_refused_at_any_depth() -> None:
    document = json.dumps(
        {
            "variant": "illustrated",
            "players": THREE,
            "hands": [
                {"declarer": "Anna", "game": "dreiblatt", "bid": "held", "points": 40},
                {
                    "declarer": "Anna",
                    "game": "dreiblatt",
                    "bid": "held",
                    "points": 40,
                    "premiums": [{"type": "pagat", "player": "Anna"}],
                },
            ],
        }
    ).replace('"type": "pagat"', '"type": "koepfe", "type": "pagat"')
    with pytest.raises(InvalidInput) as caught:
        read_session(document)
    assert (caught.value.field, caught.value.hand) == ("premiums[1].type", 2)
    assert str(caught.value) == "hand 2, premiums[1].type: given twice; each field may appear once"


@pytest.mark.parametrize(
    ("value", "tabs", "says"),
    [
        ("Anna", False, None),
        ("Gar\tde", True, None),
        ("Gar\tde", False, "control characters (found U+0009 at character 4)"),
        ("a\r\nb", True, "(found U+000D at character 2)"),
        ("\x7f", True, "(found U+007F at character 1)"),
        ("ok \x9f", True, "(found U+009F at character 4)"),
        ("é\udc80", True, "found U+DC80 at character 2, half a character"),
        ("«à deux» – 🃏 …", False, None),
    ],
)
def test_text_has_no_control_characters_and_no_half_characters(
    value: str, tabs: bool, says: str | None
) -> None:
    problem = text_problem(value, tabs=tabs)
    assert (problem is None) if says is None else (problem is not None and says in str(problem))


@pytest.mark.parametrize(
    ("value", "shows"),
    [
        ("Anna", True),
        ("李", True),
        ("٣", True),
        ("€", True),
        ("…", True),
        ("Zoe\u0308", True),  # a mark on its letter
        ("\u200bAnna\u200b", True),
        ("🃏", True),
        ("\u200b", False),  # zero-width space
        ("\u200c\u200d", False),  # zero-width non-joiner and joiner
        ("\u2060\ufeff", False),  # word joiner, byte order mark
        ("\u200e\u200f", False),  # direction marks alone
        ("\u00ad", False),  # soft hyphen
        ("\u0301\u0308", False),  # accents without a letter
        ("\u3164", False),  # Hangul filler: a letter drawn blank
        ("\u2800", False),  # the blank Braille pattern
        ("\u00a0\u3000", False),  # spaces
    ],
)
def test_a_name_must_show(value: str, shows: bool) -> None:
    problem = name_problem(value)
    assert (problem is None) is shows
    if not shows:
        assert "must contain a letter, digit, symbol or punctuation mark" in str(problem)
        with pytest.raises(InvalidInput) as caught:
            read_session({"variant": "french", "players": ["Anna", "Bert", "Carl", value], "hands": []})
        assert caught.value.field == "players[4]"


def test_the_note_field_keeps_a_tab_and_refuses_a_line_break() -> None:
    hand = {"taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
    session = read_session({"variant": "french", "players": FOUR, "hands": [{**hand, "note": "a\tb"}]})
    assert session.hands[0].note == "a\tb"
    with pytest.raises(InvalidInput) as caught:
        read_session({"variant": "french", "players": FOUR, "hands": [{**hand, "note": "a\nb"}]})
    assert (caught.value.field, caught.value.hand) == ("note", 1)
