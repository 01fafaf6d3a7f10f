"""Side rankings and rank changes where the players see them (TOURNAMENTS.md §14.4,
§14.5): a day of twelve in a circuit's cup with a Damenwertung (the register's
category) and a Stadtmeisterschaft (the home town), three rounds typed in. On a
phone (390 × 844) the board shows each place's change as an arrow with its
words for screen readers, and each side ranking in a box of its own, in the
order of the main ranking as computed here, without a horizontal scroll; the hall
screen (1920 × 1080) turns to a page of each side ranking after the ranking's.
Kept as side-phone-board.png and side-hall.png. With a ``pairs`` team ranking
(§14.6) beside them, the board's Teams tab fits the phone and the hall shows the
team page every third page: teams-phone-board.png and teams-hall.png."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.browser.support import assert_accessible, expect, horizontal_overflow, screenshot
from tests.browser.tournament_support import HALL, Contexts
from tests.tournaments import factory
from tests.tournaments.test_side_rankings import DAMEN, HOME, NAMES, places_after, steyr_day
from tests.tournaments.test_teams import day_with_teams_and_sides, expected_pairs
from tournaments.models import CircuitPlayer, Tournament
from tournaments.services import circuit as circuits
from tournaments.services import results, side

pytestmark = pytest.mark.browser


@pytest.fixture
def contexts(browser: Any, live_server: Any) -> Iterator[Contexts]:
    made = Contexts(browser)
    yield made
    made.close()


def day_with_sides(owner: User) -> Tournament:
    cup = factory.cup(owner)
    t = steyr_day(owner, cup=cup)
    circuit = circuits.circuit_create(owner=owner, name="Tarock Österreich", season="2025/26")
    circuits.cup_join(circuit=circuit, user=owner, cup_id=cup.pk)
    for entry in CircuitPlayer.objects.filter(circuit=circuit):
        if f"{entry.family} {entry.given}".strip() in DAMEN:
            CircuitPlayer.objects.filter(pk=entry.pk).update(categories=["Damen"])
    side.side_ranking_add(user=owner, cup=cup, name="Damenwertung", kind="category", value="Damen")
    side.side_ranking_add(
        user=owner, tournament=factory.fresh(t), name="Stadtmeisterschaft", kind="home", value="Steyr"
    )
    results.board_share(factory.fresh(t))
    return factory.fresh(t)


def test_the_board_and_the_hall_show_the_side_rankings_and_each_places_change(
    contexts: Contexts, live_server: Any, user: User
) -> None:
    t = day_with_sides(user)
    main, before = places_after(3), places_after(2)
    phone = contexts.page()
    phone.goto(f"{live_server.url}/b/{t.board_token}/")
    assert horizontal_overflow(phone) == 0
    leader = min(NAMES, key=lambda n: main[n])
    moved = before[leader] - main[leader]
    number = t.entrants.get(name=leader).number
    change = phone.locator(f"#entrant-{number} .rank-change")
    expect(change).to_have_text("–" if moved == 0 else f"▲ {moved}")
    for box, kept in (("Damenwertung", DAMEN), ("Stadtmeisterschaft", HOME)):
        details = phone.locator("details.side-ranking", has_text=box)
        details.locator("summary").click()
        names = details.locator("tbody tr td:nth-child(2)").all_inner_texts()
        assert [name.split()[0] for name in names] == sorted(kept, key=lambda n: main[n])
    assert horizontal_overflow(phone) == 0
    assert_accessible(phone, "the board with its side rankings and rank changes")
    screenshot(phone, "side-phone-board")

    hall = contexts.page(HALL, mobile=False)
    hall.goto(f"{live_server.url}/h/{t.screen_token}/")
    pages = hall.locator(".hall-page")
    expect(pages).to_have_count(3)  # twelve ranked rows, then the two side rankings
    hall.evaluate(
        "() => document.querySelectorAll('#hall .hall-page').forEach("
        "(s) => { s.hidden = s.dataset.page !== '2'; })"
    )
    shown = hall.locator(".hall-page.hall-side:not([hidden])")
    expect(shown.locator("caption")).to_have_text("Stadtmeisterschaft")  # the day's own first
    expect(shown.locator("tbody tr")).to_have_count(len(HOME))
    assert_accessible(hall, "the hall screen's side ranking")
    screenshot(hall, "side-hall", full_page=False)


def test_the_teams_tab_fits_a_phone_and_the_hall_shows_the_team_page_every_third_page(
    contexts: Contexts, live_server: Any, user: User
) -> None:
    t = day_with_teams_and_sides(user)
    pairs = [name for name, _total in expected_pairs()]  # worked out from the typed-in sums
    phone = contexts.page()
    phone.goto(f"{live_server.url}/b/{t.board_token}/")
    phone.locator("#teams-link").click()
    expect(phone.locator("#team-table tbody tr td:nth-child(2) > strong")).to_have_text(pairs)
    assert horizontal_overflow(phone) == 0
    assert_accessible(phone, "the board's Teams tab")
    screenshot(phone, "teams-phone-board")

    hall = contexts.page(HALL, mobile=False)
    hall.goto(f"{live_server.url}/h/{t.screen_token}/")
    # Ranking, Stadtmeisterschaft, teams, Damenwertung, teams: the team page every third.
    expect(hall.locator(".hall-page")).to_have_count(5)
    assert hall.locator(".hall-page").evaluate_all("(s) => s.map((p) => p.className)") == [
        "hall-page",
        "hall-page hall-side",
        "hall-page hall-teams",
        "hall-page hall-side",
        "hall-page hall-teams",
    ]
    hall.evaluate(
        "() => document.querySelectorAll('#hall .hall-page').forEach("
        "(s) => { s.hidden = s.dataset.page !== '3'; })"
    )
    shown = hall.locator(".hall-page.hall-teams:not([hidden])")
    names = shown.locator("tbody tr .hall-player").evaluate_all(
        "(cells) => cells.map((c) => c.firstChild.textContent.trim())"
    )
    assert names == pairs
    assert_accessible(hall, "the hall screen's team page")
    screenshot(hall, "teams-hall", full_page=False)
