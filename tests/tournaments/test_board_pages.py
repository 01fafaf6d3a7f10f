"""The board link: ranking, seating plan and search, the tables' progress, the
hall screen (TOURNAMENTS.md §4.3) and a player's card (§6)."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urljoin

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import services as scoring
from tests.tournaments.table_support import in_english as in_english
from tests.tournaments.table_support import kontra_hand, phone, rufer, tournament_day
from tournaments.models import Tournament
from tournaments.services import results, tables
from tournaments.services.hall import short_name
from tournaments.views import board as board_views
from tournaments.views import me as me_views

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]
CSS = Path(__file__).resolve().parents[2] / "static" / "css" / "tournament.css"


def signed_day(user, tables_count: int = 2):
    """A released round whose tables each played one hand, all signed."""
    day = tournament_day(user, tables_count=tables_count, hands=1)
    for number in range(1, tables_count + 1):
        table = day.table(number)
        names = tables.players(table)
        raw = (
            kontra_hand(names[0], names[1], names[0]) if number == 1 else rufer(names[2], names[3], names[0])
        )
        scoring.hand_record(session=tables.open_table(table), raw=raw)
        tables.sign_off(day.table(number), user=user, scorer=names[0], checker=names[1])
    token = results.board_share(Tournament.objects.get(pk=day.tournament.pk))
    return day, token


def test_the_board_ranks_counted_tables_and_links_each_players_card(user):
    _day, token = signed_day(user)
    html = phone().get(reverse("tournament_board", args=[token])).content.decode()
    assert "2 of 2 tables done" in html
    ranking = html[html.index('id="ranking"') :]
    first = ranking.index("Anna")
    assert first < ranking.index("Christa")  # Anna +3 before Christa −3
    # Each name links to its card, relative to the board (the ranked part is drawn once for any link).
    assert 'href="players/1/"' in html
    board_url = reverse("tournament_board", args=[token])
    assert urljoin(board_url, "players/1/") == reverse("tournament_player_card", args=[token, 1])
    assert 'hx-trigger="every 12s"' in html


def test_a_running_round_shows_dots_and_the_tables_progress(user):
    day = tournament_day(user, tables_count=2, hands=16)
    scoring.hand_record(session=tables.open_table(day.table(2)), raw=rufer("Erika", "Franz", "Erika"))
    token = results.board_share(Tournament.objects.get(pk=day.tournament.pk))
    html = phone().get(reverse("tournament_board", args=[token])).content.decode()
    assert "0 of 2 tables done; Table 1: 0 of 16 played; Table 2: 1 of 16 played" in html
    assert 'id="provisional"' in html
    assert '<td class="num">…</td>' in html
    german = (
        phone().get(reverse("tournament_board", args=[token]), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    )
    assert "0 von 2 Tischen fertig; Tisch 1: 0 von 16 gespielt" in german and "vorläufig" in german
    assert '<span class="muted tie">(Los)</span>' in german  # all at 0: the lots decide


def test_the_name_search_says_where_one_sits(user):
    day = tournament_day(user, tables_count=2)
    token = results.board_share(Tournament.objects.get(pk=day.tournament.pk))
    html = phone().get(reverse("tournament_board", args=[token]) + "?q=gert").content.decode()
    assert "Round 1: Table 2, Seat 3" in html
    german = phone().get(reverse("tournament_board", args=[token]) + "?q=Gerti", HTTP_ACCEPT_LANGUAGE="de")
    assert "Runde 1: Tisch 2, Platz 3" in german.content.decode()
    assert (
        "Nobody of that name."
        in phone().get(reverse("tournament_board", args=[token]) + "?q=zzz").content.decode()
    )


@pytest.mark.usefixtures("one_progress_window")
def test_a_poll_with_nothing_changed_reads_one_row_and_answers_204(user):
    day, token = signed_day(user)
    client = phone()
    version = Tournament.objects.get(pk=day.tournament.pk).version
    client.get(reverse("tournament_board", args=[token]))
    with CaptureQueriesContext(connection) as queries:
        poll = client.get(
            reverse("tournament_board", args=[token]) + f"?since={version}", HTTP_HX_REQUEST="true"
        )
    assert poll.status_code == 204
    assert len(queries) == 1
    with CaptureQueriesContext(connection) as queries:
        again = client.get(reverse("tournament_board", args=[token]), HTTP_HX_REQUEST="true")
    assert again.status_code == 200 and 'id="board-live"' in again.content.decode()
    assert len(queries) == 1  # the tournament's row; its progress and ranked part are kept from the page


def test_a_hand_at_a_running_table_leaves_the_poll_at_204_the_page_reads_it_from_the_session(user):
    """Nothing ranked changes with a hand at a running table: the board's poll
    stays one row and a 204; the board drawn anew shows the table's hands read
    from its session; a sign-off changes the poll's answer, with the new ranking."""
    day = tournament_day(user, tables_count=2, hands=2)
    token = results.board_share(Tournament.objects.get(pk=day.tournament.pk))
    client = phone()
    board = reverse("tournament_board", args=[token])
    version = Tournament.objects.get(pk=day.tournament.pk).version
    names = tables.players(day.table(2))
    scoring.hand_record(session=tables.open_table(day.table(2)), raw=rufer(names[2], names[3], names[0]))
    with CaptureQueriesContext(connection) as queries:
        poll = client.get(board + f"?since={version}", HTTP_HX_REQUEST="true")
    assert poll.status_code == 204 and len(queries) == 1
    with CaptureQueriesContext(connection) as queries:
        page = client.get(board).content.decode()
    assert "Table 2: 1 of 2 played" in page and "Table 1: 0 of 2 played" in page
    assert any("scoring_hand" in q["sql"] for q in queries.captured_queries)  # read from the session
    tables.claim(day.table(2), "scorer")
    scoring.hand_record(session=tables.open_table(day.table(2)), raw=rufer(names[0], names[1], names[1]))
    tables.sign_off(day.table(2), cookie="scorer", scorer=names[0], checker=names[1])
    poll = client.get(board + f"?since={version}", HTTP_HX_REQUEST="true")
    html = poll.content.decode()
    assert poll.status_code == 200 and 'id="ranking"' in html and "1 of 2 tables" in html


