"""A table and the hall followed live, in German (TOURNAMENTS.md §3.1, §3.6,
§4.3, §4.4): a phone that opened the table's link before anyone wrote sees the
next hand within 5 s and then who writes; the organiser gives the table extra
minutes on the control page and its phone counts down to the later end; the
hall screen (1920 × 1080) shows a sign-off within 3 s, counts the round down,
and says "Endstand" once the ranking is final. Kept as table-live-*.png."""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring import services as scoring
from scoring.models import Hand
from tests.browser.support import expect, horizontal_overflow, login, screenshot
from tests.browser.tournament_support import HALL, Contexts
from tests.tournaments.factory import make_final
from tests.tournaments.table_support import rufer, tournament_day
from tournaments.models import Round, TableRound, Tournament
from tournaments.services import results, tables, tournaments

pytestmark = pytest.mark.browser


@pytest.fixture
def contexts(browser: Any, live_server: Any) -> Iterator[Contexts]:
    made = Contexts(browser)
    yield made
    made.close()


def clock_started(day: Any, minutes_ago: int = 20) -> None:
    Round.objects.filter(pk=day.round.pk).update(released_at=timezone.now() - timedelta(minutes=minutes_ago))


def save_hand(client: Client, table: TableRound) -> Hand:
    """The scorer's phone saves a Rufer through the table link (its first save claims the table)."""
    names = tables.players(table)
    form = {"token": uuid.uuid4().hex, "type": "played", "action": "save", "dealer": names[0]}
    form |= {"declarer": names[0], "game": "rufer", "partner": names[1], "points": "41/2"}
    answer = client.post(reverse("tournament_table_hand_new", args=[table.link_token]), form)
    assert answer.status_code == 302, answer.content.decode()[:500]
    session_id = TableRound.objects.get(pk=table.pk).session_id
    assert session_id is not None, "the first save claims the table and opens its session"
    return Hand.objects.filter(session_id=session_id).latest("pk")


def test_a_phone_opened_before_the_claim_follows_the_table_and_its_extra_minutes(
    contexts: Contexts, live_server: Any, player: Any
) -> None:
    base = live_server.url
    day = tournament_day(
        player, tables_count=2, hands=4, settings={"round_minutes": 120}, name="Herbstcup Linz"
    )
    clock_started(day)
    table = day.table(1)
    link = f"{base}/t/{table.link_token}/"

    watcher = contexts.page()
    watcher.goto(link)
    expect(watcher.locator("#nobody-writes")).to_contain_text("An diesem Tisch schreibt noch niemand")
    expect(watcher.locator("#played")).to_have_text("0 von 4 gespielt")
    expect(watcher.locator("#round-clock [data-clock-time]")).to_have_text(
        re.compile(r"^noch 1:3\d:\d\d · bis \d\d:\d\d$")
    )

    # Another phone saves the first hand: the open page shows it within 5 s, and who writes.
    scorer = Client(HTTP_ACCEPT_LANGUAGE="de")
    hand = save_hand(scorer, table)
    saved = time.monotonic()
    expect(watcher.locator(f"#hand-{hand.pk}")).to_be_visible(timeout=5_000)
    assert time.monotonic() - saved <= 5, "the watching phone saw the hand after more than 5 s"
    expect(watcher.locator("#played")).to_have_text("1 von 4 gespielt")
    expect(watcher.locator("#watching")).to_contain_text("Wird auf einem anderen Handy geschrieben, seit")
    expect(watcher.locator("#signed-where")).to_contain_text("mit einem anderen Spieler des Tisches")
    expect(watcher.locator("#new-hand")).to_have_count(0)

    # The organiser gives table 1 ten minutes more from the control page, on a phone.
    org = contexts.page()
    login(org, base, player)
    org.goto(f"{base}/tournaments/{day.tournament.pk}/")
    org.locator("#clock-table").select_option("1")
    org.locator("#clock-minutes").fill("10")
    org.locator("#give-minutes").click()
    expect(org.locator("#table-1-extra")).to_contain_text("10 Minuten mehr, bis")
    assert horizontal_overflow(org) == 0, "the control page scrolls sideways at 390 px"
    expect(watcher.locator("#clock-extra")).to_have_text("10 Minuten mehr für diesen Tisch")
    expect(watcher.locator("#round-clock [data-clock-time]")).to_have_text(
        re.compile(r"^noch 1:4\d:\d\d · bis ")
    )
    assert TableRound.objects.get(pk=table.pk).extra_minutes == 10
    assert horizontal_overflow(watcher) == 0, "the watching phone scrolls sideways at 390 px"
    screenshot(watcher, "table-live-watcher", full_page=False)
    watcher.reload()  # what taking the picture left in the page is not the app's

    # The other table's phone keeps the round's end; at zero the phones say to finish the game.
    other = contexts.page()
    other.goto(f"{base}/t/{day.table(2).link_token}/")
    expect(other.locator("#clock-extra")).to_have_count(0)
    clock_started(day, minutes_ago=131)
    TableRound.objects.filter(pk=table.pk).update(extra_minutes=0)
    other.reload()
    expect(other.locator("#round-clock [data-clock-time]")).to_have_text("Spiel fertig spielen")
    expect(watcher.locator("#round-clock [data-clock-time]")).to_have_text("Spiel fertig spielen")


