"""A cup table's Königrufen evening on a phone, in German: the sheet writes the
Schrift and, under each hand whose money differs, the money; the head shows both
totals; nothing scrolls sideways; the settlement pays the money."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from scoring import services
from scoring.engine import read_session, score_session
from scoring.presentation import signed
from tests.browser.support import assert_accessible, expect, horizontal_overflow, login, screenshot

pytestmark = pytest.mark.browser

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "koenigrufen-ooe-settlements.json"


def test_a_cup_evening_shows_its_schrift_and_pays_its_money_on_a_phone(
    page_for: Any, live_server: Any, player: Any
):
    document = json.loads(FIXTURE.read_text(encoding="utf-8"))
    document["money_rate"] = "0.10"
    text = json.dumps(document, ensure_ascii=False)
    session = services.session_import(owner=player, text=text)
    result = score_session(read_session(text), Decimal("0.10"))
    assert result.summary.money_totals != result.summary.totals  # Kontras paid beside the Schrift

    phone = page_for("de-AT")
    login(phone, live_server.url, player)
    phone.goto(f"{live_server.url}/sessions/{session.pk}/")
    players = [seat.name for seat in session.seats.order_by("position")]
    rows = phone.locator("#board thead tr").all_inner_texts()
    written = {row.split()[0]: row.split()[1:] for row in rows if row.split()}
    assert written["Summe"] == [signed(Fraction(result.summary.totals[name])) for name in players]
    assert written["Geld"] == [signed(Fraction(result.summary.money_totals[name])) for name in players]
    assert horizontal_overflow(phone) == 0, "the sheet scrolls sideways at 390 px"
    assert_accessible(phone, "koenigrufen sheet")
    screenshot(phone, "koenigrufen-cup-sheet")

    phone.goto(f"{live_server.url}/sessions/{session.pk}/settlement/")
    assert result.settlement.money_transfers
    for transfer in result.settlement.money_transfers:
        paid = f"{transfer.amount:.2f}".replace(".", ",")  # German decimal comma
        expect(phone.locator("body")).to_contain_text(f"{transfer.payer} → {transfer.payee}: {paid}")
    screenshot(phone, "koenigrufen-cup-settlement")
