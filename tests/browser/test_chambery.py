"""A Chambéry hand for three on a phone: the preview checks the sum of the
points until they add up, then shows the payments."""

from __future__ import annotations

import re

import pytest

from scoring import services
from scoring.models import Hand
from tests.browser.support import expect, expect_preview, field, login, screenshot

pytestmark = pytest.mark.browser

PLAYERS = ["Amélie", "Béatrice", "Cécile"]


def test_a_chambery_hand_for_three_is_saved_once_the_points_add_up(phone, live_server, player):
    session = services.session_create(
        owner=player, name="Savoy", variant="chambery", players=PLAYERS, options={}
    )
    login(phone, live_server.url, player)
    phone.locator(f'a[href="/sessions/{session.pk}/"]').click()
    phone.locator("#new-hand").click()
    preview = phone.locator("#preview")

    field(phone, "points.Amélie").fill("37")
    field(phone, "points.Béatrice").fill("29")
    field(phone, "points.Cécile").fill("10")
    # 37 + 29 + 10 = 76: the 78 cards, tricks and discard are not all there yet.
    expect(preview).to_contain_text(re.compile(r"\b78\b.*\b76\b"))
    expect(preview.locator(".preview-deltas")).to_have_count(0)
    screenshot(phone, "chambery-sum-check")

    # Saved anyway: refused, the error on the group of points, which takes the focus.
    phone.locator("#save").click()
    group = phone.locator("fieldset#f-points")
    expect(phone.locator("#f-points-error")).to_have_attribute("role", "alert")
    expect(phone.locator("#f-points-error")).to_contain_text("76")
    expect(group).to_have_accessible_description(re.compile(r"\b78\b.*\b76\b"))
    expect(group).to_be_focused()
    expect(field(phone, "points.Cécile")).to_have_value("10")
    assert not Hand.objects.filter(session=session).exists()
    screenshot(phone, "chambery-sum-error")

    field(phone, "points.Cécile").fill("12")
    # The seed's check: 37, 29, 12 of 78, average 26 → +22, +6, −28.
    expect_preview(phone, {"Amélie": 22, "Béatrice": 6, "Cécile": -28})
    phone.locator("#save").click()
    expect(phone).to_have_url(re.compile(rf"/sessions/{session.pk}/#hand-\d+$"))
    assert Hand.objects.get(session=session).delta_points() == {"Amélie": 22, "Béatrice": 6, "Cécile": -28}
    expect(phone.locator('tr.totals td[data-player="Cécile"]')).to_have_text("\u221228")
