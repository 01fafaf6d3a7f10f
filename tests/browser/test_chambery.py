"""A Chambéry hand for three on a phone: the preview checks the sum of the
points until they add up, then shows the payments."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scoring import services
from scoring.models import Hand
from tests.browser.support import choose, expect, expect_preview, field, login, screenshot

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


FIVE = ["Anna", "Bert", "Carl", "Dora", "Emil"]


def five_at_the_table(player: Any) -> Any:
    return services.session_create(
        owner=player, name="Savoy five", variant="chambery", players=FIVE, options={}
    )


def change_the_game_and_save_a_solo(page: Any, session: Any) -> None:
    """The game chosen, then changed: each time its own fields show at once."""
    partner, soloist, cards = (
        page.locator(f"#f-{name}") for name in ("partner", "soloist", "cards_requested")
    )
    for box in (partner, soloist, cards):
        expect(box).to_be_hidden()  # no game chosen yet
    choose(page, "mode", "call")
    expect(partner).to_be_visible()
    expect(soloist).to_be_hidden()
    expect(cards).to_be_hidden()
    choose(page, "partner", "Bert")
    choose(page, "mode", "solo")
    expect(soloist).to_be_visible()
    expect(cards).to_be_visible()
    expect(partner).to_be_hidden()
    choose(page, "soloist", "Carl")
    choose(page, "cards_requested", "0")
    field(page, "points").fill("40")
    page.locator("#save").click()
    expect(page).to_have_url(re.compile(rf"/sessions/{session.pk}/#hand-\d+$"))
    # The partner tapped for the call before the game became a solo is not part of the hand.
    assert Hand.objects.get(session=session).inputs == {
        "mode": "solo",
        "soloist": "Carl",
        "cards_requested": 0,
        "points": 40,
    }


def test_the_chosen_games_fields_show_at_once_on_a_phone(phone, live_server, player):
    session = five_at_the_table(player)
    login(phone, live_server.url, player)
    phone.goto(f"{live_server.url}/sessions/{session.pk}/hands/new/")
    change_the_game_and_save_a_solo(phone, session)


def test_after_the_form_is_drawn_again_another_game_still_shows_at_once(phone, live_server, player):
    session = five_at_the_table(player)
    login(phone, live_server.url, player)
    phone.goto(f"{live_server.url}/sessions/{session.pk}/hands/new/")
    choose(phone, "mode", "call")
    # Another dealer: the server draws the fields again, for a call.
    with phone.expect_response(lambda answer: "refresh" in (answer.request.post_data or "")):
        phone.locator("#f-dealer").select_option("Dora")
    expect(phone.locator("#f-partner")).to_be_visible()
    # A solo's fields came with them: the game changed, they show without asking the server.
    asked: list[str] = []
    phone.on("request", lambda request: asked.append(request.url) if request.method == "POST" else None)
    choose(phone, "mode", "solo")
    expect(phone.locator("#f-soloist")).to_be_visible()
    expect(phone.locator("#f-cards_requested")).to_be_visible()
    expect(phone.locator("#f-partner")).to_be_hidden()
    screenshot(phone, "chambery-five-solo", full_page=False)
    assert [url for url in asked if "preview" not in url] == []


def test_the_chosen_games_fields_show_without_script_too(browser, live_server, player):
    from tests.browser.phone_table import PHONE

    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, java_script_enabled=False, locale="en-US"
    )
    page = context.new_page()
    try:
        session = five_at_the_table(player)
        login(page, live_server.url, player)
        page.goto(f"{live_server.url}/sessions/{session.pk}/hands/new/")
        change_the_game_and_save_a_solo(page, session)
    finally:
        context.close()


def test_save_stays_under_the_thumb_while_the_preview_grows(phone, live_server, player):
    """A tap on Save as the preview arrives must land on Save: the preview growing
    above the bar (here at the end of the page, where the bar would sit after the
    preview) does not move the buttons."""
    session = five_at_the_table(player)
    login(phone, live_server.url, player)
    phone.goto(f"{live_server.url}/sessions/{session.pk}/hands/new/")
    choose(phone, "mode", "solo")
    choose(phone, "soloist", "Carl")
    choose(phone, "cards_requested", "0")
    expect(phone.locator("#preview .open-list li").first).to_be_visible()
    phone.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    before = phone.locator("#save").bounding_box()
    # The points typed without scrolling the page, as the field's own change would.
    phone.evaluate(
        """() => {
            const points = document.querySelector('[name="points"]');
            points.value = "40";
            points.dispatchEvent(new Event("change", { bubbles: true }));
        }"""
    )
    expect(phone.locator("#preview .preview-deltas li")).to_have_count(5)
    expect(phone.locator("#preview .breakdown li").first).to_be_visible()
    assert phone.locator("#save").bounding_box() == before