def test_the_hall_shows_a_sign_off_within_3_s_counts_down_and_says_endstand(
    contexts: Contexts, live_server: Any, player: Any
) -> None:
    day = tournament_day(
        player,
        tables_count=4,
        hands=1,
        rounds=1,
        settings={"round_minutes": 110, "complaint_minutes": 15},
        name="Herbstcup Linz",
    )
    clock_started(day, minutes_ago=5)
    token = results.board_share(Tournament.objects.get(pk=day.tournament.pk))
    hall = contexts.page(HALL, mobile=False)
    hall.goto(f"{live_server.url}/b/{token}/?screen=1")
    expect(hall.locator(".hall-status")).to_have_text("Runde 1: 0 von 4 Tischen fertig")
    expect(hall.locator("#round-clock")).to_have_text(re.compile(r"^noch 1:4\d:\d\d$"))
    expect(hall.locator("#hall-provisional")).to_have_text("vorläufig")

    # Table 4 plays its hand and is signed: the hall shows it within 3 s.
    table = day.table(4)
    names = tables.players(table)
    scoring.hand_record(session=tables.open_table(table), raw=rufer(names[0], names[1], names[0]))
    time.sleep(2.5)  # the hall has asked meanwhile; the hand moved no total
    tables.sign_off(day.table(4), user=player, scorer=names[0], checker=names[1])
    signed = time.monotonic()
    expect(hall.locator(".hall-status")).to_have_text("Runde 1: 1 von 4 Tischen fertig", timeout=3_000)
    expect(hall.locator("tr.hall-row.changed").first).to_be_visible(timeout=3_000)
    assert time.monotonic() - signed <= 3, "the hall showed the sign-off after more than 3 s"
    shown = hall.locator(".hall-page:not([hidden]) tr.hall-row.changed td.hall-player").all_inner_texts()
    assert set(shown) <= set(names) and shown, shown
    assert hall.locator(".hall-title").evaluate("e => e.scrollWidth <= e.clientWidth"), (
        "the title bar is cut off"
    )
    last = hall.locator(".hall-page:not([hidden]) tr.hall-row").last.bounding_box()
    assert hall.locator(".hall-page:not([hidden]) tr.hall-row").count() == 12
    assert last and last["y"] + last["height"] <= HALL["height"], "the twelfth row runs off the screen"
    screenshot(hall, "table-live-hall", full_page=False)

    # The other tables are signed, the ranking made provisional, then final: "Endstand".
    for number in (1, 2, 3):
        other = day.table(number)
        seats = tables.players(other)
        scoring.hand_record(session=tables.open_table(other), raw=rufer(seats[2], seats[3], seats[0]))
        tables.sign_off(day.table(number), user=player, scorer=seats[0], checker=seats[1])
    t = Tournament.objects.get(pk=day.tournament.pk)
    Round.objects.filter(pk=day.round.pk).update(status=Round.Status.COMPLETE)
    tournaments.tournament_provisional(tournament=t, user=player)
    make_final(Tournament.objects.get(pk=t.pk))
    final = time.monotonic()
    expect(hall.locator("#hall-final")).to_have_text("Endstand", timeout=3_000)
    assert time.monotonic() - final <= 3
    expect(hall.locator("#hall-provisional")).to_have_count(0)
    expect(hall.locator("#round-clock")).to_have_count(0)  # the round is over: the time of day again
    screenshot(hall, "table-live-hall-final", full_page=False)
