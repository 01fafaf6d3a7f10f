"""A Königrufen evening at a cup's table (``kontra_in_score`` off) in a group:
the Kasse books the money, Kontras included, as the engine's ``score_session``
settles it; the evening's rows rank by the Schrift (docs/rules.md §4.10)."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from club.models import Booking, EveningResult
from club.services import groups, kasse
from club.services.standings import as_decimal
from scoring import services
from scoring.engine import read_session, score_session
from tests.club.regular_table import evening

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "koenigrufen-ooe-settlements.json"
RATE = Decimal("0.10")


@pytest.fixture
def group(user):
    return groups.group_create(owner=user, name="Cup", money_rate=RATE)


def test_closing_books_the_money_and_the_rows_count_the_schrift(group, user):
    document = json.loads(FIXTURE.read_text(encoding="utf-8"))
    result = score_session(read_session(json.dumps({**document, "money_rate": "0.10"})), RATE)
    session, _ = evening(
        group,
        user,
        document["hands"],
        variant="koenigrufen",
        players=document["players"],
        options=document["options"],
        money_rate=RATE,
    )
    services.session_close(session=session, user=user)
    booking = Booking.objects.get(session=session, kind=Booking.Kind.EVENING)
    booked = {line.player.name: line.amount for line in booking.lines.select_related("player")}
    assert booked == result.settlement.money
    balances = {b.player.name: b.amount for b in kasse.kasse_of(group).balances if b.player is not None}
    assert balances == result.settlement.money
    assert result.summary.money_totals != result.summary.totals  # the Kontras make a difference
    for row in EveningResult.objects.filter(session=session).select_related("player"):
        assert row.total == as_decimal(result.summary.totals[row.player.name])  # the Schrift
        assert row.money == result.settlement.money[row.player.name]  # the money
    best = max(result.summary.totals.values())
    won = {
        r.player.name
        for r in EveningResult.objects.filter(session=session, won=True).select_related("player")
    }
    assert won == {name for name, total in result.summary.totals.items() if total == best}
