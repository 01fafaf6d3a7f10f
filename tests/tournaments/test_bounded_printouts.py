"""The organiser's printouts and the tournament file do bounded work: the table
slips and the export read each kind of row once, however many tables; a player
card reads his tables' seats once, however many rounds (TOURNAMENTS.md §6, §13)."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments import factory
from tournaments.models import Entrant
from tournaments.services import desk, printouts, tournament_files

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def undrawn(monkeypatch: pytest.MonkeyPatch) -> None:
    """The printouts' pages are read and rendered as HTML, every statement counted;
    the PDF is not drawn from them (the drawing reads nothing: tests of the drawing
    are in test_organiser_printouts.py)."""
    monkeypatch.setattr(printouts, "html_to_pdf", lambda html: b"%PDF-1.7")


def running_round(user, entrants: int, rounds: int = 3):
    """``entrants`` registered, every round drawn, round 1 released: table 1 typed
    in at the desk, every other table with a hand recorded."""
    t = factory.draw(
        factory.tournament(user, names=[f"S{n}" for n in range(1, entrants + 1)], settings={"rounds": rounds})
    )
    factory.release(t)
    first, *others = factory.tables(t, 1)
    sums = {s.entrant.number: 0 for s in first.seats.all()}
    desk.desk_enter(tournament=factory.fresh(t), user=user, table_id=first.pk, sums=sums)
    for table in others:
        factory.play_hand(table)
    return factory.fresh(t)


def queries(work) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as captured:
        made = work()
    return len(captured.captured_queries), made


def test_the_table_slips_read_the_same_number_of_rows_at_12_and_40_entrants(user):
    small, big = running_round(user, 12), running_round(user, 40)
    few, _ = queries(lambda: printouts.table_slips(small))
    many, _ = queries(lambda: printouts.table_slips(big))
    assert many == few <= 6


def test_the_export_reads_the_same_number_of_rows_at_12_and_40_entrants(user):
    small, big = running_round(user, 12), running_round(user, 40)
    few, small_file = queries(lambda: tournament_files.tournament_file(small))
    many, big_file = queries(lambda: tournament_files.tournament_file(big))
    assert many == few <= 12
    document = json.loads(big_file.data)  # type: ignore[attr-defined]
    first_round = document["rounds"][0]["tables"]
    assert len(first_round) == 10 and "sums" in first_round[0]
    assert all(len(table["hands"]) == 1 for table in first_round[1:])
    assert [len(r["tables"]) for r in json.loads(small_file.data)["rounds"]] == [3, 3, 3]  # type: ignore[attr-defined]


def test_a_player_card_reads_his_tables_once_at_2_and_5_rounds(user):
    short, long = running_round(user, 12, rounds=2), running_round(user, 12, rounds=5)
    few, _ = queries(lambda: printouts.player_card(short, Entrant.objects.get(tournament=short, number=1)))
    many, _ = queries(lambda: printouts.player_card(long, Entrant.objects.get(tournament=long, number=1)))
    assert many == few
