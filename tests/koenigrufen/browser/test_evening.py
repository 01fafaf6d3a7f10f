"""A Königrufen evening for five on a phone (390 × 844, German), through the
real pages: the new evening form, twenty hands with the dealer sitting out and
the next dealer proposed, each saved hand's deltas those of the engine; the
sheet's totals those of the engine's summary of the stored evening, the
settlement's transfers and the PDF read back."""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from scoring import presentation
from scoring.engine import read_session, score_session
from scoring.models import Session
from scoring.presentation import signed
from tests.browser.support import expect, horizontal_overflow, login, screenshot
from tests.browser.test_table_loop import Taps, last_hand
from tests.koenigrufen.browser.test_form import engine_deltas, premium
from tests.scoring.test_sheets import pdf_text

pytestmark = pytest.mark.browser

FIVE = ["Anna", "Bert", "Carl", "Dora", "Emil"]
Hand = Callable[[list[str]], dict[str, Any]]


def rufer(a: list[str]) -> dict[str, Any]:
    return {"declarer": a[0], "game": "rufer", "partner": a[2], "points": 41}


# Each hand as the session file writes it, from the four who play (in seat order, the dealer left out).
HANDS: list[Hand] = [
    rufer,
    lambda a: {"declarer": a[1], "game": "rufer", "king_in_talon": "played", "points": 38},
    lambda a: {"declarer": a[2], "game": "rufer", "king_in_talon": "conceded"},
    lambda a: {
        "declarer": a[3],
        "game": "besserrufer",
        "partner": a[0],
        "bird": "pagat",
        "points": 44,
        "premiums": [{"type": "pagat", "side": "declarer", "announced": True, "kontra": 1}],
    },
    lambda a: {"declarer": a[0], "game": "sechserdreier", "points": 30},
    lambda a: {"declarer": a[1], "game": "piccolo", "won": False, "kontra": {a[3]: 1}},
    lambda a: {"declarer": a[2], "game": "trischaken", "points": {a[0]: 10, a[1]: 40, a[2]: 20, a[3]: 0}},
    lambda a: {
        "declarer": a[3],
        "game": "rufer",
        "partner": a[1],
        "points": 70,
        "valat": {"side": "declarer"},
    },
    lambda a: {"declarer": a[0], "game": "dreier", "points": 40},
    lambda a: {"declarer": a[1], "game": "solorufer", "partner": a[3], "points": 29},
    lambda a: {"declarer": a[2], "game": "rufer", "partner": a[0], "points": 35, "kontra": 1},
    lambda a: {"declarer": a[3], "game": "dreier", "points": 33},
    lambda a: {"declarer": a[0], "game": "rufer", "partner": a[1], "points": 50},
    lambda a: {"declarer": a[1], "game": "rufer", "partner": a[2], "points": 20},
    lambda a: {"declarer": a[2], "game": "solorufer", "partner": a[1], "points": 47},
    lambda a: {"declarer": a[3], "game": "rufer", "partner": a[2], "points": 36},
    lambda a: {"declarer": a[0], "game": "dreier", "points": 25},
    lambda a: {"declarer": a[1], "game": "rufer", "partner": a[0], "points": 60},
    lambda a: {"declarer": a[2], "game": "rufer", "partner": a[3], "points": 34},
    lambda a: {"declarer": a[3], "game": "solodreier", "points": 36},
]


def enter(taps: Taps, raw: dict[str, Any]) -> None:
    """Tap and type a hand as the table calls it out."""
    taps.hand({"declarer": raw["declarer"], "game": raw["game"]})
    for name in ("partner", "king_in_talon", "bird"):
        if name == "king_in_talon" and name in raw:
            taps.choose("partner", f"king_in_talon:{raw[name]}")  # answered among the partners: one tap
        elif name in raw:
            taps.choose(name, raw[name])
    points = raw.get("points")
    if isinstance(points, dict):
        for name, value in points.items():
            taps.fill(f"points.{name}", str(value))
    elif points is not None:
        taps.fill("points", str(points))
    if "won" in raw:
        taps.choose("won", "true" if raw["won"] else "false")
    kontra = raw.get("kontra")
    if isinstance(kontra, dict):
        for name, level in kontra.items():
            taps.choose(f"kontra.{name}", str(level))
    elif kontra:
        taps.choose("kontra", str(kontra))
    for item in raw.get("premiums", ()):
        how = ("true" if item.get("announced") else "false") + ("" if item.get("made", True) else "-failed")
        premium(taps, item["type"], item["side"], how)
        if item.get("kontra"):
            taps.choose(f"premiums.{item['type']}.kontra", str(item["kontra"]))
    if "valat" in raw:
        taps.tap(taps.page.locator("#hand-form details.more:not(.counter) > summary"))
        taps.choose("valat.side", raw["valat"]["side"])


def new_evening(page: Any, base: str) -> Session:
    page.goto(f"{base}/sessions/new/koenigrufen/")
    page.locator("#id_name").fill("Fünf bei Dora")
    for seat, name in enumerate(FIVE, 1):
        page.locator(f"#id_seat_{seat}").fill(name)
    page.locator("#session-form button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/sessions/\d+/$"))
    session = Session.objects.get(name="Fünf bei Dora")
    assert [seat.name for seat in session.seats.order_by("position")] == FIVE
    return session


