"""The circuit file ``tarockscore-circuit/1`` and ``score_circuit`` (TOURNAMENTS.md
§14.10): a hand-made season of 3 cups × 4 tournaments × 12 players scored and
checked against a computation written here from §5 and §14.7 (not the
program's), every refusal with its one line, and the canonical form."""

from __future__ import annotations

import copy
import io
import json
import math
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from tournaments.core.circuit_file import (
    MAX_BYTES,
    InvalidCircuit,
    dumps,
    read_circuit,
    score_circuit,
    write_circuit,
)

HERE = Path(__file__).resolve().parent
EXAMPLE = HERE / "fixtures" / "circuit-example.json"
ROOT = HERE.parents[2]
NO_DATABASE = "postgres://nobody@127.0.0.1:9/no_such_database"


def load() -> dict[str, Any]:
    return json.loads(EXAMPLE.read_text(encoding="utf-8"))


# --------------------------------------------------------------------------
# The season and the final as §5 and §14.7 write them, worked out here

# §5.2's fixed points and §14.7's three tables, as printed there.
FIXED = [
    223, 198, 180, 168, 156, 147, 138, 131, 124, 117, 110, 105, 100, 95, 90, 85, 80, 76, 72, 68,
    64, 60, 56, 52, 49, 46, 43, 40, 37, 34, 31, 28, 26, 24, 22, 20, 18, 16, 14, 12,
    10, 9, 8, 7, 6, 5, 4, 3, 2, 1,
]  # fmt: skip
TIER = {
    "A": [
        120, 112, 106, 101, 98, 96, 93, 90, 88, 85, 83, 80, 78, 76, 73, 71, 69, 67, 65, 63, 61, 59, 57, 55,
        53, 52, 50, 48, 47, 45, 44, 42, 41, 40, 38, 37, 36, 35, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 24,
        23, 22, 21, 21, 20, 19, 19, 18, 18, 17, 17, 16, 16, 15, 15, 14, 14, 14, 13, 13, 13, 13, 12, 12, 12,
        12, 11, 11, 11, 11, 11,
    ],
    "B": [
        120, 111, 104, 98, 95, 91, 88, 84, 81, 78, 75, 72, 69, 66, 63, 61, 58, 56, 53, 51, 49, 47, 45, 43,
        41, 39, 37, 36, 34, 32, 31, 30, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 17, 16, 15, 15, 14,
        14, 13, 13, 13, 12, 12, 12, 11, 11, 11, 11,
    ],
    "C": [
        120, 109, 100, 93, 87, 82, 78, 73, 69, 64, 60, 57, 53, 50, 46, 43, 41, 38, 35, 33, 31, 29, 27, 25,
        23, 22, 20, 19, 18, 17, 16, 15, 14, 13, 13, 12, 12, 11, 11, 11,
    ],
}  # fmt: skip


def cup_points(scheme: str, place: int, total: Fraction, n: int, table: list[int]) -> Fraction:
    if scheme == "fixed":
        return Fraction(FIXED[place - 1] if place <= 50 else 0)
    if scheme == "heine":
        if total <= 0:
            return Fraction(0)
        if total <= 100:
            return total
        return Fraction(100 + math.floor((total - 100) / 2)) if total < 300 else Fraction(200)
    if scheme == "tirol_formula":
        return Fraction(math.floor(200 * Fraction(n - place, n - 1) ** 3 + Fraction(1, 2)))
    return Fraction(table[place - 1] if place <= len(table) else 0)


