"""The standings after a change: built once by the request that made it, once it
is committed, and stored as the tournament's snapshot, which every server process
reads once (at most one build or read at a time in a process), so the hall's and
the phones' next polls read them instead of building them side by side."""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments import factory
from tournaments.models import RankingSnapshot
from tournaments.services import desk, results

pytestmark = pytest.mark.django_db


def released(user):
    t = factory.draw(factory.tournament(user))
    factory.release(t)
    return factory.fresh(t)


def sums_of(table, values):
    return {seat.entrant.number: v for seat, v in zip(table.seats.order_by("position"), values, strict=True)}


def test_a_change_that_moves_the_ranking_leaves_the_new_standings_kept_once_committed(
    user, django_capture_on_commit_callbacks, monkeypatch
):
    t = released(user)
    table = factory.tables(t, 1)[0]
    with django_capture_on_commit_callbacks(execute=True):
        desk.desk_enter(tournament=t, user=user, table_id=table.pk, sums=sums_of(table, [92, -31, 45, -106]))
    changed = factory.fresh(t)
    stored = RankingSnapshot.objects.get(tournament=changed)
    assert stored.results_version == changed.results_version
    kept = results.standings_from_json(stored.standings)
    assert kept == results.build_standings(changed)
    assert kept.tables_counted == 1
    # The next poll reads them, in this process and in any other: nothing is built again.
    monkeypatch.setattr(results, "build_standings", lambda tournament: pytest.fail("built again"))
    assert results.standings(changed) == kept
    results._KEPT.clear()  # another server process, which has kept nothing yet
    assert results.standings(changed) == kept


def test_the_snapshot_keeps_every_figure_of_the_standings(user):
    t = released(user)
    first, second = factory.tables(t, 1)[:2]
    desk.desk_enter(tournament=t, user=user, table_id=first.pk, sums=sums_of(first, [92, -31, 45, -106]))
    desk.desk_enter(
        tournament=factory.fresh(t), user=user, table_id=second.pk, sums=sums_of(second, [10, -10, 3, -3])
    )
    built = results.build_standings(factory.fresh(t))
    assert any(row.total < 0 for row in built.rows)
    assert {cell.shown for row in built.rows for cell in row.cells} >= {"", "…"}
    # A half point (shared Trischaken thirds, TOURNAMENTS.md §5.2) is kept as it is.
    half = dataclasses.replace(built.rows[0], total=Fraction(3, 2), cup_points=Fraction(-1, 2))
    built = dataclasses.replace(built, rows=(half, *built.rows[1:]))
    again = results.standings_from_json(json.loads(json.dumps(results.standings_to_json(built))))
    assert again == built


def test_an_older_build_never_overwrites_a_newer_snapshot(user):
    t = released(user)
    table = factory.tables(t, 1)[0]
    old = factory.fresh(t)
    results.standings(old)
    desk.desk_enter(tournament=old, user=user, table_id=table.pk, sums=sums_of(table, [92, -31, 45, -106]))
    new = factory.fresh(t)
    results.standings(new)
    results._store(old)  # a request that read the tournament before the change, finishing late
    assert RankingSnapshot.objects.get(tournament=t).results_version == new.results_version


def test_requests_missing_the_same_standings_at_once_build_them_once(user, monkeypatch):
    t = released(user)
    built = []
    real = results.build_standings

    def slow_store(tournament):  # built, not written: the test's own transaction holds the database
        built.append(threading.get_ident())
        time.sleep(0.2)  # long enough for the other threads to miss them meanwhile
        return real(tournament)

    monkeypatch.setattr(results, "_store", slow_store)
    answers = []

    def poll() -> None:
        try:
            answers.append(results.standings(t))
        finally:
            connection.close()  # each thread's own connection

    threads = [threading.Thread(target=poll) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(built) == 1 and len(answers) == 4
    assert all(answer == answers[0] for answer in answers)


def test_building_the_standings_reads_four_unordered_statements(user):
    """The results, the entrants, the tables counted (one row, however many tables)
    and the seats of released rounds; none sorted by the models' orderings (which
    would join the rounds and the tournament to sort rows looked up by key)."""
    t = released(user)
    first = factory.tables(t, 1)[0]
    desk.desk_enter(tournament=t, user=user, table_id=first.pk, sums=sums_of(first, [92, -31, 45, -106]))
    t = factory.fresh(t)
    with CaptureQueriesContext(connection) as queries:
        built = results.build_standings(t)
    assert len(queries) == 4, [q["sql"] for q in queries]
    assert not any("ORDER BY" in q["sql"] and "tournaments_tournament" in q["sql"] for q in queries)
    assert (built.tables_counted, built.tables_total) == (1, 3)
    cells = {row.number: row.cells[0].shown for row in built.rows}
    signed = set(first.seats.values_list("entrant__number", flat=True))
    assert {n for n, shown in cells.items() if shown == ""} == signed
    assert {n for n, shown in cells.items() if shown == "…"} == set(cells) - signed
