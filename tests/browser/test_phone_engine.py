"""The engine on the phone: offline, the hand form's preview and refusals and the
sheet's provisional totals come from the same engine the server runs (Pyodide in a
worker), and equal what the server stores once the hands arrive."""

from __future__ import annotations

import html
import re
import time
from typing import Any

import pytest
from django.test import Client

from scoring import services
from scoring.models import Hand
from tests.browser.support import PASSWORD, expect, field, fill_hand, french_session
from tests.browser.test_offline import open_sheet_for_offline, until

pytestmark = pytest.mark.browser

PLAYERS = ["Anna", "Bert", "Carl", "Dora"]
# Ten hands of French Tarot, as tapped: each taker in turn, contracts and points varied.
HANDS = [
    {"taker": PLAYERS[i % 4], "contract": contract, "bouts": str(bouts), "points": str(points)}
    for i, (contract, bouts, points) in enumerate(
        [
            ("prise", 1, 52),
            ("garde", 2, 38),
            ("garde_sans", 3, 40),
            ("prise", 0, 60),
            ("garde_contre", 2, 45),
            ("prise", 1, 50),
            ("garde", 1, 49),
            ("prise", 2, 41),
            ("garde", 3, 36),
            ("prise", 0, 55.5),
        ]
    )
]
# Impossible: no contract chosen, 95 points.
IMPOSSIBLE = {"taker": "Anna", "bouts": "1", "points": "95"}


def server_refusal(session: Any, user: Any, hand: dict[str, str]) -> str:
    """What the server's own hand form says of this hand when it is saved online."""
    client = Client()
    client.login(username=user.get_username(), password=PASSWORD)
    data = {**hand, "action": "save", "type": "played"}
    response = client.post(f"/sessions/{session.pk}/hands/new/", data, HTTP_ACCEPT_LANGUAGE="en")
    found = re.search(r'<p class="open" data-summary role="alert">(.*?)</p>', response.content.decode(), re.S)
    assert found, "the server refuses it with its summary"
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


def engine_kept(page: Any) -> None:
    """Wait until the worker has fetched the runtime and the bundle in the background."""
    until(
        page,
        """async () => {
            const config = JSON.parse(document.getElementById("offline-config").textContent).engine;
            for (const url of [...config.runtimeFiles, config.bundle]) {
                if (!(await caches.match(url))) return false;
            }
            return true;
        }""",
        seconds=90,
    )


def provisional_totals(page: Any) -> dict[str, str]:
    items = page.locator("#provisional .provisional-totals li")
    return {item.get_attribute("data-player"): item.locator("span").inner_text() for item in items.all()}


def test_ten_hands_offline_are_scored_on_the_phone_and_equal_what_the_server_stores(
    phone, live_server, player
):
    session = french_session(player, "Phone", PLAYERS, [])
    from tests.browser.support import login

    login(phone, live_server.url, player)
    sheet = open_sheet_for_offline(phone, live_server.url, session)
    engine_kept(phone)
    phone.context.set_offline(True)

    # An impossible hand is refused on the phone, in the server's words, and not kept.
    phone.locator("#new-hand").click()
    fill_hand(phone, IMPOSSIBLE)
    expect(phone.locator("#preview .open-list li").first).to_be_visible(timeout=60_000)
    phone.locator("#save").click()
    refusal = phone.locator('#quick p.open[role="alert"]')
    expect(refusal).to_be_visible()
    assert phone.url.endswith("/hands/new/")
    phone_words = " ".join(refusal.inner_text().split())
    assert phone.evaluate("async () => (await self.Outbox.all()).length") == 0  # not kept

    started = time.monotonic()
    for hand in HANDS:
        phone.goto(f"{live_server.url}{sheet}hands/new/")
        fill_hand(phone, hand)
        expect(phone.locator("#preview .preview-deltas li")).to_have_count(4)
        phone.locator("#save").click()
        expect(phone).to_have_url(re.compile(r"/sessions/\d+/#pending-\d+$"))
    expect(phone.locator("#provisional .provisional-totals li")).to_have_count(4)
    phone_totals = provisional_totals(phone)
    dealer = phone.locator("#provisional .provisional-dealer").inner_text()
    recorded_in = time.monotonic() - started
    assert Hand.objects.filter(session=session).count() == 0

    phone.context.set_offline(False)
    phone.evaluate("() => dispatchEvent(new Event('online'))")
    until(phone, "async () => (await self.Outbox.all()).length === 0", seconds=90)
    expect(phone.locator("#board tbody.hand:not(.pending)")).to_have_count(10)
    assert Hand.objects.filter(session=session).count() == 10  # each once
    game = services.game_of(session)
    heads = phone.locator("#board thead tr").nth(1).locator("td")
    server_totals = {name: heads.nth(i).inner_text() for i, name in enumerate(PLAYERS)}
    assert {k: v.lstrip("+") for k, v in phone_totals.items()} == {
        k: v.lstrip("+") for k, v in server_totals.items()
    }
    assert dealer.endswith(services.proposed_dealer(session, game))
    expect(phone.locator("#provisional-differs")).to_have_count(0)
    assert phone_words == server_refusal(session, player, IMPOSSIBLE)
    print(f"recorded 10 hands offline in {recorded_in:.1f} s")
