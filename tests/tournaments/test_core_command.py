"""``python manage.py score_tournament``, run the way a user runs it: the file
on standard input or as an argument, the scored document on stdout; a refusal is
exit status 2, one line on stderr and nothing on stdout. It reads no database."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.tournaments.test_core_tournament_file import EXAMPLE, FILES, REFUSALS, change, load
from tournaments.core.tournament_file import dumps, read_tournament, score_tournament

ROOT = Path(__file__).resolve().parents[2]
# A database nobody can reach: a command that touched one would fail.
NO_DATABASE = "postgres://nobody@127.0.0.1:9/no_such_database"


def score(stdin: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    """``python manage.py score_tournament`` with a bare environment (no secret
    key, no DEBUG) and no database to reach."""
    env = {key: value for key, value in os.environ.items() if key not in ("SECRET_KEY", "DEBUG")}
    env["DJANGO_SETTINGS_MODULE"] = "tarockscore.settings"
    env["DATABASE_URL"] = NO_DATABASE
    return subprocess.run(
        [sys.executable, "manage.py", "score_tournament", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=False,
    )


def test_the_example_is_printed_from_standard_input():
    result = score(EXAMPLE.read_bytes())
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    out = json.loads(result.stdout)
    assert out == score_tournament(read_tournament(EXAMPLE.read_bytes()))
    assert result.stdout.decode() == dumps(out)
    assert out["ranking"][0] == {"place": 1, "name": "Erika", "rounds": [92, -42, 61], "total": 111}


def test_a_file_argument_is_read_too():
    result = score(b"", str(EXAMPLE))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["cup_points"]["Franz"] == 198


def test_a_refusal_is_exit_two_one_line_and_nothing_on_stdout():
    document = change(
        load(EXAMPLE), ["rounds", 1, "tables", 2, "players"], ["Hans", "Karin", "Erika", "Dieter"]
    )
    result = score(dumps(document).encode())
    assert result.returncode == 2
    assert result.stdout == b""
    assert result.stderr.decode().splitlines() == [
        "round 2, table 3: players: Erika sits at table 1 of this round too"
    ]


def test_a_file_that_cannot_be_read_is_refused():
    result = score(b"", str(ROOT / "no-such-tournament.json"))
    assert result.returncode == 2 and result.stdout == b""
    assert result.stderr.decode().startswith("file: cannot be read")


def test_help_is_djangos():
    result = score(b"", "--help")
    assert result.returncode == 0
    assert b"Score a tarockscore-tournament/1 file" in result.stdout


class Stdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_call_command_prints_each_fixture_without_a_database(path, capsysbinary):
    # no ``db`` fixture: pytest-django refuses any database access in this test
    call_command("score_tournament", str(path))
    out = capsysbinary.readouterr()
    assert out.err == b""
    assert json.loads(out.out) == score_tournament(read_tournament(path.read_bytes()))


@pytest.mark.parametrize(("path", "value", "message"), REFUSALS)
def test_call_command_refuses_each_case_the_same_way(path, value, message, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", Stdin(dumps(change(load(EXAMPLE), path, value)).encode()))
    with pytest.raises(SystemExit) as exit_:
        call_command("score_tournament")
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == message + "\n"
