"""Putting an evening right and sharing it, in Chromium at a phone's size: the
new pages pass axe and fit a phone, the header stays one line in every
language, the share page's QR code scans to the link and its copy button copies."""

from __future__ import annotations

import re
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from scoring import services
from tests.browser.support import (
    SCREENSHOTS,
    assert_accessible,
    expect,
    french_session,
    horizontal_overflow,
    login,
    screenshot,
    small_targets,
)

pytestmark = pytest.mark.browser

PLAYERS = ["Anna", "Bert", "Carl", "Dora", "Emil", "Friedrich"]
HANDS = [
    {
        "dealer": "Friedrich",
        "taker": "Anna",
        "partner": "Carl",
        "contract": "garde",
        "bouts": 2,
        "points": 50,
    },
    {"dealer": "Anna", "taker": "Bert", "partner": "Emil", "contract": "prise", "bouts": 1, "points": 45},
    {"dealer": "Bert", "taker": "Carl", "partner": "Dora", "contract": "garde", "bouts": 3, "points": 40},
]


def check_page(page: Any, name: str) -> None:
    screenshot(page, name)
    assert_accessible(page, name)
    assert horizontal_overflow(page) == 0, f"{name} scrolls sideways at 390 px"
    assert small_targets(page) == [], f"{name}: tap targets under 44 px"


def header_lines(page: Any) -> int:
    """How many lines the header's brand and navigation take."""
    return page.evaluate(
        """() => new Set([...document.querySelectorAll('.top .brand, .top nav > *')]
            .map(el => Math.round(el.getBoundingClientRect().top))).size"""
    )


def test_the_pages_that_put_an_evening_right_pass_axe_and_fit_a_phone(phone, live_server, player):
    base = live_server.url
    login(phone, base, player)
    session = french_session(player, "Dienstagsrunde", PLAYERS, HANDS, money_rate=Decimal("0.05"))
    corrected = session.hands.get(number=1)
    services.hand_edit(hand=corrected, raw={**HANDS[0], "points": 52}, user=player)
    deleted = session.hands.get(number=2)
    services.hand_delete(hand=deleted, user=player)
    services.session_change_rules(session=session, user=player, options={"round_to": 5})
    services.session_share(session=session)
    pages = {
        "settings": f"/sessions/{session.pk}/settings/",
        "house-rules": f"/sessions/{session.pk}/rules/",
        "delete-session": f"/sessions/{session.pk}/delete/",
        "sharing-with-qr": f"/sessions/{session.pk}/sharing/",
        "deleted-hand": f"/sessions/{session.pk}/hands/{deleted.pk}/",
    }
    for name, path in pages.items():
        phone.goto(base + path)
        check_page(phone, name)

    # The deleted hand stays in its place, struck through, no number changed, and is
    # restored from its line; the corrected one says so.
    phone.goto(f"{base}/sessions/{session.pk}/")
    struck = re.compile(r"\bdeleted\b")
    expect(phone.locator(f"#hand-{deleted.pk}")).to_have_class(struck)
    expect(phone.locator(f"#hand-{deleted.pk}")).to_contain_text("deleted")
    expect(phone.locator("#board tbody.hand .no")).to_have_text(["1", "2", "3"])
    expect(phone.locator(f"#hand-{corrected.pk} .mark.corrected")).to_be_visible()
    check_page(phone, "scoreboard-deleted-hand")
    phone.locator(f"#hand-{deleted.pk} button").click()
    expect(phone.locator(f"#hand-{deleted.pk}")).not_to_have_class(struck)
    expect(phone.locator("#board tbody.deleted")).to_have_count(0)
    expect(phone.locator("#board tbody.hand .no")).to_have_text(["1", "2", "3"])

    # Closed: the sheet says so, and the owner reopens it from there.
    phone.goto(f"{base}/sessions/{session.pk}/settings/")
    phone.locator("#close").click()
    expect(phone.locator("#closed")).to_be_visible()
    expect(phone.locator("#new-hand")).to_have_count(0)
    check_page(phone, "scoreboard-closed")
    phone.locator("#closed-notice button").click()
    expect(phone.locator("#new-hand")).to_be_visible()

    # Deleted from the settings, restored from the session list.
    phone.goto(f"{base}/sessions/{session.pk}/delete/")
    expect(phone.locator("#confirm-delete")).to_contain_text("“Dienstagsrunde” with 3 hands will be deleted.")
    phone.locator("#confirm-delete button[type=submit]").click()
    expect(phone.locator(f"#deleted-session-{session.pk}")).to_be_visible()
    check_page(phone, "session-list-deleted")
    phone.locator(f"#deleted-session-{session.pk} button").click()
    expect(phone.locator("h1")).to_have_text("Dienstagsrunde")


@pytest.mark.parametrize("locale", ["de-DE", "en-US", "fr-FR"])
def test_the_header_navigation_fits_one_line_on_a_phone(page_for, live_server, player, locale):
    page = page_for(locale)
    login(page, live_server.url, player)
    assert page.viewport_size["width"] == 390
    assert header_lines(page) == 1, f"the header wraps in {locale}"
    assert horizontal_overflow(page) == 0


def decoded_qr(page: Any) -> str:
    """What a phone's camera reads from the QR code on the page (zbar)."""
    zbarimg = shutil.which("zbarimg")
    if zbarimg is None:
        pytest.fail(
            "zbarimg is missing (apt-get install zbar-tools): the QR code cannot be read", pytrace=False
        )
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = Path(SCREENSHOTS / "share-qr.png")
    page.locator("#qr svg").screenshot(path=str(path))
    result = subprocess.run(
        [zbarimg, "--quiet", "--raw", str(path)], capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_the_qr_code_scans_to_the_link_and_the_copy_button_copies_it(browser, live_server, player):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="en-US"
    )
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page = context.new_page()
    try:
        login(page, live_server.url, player)
        session = french_session(player, "Watched", PLAYERS[:4], [])
        page.goto(f"{live_server.url}/sessions/{session.pk}/sharing/")
        page.locator('button[value="share"]').click()
        link = page.locator("#link").input_value()
        assert re.fullmatch(rf"{re.escape(live_server.url)}/s/[\w-]{{20,}}/", link)

        assert decoded_qr(page) == link

        page.locator("#copy-link").click()
        expect(page.locator("#share-status")).to_have_text("The link is copied.")
        assert page.evaluate("() => navigator.clipboard.readText()") == link
        # The phone's own share menu is offered only where the browser has one.
        has_share = page.evaluate("() => typeof navigator.share === 'function'")
        expect(page.locator("#share-link-menu")).to_be_visible() if has_share else expect(
            page.locator("#share-link-menu")
        ).to_be_hidden()
    finally:
        context.close()
