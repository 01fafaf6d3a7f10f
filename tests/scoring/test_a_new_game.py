"""Adding a game touches the engine (its module and one line naming it), its
templates only if it needs fields of its own, and nothing else: no migration
(the database keeps no list of games). Here a dummy game is named the way a
deployment adds one, in the settings (``TAROCK_EXTRA_GAMES``: one line), and
everything around the engine takes it up by itself: the pages, a hand recorded
through the form, the sheet, the settlement, the print view and every file."""

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
from types import MappingProxyType

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from scoring.engine import VARIANTS, InvalidInput, read_session, score_session
from scoring.engine.registry import BUILT_IN, games, get_variant
from scoring.games import registry
from scoring.models import Session, variant_choices
from tarockscore.checks import extra_games_load
from tests.scoring.dummy_game import PATH, Dummy
from tests.scoring.test_sheets import pdf_text
from tests.scoring.test_views import sheet_totals

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def dummy(settings) -> Iterator[None]:
    """The dummy game named in the test settings, as a deployment names one."""
    settings.TAROCK_EXTRA_GAMES = [PATH]
    assert isinstance(registry()["dummy"], Dummy)
    yield


def test_the_settings_add_the_game_to_the_registry_and_taking_it_out_removes_it(settings):
    assert "dummy" not in registry()
    settings.TAROCK_EXTRA_GAMES = [PATH]
    assert list(registry()) == ["french", "illustrated", "chambery", "koenigrufen", "dummy"]
    settings.TAROCK_EXTRA_GAMES = []
    assert list(registry()) == ["french", "illustrated", "chambery", "koenigrufen"]


def test_the_registry_is_one_line_per_game_and_never_changes_at_run_time(settings):
    assert (
        [game.key for game in BUILT_IN]
        == list(VARIANTS)
        == ["french", "illustrated", "chambery", "koenigrufen"]
    )
    settings.TAROCK_EXTRA_GAMES = [PATH]
    with_dummy = registry()
    # The engine's own list stays as it was; the deployment's list is built once.
    assert "dummy" not in VARIANTS and registry() is with_dummy is games((PATH,))
    assert (
        get_variant("dummy", (PATH,)) is with_dummy["dummy"] and get_variant("french") is VARIANTS["french"]
    )
    for mapping in (VARIANTS, with_dummy):
        assert isinstance(mapping, MappingProxyType)
        with pytest.raises(TypeError):
            mapping["other"] = Dummy()


def test_a_game_named_twice_or_not_a_game_is_refused_at_start(settings):
    settings.TAROCK_EXTRA_GAMES = [PATH, PATH]
    (error,) = extra_games_load(None)
    assert error.id == "tarockscore.E002" and "two games with the key 'dummy'" in error.msg
    settings.TAROCK_EXTRA_GAMES = ["tests.scoring.dummy_game.DummyHand"]
    (error,) = extra_games_load(None)
    assert (
        error.msg == "TAROCK_EXTRA_GAMES: tests.scoring.dummy_game.DummyHand is not a game (a Variant class)"
    )
    settings.TAROCK_EXTRA_GAMES = ["tests.scoring.dummy_game.Dumy"]
    (error,) = extra_games_load(None)
    assert error.msg.startswith("TAROCK_EXTRA_GAMES: ")
    settings.TAROCK_EXTRA_GAMES = [PATH]
    assert extra_games_load(None) == []


def test_the_engine_scores_the_new_game_from_a_session_file(dummy):
    document = {
        "variant": "dummy",
        "players": ["A", "B", "C"],
        "options": {"stake": 3},
        "hands": [{"winner": "B"}],
    }
    result = score_session(read_session(json.dumps(document), registry()))
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


def test_a_game_not_registered_is_refused_by_the_service_and_the_model(user, make_session):
    """The database keeps no list of games: the service and the model check the key."""
    with pytest.raises(InvalidInput) as refused:
        make_session(variant="dummy", players=("A", "B", "C"))
    assert refused.value.field == "variant" and not Session.objects.exists()
    session = make_session()
    session.variant = "dummy"
    with pytest.raises(ValidationError) as invalid:
        session.full_clean()
    assert "variant" in invalid.value.error_dict


