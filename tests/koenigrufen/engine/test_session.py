"""Königrufen sessions through the session file and ``score_session``: the three
example files give the numbers of docs/rules.md §4.17, the file round-trips byte for
byte with every option written, and an invalid hand is one line naming it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scoring.commandline import score_session_command, scored
from scoring.engine import dumps_session, read_session, score_session
from tests.engine.support import FIVE, FIXTURES, FOUR, fixture

EXAMPLES = [
    "koenigrufen-ooe-settlements.json",
    "koenigrufen-ooe-trischaken.json",
    "koenigrufen-ooe-renonce.json",
]


def printed(name: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(scored((FIXTURES / name).read_bytes()))
    return document


def rows(document: dict[str, Any], key: str = "deltas") -> list[list[int]]:
    return [list(hand[key].values()) for hand in document["hands"]]


def test_the_sixteen_settlements_print_schrift_and_money() -> None:
    document = printed("koenigrufen-ooe-settlements.json")
    assert rows(document) == [
        [1, 1, -1, -1],
        [3, 3, -3, -3],
        [6, -2, -2, -2],
        [12, -4, -4, -4],
        [-12, 4, 4, 4],
        [-24, 8, 8, 8],
        [2, 2, -2, -2],
        [6, -2, -2, -2],
        [-3, -3, 3, 3],
        [54, -18, -18, -18],
        [-90, 30, 30, 30],
        [-96, 32, 32, 32],
        [8, 8, -8, -8],
        [24, -8, -8, -8],
        [-21, 7, 7, 7],
        [-15, 5, 5, 5],
    ]
    assert rows(document, "money") == [
        [1, 1, -1, -1],
        [5, 5, -5, -5],
        [8, -2, -2, -4],
        [12, -4, -4, -4],
        [-12, 4, 4, 4],
        [-48, 16, 16, 16],
        [2, 2, -2, -2],
        [6, -2, -2, -2],
        [-7, -7, 7, 7],
        [54, -18, -18, -18],
        [-90, 30, 30, 30],
        [-192, 64, 64, 64],
        [16, 16, -16, -16],
        [24, -8, -8, -8],
        [-49, 14, 28, 7],
        [-15, 5, 5, 5],
    ]
    assert document["totals"] == {"Anna": -145, "Bert": 63, "Carl": 41, "Dora": 41}
    assert document["money_totals"] == {"Anna": -285, "Bert": 116, "Carl": 96, "Dora": 73}
    # The settlement pays the money: the Schrift and the Kontras together.
    assert document["settlement"]["net"] == document["money_totals"]
    paid = {name: 0 for name in FOUR}
    for transfer in document["settlement"]["transfers"]:
        paid[transfer["from"]] -= transfer["points"]
        paid[transfer["to"]] += transfer["points"]
    assert paid == document["money_totals"]


def test_the_printed_keys_are_in_the_documented_order() -> None:
    document = printed("koenigrufen-ooe-settlements.json")
    assert list(document) == ["hands", "totals", "money_totals", "settlement"]
    assert list(document["hands"][1]) == ["deltas", "money", "breakdown"]


def test_the_nine_trischaken_results() -> None:
    document = printed("koenigrufen-ooe-trischaken.json")
    assert rows(document) == [
        [0, -3, 0, 3],
        [-12, 4, 4, 4],
        [2, -2, -2, 2],
        [2, -4, 0, 2],
        [3, -6, 0, 3],
        [3, -1, -1, -1],
        [-6, 2, 2, 2],
        [2, -6, 2, 2],
        [2, -2, -2, 2],
    ]
    assert document["totals"] == {"Anna": -4, "Bert": -18, "Carl": 3, "Dora": 19}
    # With Kontra in the score (the default) there is one number per hand.
    assert "money_totals" not in document
    assert all("money" not in hand for hand in document["hands"])
    assert document["settlement"]["net"] == document["totals"]


def test_the_seven_renonce_examples() -> None:
    document = printed("koenigrufen-ooe-renonce.json")
    assert rows(document) == [
        [-12, 4, 4, 4],
        [12, -20, 4, 4],
        [24, -48, 12, 12],
        [-9, 3, 3, 3],
        [2, -6, 2, 2],
        [-12, 4, 4, 4],
        [3, -3, -3, 3],
    ]
    assert document["totals"] == {"Anna": 8, "Bert": -66, "Carl": 26, "Dora": 32}


@pytest.mark.parametrize("name", EXAMPLES)
def test_write_read_write_is_byte_identical(name: str) -> None:
    once = dumps_session(read_session(fixture(name)))
    assert dumps_session(read_session(once)) == once


@pytest.mark.parametrize("name", EXAMPLES)
def test_a_written_session_scores_as_the_original(name: str) -> None:
    original = score_session(read_session(fixture(name)))
    again = score_session(read_session(dumps_session(original.session)))
    assert again.to_json() == original.to_json()


def test_every_option_is_written_the_scheme_spelled_out() -> None:
    written = json.loads(dumps_session(read_session(fixture("koenigrufen-ooe-trischaken.json"))))
    assert written["options"] == {
        "tariff": "ooe_2023",
        "kontra_in_score": True,
        "silent_failure_counts": False,
        "win_threshold": "35/2",
        "trischaken": "ooe",
        "doubled_radl": False,
        "game_values": {},
        "premium_values": {},
    }


def test_value_tables_and_every_hand_field_round_trip() -> None:
    document = {
        "variant": "koenigrufen",
        "players": FIVE,
        "options": {
            "tariff": "tirol_2020",
            "kontra_in_score": False,
            "trischaken": "sauwald",
            "doubled_radl": True,
            "win_threshold": "35/1",
            "game_values": {"zwiccolo": 3},
            "premium_values": {"uhu": [1, 3], "valat": [12, 24]},
        },
        "hands": [
            {
                "dealer": "Emil",
                "declarer": "Anna",
                "game": "besserrufer",
                "bird": "uhu",
                "partner": "Carl",
                "points": "47/2",
                "kontra": 2,
                "premiums": [
                    {"type": "uhu", "side": "declarer", "announced": True, "made": False, "kontra": 1},
                    {"type": "sack_1", "side": "declarer"},
                ],
                "note": "Carl hielt den König",
            },
            {"declarer": "Bert", "game": "zwiccolo", "won": False, "kontra": {"Carl": 1, "Dora": 3}},
            {
                "declarer": "Carl",
                "game": "rufer",
                "king_in_talon": "played",
                "points": 0,
                "valat": {"side": "opponents"},
            },
            {
                "declarer": "Dora",
                "game": "trischaken",
                "points": {"Anna": "20/0", "Bert": 0, "Dora": "19/2", "Emil": "30/1"},
            },
            {"type": "redeal"},
            {"declarer": "Bert", "game": "dreier", "renonce": ["Carl", "Dora"]},
            {"declarer": "Carl", "game": "besserrufer", "bird": "pagat", "king_in_talon": "conceded"},
        ],
    }
    session = read_session(document)
    once = dumps_session(session)
    assert dumps_session(read_session(once)) == once
    written = json.loads(once)
    assert written["hands"][0]["points"] == "47/2"
    assert written["hands"][1]["kontra"] == {"Carl": 1, "Dora": 3}
    assert written["hands"][3]["points"] == {"Anna": 20, "Bert": 0, "Dora": "19/2", "Emil": "30/1"}
    assert written["hands"][5]["renonce"] == ["Carl", "Dora"]
    assert written["options"]["premium_values"] == {"uhu": [1, 3], "valat": [12, 24]}
    assert score_session(read_session(once)).to_json() == score_session(session).to_json()


def test_whole_points_are_written_as_numbers_and_blatt_as_text() -> None:
    document = json.loads(fixture("koenigrufen-ooe-settlements.json"))
    written = json.loads(dumps_session(read_session(document)))
    assert [hand.get("points") for hand in written["hands"][:6]] == ["41/2", 47, None, 40, 30, 33]


def test_an_invalid_hand_exits_2_with_one_line_naming_hand_and_field(tmp_path: Path, capsys: Any) -> None:
    document = json.loads(fixture("koenigrufen-ooe-settlements.json"))
    document["hands"][3]["partner"] = "Bert"  # a partner in a Dreier
    path = tmp_path / "session.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        score_session_command(str(path))
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert captured.err.startswith("hand 4, partner: ")


@pytest.mark.parametrize(
    ("change", "start"),
    [
        ({"premiums": [{"type": "trull", "side": "declarer"}]}, "hand 3, premiums: "),
        ({"kontra": {"Dora": 4}}, "hand 3, kontra.Dora: "),
        ({"won": None, "points": "70/1"}, "hand 3, points: "),
    ],
)
def test_invalid_piccolo_hands_name_the_field(
    change: dict[str, Any], start: str, tmp_path: Path, capsys: Any
) -> None:
    document = json.loads(fixture("koenigrufen-ooe-settlements.json"))
    document["hands"][2].update(change)
    path = tmp_path / "session.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(SystemExit):
        score_session_command(str(path))
    err = capsys.readouterr().err
    assert err.startswith(start), err
    assert err.count("\n") == 1
