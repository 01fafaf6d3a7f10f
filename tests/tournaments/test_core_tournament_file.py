"""The tournament file and what ``score_tournament`` makes of it
(TOURNAMENTS.md §13): the §9 example typed as desk sums, a table given by its
hands, fields drawn from the seed alone, French Tarot, every refusal with its
one line, and the canonical form that survives export → import → export."""

from __future__ import annotations

import copy
import datetime
import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from scoring.engine import read_session, score_session
from tests.engine.support import FIXTURES as SESSION_FIXTURES
from tournaments.core.draw import first_dealer
from tournaments.core.tournament_file import (
    FORMAT,
    InvalidTournament,
    dumps,
    read_tournament,
    score_tournament,
    seating,
    tournament_document,
    write_tournament,
)

FIXTURES = Path(__file__).parent / "fixtures"
EXAMPLE = FIXTURES / "koenigrufen-cup-example.json"
WITH_HANDS = FIXTURES / "koenigrufen-table-hands.json"
FRENCH = FIXTURES / "french-tournament.json"
ALL = sorted(FIXTURES.glob("*.json"))
FILES = [path for path in ALL if path.name != "draw-reference.json"]
REFERENCE = json.loads((FIXTURES / "draw-reference.json").read_text(encoding="utf-8"))


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def scored(document: dict) -> dict:
    return score_tournament(read_tournament(dumps(document)))


def refusal(document: dict) -> str:
    with pytest.raises(InvalidTournament) as refused:
        read_tournament(dumps(document))
    return str(refused.value)


# --------------------------------------------------------------------------
# §9 as desk sums


def test_the_example_is_ranked_as_section_nine():
    out = scored(load(EXAMPLE))
    assert [(r["place"], r["name"], r["rounds"], r["total"]) for r in out["ranking"]] == [
        (1, "Erika", [92, -42, 61], 111),
        (2, "Franz", [-42, 71, 44], 73),
        (3, "Karin", [118, -19, -54], 45),
        (4, "Christa", [-43, 97, -9], 45),
        (5, "Hans", [-31, 55, 19], 43),
        (6, "Bernd", [45, 29, -45], 29),
        (7, "Leo", [-24, 8, 45], 29),
        (8, "Ida", [17, -58, 36], -5),
        (9, "Gerti", [-38, 14, -27], -51),
        (10, "Dieter", [64, -50, -80], -66),
        (11, "Anna", [-106, -35, 27], -114),
        (12, "Josef", [-52, -70, -17], -139),
    ]
    assert {r["name"]: r["tie_note"] for r in out["ranking"] if "tie_note" in r} == dict.fromkeys(
        ("Karin", "Christa", "Bernd", "Leo"), "rounds"
    )
    assert list(out["cup_points"].items())[:5] == [
        ("Erika", 223),
        ("Franz", 198),
        ("Karin", 180),
        ("Christa", 168),
        ("Hans", 156),
    ]
    assert sorted(out) == ["cup_points", "ranking", "rounds"]


def test_the_example_prints_its_rounds_as_given():
    document = load(EXAMPLE)
    out = scored(document)
    assert out["rounds"] == document["rounds"]


@pytest.mark.parametrize(
    ("scheme", "top_five"),
    [("heine", [105, 73, 45, 45, 43]), ("tirol_formula", [200, 150, 110, 77, 52])],
)
def test_the_example_under_the_other_schemes(scheme, top_five):
    document = load(EXAMPLE)
    document["settings"]["scheme"] = scheme
    assert list(scored(document)["cup_points"].values())[:5] == top_five
    document["settings"]["factor"] = 2
    assert list(scored(document)["cup_points"].values())[:5] == [2 * p for p in top_five]


def test_the_example_under_tirol_2019_puts_leo_before_bernd():
    document = load(EXAMPLE)
    document["settings"]["tie_break"] = "tirol_2019"
    names = [row["name"] for row in scored(document)["ranking"]]
    assert names[5:7] == ["Leo", "Bernd"]


def test_the_example_drawn_from_its_seed_alone_is_the_same_plan():
    document = load(EXAMPLE)
    document["rounds"] = [{}]  # round 1 as {}, rounds 2 and 3 left out
    out = scored(document)
    given = load(EXAMPLE)["rounds"]
    assert [[(t["players"], t["dealer"]) for t in r["tables"]] for r in out["rounds"]] == [
        [(t["players"], t["dealer"]) for t in r["tables"]] for r in given
    ]
    assert all(t["sums"] == {} for r in out["rounds"] for t in r["tables"])
    # no round has sums: everyone 0, places by lots alone
    assert {row["total"] for row in out["ranking"]} == {0}
    assert all(row["rounds"] == [] for row in out["ranking"])


