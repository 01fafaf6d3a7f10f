"""The web import (``POST /tournaments/import/``) and ``score_tournament`` read a
tournament file the same way (TOURNAMENTS.md §13, docs/tournament-file.md): each
file of a malformed corpus is accepted by both or refused by both, a refusal with
the same one line naming round, table and field, and never a server error; the
size limit (2 MB) holds in both with its own message."""

from __future__ import annotations

import html
import io
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tests.tournaments.test_core_tournament_file import EXAMPLE, WITH_HANDS, change, load
from tournaments.core.tournament_file import MAX_BYTES, dumps, read_tournament, score_tournament
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def padded(document: dict, size: int) -> bytes:
    """The file with spaces after its first brace (still the same JSON) to ``size`` bytes."""
    text = dumps(document).encode()
    return b"{" + b" " * (size - len(text)) + text[1:]


def sums(values: dict[str, int | str]) -> dict:
    """The example with its first round's first table given as ``values``."""
    return change(load(EXAMPLE), ["rounds", 0, "tables", 0, "sums"], values)


def raw_number(digits: int) -> bytes:
    """The example with a sum written as a number of ``digits`` digits."""
    text = dumps(load(EXAMPLE))
    return text.replace('"Erika": 92', f'"Erika": {"9" * digits}', 1).encode()


def twice() -> bytes:
    """The example with its name given twice (the first would silently be lost)."""
    text = dumps(load(EXAMPLE))
    return text.replace('"name": "Cupabend",', '"name": "Erster", "name": "Cupabend",', 1).encode()


@dataclass(frozen=True)
class Case:
    name: str
    data: Callable[[], bytes]
    accepted: bool


CORPUS = [
    Case("deep nesting", lambda: b"[" * 400_000, False),
    Case("deep nesting in a field", lambda: dumps(load(EXAMPLE)).replace('"Cupabend"', "[" * 50_000, 1).encode(), False),
    Case("a 5000-digit number", lambda: raw_number(5000), False),
    Case("a key given twice", twice, False),
    Case("sums of ±100000", lambda: dumps(sums({"Erika": 100000, "Hans": -100000, "Bernd": 0, "Anna": 0})).encode(), True),
    Case("a sum past 100000", lambda: dumps(sums({"Erika": 100001, "Hans": -100001, "Bernd": 0, "Anna": 0})).encode(), False),
    Case("a 1.9 MB file", lambda: padded(load(WITH_HANDS), 1_900_000), True),
    Case("a 2.1 MB file", lambda: padded(load(EXAMPLE), 2_100_000), False),
    Case("one byte past the limit", lambda: padded(load(EXAMPLE), MAX_BYTES + 1), False),
    Case("exactly at the limit", lambda: padded(load(EXAMPLE), MAX_BYTES), True),
    Case("look-alike entrants", lambda: dumps(change(load(EXAMPLE), ["entrants", 11], "ANNA")).encode(), False),
    Case("an invisible character in a name", lambda: dumps(change(load(EXAMPLE), ["entrants", 11], "Le\u200bo")).encode(), False),
    Case("shared places with fixed points", lambda: dumps(change(load(EXAMPLE), ["settings", "tie_break"], ["rounds_desc", "shared"])).encode(), False),
    Case("not UTF-8", lambda: "{\"name\": \"Café\"}".encode("latin-1"), False),
    Case("the worked example", lambda: EXAMPLE.read_bytes(), True),
]  # fmt: skip


class Stdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def command(data: bytes, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> str | None:
    """``score_tournament`` of ``data``: None when it scores it, else its one line on stderr."""
    monkeypatch.setattr("sys.stdin", Stdin(data))
    try:
        call_command("score_tournament")
    except SystemExit as exit_:
        assert exit_.code == 2
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.endswith("\n") and captured.err.count("\n") == 1
        return captured.err.rstrip("\n")
    capsys.readouterr()
    return None


def web(browser: Client, data: bytes) -> tuple[int, str | None]:
    """The import page's answer to ``data``: its status and its refusal (None for none)."""
    answer = browser.post(reverse("tournament_import"), {"file": SimpleUploadedFile("t.json", data)})
    found = re.search(r'<p class="error" role="alert" id="import-error">(.*?)</p>', answer.content.decode())
    return answer.status_code, html.unescape(found[1]) if found else None


@pytest.fixture
def browser(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


@pytest.mark.parametrize("case", CORPUS, ids=[case.name for case in CORPUS])
def test_the_import_accepts_and_refuses_exactly_as_score_tournament(case, browser, user, monkeypatch, capsys):
    data = case.data()
    refused_by_command = command(data, monkeypatch, capsys)
    status, refused_on_the_page = web(browser, data)
    assert (refused_by_command is None) == case.accepted, refused_by_command
    assert refused_on_the_page == refused_by_command
    if case.accepted:
        assert status == 302
        made = Tournament.objects.get(owner=user)
        assert made.entrants.count() == len(read_tournament(data).entrants)
    else:
        assert status == 400 and not Tournament.objects.exists()


def test_the_limit_has_its_own_message_in_both(browser, monkeypatch, capsys):
    data = padded(load(EXAMPLE), 2_100_000)
    line = "file: a tournament file has at most 2 MB (2000000 bytes): this one is larger"
    assert command(data, monkeypatch, capsys) == line
    assert web(browser, data) == (400, line)


def test_sums_of_100000_are_stored_as_the_file_scores_them(browser, user):
    data = dumps(sums({"Erika": 100000, "Hans": -100000, "Bernd": 0, "Anna": 0})).encode()
    assert web(browser, data) == (302, None)
    made = Tournament.objects.get(owner=user)
    table = made.rounds.get(number=1).tables.get(number=1)
    assert sorted(table.desk_sums.values()) == ["-100000", "0", "0", "100000"]
    expected = {row["name"]: row["total"] for row in score_tournament(read_tournament(data))["ranking"]}
    from tournaments.services import results

    shown = {row.name: row.total for row in results.standings(made).rows}
    assert shown == expected


def test_a_session_file_keeps_its_own_smaller_limit(logged_in):
    """The tournament import's 2 MB does not widen the session import's 1 MB."""
    from django.conf import settings

    big = b"{" + b" " * (settings.SESSION_FILE_MAX_BYTES + 10) + b"}"
    answer = logged_in.post(reverse("session_import"), {"file": SimpleUploadedFile("s.json", big)})
    assert answer.status_code == 400 and "at most" in answer.content.decode()
