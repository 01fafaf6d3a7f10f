"""A table's hand costs what an evening's hand costs: a save through a table link
(its form or the phone's outbox) runs no more statements than an evening's save
and at most ten, the first save two more for its claim; it moves nothing of the
ranking (no ``RoundResult`` row, no version of the tournament, no ranking built
again), so the hall's and the phones' polls stay one row and a 204; a sign-off
moves the ranking and changes what every poll answers."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import services
from scoring.models import Hand
from tests.scoring.test_views import form_data
from tests.tournaments.table_support import in_english as in_english
from tests.tournaments.table_support import phone, tournament_day
from tests.tournaments.test_table_pages import rufer_form
from tournaments.models import RoundResult, TableRound, Tournament
from tournaments.services import results

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]

GARDE = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
OUTBOX = {"X-Tarock-Outbox": "1"}
# The first save at a free table claims it: one conditional update of the table's
# row and the claim's line in the tournament's history, in the save's transaction.
CLAIM_STATEMENTS = 2


hand_form = rufer_form  # a Rufer as the table link's form posts it


def statements(send: Callable[[], Any]) -> tuple[Any, int]:
    with CaptureQueriesContext(connection) as queries:
        answer = send()
    return answer, len(queries)


def evening_save_statements(logged_in: Client, make_session: Callable[..., Any]) -> int:
    """An evening's save through its hand form, as its phone sends it."""
    session = make_session()
    services.hand_record(session=session, raw=GARDE)
    url = reverse("hand_new", args=[session.pk])
    answer, count = statements(
        lambda: logged_in.post(url, form_data(GARDE | {"dealer": "Anna", "taker": "Bert"}, uuid.uuid4().hex))
    )
    assert answer.status_code == 302 and session.hands.count() == 2
    return count


@pytest.mark.parametrize("headers", [{}, OUTBOX], ids=["form", "outbox"])
def test_a_table_save_costs_no_more_statements_than_an_evenings_save(user, logged_in, make_session, headers):
    evening = evening_save_statements(logged_in, make_session)
    day = tournament_day(user, tables_count=1, hands=8)
    table = day.table(1)
    scorer = phone()
    scorer.get(reverse("tournament_table", args=[table.link_token]))  # the session is opened by a look
    new = reverse("tournament_table_hand_new", args=[table.link_token])
    first, first_cost = statements(lambda: scorer.post(new, hand_form("Anna"), headers=headers))
    assert first.status_code in (204, 302) and Hand.objects.filter(session__managed=True).count() == 1
    assert TableRound.objects.get(pk=table.pk).claim_digest  # this save claimed the table
    later_costs = []
    for dealer in ("Bernd", "Christa"):
        later, cost = statements(partial(scorer.post, new, hand_form(dealer), headers=headers))
        assert later.status_code in (204, 302)
        later_costs.append(cost)
    assert Hand.objects.filter(session__managed=True).count() == 3
    assert max(later_costs) <= min(evening, 10), (later_costs, evening)
    assert first_cost <= max(later_costs) + CLAIM_STATEMENTS <= 11, (first_cost, later_costs)