def test_a_koenigrufen_evening_for_five_on_a_phone(page_for: Any, live_server: Any, player: Any):
    base = live_server.url
    page = page_for("de-DE")
    login(page, base, player)
    session = new_evening(page, base)

    previous: str | None = None
    for number, hand in enumerate(HANDS, 1):
        page.locator("#new-hand").click()
        expect(page.locator("#hand-form")).to_be_visible()
        dealer = page.locator('select[name="dealer"]').input_value()
        if previous is not None:  # the next dealer in playing order, accepted as proposed
            assert dealer == FIVE[(FIVE.index(previous) + 1) % len(FIVE)], number
        active = [name for name in FIVE if name != dealer]
        raw = hand(active)
        enter(Taps(page), raw)
        if raw["game"] == "trischaken":  # 40 of 70 points: the loser pays as Bürgermeister
            expect(page.locator("#preview .breakdown")).to_contain_text(f"{active[1]} ist Bürgermeister")
        page.locator("#save").click()
        expect(page).to_have_url(re.compile(rf"/sessions/{session.pk}/#hand-\d+$"))
        stored = last_hand(session)
        assert stored.number == number
        assert stored.dealer == dealer
        for key in ("partner", "king_in_talon", "bird", "won", "kontra", "premiums", "valat"):
            assert stored.inputs.get(key) == raw.get(key), (number, key, stored.inputs)
        deltas = stored.delta_points()
        assert deltas == engine_deltas(session, {**raw, "dealer": dealer}), (number, raw)
        assert deltas[dealer] == 0, f"hand {number}: the dealer sat out"
        previous = dealer

    # The sheet's line of a hand names the Kontra on the announced Pagat.
    expect(page.locator("#board")).to_contain_text("Pagat angesagt von der Spielerpartei, gemacht (Kontra)")

    # The whole sheet, its head (names and totals) at the top where the player sees it.
    page.evaluate("() => window.scrollTo(0, 0)")
    assert horizontal_overflow(page) == 0, "the sheet scrolls sideways at 390 px"
    screenshot(page, "koenigrufen-evening-five-sheet")

    # The sheet's totals are the engine's summary of the evening as stored.
    with page.expect_download() as download:
        page.locator(f'a[href="/sessions/{session.pk}/export/json/"]').click()
    text = Path(download.value.path()).read_text(encoding="utf-8")
    result = score_session(read_session(text))
    assert len(read_session(text).hands) == len(HANDS)
    rows = page.locator("#board thead tr").all_inner_texts()
    total_row = next(row for row in rows if "Summe" in row)  # "Σ Summe" and a total per player
    assert total_row.split()[-len(FIVE) :] == [signed(Fraction(result.summary.totals[name])) for name in FIVE]

    # The settlement pays what the engine says.
    page.goto(f"{base}/sessions/{session.pk}/settlement/")
    assert result.settlement.transfers
    for transfer in result.settlement.transfers:
        expect(page.locator("#main")).to_contain_text(
            f"{transfer.payer} → {transfer.payee}: {presentation.number(transfer.points)} Punkte"
        )

    # The PDF, downloaded from the sheet, carries every player's total.
    page.goto(f"{base}/sessions/{session.pk}/")
    with page.expect_download() as download:
        page.locator(f'a[href="/sessions/{session.pk}/export/pdf/"]').click()
    printed = pdf_text(Path(download.value.path()).read_bytes())
    assert all(name in printed for name in FIVE)
    total_line = next(line for line in printed.splitlines() if line.startswith("Summe"))
    assert total_line.split()[1:] == [signed(Fraction(result.summary.totals[name])) for name in FIVE]


@pytest.mark.parametrize(("locale", "sits_out"), [("de-DE", "setzt aus"), ("en-GB", "sits out")])
def test_the_seat_that_sits_out_is_not_a_zero_on_the_phones_sheet(
    page_for: Any, live_server: Any, player: Any, locale: str, sits_out: str
):
    from scoring import services

    session = services.session_create(
        owner=player, name="Freitag", variant="koenigrufen", players=[*FIVE[:4], "Bernhard Kurz"], options={}
    )
    five = [*FIVE[:4], "Bernhard Kurz"]
    hands: list[dict[str, Any]] = [
        {"dealer": five[4], "declarer": "Anna", "game": "rufer", "partner": "Carl", "points": 41},
        {"declarer": "Bert", "game": "rufer", "king_in_talon": "conceded"},
        {"declarer": "Carl", "game": "piccolo", "won": True},
    ]
    for index, raw in enumerate(hands):
        services.hand_record(session=session, raw=raw, user=player, client_token=f"out-{index}")
    page = page_for(locale)
    login(page, live_server.url, player)
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    rows = page.locator("table.sheet tbody.hand")
    expect(rows).to_have_count(3)
    # The dealers sat out: Bernhard Kurz, then Anna, then Bert (seats 5, 1, 2).
    for row, seat in zip(range(3), (4, 0, 1), strict=True):
        cells = rows.nth(row).locator("tr.scores td")
        out = cells.nth(seat + 1).locator(".delta")
        expect(out.locator('[aria-hidden="true"]')).to_have_text("—")
        expect(out.locator(".visually-hidden")).to_have_text(sits_out)
        for other in (s for s in range(5) if s != seat):
            assert cells.nth(other + 1).locator(".delta").inner_text() != "—"
    visible_zeros = page.evaluate(
        """() => [...document.querySelectorAll('tbody.hand tr.scores .delta')]
            .filter(d => d.querySelector('.out')).map(d => d.querySelector('[aria-hidden]').textContent)"""
    )
    assert visible_zeros == ["—", "—", "—"]
    assert horizontal_overflow(page) == 0
    screenshot(page, f"koenigrufen-five-sheet-{locale[:2]}", full_page=False)
    screenshot(page, f"koenigrufen-five-sheet-{locale[:2]}-whole")
