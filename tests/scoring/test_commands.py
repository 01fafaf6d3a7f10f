"""The command-line tools, run the way a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from tests.engine.support import FIXTURES

ROOT = Path(__file__).resolve().parents[2]


def score_session(stdin: str | bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    """``python manage.py score_session`` with a bare environment: no secret key, no DEBUG."""
    env = {key: value for key, value in os.environ.items() if key not in ("SECRET_KEY", "DEBUG")}
    env["DJANGO_SETTINGS_MODULE"] = "tarockscore.settings"
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(
        [sys.executable, "manage.py", "score_session", *args],
        input=data,
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=False,
    )


def test_score_session_prints_the_seed_table():
    result = score_session((FIXTURES / "french-seed-table.json").read_bytes())
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["totals"] == {"Anna": 108, "Bert": 172, "Carl": -380, "Dora": 100}
    assert out["hands"][0]["deltas"] == {"Anna": 240, "Bert": -80, "Carl": -80, "Dora": -80}
    assert out["hands"][0]["breakdown"][0] == "(25 + 15) × 2 = 80 (Garde)"
    assert out["settlement"]["net"] == out["totals"]
    assert sorted(out) == ["hands", "settlement", "totals"]
    assert result.stderr == b""


def manage(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    env = {key: value for key, value in os.environ.items() if key not in ("SECRET_KEY", "DEBUG")}
    return subprocess.run(
        [sys.executable, *args], input=stdin, capture_output=True, cwd=ROOT, env=env, timeout=60, check=False
    )


def test_score_session_does_not_start_django():
    seed = str(FIXTURES / "french-seed-table.json")
    result = manage("-X", "importtime", "manage.py", "score_session", seed)
    assert result.returncode == 0
    imported = [
        line.rsplit("|", 1)[-1].strip()
        for line in result.stderr.decode().splitlines()
        if line.startswith("import time:")
    ]
    assert "scoring.engine" in imported
    assert [name for name in imported if name.split(".")[0] == "django"] == []
    # through Django (any of its options) the command prints the very same
    through_django = manage("manage.py", "score_session", seed, "--verbosity", "1")
    assert through_django.returncode == 0
    assert through_django.stdout == result.stdout


def test_score_session_through_django_refuses_the_same_way():
    document = json.dumps({"variant": "skat", "players": ["A", "B", "C"]}).encode()
    fast = manage("manage.py", "score_session", stdin=document)
    slow = manage("manage.py", "score_session", "--verbosity", "1", stdin=document)
    assert fast.returncode == slow.returncode == 2
    assert fast.stdout == slow.stdout == b""
    assert fast.stderr == slow.stderr
    assert fast.stderr.decode().startswith("variant: must be one of french, illustrated, chambery")


def test_score_session_help_is_djangos():
    result = manage("manage.py", "score_session", "--help")
    assert result.returncode == 0
    assert b"Score a tarockscore/1 session file" in result.stdout


def test_call_command_score_session_prints_the_result(capsysbinary):
    call_command("score_session", str(FIXTURES / "french-seed-table.json"))
    assert json.loads(capsysbinary.readouterr().out)["totals"]["Carl"] == -380


def test_score_session_reads_a_file_argument_too():
    result = score_session(b"", str(FIXTURES / "french-seed-table.json"))
    assert result.returncode == 0
    assert json.loads(result.stdout)["totals"]["Carl"] == -380


def test_numbers_are_json_integers_or_halves():
    session = {
        "variant": "french",
        "players": ["Anna", "Bert", "Carl", "Dora", "Emil"],
        "options": {"five_player_split": "equal"},
        "hands": [
            {
                "dealer": "Emil",
                "taker": "Anna",
                "partner": "Bert",
                "contract": "prise",
                "bouts": 2,
                "points": 42,
            }
        ],
    }
    result = score_session(json.dumps(session))
    text = result.stdout.decode()
    assert '"Anna": 39' in text and '"Carl": -26' in text  # 1.5 × 26 = 39: a whole number stays whole
    session["hands"][0]["points"] = 41.5  # won by 1: (25 + 1) × 1 = 26 … 1.5 × 26 = 39
    session["hands"][0]["contract"] = "garde"  # 52 per defender, 78 each for the pair
    session["hands"][0]["points"] = 42.5  # won by 2: (25 + 2) × 2 = 54, 1.5 × 54 = 81
    session["hands"][0]["contract"] = "prise"  # (25 + 2) × 1 = 27, 1.5 × 27 = 40.5
    text = score_session(json.dumps(session)).stdout.decode()
    assert '"Anna": 40.5' in text and '"Bert": 40.5' in text and "40.50" not in text
    assert ".0," not in text and ".0\n" not in text


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        (
            {
                "variant": "french",
                "players": ["A", "B", "C", "D"],
                "hands": [
                    {"dealer": "D", "taker": "A", "contract": "garde", "bouts": 2, "points": 50},
                    {"taker": "A", "contract": "garde", "bouts": 3, "points": 10},
                ],
            },
            "hand 2, points:",
        ),
        (
            {
                "variant": "french",
                "players": ["A", "B", "C"],
                "hands": [{"taker": "A", "contract": "garde", "bouts": 5, "points": 50}],
            },
            "hand 1, bouts: Bouts: a whole number from 0 to 3 (got 5)",
        ),
        (
            {
                "variant": "french",
                "players": ["A", "B", "C"],
                "hands": [{"taker": "A", "contract": "garde", "bouts": 1, "points": 50, "poignee": []}],
            },
            "hand 1, poignee: unknown field",
        ),
        (
            {"variant": "skat", "players": ["A", "B", "C"]},
            "variant: must be one of french, illustrated, chambery",
        ),
        (
            {"format": "tarockscore/2", "variant": "french", "players": ["A", "B", "C"]},
            "format: must be tarockscore/1",
        ),
    ],
)
def test_invalid_input_exits_2_with_one_line_naming_hand_and_field(document, expected):
    result = score_session(json.dumps(document))
    assert result.returncode == 2
    assert result.stdout == b""
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith(expected), lines


def illustrated(hand: dict, **options: str) -> dict:
    return {"variant": "illustrated", "players": ["A", "B", "C"], "options": options, "hands": [hand]}


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        (  # docs/rules.md §2.6: in an opponents' valat the declarer has his own discard, 1 to 13 in a Dreiblatt
            illustrated(
                {
                    "declarer": "A",
                    "game": "dreiblatt",
                    "bid": "held",
                    "points": 0,
                    "valat": {"by": "opponents"},
                }
            ),
            "hand 1, points: Points: the opponents took every trick (valat): the declarer's points are his discard "
            "of 3 cards in this Dreiblatt, from 1 to 13 (got 0)",
        ),
        (  # docs/rules.md §2.8: the untouched talon holds 2 to 26 points
            illustrated({"type": "trischaken", "points": {"A": 40, "B": 20, "C": 10}}, all_pass="trischaken"),
            "hand 1, points: Points of each player: the talon is not played and holds 2 to 26 points, so the three players' "
            "points add up to 44 to 68 (got 70)",
        ),
        (  # docs/rules.md §2.5: the side that took no trick cannot have taken the XXI
            illustrated(
                {
                    "declarer": "A",
                    "game": "solo",
                    "bid": "announced",
                    "points": 70,
                    "valat": {"by": "declarer"},
                    "mondfang": {"captured_by": "C", "played_by": "A"},
                },
                profile="graz",
            ),
            "hand 1, mondfang.captured_by: Mondfang, Sküs played by: the side that made the valat took every trick, so the XXI "
            "was taken by one of A (got C)",
        ),
    ],
)
def test_each_rules_correction_refuses_with_exit_2_and_one_line(document, expected):
    result = score_session(json.dumps(document))
    assert result.returncode == 2
    assert result.stdout == b""
    assert result.stderr.decode().splitlines() == [expected]


def test_text_that_is_not_json_is_refused_the_same_way():
    result = score_session("{not json")
    assert result.returncode == 2 and result.stdout == b""
    assert result.stderr.decode().startswith("document: not valid JSON")


def test_a_game_not_registered_is_refused_the_same_way(monkeypatch, capsys):
    from types import MappingProxyType

    from scoring.engine import registry, session_file

    only = {key: game for key, game in registry.VARIANTS.items() if key != "chambery"}
    monkeypatch.setattr(session_file, "VARIANTS", MappingProxyType(only))
    monkeypatch.setattr("sys.stdin", _Stdin((FIXTURES / "chambery-seed-three-players.json").read_bytes()))
    with pytest.raises(SystemExit) as exit_:
        call_command("score_session")
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(
        'variant: must be one of french, illustrated, koenigrufen (got "chambery")'
    )


class _Stdin:
    def __init__(self, data: bytes) -> None:
        import io

        self.buffer = io.BytesIO(data)


@pytest.mark.django_db
def test_ensure_first_user_creates_one_account_and_says_how_to_log_in(tmp_path, settings, capsys):
    settings.BASE_DIR = tmp_path
    call_command("ensure_first_user")
    first = capsys.readouterr().out
    user = User.objects.get()
    password = (tmp_path / "var" / "first-user.txt").read_text().split()[1]
    assert user.check_password(password)
    assert f"'{user.username}'" in first and password in first
    call_command("ensure_first_user")
    assert User.objects.count() == 1
    assert password in capsys.readouterr().out
