"""The hall screen's fast path (``services.hall``): its ranked rows drawn once per
results version and language, by the request that changed the ranking once it is
committed, and stored beside the standings' snapshot, so the hall's changed poll in
any server process reads one row instead of drawing sixty; the language of each
screen kept; a new change shown at the next poll; nothing of it depends on the
cache."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests.plumbing.test_cache_outage import cache_down as cache_down
from tests.tournaments import factory
from tournaments.models import RankedPart, TableRound, Tournament
from tournaments.services import desk, hall, results
from tournaments.views import board

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("nothing_kept")]

ROW = re.compile(r'<tr class="hall-row".*?</tr>', re.S)


def running(user) -> Tournament:
    t = factory.draw(factory.tournament(user))
    factory.release(t)
    results.board_share(factory.fresh(t))
    return factory.fresh(t)


def poll(t: Tournament, language: str = "de", since: int = 0) -> tuple[int, str]:
    """The hall screen's poll through its own link, as its page sends it."""
    url = reverse("tournament_screen", args=[t.screen_token]) + f"?since={since}"
    answer = Client(HTTP_ACCEPT_LANGUAGE=language).get(url, HTTP_HX_REQUEST="true")
    return answer.status_code, answer.content.decode()


def rows(html: str) -> list[str]:
    return ROW.findall(html)


def enter(user, t: Tournament, values: tuple[int, int, int, int], capture) -> Tournament:
    """The first running table of round 1 typed in at the desk, committed."""
    running_tables = TableRound.objects.filter(round__tournament=t, status=TableRound.Status.OPEN)
    table = running_tables.order_by("number")[0]
    numbers = table.seats.order_by("position").values_list("entrant__number", flat=True)
    with capture(execute=True):
        desk.desk_enter(
            tournament=factory.fresh(t),
            user=user,
            table_id=table.pk,
            sums=dict(zip(numbers, values, strict=True)),
        )
    return factory.fresh(t)


def expected_rows(t: Tournament) -> list[tuple[str, str, str, str]]:
    """Place, name, round cells and total of each ranked row, from the standings built anew."""
    table = results.build_standings(t)
    ranked = [row for row in table.rows if row.place is not None][: hall.HALL_MOST]
    return [
        (
            str(row.place),
            hall.short_name(row.name),
            ",".join("0" if c.bye else c.shown or hall.figure(c.points) for c in row.cells),
            hall.figure(row.total),
        )
        for row in ranked
    ]


def shown_rows(html: str) -> list[tuple[str, str, str, str]]:
    found = []
    for row in rows(html):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
        found.append((cells[0], cells[1], ",".join(cells[2:-1]), cells[-1]))
    return found


def test_a_change_draws_the_halls_rows_once_committed_and_the_poll_shows_them(
    user, django_capture_on_commit_callbacks
):
    t = running(user)
    status, before = poll(t)
    assert status == 200 and shown_rows(before) == expected_rows(t)
    assert (
        RankedPart.objects.get(tournament=t, part="hall", language="de").results_version == t.results_version
    )
    changed = enter(user, t, (92, -31, 45, -106), django_capture_on_commit_callbacks)
    # Drawn by the change's own request once committed, for the language the hall uses.
    assert (
        RankedPart.objects.get(tournament=t, part="hall", language="de").results_version
        == changed.results_version
    )
    assert poll(changed, since=changed.version)[0] == 204  # nothing new since
    status, after = poll(changed, since=t.version)
    assert status == 200 and f"since={changed.version}" in after
    assert shown_rows(after) == expected_rows(changed) != shown_rows(before)
    # The new leader: round 1 counted, the others not drawn yet.
    assert shown_rows(after)[0][1:] == ("Erika", "92,–,–", "92")


def test_the_stored_rows_are_the_rows_the_hall_draws_anew(user, django_capture_on_commit_callbacks):
    t = enter(user, running(user), (10, -10, 3, -3), django_capture_on_commit_callbacks)
    stored = poll(t)[1]
    RankedPart.objects.all().delete()
    factory.forget_kept()
    drawn_anew = poll(t)[1]
    assert rows(stored) == rows(drawn_anew) and len(rows(stored)) == 12
    assert stored == drawn_anew  # the whole answer: the head, the clock, the QR code


def test_another_server_process_serves_the_stored_rows_without_drawing_them(
    user, django_capture_on_commit_callbacks, monkeypatch
):
    t = running(user)
    poll(t)  # the hall opened: its language is drawn from now on
    changed = enter(user, t, (92, -31, 45, -106), django_capture_on_commit_callbacks)
    factory.forget_kept()  # a process that kept nothing of it
    monkeypatch.setattr(hall, "render_to_string", lambda *args, **kwargs: pytest.fail("drawn again"))
    monkeypatch.setattr(results, "build_standings", lambda tournament: pytest.fail("built again"))
    monkeypatch.setattr(results, "standings_from_json", lambda data: pytest.fail("snapshot decoded"))
    with CaptureQueriesContext(connection) as queries:
        status, html = poll(changed, since=t.version)
    assert status == 200 and shown_rows(html)[0][1] == "Erika"
    # The poll's version (tournaments.polls: changed, so drawn there), the
    # tournament's row with its tables done and the round's clock, its hall rows.
    assert len(queries) == 3, [q["sql"] for q in queries]
    with CaptureQueriesContext(connection) as queries:
        assert poll(changed, since=t.version)[0] == 200
    assert len(queries) == 2  # kept in this process now


