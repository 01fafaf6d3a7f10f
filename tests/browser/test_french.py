"""A French Tarot evening for five on a phone: the session, five hands with the
live preview, a correction, a deletion undone, the settlement and the PDF."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scoring.models import Hand, Session
from tests.browser.support import (
    choose,
    expect,
    expect_preview,
    field,
    fill_hand,
    french_session,
    login,
    screenshot,
    signed,
)

pytestmark = pytest.mark.browser

PLAYERS = ["Anna", "Bert", "Carl", "Dora", "Emil"]

# Each hand as the form is filled in, and what the preview must show before it
# is saved (docs/rules.md §1.3 and 1.4, five players, the taker gets twice the partner's share).
HANDS: list[tuple[dict[str, str], dict[str, int]]] = [
    # Garde, 2 bouts, 50 of 41: (25 + 9) × 2 = 68; taker 2 × 68, partner 68.
    (
        {"taker": "Anna", "partner": "Carl", "contract": "garde", "bouts": "2", "points": "50"},
        {"Anna": 136, "Bert": -68, "Carl": 68, "Dora": -68, "Emil": -68},
    ),
    # Prise lost, 1 bout, 45 of 51: −(25 + 6) = −31.
    (
        {"taker": "Bert", "partner": "Emil", "contract": "prise", "bouts": "1", "points": "45"},
        {"Anna": 31, "Bert": -62, "Carl": 31, "Dora": 31, "Emil": -31},
    ),
    # Garde alone, 3 bouts, 40 of 36: (25 + 4) × 2 = 58; alone the taker gets 4 × 58.
    (
        {"taker": "Carl", "partner": "", "contract": "garde", "bouts": "3", "points": "40"},
        {"Anna": -58, "Bert": -58, "Carl": 232, "Dora": -58, "Emil": -58},
    ),
    # Garde sans, 2 bouts, exactly 41: 25 × 4 = 100.
    (
        {"taker": "Dora", "partner": "Anna", "contract": "garde_sans", "bouts": "2", "points": "41"},
        {"Anna": 100, "Bert": -100, "Carl": -100, "Dora": 200, "Emil": -100},
    ),
    # Prise, 2 bouts, 43.5 of 41 (the half point goes to the winner: 3), petit au
    # bout for the attack: 25 + 3 + 10 = 38.
    (
        {
            "taker": "Emil",
            "partner": "Bert",
            "contract": "prise",
            "bouts": "2",
            "points": "43.5",
            "petit_au_bout": "attack",
        },
        {"Anna": -38, "Bert": 38, "Carl": -38, "Dora": -38, "Emil": 76},
    ),
]
# Hand 2 corrected to 52 points: won by one, 25 + 1 = 26.
CORRECTED = {"Anna": -26, "Bert": 52, "Carl": -26, "Dora": -26, "Emil": 26}
TOTALS = {"Anna": 114, "Bert": -136, "Carl": 136, "Dora": 10, "Emil": -124}
WITHOUT_HAND_3 = {"Anna": 172, "Bert": -78, "Carl": -96, "Dora": 68, "Emil": -66}


def expect_totals(page: Any, totals: dict[str, int]) -> None:
    for name, value in totals.items():
        expect(page.locator(f'tr.totals td[data-player="{name}"]')).to_have_text(signed(value))


def test_a_french_evening_for_five_on_a_phone(phone, live_server, player):
    base = live_server.url
    login(phone, base, player)

    phone.locator('a[href="/sessions/new/"]').first.click()
    phone.locator('a[href="/sessions/new/french/"]').click()
    phone.locator("#id_name").fill("Five at Dora's")
    for seat, name in enumerate(PLAYERS, 1):
        phone.locator(f"#id_seat_{seat}").fill(name)
    choose(phone, "options.five_player_split", "taker_double")
    screenshot(phone, "new-session-filled")
    phone.locator("#session-form button[type=submit]").click()
    expect(phone).to_have_url(re.compile(r"/sessions/\d+/$"))
    session = Session.objects.get(name="Five at Dora's")
    assert [seat.name for seat in session.seats.order_by("position")] == PLAYERS

    for index, (values, deltas) in enumerate(HANDS):
        phone.locator("#new-hand").click()
        expect(phone.locator("#hand-form")).to_be_visible()
        fill_hand(phone, values)
        expect_preview(phone, deltas)
        if index == 4:
            screenshot(phone, "hand-form-preview")
        phone.locator("#save").click()
        expect(phone).to_have_url(re.compile(rf"/sessions/{session.pk}/#hand-\d+$"))
        assert session.hands.count() == index + 1
    expect_totals(phone, {"Anna": 171, "Bert": -250, "Carl": 193, "Dora": 67, "Emil": -181})
    screenshot(phone, "scoreboard-five-hands")

    # Correct hand 2: 52 points instead of 45.
    phone.locator("tbody.hand").nth(1).locator("tr.what a").click()
    phone.locator('a[href$="/edit/"]').click()
    expect(field(phone, "points")).to_have_value("45")
    expect_preview(phone, HANDS[1][1])
    field(phone, "points").fill("52")
    expect_preview(phone, CORRECTED)
    phone.locator("#save").click()
    expect(phone).to_have_url(re.compile(r"#hand-\d+$"))
    expect_totals(phone, TOTALS)

    # Delete hand 3, then undo.
    third = session.hands.get(number=3)
    phone.locator(f"#hand-{third.pk} tr.what a").click()
    phone.locator('form[action$="/delete/"] button').click()
    expect(phone.locator("#undo")).to_be_visible()
    # It stays in its place, struck through, with its number.
    expect(phone.locator(f"#hand-{third.pk}")).to_have_class(re.compile(r"\bdeleted\b"))
    expect(phone.locator(f"#hand-{third.pk} .no")).to_have_text("3")
    expect_totals(phone, WITHOUT_HAND_3)
    assert Hand.objects.get(pk=third.pk).deleted_at is not None
    screenshot(phone, "scoreboard-undo")
    phone.locator("#undo button").click()
    expect(phone.locator(f"#hand-{third.pk}")).not_to_have_class(re.compile(r"\bdeleted\b"))
    expect(phone.locator("#undo")).to_have_count(0)
    expect_totals(phone, TOTALS)
    assert Hand.objects.get(pk=third.pk).deleted_at is None

    # The settlement: who pays whom, in the fewest transfers.
    phone.locator('a[href$="/settlement/"]').click()
    for name, value in TOTALS.items():
        expect(phone.locator(f'#net tr[data-player="{name}"] td').first).to_have_text(signed(value))
    transfers = phone.locator("#transfers li")
    expect(transfers).to_have_count(3)
    assert sorted(re.sub(r"\s+", " ", text) for text in transfers.all_inner_texts()) == [
        "Bert → Carl: 136 points",
        "Emil → Anna: 114 points",
        "Emil → Dora: 10 points",
    ]
    screenshot(phone, "settlement-five")

    # The PDF score sheet, downloaded from the sheet.
    phone.locator(f'#main a[href="/sessions/{session.pk}/"]').first.click()
    assert_pdf_download(phone, session)


def assert_pdf_download(page: Any, session: Session) -> None:
    with page.expect_download() as download_info:
        page.locator(f'nav.exports a[href="/sessions/{session.pk}/export/pdf/"]').click()
    download = download_info.value
    assert download.suggested_filename.endswith(".pdf")
    with open(download.path(), "rb") as handle:
        assert handle.read(5) == b"%PDF-"


def test_the_pdf_downloads_at_desktop_size(desktop, live_server, player):
    session = french_session(
        player, "Desk", PLAYERS[:4], [{"taker": "Anna", "contract": "garde", "bouts": 2, "points": 50}]
    )
    login(desktop, live_server.url, player)
    desktop.locator(f'a[href="/sessions/{session.pk}/"]').click()
    expect(desktop.locator('tr.totals td[data-player="Anna"]')).to_have_text("+204")
    assert_pdf_download(desktop, session)
