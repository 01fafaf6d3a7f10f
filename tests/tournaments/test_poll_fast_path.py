"""The board link's and the hall screen's polls with nothing changed are answered
by ``tournaments.polls`` before the rest of the middleware and the view: one
row read, a 204 with ``no-cache``, counted against the link's budget as the
page counts; a phone's redraw already drawn for another and the hall screen's
redraw are answered there too; anything else goes on to the view as before."""

from __future__ import annotations

import gzip
import re
from typing import Any

import pytest
from django.conf import settings
from django.contrib.sessions.middleware import SessionMiddleware
from django.core.cache import cache
from django.db import DatabaseError, connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from plumbing import budgets, queries
from plumbing.budgets import Budget
from tests.tournaments import factory
from tests.tournaments.table_support import in_english as in_english
from tests.tournaments.table_support import phone, tournament_day
from tournaments.models import Tournament
from tournaments.services import results
from tournaments.views import board as board_views

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]

HX: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def long_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(budgets, "WINDOW_SECONDS", 3600)  # the counts are checked, not time


def shared(user: Any) -> Tournament:
    day = tournament_day(user, tables_count=1)
    results.board_share(day.tournament)
    return Tournament.objects.get(pk=day.tournament.pk)


def views_never_reached(monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on, a request that goes on past ``tournaments.polls`` to the rest of
    the middleware and the views fails the test."""

    def reached(self: Any, request: Any) -> None:
        pytest.fail("the view was reached")

    monkeypatch.setattr(SessionMiddleware, "__call__", reached)


def polls(t: Tournament) -> dict[str, str]:
    since = f"?since={t.version}"
    return {
        "board": reverse("tournament_board", args=[t.board_token]) + since,
        "hall on the board link": reverse("tournament_board", args=[t.board_token])
        + "?screen=1&since="
        + str(t.version),
        "teams": reverse("tournament_board_teams", args=[t.board_token]) + since,
        "Mein Tag": reverse("tournament_my_day", args=[t.board_token]) + since,
        "hall screen": reverse("tournament_screen", args=[t.screen_token]) + since,
    }


def test_an_unchanged_poll_is_one_row_and_a_204_without_the_view(user, monkeypatch):
    t = shared(user)
    views_never_reached(monkeypatch)
    for name, url in polls(t).items():
        with CaptureQueriesContext(connection) as queries:
            answer = phone().get(url, **HX)
        assert answer.status_code == 204, name
        assert len(queries) == 1, (name, [q["sql"] for q in queries])
        assert "no-cache" in answer["Cache-Control"], name
        assert "sessionid" not in answer.cookies and "csrftoken" not in answer.cookies, name


def test_a_phones_first_poll_gets_its_cookie_the_hall_screen_none(user):
    t = shared(user)
    first = phone().get(polls(t)["board"], **HX)
    assert first.status_code == 204 and first.cookies[board_views.BOARD_COOKIE]["path"] == "/b/"
    assert board_views.BOARD_COOKIE not in phone().get(polls(t)["hall screen"], **HX).cookies


def test_a_changed_version_or_a_page_goes_on_to_the_view(user):
    t = shared(user)
    url = reverse("tournament_board", args=[t.board_token])
    assert phone().get(url + f"?since={t.version - 1}", **HX).status_code == 200
    assert phone().get(url + f"?since={t.version}").status_code == 200  # no HX-Request: the page


def test_a_link_taken_away_is_answered_by_the_view(user):
    t = shared(user)
    Tournament.objects.filter(pk=t.pk).update(deleted_at=timezone.now())
    answer = phone().get(polls(t)["board"], **HX)
    assert answer.status_code == 286  # htmx's "stop polling", as the view answers a link gone


def test_a_poll_beyond_its_budget_is_counted_once_and_refused_in_the_phones_language(user, monkeypatch):
    monkeypatch.setattr(
        board_views, "BOARD", Budget("board-link", per_phone=3, per_address=3, per_link=100, own=3)
    )
    t = shared(user)
    client = phone()
    client.cookies[board_views.BOARD_COOKIE] = "a-phone-cookie-0123456789"
    answers = [client.get(polls(t)["board"], **HX) for _ in range(4)]
    assert [a.status_code for a in answers] == [204, 204, 204, 429]
    assert answers[-1]["Retry-After"] == str(budgets.WINDOW_SECONDS)
    assert "Too many requests" in answers[-1].content.decode()
    german = phone()
    german.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    hall = [german.get(polls(t)["hall screen"], **HX) for _ in range(4)]
    assert [a.status_code for a in hall] == [204, 204, 204, 429]
    assert "Zu viele Anfragen" in hall[-1].content.decode()


@pytest.mark.usefixtures("one_progress_window")
def test_a_redraw_drawn_for_one_phone_is_answered_to_the_next_here_with_one_row(user, monkeypatch):
    """After a change every phone of the hall asks for the new board: the first is
    drawn by the view and kept, the others get the same page from here (one row
    read, counted, their cookie, compressed as the view's), in their language."""
    t = shared(user)
    url = reverse("tournament_board", args=[t.board_token]) + f"?since={t.version - 1}"
    zipped = {"HTTP_ACCEPT_ENCODING": "gzip", **HX}
    drawn = phone().get(url, **HX)
    assert drawn.status_code == 200 and f"since={t.version}" in drawn.content.decode()
    views_never_reached(monkeypatch)
    with CaptureQueriesContext(connection) as queries:
        kept = phone().get(url, **HX)
    assert kept.status_code == 200 and kept.content == drawn.content
    assert len(queries) == 1, [q["sql"] for q in queries]
    assert "no-cache" in kept["Cache-Control"] and kept.cookies[board_views.BOARD_COOKIE]["path"] == "/b/"
    assert kept["Content-Language"] == "en" and "Accept-Language" in kept["Vary"]
    packed = phone().get(url, **zipped)
    assert packed["Content-Encoding"] == "gzip" and gzip.decompress(packed.content) == drawn.content
    german = phone()
    german.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    with pytest.raises(pytest.fail.Exception):  # not drawn in German yet: the view is asked
        german.get(url, **HX)


def test_a_redraw_is_kept_per_version_and_searches_are_drawn_by_the_view(user, monkeypatch):
    t = shared(user)
    board_url = reverse("tournament_board", args=[t.board_token])
    before = phone().get(board_url + f"?since={t.version - 1}", **HX).content
    Tournament.objects.filter(pk=t.pk).update(version=t.version + 1)
    after = phone().get(board_url + f"?since={t.version}", **HX).content.decode()
    assert before != after.encode() and f"since={t.version + 1}" in after
    views_never_reached(monkeypatch)
    with pytest.raises(pytest.fail.Exception):  # a search is the phone's own: never kept
        phone().get(board_url + f"?since={t.version}&q=Spieler", **HX)


def test_without_the_cache_a_redraw_is_drawn_by_the_view_every_time(user, monkeypatch):
    t = shared(user)
    url = reverse("tournament_board", args=[t.board_token]) + f"?since={t.version - 1}"
    monkeypatch.setattr(cache, "get", lambda *args, **kwargs: None)
    first = phone().get(url, **HX)
    drawn: list[str] = []
    real = board_views.board_of

    def board_of(token: str) -> Tournament | None:
        drawn.append(token)
        return real(token)

    monkeypatch.setattr(board_views, "board_of", board_of)
    again = phone().get(url, **HX)
    assert first.status_code == again.status_code == 200 and drawn == [t.board_token]


def test_a_cache_in_a_database_that_does_not_answer_leaves_the_redraw_to_the_view(user, monkeypatch):
    t = shared(user)
    url = reverse("tournament_board", args=[t.board_token]) + f"?since={t.version - 1}"
    assert phone().get(url, **HX).status_code == 200  # drawn and kept

    class NotAnswering:
        def get(self, *args: Any, **kwargs: Any) -> None:
            raise DatabaseError("the cache table does not answer")

    monkeypatch.setattr("tournaments.polls.cache", NotAnswering())  # the fast path's lookup only
    answer = phone().get(url, **HX)
    assert answer.status_code == 200 and f"since={t.version}" in answer.content.decode()


def test_the_hall_screens_poll_after_a_change_is_drawn_here_as_its_view_draws_it(user, monkeypatch):
    """The hall screen asks every 2 s; after a change its redraw is drawn here (the
    version, then its tournament with the tables done, and its ranked rows when
    this process does not keep them) and is what its view would have answered, in
    its language, with the view's headers and compressed as the view's."""
    t = shared(user)
    url = reverse("tournament_screen", args=[t.screen_token]) + f"?since={t.version - 1}"
    french = {"HTTP_ACCEPT_LANGUAGE": "fr", "HTTP_ACCEPT_ENCODING": "gzip", **HX}
    without_fast_path = [m for m in settings.MIDDLEWARE if m != "tournaments.polls.UnchangedPollMiddleware"]
    with override_settings(MIDDLEWARE=without_fast_path):
        viewed = phone().get(url, **french)
    factory.forget_kept()
    views_never_reached(monkeypatch)
    with CaptureQueriesContext(connection) as queries:
        here = phone().get(url, **french)
    assert len(queries) == 3, [q["sql"] for q in queries]
    with CaptureQueriesContext(connection) as queries:
        again = phone().get(url, **french)
    assert len(queries) == 2 and again.status_code == 200  # the rows kept in this process now
    assert viewed.status_code == here.status_code == 200
    assert here["Content-Encoding"] == viewed["Content-Encoding"] == "gzip"
    drawn, shown = (without_the_time(gzip.decompress(a.content).decode()) for a in (viewed, here))
    assert shown == drawn and f"since={t.version}" in shown and "tables sur 1 terminées" in shown
    for header in ("Content-Language", "X-Frame-Options", "Content-Security-Policy"):
        assert here[header] == viewed[header], header
    assert here["Content-Language"] == "fr"
    assert set(here["Vary"].split(", ")) >= {"Accept-Language", "Accept-Encoding"}
    assert "no-cache" in here["Cache-Control"] and board_views.BOARD_COOKIE not in here.cookies
    assert "sessionid" not in here.cookies and "csrftoken" not in here.cookies
    gone = Tournament.objects.filter(pk=t.pk)
    gone.update(deleted_at=timezone.now())
    monkeypatch.undo()
    assert phone().get(url, **HX).status_code == 286  # a link gone: the view says so


def without_the_time(html: str) -> str:
    """A hall's redraw without what moves with the clock: the server's time for the
    round clock, the time of day shown without one."""
    return re.sub(r'data-now="\d+"|<time class="hall-clock"[^>]*>[^<]*</time>', "", html)


def test_a_hall_redraw_beyond_its_budget_is_refused_before_it_is_drawn(user, monkeypatch):
    monkeypatch.setattr(
        board_views, "BOARD", Budget("board-link", per_phone=3, per_address=3, per_link=100, own=2)
    )
    t = shared(user)
    url = reverse("tournament_screen", args=[t.screen_token]) + f"?since={t.version - 1}"
    drawn: list[int] = []
    real = board_views.hall_redraw

    def hall_redraw(*args: Any, **kwargs: Any) -> Any:
        drawn.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(board_views, "hall_redraw", hall_redraw)
    views_never_reached(monkeypatch)
    answers = [phone().get(url, **HX) for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429] and len(drawn) == 2
    assert answers[-1]["Retry-After"] == str(budgets.WINDOW_SECONDS)
    assert "no-cache" in answers[-1]["Cache-Control"]


def test_a_hall_redraw_whose_tournament_cannot_be_read_here_goes_on_to_the_view(user, monkeypatch):
    t = shared(user)
    url = reverse("tournament_screen", args=[t.screen_token]) + f"?since={t.version - 1}"
    real = queries.hall_screen
    failed: list[int] = []

    def hall_screen(*args: Any, **kwargs: Any) -> Any:
        if not failed:
            failed.append(1)
            raise DatabaseError("the database does not answer")
        return real(*args, **kwargs)

    monkeypatch.setattr(queries, "hall_screen", hall_screen)
    reached: list[int] = []
    real_call = SessionMiddleware.__call__

    def session(self: Any, request: Any) -> Any:
        reached.append(1)
        return real_call(self, request)

    monkeypatch.setattr(SessionMiddleware, "__call__", session)
    answer = phone().get(url, **HX)
    assert answer.status_code == 200 and f"since={t.version}" in answer.content.decode()
    assert failed == [1] and reached == [1]  # failed here, drawn by the view
