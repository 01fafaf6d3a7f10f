"""Importing a session file: what the session is called, the day it was played,
its money rate (docs/session-file.md: name, date, money_rate)."""

from __future__ import annotations

import datetime
import io
import json
from decimal import Decimal
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from scoring import services
from scoring.engine import InvalidInput
from scoring.exports import session_json
from scoring.models import Hand, Session

PLAYERS = ["Anna", "Bert", "Carl", "Dora"]


def session_file(**top: Any) -> bytes:
    document = {
        "variant": "french",
        "players": PLAYERS,
        "hands": [{"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}],
        **top,
    }
    return json.dumps(document, ensure_ascii=False).encode()


def upload(client: Any, content: bytes, filename: str, name: str = "") -> Any:
    file = io.BytesIO(content)
    file.name = filename
    return client.post(reverse("session_import"), {"file": file, "name": name})


# -- the service ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("top", "name", "filename", "expected"),
    [
        ({"name": "Freitag bei Carl"}, "", "evening.json", "Freitag bei Carl"),  # the file's own name
        ({"name": "Freitag bei Carl"}, "Typed in", "evening.json", "Typed in"),  # an explicit name wins
        ({"name": "Freitag bei Carl"}, "   ", "evening.json", "Freitag bei Carl"),  # blank is no name
        ({}, "", "tarot-zu-fünft.json", "tarot zu fünft"),  # else the file's name, letters intact
        ({}, "", "tarot-zu-fu\u0308nft.json", "tarot zu fünft"),  # as a Mac spells the ü
        ({}, "", "C:\\Abende\\freitag_bei_carl.v2.json", "freitag bei carl.v2"),
        ({}, "  Samstag  ", "evening.json", "Samstag"),
    ],
)
def test_the_session_is_called_what_was_typed_else_what_the_file_says_else_after_the_file(
    user, top, name, filename, expected
):
    session = services.session_import(owner=user, text=session_file(**top), name=name, filename=filename)
    assert session.name == expected


def test_a_name_typed_in_over_80_characters_is_refused_and_nothing_is_written(user):
    with pytest.raises(InvalidInput) as caught:
        services.session_import(owner=user, text=session_file(), name="x" * 81, filename="evening.json")
    assert caught.value.field == "name"
    assert "1 to 80 characters" in str(caught.value)
    assert Session.objects.count() == 0 and Hand.objects.count() == 0


def test_a_long_file_name_is_cut_to_80_characters(user):
    session = services.session_import(owner=user, text=session_file(), filename="a" * 120 + ".json")
    assert session.name == "a" * 80


def test_the_day_and_the_money_rate_come_from_the_file(user):
    session = services.session_import(
        owner=user, text=session_file(date="2025-12-31", money_rate="0.05"), filename="evening.json"
    )
    session.refresh_from_db()
    assert session.played_on == datetime.date(2025, 12, 31)
    assert session.money_rate == Decimal("0.05")
    exported = json.loads(session_json(session))
    assert (exported["date"], exported["money_rate"]) == ("2025-12-31", "0.05")


def test_a_file_without_a_day_was_played_today(user):
    session = services.session_import(owner=user, text=session_file(), filename="evening.json")
    session.refresh_from_db()
    assert session.played_on == timezone.localdate()
    assert session.money_rate is None
    exported = json.loads(session_json(session))
    assert exported["date"] == timezone.localdate().isoformat() and "money_rate" not in exported


def test_a_new_session_is_played_today(make_session):
    session = make_session(money_rate=Decimal("0.1"))
    session.refresh_from_db()
    assert session.played_on == timezone.localdate()
    assert json.loads(session_json(session))["money_rate"] == "0.10"


@pytest.mark.parametrize(
    ("top", "field"),
    [({"date": "2026-02-30"}, "date"), ({"money_rate": "-1"}, "money_rate"), ({"name": ""}, "name")],
)
def test_a_bad_name_date_or_money_rate_in_the_file_writes_nothing(user, top, field):
    with pytest.raises(InvalidInput) as caught:
        services.session_import(owner=user, text=session_file(**top), filename="evening.json")
    assert caught.value.field == field
    assert Session.objects.count() == 0


# -- the upload page ---------------------------------------------------------------------


def test_an_upload_takes_the_files_name_unless_one_is_typed(logged_in):
    upload(logged_in, session_file(name="Freitag bei Carl"), "evening.json")
    upload(logged_in, session_file(name="Freitag bei Carl"), "evening.json", name="Mein Abend")
    upload(logged_in, session_file(), "tarot-zu-fünft.json")
    assert list(Session.objects.order_by("pk").values_list("name", flat=True)) == [
        "Freitag bei Carl",
        "Mein Abend",
        "tarot zu fünft",
    ]


def test_an_upload_with_a_name_typed_over_80_characters_is_refused(logged_in):
    response = upload(logged_in, session_file(), "evening.json", name="x" * 81)
    assert response.status_code == 400
    assert "name: a name has 1 to 80 characters" in response.content.decode()
    assert Session.objects.count() == 0


# -- the command ---------------------------------------------------------------------------


def test_import_session_names_the_session_as_the_upload_does(user, tmp_path, capsys):
    path = tmp_path / "tarot-zu-fünft.json"
    path.write_bytes(session_file())
    call_command("import_session", str(path), owner=user.username)
    path.write_bytes(session_file(name="Freitag bei Carl", date="2026-01-02"))
    call_command("import_session", str(path), owner=user.username)
    call_command("import_session", str(path), owner=user.username, name="Von Hand")
    ids = [int(line) for line in capsys.readouterr().out.split()]
    sessions = [Session.objects.get(pk=pk) for pk in ids]
    assert [s.name for s in sessions] == ["tarot zu fünft", "Freitag bei Carl", "Von Hand"]
    assert sessions[1].played_on == datetime.date(2026, 1, 2)
