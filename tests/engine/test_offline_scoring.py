"""What the phone asks the engine (scoring/engine/offline.py), without Django: this
file runs under Pyodide too (make test-pyodide), where the phone runs it."""

from __future__ import annotations

import json
from typing import Any

from scoring.engine import offline, read_session, score_session

from .support import FIXTURES

SEED = json.loads((FIXTURES / "french-seed-table.json").read_text(encoding="utf-8"))


def posted(hand: dict[str, Any]) -> list[list[str]]:
    """A French hand as its form posts it."""
    pairs = [["type", "played"], ["dealer", hand["dealer"]]]
    for name, value in hand.items():
        if name == "poignees":
            pairs.append(["poignees.rows", str(len(value))])
            for index, row in enumerate(value, 1):
                pairs += [
                    [f"poignees[{index}].player", row["player"]],
                    [f"poignees[{index}].size", row["size"]],
                ]
        elif name != "dealer":
            pairs.append([name, str(value)])
    return pairs


def evening(stored: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {
        "variant": "french",
        "players": SEED["players"],
        "options": {},
        "rate": None,
        "stored": stored or [],
    }


def test_waiting_hands_score_their_places_and_the_totals_of_the_session_file():
    result = offline.score_table({**evening(), "waiting": [posted(h) for h in SEED["hands"]]})
    whole = score_session(read_session(SEED))
    assert [h["ok"] for h in result["hands"]] == [True] * len(SEED["hands"])
    assert result["exact"] == {name: str(value) for name, value in whole.summary.totals.items()}
    assert (
        result["next_dealer"] == SEED["players"][(SEED["players"].index(SEED["hands"][-1]["dealer"]) + 1) % 4]
    )
    assert [t["from"] for t in result["settlement"]] == [t.payer for t in whole.settlement.transfers]


def test_stored_hands_count_as_the_server_stored_them():
    first = offline.score_table({**evening(), "waiting": [posted(SEED["hands"][0])]})
    deltas = {
        name: value.replace("\u2212", "-").lstrip("+") for name, value, _ in first["hands"][0]["deltas"]
    }
    stored = [{"dealer": SEED["hands"][0]["dealer"], "deltas": deltas, "facts": [], "money": None}]
    rest = offline.score_table({**evening(stored), "waiting": [posted(h) for h in SEED["hands"][1:]]})
    assert (
        rest["exact"]
        == offline.score_table({**evening(), "waiting": [posted(h) for h in SEED["hands"]]})["exact"]
    )
    assert rest["count"] == len(SEED["hands"])


def test_an_impossible_hand_is_refused_with_every_problem_and_left_out_of_the_totals():
    impossible = [["type", "played"], ["dealer", "Dora"], ["taker", "Anna"], ["bouts", "1"], ["points", "95"]]
    result = offline.score_table({**evening(), "waiting": [impossible], "lang": "en"})
    outcome = result["hands"][0]
    assert not outcome["ok"]
    assert {p["field"] for p in outcome["problems"]} == {"contract", "points"}
    assert any("0 to 91" in p["words"] for p in outcome["problems"])
    assert result["count"] == 0 and result["exact"] == dict.fromkeys(SEED["players"], "0")


def test_a_repeated_field_is_read_as_a_browser_posts_it():
    form = offline.Posted([["a", "1"], ["b", "2"], ["a", "3"]])
    assert form["a"] == "3" and form.getlist("a") == ["1", "3"] and len(form) == 2 and "b" in form
    assert offline.call("score_table", json.dumps({**evening(), "waiting": []})).startswith("{")