def test_each_screen_keeps_its_language_and_a_change_redraws_every_language_in_use(
    user, django_capture_on_commit_callbacks, monkeypatch
):
    t = running(user)
    heads = {"de": "Runde 1", "en": "Round 1", "fr": "Manche 1"}
    for language, head in heads.items():
        assert head in poll(t, language)[1]
    changed = enter(user, t, (3, -3, 1, -1), django_capture_on_commit_callbacks)
    stored = dict(
        RankedPart.objects.filter(tournament=t, part="hall").values_list("language", "results_version")
    )
    assert stored == dict.fromkeys(heads, changed.results_version)
    factory.forget_kept()
    monkeypatch.setattr(hall, "render_to_string", lambda *args, **kwargs: pytest.fail("drawn again"))
    for language, head in heads.items():
        html = poll(changed, language, since=t.version)[1]
        assert head in html and all(other not in html for other in heads.values() if other != head)


def test_a_half_point_is_written_in_the_screens_language(user, django_capture_on_commit_callbacks):
    t = running(user)
    poll(t, "en")
    poll(t, "de")
    Tournament.objects.filter(pk=t.pk).update(settings={**t.settings, "rank_points": []})
    changed = enter(user, t, (3, -3, 1, -1), django_capture_on_commit_callbacks)
    german = RankedPart.objects.get(tournament=t, part="hall", language="de")
    assert german.results_version == changed.results_version
    assert hall.figure(Fraction(3, 2)) in {"1.5", "1,5"}  # the active language's separator
    assert "\u22123" in poll(changed, "en", since=t.version)[1]  # a real minus sign


def test_an_older_drawing_never_overwrites_a_newer_one(user, django_capture_on_commit_callbacks):
    t = running(user)
    poll(t)
    changed = enter(user, t, (92, -31, 45, -106), django_capture_on_commit_callbacks)
    hall._draw_and_store(
        t, "hall", "de"
    )  # a request that read the tournament before the change, finishing late
    assert (
        RankedPart.objects.get(tournament=t, part="hall", language="de").results_version
        == changed.results_version
    )


def test_a_drawing_that_fails_after_the_change_leaves_the_change_and_the_hall_draws_it(
    user, django_capture_on_commit_callbacks, monkeypatch
):
    t = running(user)
    poll(t)

    def broken(tournament: Tournament) -> None:
        raise RuntimeError("the drawing failed")

    monkeypatch.setattr(hall, "after_change", broken)
    changed = enter(user, t, (92, -31, 45, -106), django_capture_on_commit_callbacks)  # no error
    assert changed.results_version > t.results_version
    monkeypatch.undo()
    status, html = poll(changed, since=t.version)
    assert status == 200 and shown_rows(html) == expected_rows(changed)


def test_with_the_cache_unreachable_the_hall_answers_with_its_rows(
    user, django_capture_on_commit_callbacks, cache_down
):
    t = running(user)
    assert poll(t)[0] == 200
    changed = enter(user, t, (92, -31, 45, -106), django_capture_on_commit_callbacks)
    factory.forget_kept()
    status, html = poll(changed, since=t.version)
    assert status == 200 and shown_rows(html) == expected_rows(changed)
    page = Client().get(reverse("tournament_screen", args=[t.screen_token]))
    board_hall = Client().get(reverse("tournament_board", args=[t.board_token]) + "?screen=1")
    assert page.status_code == board_hall.status_code == 200
    assert rows(page.content.decode()) == rows(board_hall.content.decode()) == rows(html)


def test_the_tables_done_are_read_in_one_statement_as_the_board_counts_them(
    user, django_capture_on_commit_callbacks
):
    t = factory.tournament(user, settings={"round_minutes": 90})
    factory.draw(t)
    factory.release(t)
    t = enter(user, factory.fresh(t), (92, -31, 45, -106), django_capture_on_commit_callbacks)
    with CaptureQueriesContext(connection) as queries:
        done = board.tables_done(t)
    assert len(queries) == 1
    full = board.progress(t)
    assert (done.round, done.done, done.total, done.ends) == (full.round, full.done, full.total, full.ends)
    assert done.done == 1 and done.total == len(full.running) + 1 and done.ends is not None
    before = factory.tournament(user, name="Noch nicht ausgelost")
    assert board.tables_done(before) == board.Progress(None, 0, 0, ())


def test_the_hall_screen_reads_its_tournament_with_the_tables_done_in_one_statement(
    user, django_capture_on_commit_callbacks
):
    t = factory.tournament(user, settings={"round_minutes": 90})
    factory.draw(t)
    factory.release(t)
    results.board_share(factory.fresh(t))
    t = enter(user, factory.fresh(t), (92, -31, 45, -106), django_capture_on_commit_callbacks)
    with CaptureQueriesContext(connection) as queries:
        found = board.hall_screen(t.screen_token)
    assert len(queries) == 1 and found is not None
    tournament, done = found
    assert tournament == t and tournament.settings == t.settings and tournament.version == t.version
    assert done == board.tables_done(t) and done.done == 1 and done.ends is not None
    while TableRound.objects.filter(round__tournament=t, status=TableRound.Status.OPEN).exists():
        t = enter(user, t, (10, -20, 30, -20), django_capture_on_commit_callbacks)
    assert board.hall_screen(t.screen_token) == (t, board.tables_done(t))  # round 1 complete
    factory.release(t)  # round 2 released: its tables, none done yet
    later = board.hall_screen(t.screen_token)
    assert (
        later is not None and later[1] == board.tables_done(t) and (later[1].round, later[1].done) == (2, 0)
    )
    assert board.hall_screen("no-such-link") is None and board.hall_screen("x" * 65) is None
    before = factory.tournament(user, name="Noch nicht ausgelost")
    results.board_share(before)
    before = factory.fresh(before)
    assert board.hall_screen(before.screen_token) == (before, board.Progress(None, 0, 0, ()))
    Tournament.objects.filter(pk=t.pk).update(deleted_at=timezone.now())
    assert board.hall_screen(t.screen_token) is None