def test_an_unshared_board_answers_410_and_stops_a_poll(user):
    day, token = signed_day(user)
    results.board_unshare(Tournament.objects.get(pk=day.tournament.pk))
    assert phone().get(reverse("tournament_board", args=[token])).status_code == 410
    poll = phone().get(reverse("tournament_board", args=[token]), HTTP_HX_REQUEST="true")
    assert poll.status_code == 286  # htmx: stop polling


def test_the_player_card(user):
    _day, token = signed_day(user)
    html = phone().get(reverse("tournament_player_card", args=[token, 1])).content.decode()
    assert "Table 1, seat 1" in html and "Bernd, Christa, Dieter" in html
    assert "Place 1" in html
    card = html[html.index('id="card-round-1"') :]
    assert "Hands played</dt><dd>1</dd>" in card
    assert 'Round result</dt><dd class="num">3</dd>' in card
    assert "Table rank</dt><dd>1</dd>" in card
    assert "Money" not in card and "€" not in card  # anyone with the board link reads the card
    assert phone().get(reverse("tournament_player_card", args=[token, 99])).status_code == 404


def many_signed(user, tables_count: int):
    day = tournament_day(user, tables_count=tables_count, hands=1)
    for number in range(1, tables_count + 1):
        table = day.table(number)
        names = tables.players(table)
        scoring.hand_record(session=tables.open_table(table), raw=rufer(names[0], names[1], names[0]))
        tables.sign_off(day.table(number), user=user, scorer=names[0], checker=names[1])
    return results.board_share(Tournament.objects.get(pk=day.tournament.pk))


def test_the_hall_screen_pages_of_twelve_minus_sign_and_qr(user):
    token = many_signed(user, 5)  # 20 players: two pages
    html = phone().get(reverse("tournament_board", args=[token]) + "?screen=1").content.decode()
    pages = re.findall(r'<section class="hall-page" data-page="(\d)"( hidden)?', html)
    assert [(n, bool(h)) for n, h in pages] == [("1", False), ("2", True)]
    first = html[html.index('data-page="1"') : html.index('data-page="2"')]
    assert first.count('class="hall-row"') == 12
    assert "Page 2 / 2" in html
    assert "\u22121" in html and ">-1<" not in html  # a real minus sign
    assert 'id="hall-qr"' in html and "<svg" in html
    assert 'id="hall-provisional"' not in html  # every table counted, the round complete
    assert "js/hall.js" in html and "css/tournament.css" in html


def test_the_hall_shows_places_one_to_sixty_only(user):
    token = many_signed(user, 16)  # 64 players
    html = phone().get(reverse("tournament_board", args=[token]) + "?screen=1").content.decode()
    assert html.count('class="hall-row"') == 60
    assert len(re.findall(r'<section class="hall-page"', html)) == 5
    assert "Page 5 / 5" in html


def test_the_hall_is_sized_for_the_screen_height():
    css = CSS.read_text(encoding="utf-8")
    body = re.search(r"body\.hall \{([^}]*)\}", css)
    assert body and "font-size: 5.5vh" in body.group(1)
    assert "font-size: 1.3em" in re.search(r"\.hall-title \{([^}]*)\}", css).group(1)
    assert "tabular-nums" in re.search(r"\.hall-table \{([^}]*)\}", css).group(1)
    assert ".hall-row.changed" in css


def test_names_are_shortened_to_fit():
    assert short_name("Huber Maria Theresia") == "Huber M. T."
    assert short_name("Anna") == "Anna"


def test_the_board_and_mein_tag_keep_their_progress_in_the_one_window(monkeypatch):
    """One window for every page that keeps the tables' progress (``board.progress_window``):
    held still by the tests' fixture, turned by the clock."""
    monkeypatch.setattr(board_views, "progress_window", lambda: 7)
    assert board_views.redraw_key("tok", 3, "de").endswith(":7")
    day = me_views._day_key(SimpleNamespace(ranking_key="r"), SimpleNamespace(pk=1, version=2), None)  # type: ignore[arg-type]
    assert day.endswith(":7")