def test_a_drawn_round_after_given_ones_takes_them_as_history():
    document = load(EXAMPLE)
    document["rounds"] = document["rounds"][:2]
    out = scored(document)
    # the example's round 3 is what §2.1 draws after its rounds 1 and 2
    assert [t["players"] for t in out["rounds"][2]["tables"]] == [
        t["players"] for t in load(EXAMPLE)["rounds"][2]["tables"]
    ]
    assert next(row for row in out["ranking"] if row["name"] == "Erika")["rounds"] == [92, -42]
    assert out["ranking"][0] == {"place": 1, "name": "Karin", "rounds": [118, -19], "total": 99}


def test_an_entrant_at_no_table_of_a_given_round_has_a_bye():
    document = load(EXAMPLE)
    document["entrants"].append("Zita")
    out = scored(document)
    zita = next(row for row in out["ranking"] if row["name"] == "Zita")
    assert zita["rounds"] == [None, None, None]
    assert zita["total"] == 0
    assert [row["name"] for row in out["ranking"]][6:9] == ["Leo", "Zita", "Ida"]  # 29, 0, −5
    assert sum(row["total"] for row in out["ranking"]) == 0


# --------------------------------------------------------------------------
# A table given by its hands


def test_a_table_given_by_hands_sums_as_score_session_does():
    session_file = json.loads(
        (SESSION_FIXTURES / "koenigrufen-ooe-settlements.json").read_text(encoding="utf-8")
    )
    expected = score_session(read_session(json.dumps(session_file))).summary.totals
    out = scored(load(WITH_HANDS))
    table = out["rounds"][0]["tables"][0]
    assert table["sums"] == {name: int(value) for name, value in expected.items()}
    assert table["sums"] == {"Anna": -145, "Bert": 63, "Carl": 41, "Dora": 41}  # the Schrift, Kontra-free
    assert out["rounds"][0]["tables"][1]["sums"] == {"Emil": 31, "Fritz": -12, "Grete": -40, "Heidi": 21}
    ranking = {row["name"]: row["total"] for row in out["ranking"]}
    assert ranking["Anna"] == -145 and ranking["Emil"] == 31
    assert sum(ranking.values()) == 0
    assert out["rounds"][1]["tables"][0]["sums"] == {}  # round 2 drawn


def test_a_first_hand_without_dealer_takes_the_tables():
    tournament = read_tournament(WITH_HANDS.read_bytes())
    table = tournament.rounds[0][0]
    assert table.hands is not None and table.hands[0].table.dealer == "Dora"


def test_redeals_do_not_count_toward_the_target():
    document = load(WITH_HANDS)
    hands = document["rounds"][0]["tables"][0]["hands"]
    hands.insert(3, {"type": "redeal"})
    out = scored(document)
    assert out["rounds"][0]["tables"][0]["sums"] == {"Anna": -145, "Bert": 63, "Carl": 41, "Dora": 41}


def test_fewer_hands_than_the_target_are_a_table_ended_early():
    document = load(WITH_HANDS)
    document["rounds"][0]["tables"][0]["hands"] = document["rounds"][0]["tables"][0]["hands"][:1]
    assert scored(document)["rounds"][0]["tables"][0]["sums"] == {
        "Anna": 1,
        "Bert": 1,
        "Carl": -1,
        "Dora": -1,
    }
    document["rounds"][0]["tables"][0]["hands"] = []
    assert scored(document)["rounds"][0]["tables"][0]["sums"] == {"Anna": 0, "Bert": 0, "Carl": 0, "Dora": 0}


# --------------------------------------------------------------------------
# Drawn-only fields


