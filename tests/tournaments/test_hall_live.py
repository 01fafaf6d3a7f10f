"""The hall screen in seconds (TOURNAMENTS.md §3.6, §4.3, §4.4): it asks every
2 s and a player's board every 12 s, each poll one row and a 204 while nothing
changed; "vorläufig" while provisional and "Endstand" once final; the round
clock counts down to the end of the running round, and at zero says to finish
the game in play."""

from __future__ import annotations

import gzip
import re
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests.tournaments import factory
from tests.tournaments.table_support import in_english as in_english
from tests.tournaments.table_support import phone, tournament_day
from tournaments.models import Round
from tournaments.services import results
from tournaments.views.board import BOARD_POLL_SECONDS, HALL_POLL_SECONDS

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def hall(token: str, language: str = "de") -> str:
    url = reverse("tournament_board", args=[token]) + "?screen=1"
    return phone().get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def poll_every(html: str, element: str) -> int:
    found = re.search(rf'<div id="{element}"[^>]*hx-trigger="every (\d+)s"', html)
    assert found, f"#{element} polls"
    return int(found.group(1))


def test_the_hall_asks_within_3_s_and_a_phone_within_15_s(user):
    day = tournament_day(user, tables_count=1)
    token = results.board_share(day.tournament)
    assert poll_every(hall(token), "hall") == HALL_POLL_SECONDS <= 2  # + the answer: within 3 s
    board = phone().get(reverse("tournament_board", args=[token])).content.decode()
    assert poll_every(board, "board-live") == BOARD_POLL_SECONDS <= 12  # + the answer: within 15 s


def test_the_halls_poll_with_nothing_changed_reads_one_row_and_answers_204(user):
    day = tournament_day(user, tables_count=1)
    token = results.board_share(day.tournament)
    version = re.search(r"since=(\d+)", hall(token)).group(1)
    url = reverse("tournament_board", args=[token]) + f"?screen=1&since={version}"
    with CaptureQueriesContext(connection) as queries:
        poll = phone().get(url, HTTP_HX_REQUEST="true")
    assert poll.status_code == 204 and len(queries) == 1


def test_provisional_says_vorlaeufig_and_final_says_endstand(user):
    t = factory.play_example(user)  # §9 typed in at the desk, made provisional
    token = results.board_share(t)
    html = hall(token)
    assert 'id="hall-provisional"' in html and "vorläufig" in html and "Endstand" not in html
    factory.make_final(t)
    html = hall(token)
    assert '<span class="hall-final" id="hall-final">Endstand</span>' in html and "vorläufig" not in html
    assert "Classement final" in hall(token, "fr") and "Final standings" in hall(token, "en")


def test_the_hall_counts_down_to_the_end_of_the_running_round(user):
    t = factory.tournament(user, settings={"round_minutes": 100})
    factory.draw(t)
    factory.release(t)
    token = results.board_share(factory.fresh(t))
    started = timezone.now() - timedelta(minutes=30)
    Round.objects.filter(tournament=t, number=1).update(released_at=started)
    html = hall(token)
    ends = int((started + timedelta(minutes=100)).timestamp() * 1000)
    assert f'data-ends="{ends}"' in html and 'data-left="noch %(time)s"' in html
    assert 'data-over="Spiel fertig spielen"' in html and "js/clock.js" in html
    assert 'id="hall-clock"' not in html  # the round clock takes the wall clock's place
    Round.objects.filter(tournament=t, number=1).update(released_at=started - timedelta(minutes=71))
    assert 'class="hall-clock over"' in hall(token) and "Spiel fertig spielen" in hall(token)


def test_without_minutes_per_round_the_hall_shows_the_time_of_day(user):
    day = tournament_day(user, tables_count=1)
    html = hall(results.board_share(day.tournament))
    assert 'id="hall-clock"' in html and "data-ends" not in html


def test_the_pages_a_hall_fetches_again_and_again_arrive_compressed(user):
    """Every phone in the hall fetches its board again after each change, over one
    wifi: the board link's pages, the hall screen and a table's page come gzipped
    where the phone accepts it (at most half the size), a 204 stays empty."""
    day = tournament_day(user, tables_count=2)
    token = results.board_share(day.tournament)
    t = factory.fresh(day.tournament)
    zipped: dict[str, Any] = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}
    pages = [
        reverse("tournament_board", args=[token]),
        reverse("tournament_board", args=[token]) + "?screen=1",
        reverse("tournament_board_teams", args=[token]),
        reverse("tournament_screen", args=[t.screen_token]),
        reverse("tournament_table", args=[day.table(1).link_token]),
    ]
    for url in pages:
        plain = phone().get(url)
        packed = phone().get(url, **zipped)
        assert plain.status_code == packed.status_code == 200, url
        assert "Content-Encoding" not in plain and packed["Content-Encoding"] == "gzip", url
        assert gzip.decompress(packed.content).decode().count("</html>") == 1, url
        assert len(packed.content) * 2 < len(plain.content), url
        assert "Accept-Encoding" in packed["Vary"], url
    redraw = phone().get(
        reverse("tournament_board", args=[token]) + "?since=0", HTTP_HX_REQUEST="true", **zipped
    )
    assert redraw.status_code == 200 and redraw["Content-Encoding"] == "gzip"
    since = f"?since={t.version}"
    unchanged = phone().get(
        reverse("tournament_board", args=[token]) + since, HTTP_HX_REQUEST="true", **zipped
    )
    assert unchanged.status_code == 204 and not unchanged.content and "Content-Encoding" not in unchanged
