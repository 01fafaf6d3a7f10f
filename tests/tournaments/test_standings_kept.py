"""The standings after a change: built once by the request that made it, once it
is committed, and at most once at a time in a server process, so the hall's and
the phones' next polls read them instead of building them side by side."""

from __future__ import annotations

import threading
import time

import pytest
from django.core.cache import cache
from django.db import connection

from tests.tournaments import factory
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
    kept = cache.get(results.standings_key(changed))
    assert kept is not None and kept.version == changed.results_version
    assert kept.tables_counted == 1
    # The next poll reads them: nothing is built again.
    monkeypatch.setattr(results, "build_standings", lambda tournament: pytest.fail("built again"))
    assert results.standings(changed) == kept


def test_requests_missing_the_same_standings_at_once_build_them_once(user, monkeypatch):
    t = released(user)
    built = []
    real = results.build_standings

    def slow_build(tournament):
        built.append(threading.get_ident())
        time.sleep(0.2)  # long enough for the other threads to miss the cache meanwhile
        return real(tournament)

    monkeypatch.setattr(results, "build_standings", slow_build)
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
