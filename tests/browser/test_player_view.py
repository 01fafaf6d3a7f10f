"""The player's own view on her phone (390 × 844, German): from the board link
she gives her register number once and follows a friend; Mein Tag shows her
table and seat; after a reload of the board her row is marked ("du",
aria-current) and scrolled into view, her friend's row is marked too; Meine
Saison shows her cup. Every page fits 390 px without scrolling sideways and
passes axe."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.browser.support import assert_accessible, expect, horizontal_overflow, screenshot
from tests.tournaments import factory
from tests.tournaments.circuit.test_player_view import MORE, NAMES, build, play_round, type_in
from tournaments.services import results, tournaments

pytestmark = pytest.mark.browser


def check(page: Any, what: str) -> None:
    assert horizontal_overflow(page) == 0, f"{what} scrolls sideways at 390 px"
    assert_accessible(page, what)


def test_she_gives_her_number_once_and_finds_her_row_and_her_friends(
    page_for: Any, live_server: Any, player: User
):
    world = build(player, names=NAMES + MORE)
    ranking = results.standings(world.tournament).rows
    her, friend = ranking[-1], ranking[0]  # the last row: far below the fold
    number, friend_number = world.number_of(her.number), world.number_of(friend.number)
    phone = page_for("de-AT")
    base = live_server.url
    board = f"{base}/b/{world.token}/"

    phone.goto(board)
    phone.get_by_role("link", name="Mein Tag: einmal deine Nummer eingeben").click()
    phone.locator("#me-number-input").fill(str(number))
    phone.get_by_role("button", name="Meinen Tag zeigen").click()
    expect(phone.locator("#me-seat")).to_contain_text("Runde 2:")
    expect(phone.locator("#me-name")).to_contain_text(f"Nr. {number}")
    phone.locator("#me-friend-input").fill(str(friend_number))
    phone.get_by_role("button", name="Folgen", exact=True).click()
    expect(phone.locator("#me-friends")).to_contain_text(f"Nr. {friend_number}")
    check(phone, "Mein Tag")
    screenshot(phone, "player-mein-tag")

    phone.goto(board)
    phone.reload()
    mine = phone.locator('#ranking tr[aria-current="true"]')
    expect(mine).to_have_count(1)
    expect(mine).to_have_attribute("data-nr", str(number))
    expect(mine).to_contain_text("du")
    expect(mine).to_be_in_viewport()
    theirs = phone.locator(f'#ranking tr[data-nr="{friend_number}"]')
    expect(theirs).to_have_class("friend")
    expect(theirs).to_contain_text("Freund")
    assert phone.locator('#ranking tr[aria-current="true"]').count() == 1
    check(phone, "the board with her row marked")
    screenshot(phone, "player-board-marked", full_page=False)

    type_in(world.tournament, 2)
    play_round(world.tournament, 3)
    tournaments.tournament_provisional(tournament=factory.fresh(world.tournament), user=player)
    phone.goto(f"{board}me/season/")
    expect(phone.locator("#me-final")).to_contain_text("noch 3 Turniere für die Mindestteilnahme (RTC)")
    expect(phone.locator(".me-played")).to_have_text("1")
    check(phone, "Meine Saison")
    screenshot(phone, "player-meine-saison")
    phone.goto(f"{board}season/")
    mine = phone.locator('#season tr[aria-current="true"]')
    expect(mine).to_have_attribute("data-nr", str(number))
    expect(mine).to_be_in_viewport()
    check(phone, "the cup's season table")