@pytest.mark.parametrize("n", ["23", "40"])
def test_a_drawn_only_field_prints_the_reference_plan(n):
    document = load(FIXTURES / f"drawn-{n}.json")
    out = scored(document)
    seed = REFERENCE[n]["seed"]
    assert document["seed"] == seed
    names = document["entrants"]
    assert len(out["rounds"]) == 3
    for r, (printed, reference) in enumerate(zip(out["rounds"], REFERENCE[n]["rounds"], strict=True), 1):
        assert [t["players"] for t in printed["tables"]] == [
            [names[i - 1] for i in table] for table in reference
        ]
        for t, table in enumerate(printed["tables"], 1):
            assert table["dealer"] == table["players"][first_dealer(seed, r, t, len(table["players"])) - 1]
            assert table["sums"] == {}
    assert [row["place"] for row in out["ranking"]] == list(range(1, int(n) + 1))
    assert sorted(out["cup_points"].values(), reverse=True)[:3] == [223, 198, 180]


# --------------------------------------------------------------------------
# French Tarot


def test_a_french_tournament_has_five_rounds_of_four_hands_and_half_points():
    tournament = read_tournament(FRENCH.read_bytes())
    settings = tournament.settings
    assert (settings.rounds, settings.hands, settings.hands_at_five, settings.money_rate) == (5, 4, 5, None)
    out = score_tournament(tournament)
    assert len(out["rounds"]) == 5
    assert out["rounds"][0]["tables"][1]["sums"] == {
        "Emile": 12.5,
        "Fanny": -12.5,
        "Gaston": 30,
        "Hélène": -30,
    }
    fanny = next(row for row in out["ranking"] if row["name"] == "Fanny")
    assert fanny["total"] == -12.5
    assert list(out["cup_points"].values()) == [
        200,
        126,
        73,
        37,
        16,
        5,
        1,
        0,
    ]  # tirol_formula, N = 8: 200·(6/7)³ = 125.9 …


# --------------------------------------------------------------------------
# Refusals: one line naming round, table and field


def change(document: dict, path: list, value) -> dict:
    document = copy.deepcopy(document)
    target = document
    for key in path[:-1]:
        target = target[key]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return document


DELETE = object()