def test_a_new_game_needs_no_migration():
    """With the game in the settings from the start, ``makemigrations --check``
    finds nothing to write: the model's choices are read from the registry
    whenever they are asked for, and the database keeps no list of games
    (docs/adding-a-game.md)."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.scoring.settings_dummy_game"}
    done = subprocess.run(
        [sys.executable, "manage.py", "makemigrations", "--check", "--dry-run"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stdout.strip() == "No changes detected", done.stdout + done.stderr


def test_without_extra_games_no_migration_is_missing(db):
    out = io.StringIO()
    call_command("makemigrations", "scoring", "--dry-run", stdout=out)
    assert out.getvalue().strip() == "No changes detected in app 'scoring'"


def test_a_hand_of_the_new_game_is_recorded_through_the_form_and_every_page_and_file_shows_it(
    dummy, logged_in
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
    result = score_session(read_session(document, registry())).to_json()
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

    upload = SimpleUploadedFile("dummy.json", document.encode(), content_type="application/json")
    imported = logged_in.post(reverse("session_import"), {"file": upload})
    assert imported.status_code == 302, imported.content.decode()[:2000]
    copy = Session.objects.exclude(pk=session.pk).get(variant="dummy")
    assert [hand.deltas for hand in copy.hands.all()] == [{"Anna": -3, "Bert": 6, "Carl": -3}]


def test_the_new_game_is_offered_for_tournaments_and_a_day_of_it_is_played_signed_and_exported(
    dummy, logged_in, user
):
    """The game's ``TournamentTerms`` are all a tournament asks of it: the organiser's
    pages offer it, its defaults fill the settings, each table plays it through the
    table link and signs, the standings count it, and the tournament file carries it."""
    from scoring.games import for_tournaments
    from tests.tournaments.factory import draw, fresh, release, tables, tournament
    from tests.tournaments.table_support import claimed_phone
    from tournaments.core.tournament_file import read_tournament, score_tournament
    from tournaments.models import RoundResult
    from tournaments.services import results
    from tournaments.services import tournaments as tournament_service

    assert list(for_tournaments()) == ["koenigrufen", "french", "dummy"]
    assert "Dummy Tarock" in logged_in.get(reverse("tournament_list")).content.decode()
    page = logged_in.get(reverse("tournament_new", args=["dummy"])).content.decode()
    assert 'name="options.stake"' in page and 'name="kontra_cash"' not in page

    names = ("Anna", "Bert", "Carl", "Dora", "Emil", "Fini", "Gust", "Hilde")
    day = tournament(user, names=names, variant="dummy", money_rate=None, options={"stake": 3})
    assert (day.settings["rounds"], day.settings["hands_at_four"], day.settings["kontra_cash"]) == (
        1,
        2,
        None,
    )
    draw(day)
    release(day)
    for table in tables(day, 1):
        scorer = claimed_phone(table)
        link = reverse("tournament_table", args=[table.link_token])
        players = re.findall(
            r'name="winner" value="([^"]+)"', scorer.get(link + "hands/new/").content.decode()
        )
        for number, winner in enumerate(players[:2]):
            saved = scorer.post(
                reverse("tournament_table_hand_new", args=[table.link_token]),
                {"token": f"t{table.pk}-{number}", "type": "played", "action": "save", "winner": winner},
            )
            assert saved.status_code == 302, saved.content.decode()[:2000]
        signed = scorer.post(
            reverse("tournament_table_signoff", args=[table.link_token]),
            {"scorer": players[0], "checker": players[1], "token": f"s{table.pk}"},
        )
        assert signed.status_code == 302, signed.content.decode()[:2000]
    sums = {row.entrant.name: row.points for row in RoundResult.objects.select_related("entrant")}
    assert sorted(sums.values()) == [-6, -6, -6, -6, 6, 6, 6, 6]  # two wins of +9, two losses of −3 a table
    rows = results.standings(fresh(day)).rows
    assert {row.name for row in rows[:4]} == {name for name, points in sums.items() if points == 6}
    assert [row.total for row in rows] == [6, 6, 6, 6, -6, -6, -6, -6]

    exported = logged_in.get(reverse("tournament_export", args=[day.pk]))
    scored = score_tournament(read_tournament(exported.content, for_tournaments()))
    assert json.loads(exported.content)["variant"] == "dummy"
    assert sorted(place["total"] for place in scored["ranking"]) == sorted(sums.values())
    tournament_service.tournament_provisional(tournament=fresh(day), user=user)
