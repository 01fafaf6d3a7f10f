"""A tournament table's link offline: the scorer's phone keeps the table's hand
form, scores the hands on the phone, shows them waiting on the table's page with
the provisional totals and the round counter moved, refuses a hand past the
target before it is kept, and sends each once when the server answers again."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from scoring.engine import offline as on_the_phone
from scoring.models import Hand
from tests.browser.front import Front, front_of
from tests.browser.support import expect, screenshot
from tests.browser.test_offline import kept, under_the_worker, until
from tests.browser.test_phone_engine import FILL, engine_kept, new_hand_pairs, waiting_kinds
from tests.scoring.test_phone import evening_of
from tests.tournaments.factory import play_hand
from tests.tournaments.table_support import tournament_day

pytestmark = [pytest.mark.browser, pytest.mark.engine]


@pytest.fixture
def door(live_server: Any) -> Iterator[Front]:
    with front_of(live_server.url) as front:
        yield front


def test_a_table_link_scores_offline_and_its_counter_moves(phone, door, player):
    day = tournament_day(player, tables_count=1, hands=3)
    table = day.table(1)
    play_hand(table)  # hand 1 stored; the phone plays hands 2 and 3 offline
    table.refresh_from_db()
    link = f"/t/{table.link_token}/"
    hand = Hand.objects.get(session=table.session)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    pairs = new_hand_pairs(client, f"{link}hands/{hand.pk}/edit/")

    phone.goto(f"{door.url}{link}")
    under_the_worker(phone)
    phone.goto(f"{door.url}{link}")
    kept(phone, link)
    phone.goto(f"{door.url}{link}hands/new/")
    kept(phone, f"{link}hands/new/")
    phone.goto(f"{door.url}{link}")
    engine_kept(phone)
    door.shut()
    for number in (2, 3):
        phone.goto(f"{door.url}{link}hands/new/")
        expect(phone.locator("#hand-form[data-ready]")).to_have_count(1)
        expect(phone.locator("#hand-of")).to_have_text(f"Hand {number} of 3")  # the waiting hands counted
        assert not phone.evaluate(FILL, [list(p) for p in pairs])
        expect(phone.locator("#preview .preview-deltas li")).to_have_count(4)
        phone.locator("#save").click()
        expect(phone).to_have_url(re.compile(r"/t/[\w-]+/#pending-\d+$"))
    expect(phone.locator("#provisional .provisional-totals li")).to_have_count(4)
    # The round counter counts the waiting hands: the target is reached, the button gone.
    expect(phone.locator("#played")).to_have_text("3 of 3 played")
    expect(phone.locator("#next-hand")).to_have_text("")
    expect(phone.locator("#new-hand")).to_be_hidden()
    screenshot(phone, "tournament-table-offline")
    kept_totals = phone.evaluate(
        f"() => JSON.parse(sessionStorage.getItem('provisional-{table.link_token}'))"
    )
    # A hand past the target is refused on the phone, in the server's words, and not kept.
    phone.goto(f"{door.url}{link}hands/new/")
    expect(phone.locator("#hand-form[data-ready]")).to_have_count(1)
    expect(phone.locator("#hand-of")).to_have_text("3 of 3 played")
    assert not phone.evaluate(FILL, [list(p) for p in pairs])
    expect(phone.locator("#preview .open-list li")).to_have_text(["Round complete: 3 of 3"], timeout=60_000)
    phone.locator("#save").click()
    expect(phone.locator('#quick p.open[role="alert"]')).to_contain_text("Round complete: 3 of 3")
    assert len(waiting_kinds(phone)) == 2

    door.open()
    phone.goto(f"{door.url}{link}")
    until(phone, "async () => self.Outbox && (await self.Outbox.all()).length === 0", seconds=60)
    expect(phone).to_have_url(re.compile(rf"{link}$"))
    expect(phone.locator("#board tbody.hand:not(.pending)")).to_have_count(3)
    expect(phone.locator("#board[data-compared]")).to_have_count(1)
    until(phone, f"() => sessionStorage.getItem('provisional-{table.link_token}') === null")
    assert Hand.objects.filter(session=table.session).count() == 3  # each once
    expect(phone.locator("#played")).to_have_text("3 of 3 played")
    server = on_the_phone.score_table({**evening_of(table.session), "waiting": []})
    assert kept_totals["exact"] == server["exact"]
    expect(phone.locator("#provisional-differs")).to_have_count(0)