def expected_season(cup: dict[str, Any], aliases: dict[int, int]) -> list[dict[str, Any]]:
    """§5.2–§5.4: points per tournament, the best N, the final, ordered by
    points, counted results, participations, final place; then shared."""
    results: dict[int, list[tuple[Fraction, int, bool]]] = {}
    for t in cup["tournaments"]:
        n = len(t["ranking"])
        for place, row in enumerate(t["ranking"], 1):
            points = cup_points(cup["scheme"], place, Fraction(row["total"]), n, cup.get("points_table", []))
            results.setdefault(aliases.get(row["number"], row["number"]), []).append(
                (points * t["factor"], place, t["final"])
            )
    held = sum(1 for t in cup["tournaments"] if not t["final"])
    best_n = cup["best_n"]
    n_count = {"all": None, "half": (held + 1) // 2 if held <= 10 else held // 2}.get(best_n, best_n)
    rows = []
    for player, mine in results.items():
        final = [r for r in mine if r[2]]
        pool = [r[0] for r in mine if cup["final"] == "regular" or not r[2]]
        counted = sorted(pool, reverse=True)[:n_count]
        final_points = final[0][0] if final and cup["final"] != "none" else None
        total: Fraction = sum(counted, Fraction(0))
        if cup["final"] == "extra" and final_points is not None:
            total += final_points
        trimmed = list(counted)
        while trimmed and trimmed[-1] == 0:
            trimmed.pop()
        key = (-total, [-c for c in trimmed], -len(mine), final[0][1] if final else math.inf)
        rows.append((key, player, total, counted, final_points, mine))
    rows.sort(key=lambda r: (r[0][0], r[0][1], r[0][2], r[0][3]))
    out: list[dict[str, Any]] = []
    for index, (key, player, total, counted, final_points, mine) in enumerate(rows):
        shared = out[-1]["place"] if index and rows[index - 1][0] == key else index + 1
        places = [r[1] for r in mine]
        out.append(
            {
                "place": shared,
                "number": player,
                "points": total,
                "counted": counted,
                "final": final_points,
                "participations": len(mine),
                "podiums": [places.count(1), places.count(2), places.count(3)],
                "best_place": min(places),
            }
        )
    return out


def expected(document: dict[str, Any]) -> dict[str, Any]:
    """The scored season as §14.7 and §14.10 describe it, rank changes left out."""
    aliases = {a: e["number"] for e in document["register"] for a in e.get("aliases", [])}
    cups = []
    carried: dict[int, tuple[int, int, int, str]] = {}
    for order, cup in enumerate(document["cups"]):
        season = expected_season(cup, aliases)
        table = cup.get("tier_table") or TIER[cup["tier"]]
        qualified = [
            {
                "place": row["place"],
                "number": row["number"],
                "participations": row["participations"],
                "vorrundenpunkte": table[row["place"] - 1],
            }
            for row in season
            if row["place"] <= len(table) and row["participations"] >= cup["min_events"]
        ]
        for row in qualified:
            mine = (-row["vorrundenpunkte"], row["place"], order, cup["name"])
            if row["number"] not in carried or mine < carried[row["number"]]:
                carried[row["number"]] = mine
        cups.append({"name": cup["name"], "season": season, "qualified": qualified})
    listed: list[dict[str, Any]] = [
        {"number": n, "vorrundenpunkte": -v[0], "cup": v[3]} for n, v in carried.items()
    ]
    circuit = sorted(
        listed,
        key=lambda q: (-q["vorrundenpunkte"], q["number"]),
    )
    final = []
    for place, row in enumerate(document["final"]["ranking"], 1):
        vp = -carried[row["number"]][0]
        fp = max(0, math.floor(Fraction(60 * (101 - place), 100) + Fraction(1, 2)))
        final.append(
            (-(vp + fp), -fp, -row["total"], place, row["number"], vp, fp, carried[row["number"]][3])
        )
    final.sort()
    gesamt = [
        {
            "place": index,
            "number": r[4],
            "vorrundenpunkte": r[5],
            "finalpunkte": r[6],
            "total": r[5] + r[6],
            "cup": r[7],
        }
        for index, r in enumerate(final, 1)
    ]
    return {"cups": cups, "qualified": circuit, "final": gesamt}


def comparable(out: dict[str, Any]) -> dict[str, Any]:
    return {
        "cups": [
            {
                "name": cup["name"],
                "season": [{k: v for k, v in row.items() if k != "change"} for row in cup["season"]],
                "qualified": cup["qualified"],
            }
            for cup in out["cups"]
        ],
        "qualified": out["qualified"],
        "final": out["final"],
    }


def test_the_example_is_three_cups_of_four_tournaments_of_twelve():
    document = load()
    assert [len(cup["tournaments"]) for cup in document["cups"]] == [4, 4, 4]
    assert {len(t["ranking"]) for cup in document["cups"] for t in cup["tournaments"]} == {12}


def test_the_example_scores_as_sections_five_and_fourteen_give():
    document = load()
    out = score_circuit(read_circuit(EXAMPLE.read_bytes()))
    assert comparable(json.loads(dumps(out))) == json.loads(json.dumps(expected(document), default=float))


def test_the_examples_hand_checked_values():
    out = score_circuit(read_circuit(EXAMPLE.read_bytes()))
    rtc, wtc, tirol = out["cups"]
    # RTC (fixed, tier A): 103 and 104 swap places 3/4 and 5/6; best 3 of
    # 180 168 156 147 is 504 for both: one place, both 106 Vorrundenpunkte.
    tied = [q for q in rtc["qualified"] if q["number"] in (103, 104)]
    assert tied == [
        {"place": 3, "number": 103, "participations": 4, "vorrundenpunkte": 106},
        {"place": 3, "number": 104, "participations": 4, "vorrundenpunkte": 106},
    ]
    # 101 and 102 (223 + 198 each) share place 9 behind 109 (124 + 223 + 198), 110
    # (538), 103/104, 113 (486), 114 (479), 105 (441), 106 (434); but they played two
    # of RTC's tournaments, and RTC asks min_events 3.
    assert [(r["number"], r["place"], r["points"]) for r in rtc["season"] if r["number"] in (101, 102)] == [
        (101, 9, 421),
        (102, 9, 421),
    ]
    assert [r["number"] for r in rtc["season"][:2]] == [109, 110]
    assert not [q for q in rtc["qualified"] if q["number"] in (101, 102)]
    # WTC (heine, tier B): 150 → 125, 120 → 110, 100 → 100, 30 → 30: four players on
    # 365 share place 1 (120 each); 61 every time: 244 on place 5 (95 each).
    assert [(r["place"], r["number"], r["points"]) for r in wtc["season"][:6]] == [
        (1, 109, 365),
        (1, 110, 365),
        (1, 113, 365),
        (1, 114, 365),
        (5, 111, 244),
        (5, 112, 244),
    ]
    assert {q["number"]: q["vorrundenpunkte"] for q in wtc["qualified"]}[112] == 95
    # Nr. 124 (old number 199) played two of WTC's tournaments.
    assert 199 not in [r["number"] for r in wtc["season"]]
    assert [r["participations"] for r in wtc["season"] if r["number"] == 124] == [2]
    # Tirol (tirol_formula, best half of 3 = 2, final extra, custom tier of 8):
    # 117: 200, 150, 110 × 2 = 220 counted 220 + 200, final place 1 = 200 → 620.
    assert tirol["season"][0] == {
        "place": 1,
        "number": 117,
        "points": 620,
        "counted": [220, 200],
        "final": 200,
        "participations": 4,
        "podiums": [2, 1, 1],
        "best_place": 1,
        "change": 1,
    }
    assert [q["number"] for q in tirol["qualified"]] == [117, 121, 118, 122, 119, 120, 101, 102]  # the quota
    # 109 is on place 1 in RTC and WTC (120 each): the better place is equal, so the cup listed first.
    carried = {q["number"]: (q["vorrundenpunkte"], q["cup"]) for q in out["qualified"]}
    assert carried[109] == (120, "RTC")
    assert carried[110] == (120, "WTC")  # RTC place 2 gives 112 only
    # The final: 147 four times. 115 and 116 (88 + 59, places 2 and 3 of the final,
    # 150 each): the final's place; then 105 (93 + 54) and 112 (95 + 52) by Finalpunkte.
    assert [(r["place"], r["number"], r["finalpunkte"]) for r in out["final"] if r["total"] == 147] == [
        (9, 115, 59),
        (10, 116, 59),
        (11, 105, 54),
        (12, 112, 52),
    ]
    assert out["final"][0] == {
        "place": 1,
        "number": 110,
        "vorrundenpunkte": 120,
        "finalpunkte": 60,
        "total": 180,
        "cup": "WTC",
    }


def test_side_rankings_of_the_example():
    out = score_circuit(read_circuit(EXAMPLE.read_bytes()))
    rtc, wtc, tirol = out["cups"]
    damen = {e["number"] for e in load()["register"] if "Damen" in e["categories"]}
    main = [(r["number"], r["points"]) for r in rtc["season"] if r["number"] in damen]
    assert [(r["number"], r["points"]) for r in rtc["side_rankings"]["Damen"]] == main
    assert [r["place"] for r in rtc["side_rankings"]["Damen"]][:3] == [1, 2, 3]
    # Out-of-Vienna: Baden (Niederösterreich) and Neusiedl (Burgenland) only.
    out_of_vienna = {r["number"]: r["points"] for r in wtc["side_rankings"]["Out-of-Vienna"]}
    assert out_of_vienna[110] == 125 + 100  # Baden place 1, Neusiedl place 3
    assert out_of_vienna[109] == 110 + 30
    assert 117 not in out_of_vienna  # played only in Vienna
    # Stadtmeisterschaft in Baden: the entrants from Baden in the day's order.
    assert wtc["tournaments"] == [
        {
            "name": "Baden",
            "side_rankings": {
                "Stadtmeisterschaft": [
                    {"place": 1, "number": 112, "total": 61, "main_place": 4},
                    {"place": 2, "number": 111, "total": 61, "main_place": 5},
                    {"place": 3, "number": 116, "total": -252, "main_place": 12},
                ]
            },
        }
    ]
    assert [r["number"] for r in tirol["side_rankings"]["Senioren"]] == [120, 104, 107]


def test_rank_changes_since_the_previous_tournament():
    out = score_circuit(read_circuit(EXAMPLE.read_bytes()))
    document = load()
    for cup, scored in zip(document["cups"], out["cups"], strict=True):
        aliases = {a: e["number"] for e in document["register"] for a in e.get("aliases", [])}
        before = {
            r["number"]: r["place"]
            for r in expected_season({**cup, "tournaments": cup["tournaments"][:-1]}, aliases)
        }
        for row in scored["season"]:
            want = "new" if row["number"] not in before else before[row["number"]] - row["place"]
            assert row["change"] == want, (cup["name"], row["number"])


# --------------------------------------------------------------------------
# The canonical form


def test_read_write_read_is_identical_and_the_example_is_canonical():
    circuit = read_circuit(EXAMPLE.read_bytes())
    written = dumps(write_circuit(circuit))
    assert read_circuit(written) == circuit
    assert written == EXAMPLE.read_text(encoding="utf-8")


def test_an_old_number_in_a_ranking_counts_for_the_number_kept_and_is_written_as_it():
    """Nr. 199 is Nr. 124's old number (§14.1: a merged-away number still finds
    the player): Baden's ranking naming 199 scores as the example naming 124, and
    the canonical form writes 124, as the app's export does."""
    example = EXAMPLE.read_text(encoding="utf-8")
    kept = '"number": 124,\n       "total": -80'
    assert example.count(kept) == 1
    old = example.replace(kept, '"number": 199,\n       "total": -80')
    assert score_circuit(read_circuit(old.encode())) == score_circuit(read_circuit(EXAMPLE.read_bytes()))
    assert dumps(write_circuit(read_circuit(old.encode()))) == example


def test_a_short_file_is_written_with_every_value_in_force():
    document = {
        "format": "tarockscore-circuit/1",
        "name": "Kleiner Cup",
        "season": "2025/26",
        "register": [{"number": n, "family": f"Spieler{n}"} for n in range(1, 5)],
        "cups": [
            {
                "name": "Cup",
                "tournaments": [
                    {
                        "name": "Eins",
                        "date": "2025-10-01",
                        "ranking": [{"number": n, "total": 10 - n} for n in range(1, 5)],
                    }
                ],
            }
        ],
    }
    circuit = read_circuit(json.dumps(document))
    written = write_circuit(circuit)
    assert written["categories"] == ["Damen", "Senioren", "Jugend"]
    assert {k: v for k, v in written["cups"][0].items() if k != "tournaments"} == {
        "name": "Cup",
        "tier": "B",
        "scheme": "fixed",
        "best_n": 6,
        "final": "extra",
        "min_events": 4,
        "side_rankings": [],
    }
    assert written["register"][0] == {
        "number": 1,
        "family": "Spieler1",
        "given": "",
        "place": "",
        "categories": [],
        "public_name": "full",
        "aliases": [],
    }
    assert read_circuit(dumps(written)) == circuit
    assert dumps(write_circuit(read_circuit(dumps(written)))) == dumps(written)
    out = score_circuit(circuit)
    assert out["final"] == [] and out["qualified"] == []  # one tournament: min_events 4 not met
    assert out["cups"][0]["attendance"] == "4.0"


# --------------------------------------------------------------------------
# Refusals: one line naming the cup, the tournament and the field

DELETE = object()


def change(document: dict, path: list, value: Any) -> dict:
    document = copy.deepcopy(document)
    target = document
    for key in path[:-1]:
        target = target[key]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return document


def refusal(text: str | bytes) -> str:
    with pytest.raises(InvalidCircuit) as refused:
        read_circuit(text)
    return str(refused.value)


REFUSALS = [
    (
        ["cups", 1, "name"],
        "",
        "cup 2: name: a name has 1 to 80 characters, without leading or trailing spaces",
    ),
    (
        ["cups", 1, "tournaments", 2, "name"],
        " x",
        "cup WTC, tournament 3: name: a name has 1 to 80 characters, without leading or trailing spaces",
    ),
    (
        ["cups", 1, "tournaments", 2, "date"],
        "2025-13-01",
        'cup WTC, tournament Falkensteiner: date: must be a day written YYYY-MM-DD, for example 2026-11-22 (got "2025-13-01")',
    ),
    (["format"], "tarockscore-tournament/1", "format: must be tarockscore-circuit/1"),
    (
        ["colour"],
        "blau",
        "colour: unknown field; allowed here: format, name, season, categories, register, cups, final",
    ),
    (["cups", 0, "tier"], "D", 'cup RTC: tier: must be one of A, B, C, custom (got "D")'),
    (["cups", 0, "tier_table"], [10, 5], "cup RTC: tier_table: only with the tier custom"),
    (
        ["cups", 2, "tier_table"],
        [],
        "cup Tirol: tier_table: must be a list of 1 to 400 whole numbers from 0 to 10000: places 1, 2, …",
    ),
    (["cups", 1, "best_n"], 0, "cup WTC: best_n: must be a whole number from 1 to 40, all or half (got 0)"),
    (["cups", 1, "min_events"], 0, "cup WTC: min_events: must be a whole number from 1 to 40 (got 0)"),
    (["cups", 1, "name"], "RTC", "cup RTC: name: RTC is a second cup of this name"),
    (
        ["cups", 1, "side_rankings", 0, "region"],
        "Wien",
        "cup WTC: side_rankings[1]: give exactly one of category, region, region_not",
    ),
    (
        ["cups", 0, "side_rankings", 0, "category"],
        "Herren",
        "cup RTC: side_rankings[1].category: Herren is not one of the circuit's categories: Damen, Senioren, Jugend",
    ),
    (
        ["cups", 0, "tournaments", 1, "ranking", 2, "number"],
        555,
        "cup RTC, tournament Wels: ranking[3].number: 555 is not in the register",
    ),
    (
        ["cups", 1, "tournaments", 1, "ranking", 2, "number"],
        124,
        "cup WTC, tournament Baden: ranking[10].number: Nr. 124 is at place 3 already",
    ),
    (
        ["cups", 1, "tournaments", 1, "ranking", 11, "number"],
        199,
        "cup WTC, tournament Baden: ranking[12].number: 199 is Nr. 124, at place 10 already",
    ),
    (
        ["cups", 1, "tournaments", 1, "ranking", 1, "total"],
        160,
        "cup WTC, tournament Baden: ranking[2].total: 160 is more than place 1's 150: the ranking is in place order",
    ),
    (
        ["cups", 1, "tournaments", 1, "ranking", 1, "total"],
        0.25,
        "cup WTC, tournament Baden: ranking[2].total: must be a whole number (or x.5) from −1000000 to 1000000 (got 0.25)",
    ),
    (
        ["cups", 0, "tournaments", 2, "date"],
        "2025-11-01",
        "cup RTC, tournament Steyr: date: is before the previous tournament's (2025-11-08): tournaments go in the order played",
    ),
    (
        ["cups", 0, "tournaments", 2, "name"],
        "WELS",
        "cup RTC, tournament WELS: name: a second tournament of this name in the cup; tell them apart (Schlierbach I, Schlierbach II)",
    ),
    (
        ["cups", 2, "tournaments", 2, "final"],
        True,
        "cup Tirol, tournament Kufstein: final: the cup's final is its last tournament: none comes after it",
    ),
    (
        ["cups", 0, "tournaments", 0, "factor"],
        3,
        "cup RTC, tournament Schlierbach: factor: must be 1, or 2 for double points (got 3)",
    ),
    (
        ["cups", 0, "tournaments", 0, "ranking"],
        [],
        "cup RTC, tournament Schlierbach: ranking: must be a list of 4 to 400 players in place order: number and total",
    ),
    (
        ["cups", 0, "tournaments", 0, "side_rankings"],
        [{"name": "Heim", "region": "Wien"}],
        "cup RTC, tournament Schlierbach: side_rankings[1].region: unknown field; allowed here: name, category, home",
    ),
    (
        ["register", 1, "number"],
        101,
        "register[2].number: number 101 is given to register[1] already: a number is never reused",
    ),
    (
        ["register", 0, "aliases"],
        [124],
        "register[24].number: number 124 is given to register[1] already: a number is never reused",
    ),
    (["register", 0, "categories"], ["Damen", "Damen"], "register[1].categories: a category is listed twice"),
    (
        ["register", 0, "number"],
        1_000_000,
        "register[1].number: must be a whole number from 1 to 999999 (got 1000000)",
    ),
    (
        ["register", 0, "family"],
        " Huber",
        'register[1].family: must be a text of 1 to 40 characters, one space between words (got " Huber")',
    ),
    (
        ["register", 0, "public_name"],
        "initials",
        'register[1].public_name: must be one of full, short (got "initials")',
    ),
    (
        ["final", "ranking", 21, "number"],
        123,
        "final.ranking[22].number: 123 did not qualify: only qualified players play the final unless open_final is true",
    ),
    (["final", "open_final"], "yes", 'final.open_final: must be true or false (got "yes")'),
    (["final"], [], "final: must be an object with its name and ranking"),
    (["cups"], [], "cups: must be a list of 1 to 20 cups"),
]


@pytest.mark.parametrize(
    ("path", "value", "message"),
    REFUSALS,
    ids=[m.split(":")[0] + str(i) for i, (_, _, m) in enumerate(REFUSALS)],
)
def test_each_refusal_is_one_line_naming_cup_tournament_and_field(path, value, message):
    assert refusal(dumps(change(load(), path, value))) == message


def test_an_open_final_takes_guests_with_no_vorrundenpunkte():
    document = change(load(), ["final", "ranking", 21, "number"], 123)
    document["final"]["open_final"] = True
    out = score_circuit(read_circuit(dumps(document)))
    guest = next(row for row in out["final"] if row["number"] == 123)
    assert (guest["vorrundenpunkte"], guest["finalpunkte"], guest["total"], guest["cup"]) == (
        0,
        47,
        47,
        None,
    )  # place 22: 47.4


def test_a_key_given_twice_is_refused_where_it_is():
    text = EXAMPLE.read_text(encoding="utf-8")
    assert refusal(text.replace('"season": "2025/26"', '"season": "2025/26", "season": "2026/27"', 1)) == (
        "season: given twice; each field may appear once"
    )
    twice = text.replace(
        '"number": 102,\n       "total": 95', '"number": 102,\n       "total": 95, "total": 96', 1
    )
    assert twice != text
    assert (
        refusal(twice)
        == "cup RTC, tournament Schlierbach: ranking[2].total: given twice; each field may appear once"
    )


def test_nesting_size_and_text_are_bounded():
    assert refusal("[" * 100_000 + "]" * 100_000).startswith("document: not valid JSON")
    assert refusal(b" " * (MAX_BYTES + 1)) == (
        "file: a circuit file has at most 16 MB (16000000 bytes): this one is larger"
    )
    assert refusal(b"\xff\xfe{}").startswith("document:")
    assert refusal("[]") == "document: must be a JSON object"


def test_limits_of_section_14_9():
    document = load()
    document["cups"] = [dict(document["cups"][0], name=f"Cup {n}") for n in range(21)]
    assert refusal(dumps(document)) == "cups: must be a list of 1 to 20 cups"
    document = load()
    document["cups"][0]["side_rankings"] = [{"name": f"S{n}", "category": "Damen"} for n in range(11)]
    assert refusal(dumps(document)) == "cup RTC: side_rankings: must be a list of at most 10 side rankings"
    document = load()
    tournament = document["cups"][0]["tournaments"][0]
    document["cups"][0]["tournaments"] = [dict(tournament, name=f"T{n}") for n in range(41)]
    assert (
        refusal(dumps(document))
        == "cup RTC: tournaments: must be a list of at most 40 tournaments, in the order played"
    )


# --------------------------------------------------------------------------
# The command


def run(stdin: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    """``python manage.py score_circuit`` with a bare environment and no database to reach."""
    env = {key: value for key, value in os.environ.items() if key not in ("SECRET_KEY", "DEBUG")}
    env["DJANGO_SETTINGS_MODULE"] = "tarockscore.settings"
    env["DATABASE_URL"] = NO_DATABASE
    return subprocess.run(
        [sys.executable, "manage.py", "score_circuit", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=False,
    )


def test_score_circuit_prints_the_season_without_a_database():
    result = run(EXAMPLE.read_bytes())
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    out = json.loads(result.stdout)
    assert comparable(out) == json.loads(json.dumps(expected(load()), default=float))
    assert result.stdout.decode() == dumps(out)
    assert run(b"", str(EXAMPLE)).stdout == result.stdout


def test_score_circuit_refuses_with_exit_two_and_one_line():
    document = change(load(), ["cups", 0, "tournaments", 1, "ranking", 2, "number"], 555)
    result = run(dumps(document).encode())
    assert result.returncode == 2
    assert result.stdout == b""
    assert result.stderr.decode().splitlines() == [
        "cup RTC, tournament Wels: ranking[3].number: 555 is not in the register"
    ]


def test_a_refusal_reads_in_the_readers_language():
    from django.utils import translation

    document = change(load(), ["cups", 0, "tournaments", 1, "ranking", 2, "number"], 555)
    with pytest.raises(InvalidCircuit) as refused:
        read_circuit(dumps(document))
    with translation.override("de"):
        german = refused.value.describe(translation.gettext)
    with translation.override("fr"):
        french = refused.value.describe(translation.gettext)
    assert german == "Cup RTC, Turnier Wels: ranking[3].number: 555 steht nicht in der Spielerliste"
    assert french == "coupe RTC, tournoi Wels: ranking[3].number: 555 n’est pas dans le registre"


class Stdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def test_call_command_prints_the_example_without_a_database(capsysbinary):
    # no ``db`` fixture: pytest-django refuses any database access in this test
    call_command("score_circuit", str(EXAMPLE))
    out = capsysbinary.readouterr()
    assert out.err == b""
    assert json.loads(out.out) == json.loads(dumps(score_circuit(read_circuit(EXAMPLE.read_bytes()))))


def test_call_command_refuses_from_standard_input(monkeypatch, capsys):
    document = change(load(), ["cups", 2, "tournaments", 2, "final"], True)
    monkeypatch.setattr("sys.stdin", Stdin(dumps(document).encode()))
    with pytest.raises(SystemExit) as exit_:
        call_command("score_circuit")
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "cup Tirol, tournament Kufstein: final: the cup's final is its last tournament: none comes after it\n"
    )
