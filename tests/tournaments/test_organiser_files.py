"""The tournament file (TOURNAMENTS.md §13) out of the app and back in."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tests.tournaments import factory
from tournaments.core import tournament_file as files
from tournaments.models import Tournament
from tournaments.services import printouts, tournament_files

pytestmark = pytest.mark.django_db


def test_the_export_holds_settings_seed_entrants_and_every_round_drawn(user):
    t = factory.draw(factory.tournament(user))
    factory.release(t)
    factory.desk_round(t, 1, factory.EXAMPLE_SUMS[0])
    document = json.loads(tournament_files.tournament_file(factory.fresh(t)).data)
    assert document["format"] == "tarockscore-tournament/1" and document["seed"] == "482915"
    assert document["entrants"] == list(factory.EXAMPLE_NAMES)
    assert document["settings"]["hands"] == 16 and document["settings"]["money_rate"] == "0.10"
    assert document["options"]["kontra_in_score"] is False
    first = document["rounds"][0]["tables"][0]
    assert first == {"players": ["Erika", "Hans", "Bernd", "Anna"], "dealer": "Erika",
                     "sums": {"Erika": 92, "Hans": -31, "Bernd": 45, "Anna": -106}}  # fmt: skip
    assert document["rounds"][1]["tables"][0]["hands"] == []
    assert len(document["rounds"]) == 3
    files.read_document(document)  # the file reads back


def test_an_imported_file_scores_as_score_tournament_does(user, other_user):
    t = factory.play_example(user)
    data = tournament_files.tournament_file(t).data
    copy = tournament_files.tournament_import(owner=other_user, data=data)
    assert copy.owner == other_user and copy.seed == "482915"
    scored = files.score_tournament(files.read_tournament(data))
    mine = [(r.place, r.entrant.name, int(r.total)) for r in printouts.ranking(copy).rows]
    assert mine == [(r["place"], r["name"], r["total"]) for r in scored["ranking"]]
    assert json.loads(tournament_files.tournament_file(copy).data)["rounds"] == json.loads(data)["rounds"]


def test_a_file_with_no_rounds_is_drawn_by_the_app_as_the_file_would_draw_it(user):
    document = {"format": "tarockscore-tournament/1", "name": "Cupabend", "date": "2025-11-21",
                "variant": "koenigrufen", "seed": "482915", "entrants": list(factory.EXAMPLE_NAMES)}  # fmt: skip
    t = tournament_files.tournament_import(owner=user, data=json.dumps(document).encode())
    factory.draw(t)
    assert factory.table_names(t, 3) == list(factory.EXAMPLE_SEATING[2])


def test_a_refused_file_names_round_table_and_field_and_creates_nothing(user):
    document = {"format": "tarockscore-tournament/1", "variant": "koenigrufen", "seed": "482915",
                "entrants": list(factory.EXAMPLE_NAMES),
                "rounds": [{"tables": [{"players": ["Anna", "Bernd", "Christa", "Dieter"], "dealer": "Anna",
                                        "sums": {"Anna": 1, "Bernd": 0, "Christa": 0, "Dieter": 0}}]}]}  # fmt: skip
    with pytest.raises(files.InvalidTournament) as refused:
        tournament_files.tournament_import(owner=user, data=json.dumps(document).encode())
    assert (refused.value.round, refused.value.table) == (1, 1)
    assert str(refused.value) == "round 1, table 1: sums: must add up to 0, not +1: check the sheet"
    assert not Tournament.objects.exists()


def test_the_import_page_creates_the_tournament_for_the_importer(logged_in, user, other_user):
    data = tournament_files.tournament_file(factory.tournament(other_user)).data
    from django.core.files.uploadedfile import SimpleUploadedFile

    answer = logged_in.post(reverse("tournament_import"), {"file": SimpleUploadedFile("t.json", data)})
    mine = Tournament.objects.get(owner=user)
    assert answer.status_code == 302 and answer["Location"] == reverse("tournament_detail", args=[mine.pk])
    assert mine.entrants.count() == 12
    bad = logged_in.post(reverse("tournament_import"), {"file": SimpleUploadedFile("t.json", b"{")})
    assert bad.status_code == 400 and Tournament.objects.filter(owner=user).count() == 1


def test_a_refused_file_is_explained_on_the_import_page_in_the_readers_language(logged_in, user):
    from django.core.files.uploadedfile import SimpleUploadedFile

    document = {"format": "tarockscore-tournament/1", "variant": "koenigrufen", "seed": "482915",
                "entrants": list(factory.EXAMPLE_NAMES),
                "rounds": [{"tables": [{"players": ["Anna", "Bernd", "Christa", "Dieter"], "dealer": "Anna",
                                        "sums": {"Anna": 4, "Bernd": 0, "Christa": 0, "Dieter": 0}}]}]}  # fmt: skip
    upload = SimpleUploadedFile("t.json", json.dumps(document).encode())
    answer = logged_in.post(reverse("tournament_import"), {"file": upload}, HTTP_ACCEPT_LANGUAGE="de")
    page = answer.content.decode()
    assert answer.status_code == 400 and not Tournament.objects.filter(owner=user).exists()
    assert "Runde 1, Tisch 1" in page and "muss 0 ergeben, nicht +4: Zettel prüfen" in page
