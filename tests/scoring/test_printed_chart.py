"""The chart on paper: kept with the settlement, never alone on a page; its lines
apart in black and white; a series' chart counts the series' own hands."""

from __future__ import annotations

import io
import re
from decimal import Decimal

import pytest
from django.utils import translation
from pypdf import PdfReader

from scoring import exports, services
from scoring.printing import print_context
from scoring.sheet import build_sheet
from scoring.sheet_html import board_chart
from tests.scoring.test_sheets import imported

SIX = ("Anna", "Bert", "Carl", "Dora", "Emil", "Fritz")
HANDS = [
    {"taker": "Anna", "partner": "Carl", "contract": "garde", "bouts": 2, "points": 56},
    {"taker": "Bert", "partner": "Emil", "contract": "petite", "bouts": 1, "points": 40},
    {"taker": "Dora", "partner": "Anna", "contract": "garde_sans", "bouts": 3, "points": 38},
]


def pages_of(data: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


@pytest.mark.parametrize("hands", [1, 9, 13, 17, 24])
def test_the_chart_shares_its_page_with_the_settlement_however_long_the_sheet(make_session, user, hands):
    """Six at the table with money: the longest settlement there is. Whatever the
    sheet's length, the chart's page holds the settlement (and the last rows
    when they fit), never the chart alone."""
    session = make_session(players=SIX, money_rate=Decimal("0.10"))
    for index in range(hands):
        dealer = SIX[index % 6]
        hand = dict(HANDS[index % len(HANDS)])
        if dealer in (hand["taker"], hand["partner"]):
            hand = {**hand, "taker": SIX[(index + 2) % 6], "partner": SIX[(index + 3) % 6]}
        services.hand_record(session=session, raw={**hand, "dealer": dealer}, user=user)
    with translation.override("en"):
        pages = pages_of(exports.session_export(session, "pdf").data)
    [chart_page] = [text for text in pages if "How the evening went" in text]
    assert "Settlement" in chart_page and "Player" in chart_page and "Money" in chart_page
    if chart_page is not pages[0]:
        # moved on only because page 1 is full of rows
        assert len(re.findall(r"^\d+ ", pages[0], re.M)) >= 10


def test_the_printed_chart_is_black_and_grey_with_a_dash_pattern_for_every_player(make_session, user):
    session = make_session(players=SIX)
    services.hand_record(session=session, raw={**HANDS[0], "dealer": "Fritz"}, user=user)
    sheet = build_sheet(session)
    printed = print_context(sheet)["chart"]
    lines = re.findall(r'<polyline [^>]*stroke="#(\w\w)(\w\w)(\w\w)"([^>]*)/>', printed)
    assert len(lines) == 6
    assert all(r == g == b for r, g, b, _ in lines), (
        "no colour a black-and-white printer turns into the same grey"
    )
    dashes = [re.search(r'stroke-dasharray="([^"]+)"', rest) for _, _, _, rest in lines]
    patterns = [dash.group(1) if dash else "solid" for dash in dashes]
    assert len(set(patterns)) == 6, patterns
    # two lines of the same grey never share a dash pattern either
    assert len({(r, pattern) for (r, _, _, _), pattern in zip(lines, patterns, strict=True)}) == 6
    # the screen keeps its colours
    screen = re.findall(r'<polyline [^>]*stroke="#(\w\w)(\w\w)(\w\w)"', board_chart(sheet))
    assert any(not (r == g == b) for r, g, b in screen)


def test_a_series_chart_counts_the_series_own_hands(user):
    session = imported(user, "rich-illustrated.json")
    sheet = build_sheet(session)
    second = sheet.section(2)
    chart = print_context(sheet, series=2)["chart"]
    axis = [int(n) for n in re.findall(r'<text x="[\d.]+" y="292" text-anchor="middle">(\d+)</text>', chart)]
    own = second.last - second.first + 1
    assert axis[0] == 0 and axis[-1] == own and own < len(sheet.rows)
