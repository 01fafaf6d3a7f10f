"""Adding a game touches the engine (its module and its registration), its
templates only if it needs fields of its own, and a migration only for the list
of games the database accepts. Here a dummy game is registered the way a
deployment adds one, in the settings (``TAROCK_EXTRA_GAMES``), and everything
around the engine takes it up by itself: the pages, a hand recorded through the
form, the sheet, the settlement, the print view and every file."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.models import CheckConstraint
from django.urls import reverse

from scoring.engine import VARIANTS, read_session, score_session
from scoring.models import Session, known_games_check, variant_choices
from tests.web.dummy_game import PATH, Dummy
from tests.web.test_sheets import pdf_text
from tests.web.test_views import sheet_totals

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def dummy(settings) -> Iterator[None]:
    """The dummy game registered in the test settings, as a deployment registers one."""
    settings.TAROCK_EXTRA_GAMES = [PATH]
    assert isinstance(VARIANTS["dummy"], Dummy)
    yield


@pytest.fixture
def dummy_migrated(dummy, transactional_db) -> Iterator[None]:
    """... and its one migration applied: the database's check of known games,
    built from the registry as importing the models with the game registered
    builds it (``test_a_new_game_needs_one_migration_for_its_key`` shows that)."""
    old = next(c for c in Session._meta.constraints if c.name == "session_variant_known")
    new = known_games_check()
    kept = Session._meta.constraints
    # SQLite rebuilds the table from the model's constraints: the model holds the new check.
    Session._meta.constraints = [new if c is old else c for c in kept]
    with connection.schema_editor() as editor:
        editor.remove_constraint(Session, old)
        editor.add_constraint(Session, new)
    try:
        yield
    finally:
        Session.objects.filter(variant="dummy").delete()
        Session._meta.constraints = kept
        with connection.schema_editor() as editor:
            editor.remove_constraint(Session, new)
            editor.add_constraint(Session, old)


def test_the_settings_add_the_game_to_the_registry_and_taking_it_out_removes_it(settings):
    assert "dummy" not in VARIANTS
    settings.TAROCK_EXTRA_GAMES = [PATH]
    assert list(VARIANTS) == ["french", "illustrated", "chambery", "koenigrufen", "dummy"]
    settings.TAROCK_EXTRA_GAMES = []
    assert list(VARIANTS) == ["french", "illustrated", "chambery", "koenigrufen"]


def test_the_engine_scores_the_new_game_from_a_session_file(dummy):
    document = {
        "variant": "dummy",
        "players": ["A", "B", "C"],
        "options": {"stake": 3},
        "hands": [{"winner": "B"}],
    }
    result = score_session(read_session(json.dumps(document)))
    assert result.to_json()["totals"] == {"A": -3, "B": 6, "C": -3}


def test_the_list_of_games_and_the_model_choices_come_from_the_registry(dummy):
    assert ("dummy", "Dummy Tarock") in [(key, str(label)) for key, label in variant_choices()]
    field = Session._meta.get_field("variant")
    assert "dummy" in [key for key, _label in field.choices]
    call_command("check")


def test_the_pages_offer_the_new_game_and_its_house_rules(dummy, logged_in):
    assert "Dummy Tarock" in logged_in.get(reverse("session_new")).content.decode()
    page = logged_in.get(reverse("session_new_variant", args=["dummy"]))
    assert page.status_code == 200
    assert 'name="options.stake"' in page.content.decode()


def test_the_database_accepts_exactly_the_registered_games():
    (constraint,) = [
        c
        for c in Session._meta.constraints
        if isinstance(c, CheckConstraint) and c.name == "session_variant_known"
    ]
    assert constraint.condition.children == [("variant__in", tuple(VARIANTS))]
    assert constraint == known_games_check()


def test_a_new_game_needs_one_migration_for_its_key():
    """With the game in the settings from the start, the models take it up when
    they are defined, and what ``makemigrations`` finds is the one migration the
    README names: the game's key added to the database's check of known games
    (the model's choices are read from the registry whenever they are asked for)."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.web.settings_dummy_game"}
    out = subprocess.run(
        [sys.executable, "manage.py", "makemigrations", "scoring", "--dry-run"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    changes = [line.strip() for line in out.splitlines() if line.strip().startswith(("~", "+", "-"))]
    assert changes == [
        "- Remove constraint session_variant_known from model session",
        "+ Create constraint session_variant_known on model session",
    ], out


def test_without_extra_games_no_migration_is_missing(db):
    out = io.StringIO()
    call_command("makemigrations", "scoring", "--dry-run", stdout=out)
    assert out.getvalue().strip() == "No changes detected in app 'scoring'"


def test_a_hand_of_the_new_game_is_recorded_through_the_form_and_every_page_and_file_shows_it(
    dummy_migrated, logged_in
):
    created = logged_in.post(
        reverse("session_new_variant", args=["dummy"]),
        {"name": "Dummy night", "seat_1": "Anna", "seat_2": "Bert", "seat_3": "Carl", "options.stake": "3"},
    )
    session = Session.objects.get(name="Dummy night")
    assert created.status_code == 302 and session.variant == "dummy" and session.options == {"stake": 3}

    form = logged_in.get(reverse("hand_new", args=[session.pk])).content.decode()
    assert re.search(r'name="winner" value="Bert"', form)
    saved = logged_in.post(
        reverse("hand_new", args=[session.pk]),
        {"token": "t1", "type": "played", "action": "save", "winner": "Bert", "note": ""},
    )
    assert saved.status_code == 302, saved.content.decode()[:2000]
    (hand,) = session.hands.all()
    assert hand.deltas == {"Anna": -3, "Bert": 6, "Carl": -3}

    sheet = logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode()
    assert "Bert wins" in sheet
    assert sheet_totals(sheet) == {"Anna": -3, "Bert": 6, "Carl": -3}

    settlement = logged_in.get(reverse("settlement", args=[session.pk])).content.decode()
    transfers = re.sub(
        r"<[^>]+>", "", re.search(r'id="transfers">(.*?)</section>', settlement, re.S).group(1)
    )
    assert re.findall(r"(\w+) → (\w+): (\d+) points", transfers) == [
        ("Anna", "Bert", "3"),
        ("Carl", "Bert", "3"),
    ]

    printed = logged_in.get(reverse("session_print", args=[session.pk])).content.decode()
    assert "Dummy night" in printed and "Bert wins" in printed

    data = logged_in.get(reverse("session_export", args=[session.pk, "csv"]) + "?format=comma").content
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert rows[0][-6:] == [
        "Anna: points",
        "Anna: total",
        "Bert: points",
        "Bert: total",
        "Carl: points",
        "Carl: total",
    ]
    assert rows[1][0] == "1" and "Bert wins" in rows[1] and rows[1][-6:] == ["-3", "-3", "6", "6", "-3", "-3"]

    document = logged_in.get(reverse("session_export", args=[session.pk, "json"])).content.decode()
    result = score_session(read_session(document)).to_json()
    assert json.loads(document)["variant"] == "dummy" and result["totals"] == {
        "Anna": -3,
        "Bert": 6,
        "Carl": -3,
    }

    pdf = logged_in.get(reverse("session_export", args=[session.pk, "pdf"]))
    assert pdf["Content-Type"] == "application/pdf"
    text = pdf_text(pdf.content)
    assert "Dummy night" in text and "Bert wins" in text
    assert re.search(r"Anna\s+Bert\s+Carl", text) and re.search(r"−3\s+\+6\s+−3", text), text