REFUSALS = [
    (["rounds", 0, "tables", 1, "sums", "Ida"], 21, "round 1, table 2: sums: must add up to 0, not +4: check the sheet"),
    (["rounds", 1, "tables", 2, "players"], ["Hans", "Karin", "Erika", "Dieter"], "round 2, table 3: players: Erika sits at table 1 of this round too"),
    (["rounds", 0, "tables", 1, "players"], ["Ida", "Dieter", "Gerti", "Zoe"], "round 1, table 2: players: Zoe is not an entrant"),
    (["rounds", 0, "tables", 1, "players"], ["Ida", "Dieter", "Gerti"], "round 1, table 2: players: a table seats 4 or 5 players (got 3)"),
    (["rounds", 0, "tables", 1, "players"], ["Ida", "Dieter", "Gerti", "Christa", "Hans", "Leo"], "round 1, table 2: players: a table seats 4 or 5 players (got 6)"),
    (["rounds", 0, "tables", 1, "players"], ["Ida", "Dieter", "Gerti", "Christa", "Ida"], "round 1, table 2: players: Ida has two seats at this table"),
    (["rounds", 0, "tables", 1, "dealer"], "Erika", 'round 1, table 2: dealer: must be one of the players Ida, Dieter, Gerti, Christa (got "Erika")'),
    (["rounds", 0, "tables", 1, "hands"], [], "round 1, table 2: table: give exactly one of hands (as played) and sums (a paper sheet)"),
    (["rounds", 0, "tables", 1, "sums", "Ida"], 17.5, "round 1, table 2: sums.Ida: must be a whole number from −100000 to 100000 (got 17.5)"),
    (["rounds", 0, "tables", 1, "sums", "Christa"], DELETE, "round 1, table 2: sums: Christa's round result is missing"),
    (["rounds", 0, "tables", 1, "sums", "Leo"], 0, "round 1, table 2: sums: Leo does not sit at this table"),
    (["rounds", 0, "tables", 1, "colour"], "red", "round 1, table 2: colour: unknown field; allowed here: players, dealer, hands, sums"),
    (["rounds", 0, "tables"], [], "round 1: tables: must be a list of at least one table"),
    (["rounds", 0, "table"], [], "round 1: table: unknown field; allowed here: tables"),
    (["rounds", 0], [], "round 1: round: must be an object: {} to draw it, or its tables"),
    (["rounds"], [{}, {}, {}, {}], "rounds: at most 3 rounds, as settings.rounds says (got 4)"),
    (["entrants", 3], "Anna", 'entrants[4]: Anna is entered twice; tell them apart ("Anna J.", "Anna, Linz")'),
    (["entrants"], ["Anna", "Bernd", "Christa"], "entrants: a tournament has 4 to 400 entrants (got 3)"),
    (["entrants", 0], " Anna", "entrants[1]: a name has 1 to 40 characters, without leading or trailing spaces"),
    (["seed"], 482915, 'seed: must be the draw number, six digits written as a string, for example "482915" (got 482915)'),
    (["variant"], "illustrated", 'variant: must be one of koenigrufen, french (got "illustrated")'),
    (["format"], "tarockscore/1", "format: must be tarockscore-tournament/1"),
    (["format"], DELETE, "format: must be tarockscore-tournament/1"),
    (["date"], "21.11.2025", 'date: must be a day written YYYY-MM-DD, for example 2026-11-22 (got "21.11.2025")'),
    (["options", "kontra_in_score"], True, "options.kontra_in_score: must be false in a tournament: cups write the Kontra-free Schrift"),
    (["options", "doubled_radl"], True, "options.doubled_radl: must be false in a tournament: cups never double rounds"),
    (["settings", "rounds"], 11, "settings.rounds: must be a whole number from 1 to 10 (got 11)"),
    (["settings", "hands"], 0, "settings.hands: must be a whole number from 1 to 60 (got 0)"),
    (["settings", "hands_at_five"], 61, "settings.hands_at_five: must be a whole number from 1 to 60 (got 61)"),
    (["settings", "avoid_repeats"], "always", 'settings.avoid_repeats: must be one of minimise, off (got "always")'),
    (["settings", "tie_break"], ["lots", "best_round"], 'settings.tie_break: must be better_rounds, tirol_2019 or a list of rounds_desc, best_round, table_ranks, lots, shared, each once, lots or shared only last (got ["lots", "best_round"])'),
    (["settings", "scheme"], "lottery", 'settings.scheme: must be one of fixed, heine, tirol_formula, custom (got "lottery")'),
    (["settings", "points_table"], [3, 2, 1], "settings.points_table: only with the scheme custom"),
    (["settings", "scheme"], "custom", "settings.points_table: the scheme custom needs a list of 1 to 400 whole numbers from 0 to 10000: places 1, 2, …"),
    (["settings", "factor"], 3, "settings.factor: must be 1, or 2 for double points (got 3)"),
    (["settings", "money_rate"], "0.1x", 'settings.money_rate: must be money per point greater than 0 and below 10000 with at most 4 decimals, for example "0.10" (got "0.1x")'),
    (["settings", "colour"], "red", "settings.colour: unknown field; allowed here: rounds, hands, hands_at_five, avoid_repeats, tie_break, scheme, points_table, factor, money_rate"),
    (["colour"], "red", "colour: unknown field; allowed here: format, name, date, variant, options, seed, entrants, settings, rounds"),
]  # fmt: skip


@pytest.mark.parametrize(("path", "value", "message"), REFUSALS)
def test_each_refusal_is_one_line_naming_where(path, value, message):
    assert refusal(change(load(EXAMPLE), path, value)) == message


def test_a_round_that_cannot_be_drawn_is_refused():
    document = load(EXAMPLE)
    document["entrants"] = document["entrants"][:6]
    document["rounds"] = []
    assert (
        refusal(document)
        == "round 1: tables: 6 entrants cannot be seated at tables of 4 and 5: give this round's tables"
    )
    # given, the same six can play: one five-table and a bye
    document["rounds"] = [
        {"tables": [{"players": ["Anna", "Bernd", "Christa", "Dieter", "Erika"], "dealer": "Anna", "sums": dict.fromkeys(["Anna", "Bernd", "Christa", "Dieter", "Erika"], 0)}]}
    ] * 3  # fmt: skip
    out = scored(document)
    assert next(row for row in out["ranking"] if row["name"] == "Franz")["rounds"] == [None, None, None]
    document["rounds"] = document["rounds"][:2]
    assert (
        refusal(document)
        == "round 3: tables: 6 entrants cannot be seated at tables of 4 and 5: give this round's tables"
    )


