"""The read-only share link: a second phone at the table watches the sheet update
by itself while the owner records a hand, and cannot change anything."""

from __future__ import annotations

import re

import pytest

from tests.browser.support import (
    assert_accessible,
    expect,
    fill_hand,
    french_session,
    login,
    screenshot,
    signed,
)

pytestmark = pytest.mark.browser

PLAYERS = ["Anna", "Bert", "Carl", "Dora"]


def test_the_share_link_shows_a_new_hand_without_reloading(desktop, page_for, live_server, player):
    # Garde, 2 bouts, 50 points: (25 + 9) × 2 = 68 from each of three defenders.
    session = french_session(
        player, "Watched", PLAYERS, [{"taker": "Anna", "contract": "garde", "bouts": 2, "points": 50}]
    )
    login(desktop, live_server.url, player)
    desktop.goto(f"{live_server.url}/sessions/{session.pk}/")
    desktop.locator(f'a[href="/sessions/{session.pk}/sharing/"]').click()
    desktop.locator('button[value="share"]').click()
    link = desktop.locator("#link").input_value()
    assert re.fullmatch(rf"{re.escape(live_server.url)}/s/[\w-]{{20,}}/", link), link

    watcher = page_for("en-US")  # another phone, not logged in
    watcher.goto(link)
    expect(watcher.locator('tr.totals td[data-player="Anna"]')).to_have_text(signed(204))
    expect(watcher.locator("tbody.hand")).to_have_count(1)
    # Read-only: no way to record, edit or share from the link.
    expect(watcher.locator("#new-hand")).to_have_count(0)
    expect(
        watcher.locator('#main a[href*="/edit/"], #main a[href*="/sharing/"], #main form[method=post]')
    ).to_have_count(0)
    assert_accessible(watcher, "the shared sheet")
    screenshot(watcher, "shared-sheet")
    url_before = watcher.url

    # The owner records a second hand: Prise lost by Bert, 1 bout, 45 of 51: −(25 + 6) = −31.
    desktop.goto(f"{live_server.url}/sessions/{session.pk}/hands/new/")
    fill_hand(desktop, {"taker": "Bert", "contract": "prise", "bouts": "1", "points": "45"})
    desktop.locator("#save").click()
    expect(desktop).to_have_url(re.compile(r"#hand-\d+$"))

    # Within a few seconds the watcher's sheet has it, with no reload.
    expect(watcher.locator("tbody.hand")).to_have_count(2, timeout=12_000)
    expect(watcher.locator('tr.totals td[data-player="Bert"]')).to_have_text(signed(-68 - 93))
    expect(watcher.locator('tr.totals td[data-player="Anna"]')).to_have_text(signed(204 + 31))
    assert watcher.url == url_before

    # A hand opens read-only from the link, with its explanation.
    watcher.locator("tbody.hand").nth(1).locator("tr.what a").click()
    expect(watcher).to_have_url(re.compile(r"/s/[\w-]+/hands/\d+/$"))
    expect(watcher.locator("#main")).to_contain_text("Prise")
    expect(watcher.locator('a[href$="/edit/"], form[action$="/delete/"]')).to_have_count(0)

    # The owner stops sharing: the watching sheet says so, and so does the link opened afresh.
    watcher.goto(link)
    desktop.goto(f"{live_server.url}/sessions/{session.pk}/sharing/")
    desktop.locator('button[value="unshare"]').click()
    expect(watcher.locator("#live .notice")).to_contain_text("no longer works", timeout=12_000)
    notice = watcher.locator("#live .notice").inner_text()
    response = watcher.goto(link)
    assert response is not None and response.status == 410
    expect(watcher.locator("#live .notice")).to_have_text(notice)
