"""French Tarot: input the rules do not allow (docs/rules.md §1.2, docs/session-file.md).

Every refusal names the field, the hand (1-based) and what is allowed. The bad
hand is the second of its session, after a valid one, so the hand number is
checked to be the bad hand's own.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine import InvalidInput, read_session, score_session
from scoring.engine import session_file as session_file_module
from scoring.engine.french import French

from .support import FIVE, FOUR, SIX, THREE

GOOD = {"taker": "Anna", "contract": "prise", "bouts": 2, "points": 41}


def refused_as_second_hand(
    players: list[str], bad: dict[str, Any], options: dict[str, Any] | None = None
) -> InvalidInput:
    first = {**GOOD, "dealer": players[-1]}
    document = {"variant": "french", "players": players, "options": options or {}, "hands": [first, bad]}
    with pytest.raises(InvalidInput) as caught:
        read_session(document)
    return caught.value


def refused_document(document: dict[str, Any] | str) -> InvalidInput:
    with pytest.raises(InvalidInput) as caught:
        read_session(document)
    return caught.value


def play(**fields: Any) -> dict[str, Any]:
    return {**GOOD, **fields}


def poignees(*shown: tuple[str, str]) -> list[dict[str, str]]:
    return [{"player": player, "size": size} for player, size in shown]


# (id, players, hand, field, fragments the message must contain)
HAND_CASES: list[tuple[str, list[str], dict[str, Any], str, tuple[str, ...]]] = [
    # Points against bouts: 4.5·b ≤ points ≤ 91 − 4.5·(3 − b) (+ 0.5 when b < 3):
    # 3 bouts 13.5–91, 2 bouts 9–87, 1 bout 4.5–82.5, no bout 0–78.
    ("three_bouts_with_10_points", FOUR, play(bouts=3, points=10), "points", ("13.5", "91")),
    ("three_bouts_with_13_points", FOUR, play(bouts=3, points=13), "points", ("13.5", "91")),
    ("two_bouts_with_8.5_points", FOUR, play(bouts=2, points=8.5), "points", ("9", "87")),
    ("two_bouts_with_87.5_points", FOUR, play(bouts=2, points=87.5), "points", ("9", "87")),
    ("one_bout_with_4_points", FOUR, play(bouts=1, points=4), "points", ("4.5", "82.5")),
    ("one_bout_with_83_points", FOUR, play(bouts=1, points=83), "points", ("4.5", "82.5")),
    ("no_bout_with_78.5_points", FOUR, play(bouts=0, points=78.5), "points", ("0", "78")),
    # Points on their own: 0–91, half points allowed.
    ("points_above_91", FOUR, play(bouts=3, points=91.5), "points", ("0", "91", "half points")),
    ("points_below_0", FOUR, play(bouts=0, points=-0.5), "points", ("0", "91", "half points")),
    ("points_in_quarter_steps", FOUR, play(points=50.25), "points", ("half points",)),
    ("points_as_a_boolean", FOUR, play(points=True), "points", ("0", "91", "half points")),
    ("points_as_words", FOUR, play(points="many"), "points", ("0", "91", "half points")),
    (
        "points_missing",
        FOUR,
        {"taker": "Anna", "contract": "prise", "bouts": 2},
        "points",
        ("Points missing",),
    ),
    # Bouts: a whole JSON number 0–3.
    ("bouts_as_a_string", FOUR, play(bouts="2"), "bouts", ("0", "3")),
    ("bouts_as_a_boolean", FOUR, play(bouts=True), "bouts", ("0", "3")),
    ("bouts_four", FOUR, play(bouts=4), "bouts", ("0", "3")),
    ("bouts_negative", FOUR, play(bouts=-1), "bouts", ("0", "3")),
    ("bouts_fractional", FOUR, play(bouts=1.5), "bouts", ("0", "3")),
    # Petit au bout against bouts.
    (
        "petit_au_bout_attack_without_bouts",
        FOUR,
        play(bouts=0, points=50, petit_au_bout="attack"),
        "petit_au_bout",
        ("at least 1 bout",),
    ),
    (
        "petit_au_bout_defence_with_three_bouts",
        FOUR,
        play(bouts=3, points=50, petit_au_bout="defence"),
        "petit_au_bout",
        ("at most 2 bouts",),
    ),
    ("petit_au_bout_unknown_side", FOUR, play(petit_au_bout="both"), "petit_au_bout", ("attack", "defence")),
    # Chelem against points and bouts.
    (
        "announced_chelem_made_with_90_points",
        FOUR,
        play(bouts=3, points=90, chelem="announced_made"),
        "chelem",
        ("91", "87"),
    ),
    (
        "unannounced_chelem_made_with_2_bouts_and_86.5",
        FOUR,
        play(bouts=2, points=86.5, chelem="unannounced_made"),
        "chelem",
        ("91", "87"),
    ),
    (
        "made_chelem_with_1_bout",
        FOUR,
        play(bouts=1, points=78, chelem="announced_made"),
        "chelem",
        ("91", "87"),
    ),
    (
        "defence_chelem_with_5_points",
        FOUR,
        play(bouts=0, points=5, chelem="defence_made"),
        "chelem",
        ("4.5 points", "1 bout"),
    ),
    (
        "defence_chelem_with_2_bouts",
        FOUR,
        play(bouts=2, points=9, chelem="defence_made"),
        "chelem",
        ("4.5 points", "1 bout"),
    ),
    (
        "chelem_unknown",
        FOUR,
        play(chelem="yes"),
        "chelem",
        ("announced_made", "announced_failed", "unannounced_made", "defence_made"),
    ),
    # Partner: five in the hand only, never the taker.
    ("partner_with_four_players", FOUR, play(partner="Bert"), "partner", ("five",)),
    ("partner_with_three_players", THREE, play(partner="Bert"), "partner", ("five",)),
    ("partner_is_the_taker", FIVE, play(partner="Anna"), "partner", ("taker",)),
    ("partner_not_a_player", FIVE, play(partner="Zoe"), "partner", ("Anna", "Emil")),
    # Poignées: one per player, at most 22 trumps in all, known sizes.
    (
        "two_poignees_by_one_player",
        FOUR,
        play(poignees=poignees(("Bert", "simple"), ("Bert", "simple"))),
        "poignees[2].player",
        ("one",),
    ),
    (
        "poignees_need_23_trumps_with_four",
        FOUR,
        play(poignees=poignees(("Bert", "simple"), ("Carl", "double"))),
        "poignees",
        ("22",),
    ),
    (
        "poignees_need_26_trumps_with_three",
        THREE,
        play(poignees=poignees(("Bert", "simple"), ("Carl", "simple"))),
        "poignees",
        ("22",),
    ),
    (
        "poignees_need_23_trumps_with_five",
        FIVE,
        play(poignees=poignees(("Bert", "triple"), ("Carl", "double"))),
        "poignees",
        ("22",),
    ),
    (
        "three_simple_poignees_need_24_with_five",
        FIVE,
        play(poignees=poignees(("Bert", "simple"), ("Carl", "simple"), ("Dora", "simple"))),
        "poignees",
        ("22",),
    ),
    (
        "poignee_size_unknown",
        FOUR,
        play(poignees=poignees(("Bert", "quadruple"))),
        "poignees[1].size",
        ("simple", "double", "triple"),
    ),
    (
        "poignee_by_a_stranger",
        FOUR,
        play(poignees=poignees(("Zoe", "simple"))),
        "poignees[1].player",
        ("Anna", "Dora"),
    ),
    (
        "poignee_with_unknown_key",
        FOUR,
        play(poignees=[{"player": "Bert", "size": "simple", "trumps": 10}]),
        "poignees[1].trumps",
        ("player", "size"),
    ),
    ("poignees_not_a_list", FOUR, play(poignees="simple"), "poignees", ("list",)),
    # Taker and contract.
    ("taker_missing", FOUR, {"contract": "prise", "bouts": 2, "points": 41}, "taker", ("Taker missing",)),
    ("taker_not_a_player", FOUR, play(taker="Zoe"), "taker", ("Anna", "Bert", "Carl", "Dora")),
    (
        "contract_unknown",
        FOUR,
        play(contract="garde_avec"),
        "contract",
        ("prise", "garde", "garde_sans", "garde_contre"),
    ),
    # Keys a French hand does not have.
    ("unknown_key_in_a_hand", FOUR, play(colour="red"), "colour", ("taker", "contract", "bouts", "points")),
    ("misspelled_key_in_a_hand", FOUR, play(petit_au_boute="attack"), "petit_au_boute", ("petit_au_bout",)),
    ("played_fields_on_a_redeal", FOUR, {"type": "redeal", "taker": "Anna"}, "taker", ("dealer", "type")),
    ("hand_type_of_another_game", FOUR, {"type": "trischaken"}, "type", ("played", "redeal")),
    ("dealer_not_a_player", FOUR, play(dealer="Zoe"), "dealer", ("Anna", "Dora")),
    ("sitting_out_with_four_players", FOUR, play(sitting_out="Bert"), "sitting_out", ("nobody",)),
    ("note_not_text", FOUR, play(note=5), "note", ("text",)),
]


@pytest.mark.parametrize(
    ("players", "hand", "field", "fragments"),
    [pytest.param(*case[1:], id=case[0]) for case in HAND_CASES],
)
def test_invalid_hand_is_refused_naming_hand_field_and_what_is_allowed(
    players: list[str], hand: dict[str, Any], field: str, fragments: tuple[str, ...]
) -> None:
    error = refused_as_second_hand(players, hand)
    assert (error.field, error.hand) == (field, 2), str(error)
    message = str(error)
    assert message.startswith(f"hand 2, {field}: "), message
    for fragment in fragments:
        assert fragment in message, (fragment, message)


@pytest.mark.parametrize(
    ("bouts", "points", "chelem", "value"),
    [
        (3, 13.5, None, -48),  # lowest with 3 bouts: 36 − 13.5 = 22.5 → 23
        (3, 91, None, 80),  # 25 + 55
        (2, 9, None, -57),  # 41 − 9 = 32
        (2, 87, None, 71),  # highest with 2 bouts (the Excuse kept by the defence): 25 + 46
        (1, 4.5, None, -72),  # 51 − 4.5 = 46.5 → 47
        (1, 82.5, None, 57),  # 82.5 − 51 = 31.5 → 32
        (0, 0, None, -81),  # 56 short
        (0, 78, None, 47),  # 78 − 56 = 22
        (2, 87, "announced_made", 471),  # FFT example 5: 71 + 400
        (1, 4.5, "defence_made", -272),  # −(25 + 47) − 200
        (0, 4.5, "defence_made", -277),  # 56 − 4.5 = 51.5 → 52: −(25 + 52) − 200
    ],
)
def test_points_at_the_edges_of_what_the_bouts_allow_are_accepted(
    bouts: int, points: float, chelem: str | None, value: int
) -> None:
    document = {
        "variant": "french",
        "players": FOUR,
        "hands": [play(bouts=bouts, points=points, chelem=chelem)],
    }
    result = score_session(read_session(document)).hands[0]
    assert result.deltas["Bert"] == -value
    assert result.deltas["Anna"] == 3 * value


def test_hand_that_is_not_an_object_is_refused() -> None:
    error = refused_document({"variant": "french", "players": FOUR, "hands": [["Anna", "garde"]]})
    assert (error.field, error.hand) == ("hand", 1)


def test_six_at_the_table_sitting_out_must_be_the_dealer() -> None:
    error = refused_as_second_hand(SIX, play(sitting_out="Carl"))
    # Fritz dealt hand 1, so Anna deals hand 2 and sits out.
    assert (error.field, error.hand) == ("sitting_out", 2)
    assert "Anna" in str(error)


# ---------------------------------------------------------------------------
# The document and its options


def document(**fields: Any) -> dict[str, Any]:
    return {"format": "tarockscore/1", "variant": "french", "players": FOUR, "hands": [GOOD], **fields}


# (id, document, field, fragments)
DOCUMENT_CASES: list[tuple[str, dict[str, Any], str, tuple[str, ...]]] = [
    ("wrong_format", document(format="tarockscore/2"), "format", ("tarockscore/1",)),
    ("format_null", document(format=None), "format", ("tarockscore/1",)),
    ("unknown_variant", document(variant="skat"), "variant", ("french", "illustrated", "chambery")),
    ("variant_missing", {"players": FOUR, "hands": []}, "variant", ("french",)),
    (
        "unknown_key_in_the_document",
        document(day="2024-01-01"),
        "day",
        ("format", "name", "date", "variant", "players", "money_rate", "options", "hands"),
    ),
    (
        "unknown_key_in_options",
        document(options={"round": 5}),
        "options.round",
        ("five_player_split", "round_to"),
    ),
    ("options_not_an_object", document(options=[5]), "options", ("object",)),
    ("round_to_three", document(options={"round_to": 3}), "options.round_to", ("1", "5", "10")),
    ("round_to_as_a_string", document(options={"round_to": "5"}), "options.round_to", ("1", "5", "10")),
    ("round_to_as_a_boolean", document(options={"round_to": True}), "options.round_to", ("1", "5", "10")),
    (
        "five_player_split_unknown",
        document(options={"five_player_split": "half"}),
        "options.five_player_split",
        ("taker_double", "equal"),
    ),
    ("duplicate_player_names", document(players=["Anna", "Bert", "Anna", "Dora"]), "players", ("unique",)),
    ("two_players", document(players=["Anna", "Bert"]), "players", ("3", "4", "5", "6")),
    ("seven_players", document(players=[*SIX, "Gert"]), "players", ("3", "4", "5", "6")),
    ("players_not_names", document(players=["Anna", 2, "Carl"]), "players", ("names",)),
    ("players_missing", {"variant": "french", "hands": []}, "players", ("names",)),
    ("hands_not_a_list", document(hands={"1": GOOD}), "hands", ("list",)),
]


@pytest.mark.parametrize(
    ("raw", "field", "fragments"),
    [pytest.param(*case[1:], id=case[0]) for case in DOCUMENT_CASES],
)
def test_invalid_document_is_refused_naming_field_and_what_is_allowed(
    raw: dict[str, Any], field: str, fragments: tuple[str, ...]
) -> None:
    error = refused_document(raw)
    assert (error.field, error.hand) == (field, None), str(error)
    message = str(error)
    assert message.startswith(f"{field}: "), message
    for fragment in fragments:
        assert fragment in message, (fragment, message)


def test_variant_not_available_yet_is_refused_naming_the_available_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Only French is registered here, whatever else the app has learnt by now.
    monkeypatch.setattr(session_file_module, "VARIANTS", {"french": French()})
    error = refused_document(document(variant="chambery"))
    assert (error.field, error.hand) == ("variant", None)
    assert "chambery" in str(error)
    assert "french" in str(error)


def test_format_may_be_left_out() -> None:
    raw = document()
    del raw["format"]
    assert read_session(raw).players == tuple(FOUR)


def test_invalid_json_text_is_refused_as_the_document() -> None:
    error = refused_document('{"variant": "french", "players": ')
    assert (error.field, error.hand) == ("document", None)


def test_json_that_is_not_an_object_is_refused_as_the_document() -> None:
    error = refused_document("[1, 2, 3]")
    assert (error.field, error.hand) == ("document", None)
    assert "object" in str(error)
