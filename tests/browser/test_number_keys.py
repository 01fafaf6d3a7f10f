"""The keys a phone's number keypad lacks, typed in the browser at 390 × 844: the
desk's sums take a minus through the ± beside them (the iPhone's decimal keypad
has none) and are stored as typed."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.support import expect, horizontal_overflow, login, screenshot
from tests.tournaments import factory
from tournaments.models import TableRound

pytestmark = pytest.mark.browser


def test_the_desks_sums_get_their_minus_from_the_key_beside_them(
    page_for: Any, live_server: Any, player: Any
):
    t = factory.draw(factory.tournament(player))
    factory.release(t)
    table = factory.tables(factory.fresh(t), 1)[0]
    seats = list(table.seats.order_by("position"))
    sums = [92, -31, 45, -106]
    page = page_for("de-DE")
    login(page, live_server.url, player)
    page.goto(f"{live_server.url}/tournaments/{t.pk}/tables/{table.pk}/")
    expect(page.locator("#desk-form")).to_be_visible()
    for seat, value in zip(seats, sums, strict=True):
        field = page.locator(f"#sum-{seat.entrant.number}")
        expect(field).to_have_attribute("inputmode", "decimal")  # the digits, the minus beside
        field.click()
        page.keyboard.type(str(abs(value)))
        if value < 0:
            page.locator(f'button.key[data-for="sum-{seat.entrant.number}"]').click()
        expect(field).to_have_value(str(value))
        expect(field).to_be_focused()  # the keypad stayed up
    assert horizontal_overflow(page) == 0
    screenshot(page, "desk-sums-with-minus-key", full_page=False)
    page.locator("#desk-form button[type=submit]").click()
    expect(page.locator("#desk-form")).to_have_count(0)
    table = TableRound.objects.get(pk=table.pk)
    assert table.desk_sums == {str(s.entrant.number): str(v) for s, v in zip(seats, sums, strict=True)}