HAND_REFUSALS = [
    (["rounds", 0, "tables", 0, "hands", 4, "points"], "200", "round 1, table 1: hand 5, points: Points of the declarer's side: whole points from 0 to 70 or points and Blatt such as 41/2, at most 70/0 (got \"200\")"),
    (["rounds", 0, "tables", 0, "hands", 0, "dealer"], "Anna", "round 1, table 1: hand 1, dealer: must be Dora, the table's first dealer (got \"Anna\")"),
    (["rounds", 0, "tables", 0, "hands", 2, "note"], "a\u0007b", "round 1, table 1: hand 3, note: Note: must be text without control characters (found U+0007 at character 2)"),
    (["settings", "hands"], 8, "round 1, table 1: hands: the round is complete: 8 of 8 hands played; hand 9 is one too many"),
    (["rounds", 0, "tables", 0, "hands"], {}, "round 1, table 1: hands: must be a list of hands"),
]  # fmt: skip


@pytest.mark.parametrize(("path", "value", "message"), HAND_REFUSALS)
def test_a_refused_hand_keeps_score_sessions_text_after_round_and_table(path, value, message):
    assert refusal(change(load(WITH_HANDS), path, value)) == message


def test_a_hand_refusal_is_score_sessions_own():
    document = load(WITH_HANDS)
    hands = document["rounds"][0]["tables"][0]["hands"]
    hands[4]["points"] = "200"
    session = {"variant": "koenigrufen", "players": ["Anna", "Bert", "Carl", "Dora"], "hands": hands}
    with pytest.raises(Exception) as session_refusal:
        read_session(json.dumps(session))
    assert refusal(document) == f"round 1, table 1: {session_refusal.value}"


def test_one_hand_too_many_beyond_the_target():
    document = load(WITH_HANDS)
    table = document["rounds"][0]["tables"][0]
    table["hands"].append({"declarer": "Anna", "game": "rufer", "partner": "Bert", "points": 40})
    assert (
        refusal(document)
        == "round 1, table 1: hands: the round is complete: 16 of 16 hands played; hand 17 is one too many"
    )


def test_a_key_given_twice_and_text_that_is_not_json():
    with pytest.raises(InvalidTournament, match=r"^seed: given twice; each field may appear once$"):
        read_tournament(b'{"format": "tarockscore-tournament/1", "seed": "1", "seed": "2"}')
    with pytest.raises(
        InvalidTournament, match=r"^round 1, table 1: dealer: given twice; each field may appear once$"
    ):
        read_tournament(b'{"rounds": [{"tables": [{"dealer": 1, "dealer": 2}]}]}')
    with pytest.raises(InvalidTournament, match=r"^document: not valid JSON"):
        read_tournament(b"{not json")
    with pytest.raises(InvalidTournament, match=r"^document: must be UTF-8 text"):
        read_tournament("{}".encode("utf-16"))


def test_french_refuses_heine_and_more_than_four_hands():
    assert refusal(change(load(FRENCH), ["settings", "scheme"], "heine")) == (
        "settings.scheme: heine is not offered for French Tarot: its bends fit Königrufen's Schrift; "
        "one of fixed, tirol_formula, custom"
    )
    hands = load(FRENCH)["rounds"][0]["tables"][0]["hands"]
    assert refusal(change(load(FRENCH), ["rounds", 0, "tables", 0, "hands"], hands + hands[:1])) == (
        "round 1, table 1: hands: the round is complete: 4 of 4 hands played; hand 5 is one too many"
    )
    assert refusal(change(load(FRENCH), ["rounds", 0, "tables", 1, "sums", "Emile"], 12.25)) == (
        "round 1, table 2: sums.Emile: must be a whole number (or x.5) from −100000 to 100000 (got 12.25)"
    )


def test_a_refusal_names_its_round_and_table_for_the_app():
    with pytest.raises(InvalidTournament) as refused:
        read_tournament(dumps(change(load(EXAMPLE), ["rounds", 1, "tables", 2, "players", 2], "Erika")))
    error = refused.value
    assert (error.round, error.table, error.field) == (2, 3, "players")
    german = {"round {round}, table {table}": "Runde {round}, Tisch {table}"}
    assert error.describe(lambda text: german.get(text, text)).startswith("Runde 2, Tisch 3: players: ")


# --------------------------------------------------------------------------
# The file written back: one canonical form


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_export_import_export_is_byte_identical(path):
    once = dumps(write_tournament(read_tournament(path.read_bytes())))
    twice = dumps(write_tournament(read_tournament(once)))
    assert once == twice
    assert score_tournament(read_tournament(once)) == score_tournament(read_tournament(path.read_bytes()))