def test_a_table_save_moves_nothing_of_the_ranking_its_sign_off_does(user, monkeypatch):
    day = tournament_day(user, tables_count=2, hands=2)
    token = results.board_share(Tournament.objects.get(pk=day.tournament.pk))
    built: list[int] = []
    build = results.build_standings

    def counted_build(tournament: Tournament) -> results.Standings:
        built.append(tournament.pk)
        return build(tournament)

    monkeypatch.setattr(results, "build_standings", counted_build)
    hall = phone()
    hall.get(reverse("tournament_board", args=[token]) + "?screen=1")  # the ranking built and kept
    built.clear()
    before = Tournament.objects.get(pk=day.tournament.pk)
    rows_before = list(RoundResult.objects.values_list("pk", "points", "counted", "hands_played"))
    table = day.table(1)
    scorer = phone()
    new = reverse("tournament_table_hand_new", args=[table.link_token])
    for dealer in ("Anna", "Bernd"):
        assert scorer.post(new, hand_form(dealer)).status_code == 302
    after = Tournament.objects.get(pk=day.tournament.pk)
    assert list(RoundResult.objects.values_list("pk", "points", "counted", "hands_played")) == rows_before
    assert (after.version, after.results_version) == (before.version, before.results_version)
    hall.get(reverse("tournament_board", args=[token]) + "?screen=1")
    assert built == []  # the kept ranking: nothing it counts changed
    # The pages read the open table's sums and hands from its session.
    page = scorer.get(reverse("tournament_table", args=[table.link_token])).content.decode()
    assert "2 of 2 played" in page
    signoff = scorer.get(reverse("tournament_table_signoff", args=[table.link_token])).content.decode()
    sums = re.findall(r"<li><span>(\w+)</span> <strong[^>]*>([^<]+)</strong></li>", signoff)
    assert sums[:4] == [("Anna", "+2"), ("Bernd", "+2"), ("Christa", "−2"), ("Dieter", "−2")], sums
    assert results.table_sums(day.table(1)).sums == {"Anna": 2, "Bernd": 2, "Christa": -2, "Dieter": -2}
    sign = {"scorer": "Anna", "checker": "Bernd", "token": uuid.uuid4().hex}
    assert scorer.post(reverse("tournament_table_signoff", args=[table.link_token]), sign).status_code == 302
    signed = Tournament.objects.get(pk=day.tournament.pk)
    assert signed.results_version > before.results_version and signed.version > before.version
    found = {r.entrant.name: r for r in RoundResult.objects.filter(table=table).select_related("entrant")}
    assert {name: (r.points, r.counted, r.hands_played) for name, r in found.items()} == {
        "Anna": (2, True, 2),
        "Bernd": (2, True, 2),
        "Christa": (-2, True, 2),
        "Dieter": (-2, True, 2),
    }
    html = hall.get(reverse("tournament_board", args=[token]) + "?screen=1").content.decode()
    assert built == [day.tournament.pk] and "1 of 2 tables done" in html


def since(html: str) -> str:
    found = re.search(r"since=([^\"&]+)", html)
    assert found, "the page polls"
    return found.group(1)


def test_the_halls_and_the_phones_polls_stay_one_row_and_204_through_a_save_a_sign_off_changes_them(user):
    day = tournament_day(user, tables_count=2, hands=1)
    token = results.board_share(Tournament.objects.get(pk=day.tournament.pk))
    screen_token = Tournament.objects.get(pk=day.tournament.pk).screen_token
    pages = {
        "hall": reverse("tournament_screen", args=[screen_token]) + "?",
        "board hall": reverse("tournament_board", args=[token]) + "?screen=1&",
        "board": reverse("tournament_board", args=[token]) + "?",
    }
    watcher = phone()
    versions = {name: since(watcher.get(url).content.decode()) for name, url in pages.items()}
    table = day.table(1)
    scorer = phone()
    new = reverse("tournament_table_hand_new", args=[table.link_token])
    assert scorer.post(new, hand_form("Anna"), headers=OUTBOX).status_code == 204
    for name, url in pages.items():
        poll, count = statements(
            partial(watcher.get, url + f"since={versions[name]}", HTTP_HX_REQUEST="true")
        )
        assert (name, poll.status_code, count) == (name, 204, 1)
    sign = {"scorer": "Anna", "checker": "Bernd", "token": uuid.uuid4().hex}
    assert scorer.post(reverse("tournament_table_signoff", args=[table.link_token]), sign).status_code == 302
    for name, url in pages.items():
        poll = watcher.get(url + f"since={versions[name]}", HTTP_HX_REQUEST="true")
        assert (name, poll.status_code) == (name, 200)
        assert since(poll.content.decode()) != versions[name]


def test_the_organisers_control_page_follows_the_hands_without_the_tournaments_version(user, logged_in):
    """The control page shows each table's hands played as they are saved: its poll
    compares the tables' sheets too, so a hand moves it while the board's stays at 204."""
    day = tournament_day(user, tables_count=2, hands=4)
    page = reverse("tournament_detail", args=[day.tournament.pk])
    html = logged_in.get(page).content.decode()
    live = re.search(r'id="live" hx-get="[^"]*\?since=([^"&]+)', html)
    assert live and "0 of 4 played" in html
    poll = page + f"?since={live.group(1)}"
    assert logged_in.get(poll, HTTP_HX_REQUEST="true").status_code == 204
    table = day.table(2)
    assert (
        phone()
        .post(
            reverse("tournament_table_hand_new", args=[table.link_token]),
            hand_form("Erika", "Erika", "Franz"),
        )
        .status_code
        == 302
    )
    answer = logged_in.get(poll, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and "1 of 4 played" in answer.content.decode()
