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


def stored_file(document: dict[str, Any], *, records: bool) -> list[dict[str, Any]]:
    """A session file's hands as the page gives them to the phone: as stored, with ids."""
    from scoring.engine.types import points_to_json

    session = read_session(document)
    result = score_session(session)
    out = []
    for index, (hand, score) in enumerate(zip(session.hands, result.hands, strict=True)):
        kept = session.variant.stored(hand, score)
        out.append(
            {
                "id": 100 + index,
                "record": document["hands"][index] if records else None,
                "dealer": kept.dealer or "",
                "deltas": {name: points_to_json(value) for name, value in kept.deltas.items()},
                "facts": sorted(kept.facts),
                "money": None
                if kept.money is None
                else {name: points_to_json(value) for name, value in kept.money.items()},
            }
        )
    return out


def test_corrections_and_deletions_are_made_in_their_places_before_the_new_hands():
    # Hand 2 corrected to what hand 5 was, hand 1 deleted, then one new hand: the totals
    # of the session file with those changes made.
    stored = stored_file(SEED, records=False)
    hands = SEED["hands"]
    result = offline.score_table(
        {
            **evening(stored),
            "changes": [
                {"hand": 101, "fields": posted({**hands[4], "dealer": hands[1]["dealer"]})},
                {"hand": 100, "delete": True},
            ],
            "waiting": [posted(hands[0])],
        }
    )
    assert [c["ok"] for c in result["changes"]] == [True, True] and result["changes"][1]["deleted"]
    changed = {**SEED, "hands": [{**hands[4], "dealer": hands[1]["dealer"]}, *hands[2:], hands[0]]}
    whole = score_session(read_session(changed))
    assert result["count"] == len(changed["hands"])
    assert result["exact"] == {name: str(value) for name, value in whole.summary.totals.items()}


def test_an_impossible_correction_is_refused_and_the_hand_stays_as_stored():
    stored = stored_file(SEED, records=False)
    result = offline.score_table(
        {**evening(stored), "changes": [{"hand": 101, "fields": posted({**SEED["hands"][1], "points": 95})}]}
    )
    assert not result["changes"][0]["ok"] and result["changes"][0]["problems"]
    whole = score_session(read_session(SEED))
    assert result["exact"] == {name: str(value) for name, value in whole.summary.totals.items()}


def test_under_doubled_radl_the_hands_after_a_deleted_trischaken_are_scored_again():
    document = json.loads((FIXTURES / "koenigrufen-ooe-trischaken.json").read_text(encoding="utf-8"))
    document["options"] = {**document["options"], "doubled_radl": True}
    request = {
        "variant": "koenigrufen",
        "players": document["players"],
        "options": document["options"],
        "rate": None,
        "changes": [{"hand": 100, "delete": True}],
    }
    result = offline.score_table({**request, "stored": stored_file(document, records=True)})
    without_first = score_session(read_session({**document, "hands": document["hands"][1:]}))
    assert result["exact"] == {name: str(value) for name, value in without_first.summary.totals.items()}
    # Their snapshots alone (no records to score them again) would not add up to it.
    alone = offline.score_table({**request, "stored": stored_file(document, records=False)})
    assert alone["exact"] != result["exact"]


def test_a_session_played_to_a_target_takes_no_played_hand_past_it_and_redeals_do_not_count():
    stored = stored_file(SEED, records=False)[:2]
    stored[0]["type"], stored[1]["type"] = "played", "redeal"  # a redeal counts nothing toward the target
    redeal = [["type", "redeal"], ["dealer", SEED["hands"][2]["dealer"]]]
    result = offline.score_table(
        {
            **evening(stored),
            "target": 2,
            "waiting": [posted(SEED["hands"][2]), redeal, posted(SEED["hands"][3])],
        }
    )
    assert [h["ok"] for h in result["hands"]] == [True, True, False]
    assert [p["words"] for p in result["hands"][2]["problems"]] == ["Round complete: 2 of 2"]
    assert (result["played"], result["target"], result["count"]) == (2, 2, 4)
    # An evening without a target counts on.
    free = offline.score_table({**evening(stored), "waiting": [posted(h) for h in SEED["hands"][2:5]]})
    assert [h["ok"] for h in free["hands"]] == [True] * 3 and free["target"] is None