def test_the_canonical_form_writes_every_setting_and_option_in_force():
    written = write_tournament(read_tournament(EXAMPLE.read_bytes()))
    assert list(written) == [
        "format",
        "name",
        "date",
        "variant",
        "options",
        "seed",
        "entrants",
        "settings",
        "rounds",
    ]
    assert written["format"] == FORMAT
    assert written["settings"] == {
        "rounds": 3,
        "hands": 16,
        "hands_at_five": 20,
        "avoid_repeats": "minimise",
        "tie_break": "better_rounds",
        "scheme": "fixed",
        "factor": 1,
        "money_rate": "0.10",
    }
    assert written["options"]["kontra_in_score"] is False
    assert written["options"]["doubled_radl"] is False
    assert written["options"]["tariff"] == "ooe_2023"
    hands = write_tournament(read_tournament(WITH_HANDS.read_bytes()))["rounds"][0]["tables"][0]["hands"]
    assert hands[0]["dealer"] == "Dora"


def test_the_apps_builder_writes_the_same_file():
    tournament = read_tournament(WITH_HANDS.read_bytes())
    original = load(WITH_HANDS)
    built = tournament_document(
        name="Cupabend mit Spielen",
        date=datetime.date(2025, 12, 5),
        variant="koenigrufen",
        options={"tariff": "ooe_2023", "kontra_in_score": False},
        settings={"rounds": 2, "hands": 16, "money_rate": Decimal("0.10")},
        seed="310577",
        entrants=original["entrants"],
        rounds=[
            [
                {
                    "players": ["Anna", "Bert", "Carl", "Dora"],
                    "dealer": "Dora",
                    "hands": write_tournament(tournament)["rounds"][0]["tables"][0]["hands"],
                },
                {
                    "players": ["Emil", "Fritz", "Grete", "Heidi"],
                    "dealer": "Grete",
                    "sums": {"Emil": Fraction(31), "Fritz": Decimal(-12), "Grete": -40, "Heidi": 21},
                },
            ]
        ],
    )
    assert dumps(built) == dumps(write_tournament(tournament))
    with pytest.raises(InvalidTournament, match=r"^settings\.rounds: must be a whole number from 1 to 10"):
        tournament_document(
            variant="koenigrufen",
            options={},
            settings={"rounds": 0},
            seed="310577",
            entrants=["a"],
            rounds=[],
        )


def test_tie_break_lists_are_written_with_lots_at_the_end():
    document = change(load(EXAMPLE), ["settings", "tie_break"], ["table_ranks"])
    written = write_tournament(read_tournament(dumps(document)))
    assert written["settings"]["tie_break"] == ["table_ranks", "lots"]


def test_every_round_is_seated_in_order():
    plan = seating(read_tournament(load_bytes(WITH_HANDS)))
    assert [len(r) for r in plan] == [2, 2]
    assert plan[0][0].sums is not None and plan[1][0].sums is None


def load_bytes(path: Path) -> bytes:
    return path.read_bytes()


@pytest.mark.parametrize(
    ("scheme", "extra"),
    [(None, {}), ("fixed", {}), ("tirol_formula", {}), ("custom", {"points_table": [100, 50]})],
)
def test_shared_places_are_refused_where_cup_points_go_by_place(scheme, extra):
    """§4.2: a chain ending in shared would give tied players one place and its
    points each (four players on place 1 with 223 each)."""
    settings = {"tie_break": ["rounds_desc", "shared"], **({"scheme": scheme} if scheme else {}), **extra}
    document = change(load(EXAMPLE), ["settings"], settings)
    with pytest.raises(InvalidTournament) as refused:
        read_tournament(dumps(document))
    assert refused.value.field == "settings.tie_break"
    assert str(refused.value).startswith(
        f"settings.tie_break: shared is refused with the scheme {scheme or 'fixed'}: its cup points go by place"
    )


def test_shared_places_with_heine_points_share_the_place_and_the_points():
    document = change(load(EXAMPLE), ["settings"], {"tie_break": ["shared"], "scheme": "heine"})
    out = scored(document)
    tied = [row for row in out["ranking"] if row["total"] == 45]  # Karin and Christa
    assert [row["place"] for row in tied] == [3, 3]
    assert {out["cup_points"][row["name"]] for row in tied} == {45}
