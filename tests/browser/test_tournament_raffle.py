"""The raffle of the material prizes in the browser, at a phone's size: the
organiser ticks who is present on the prize list page and draws; the winners
appear in the seed's order, and the page passes axe and fits the screen."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.browser.support import assert_accessible, expect, horizontal_overflow, login, small_targets
from tests.tournaments import factory
from tournaments.models import Tournament, TournamentChange

pytestmark = pytest.mark.browser

PRIZES = [{"from": 1, "to": 2, "amount": "50"}, {"from": 3, "to": 5, "text": "Sachpreis"}]


def test_the_organiser_ticks_who_is_present_and_draws_the_prizes(phone: Any, live_server: Any, player: User):
    t = factory.play_example(player, settings={"prizes": PRIZES, "prize_raffle": True})
    factory.make_final(t)
    login(phone, live_server.url, player)
    phone.goto(f"{live_server.url}/tournaments/{t.pk}/prizes/")
    form = phone.locator("#raffle-form")
    expect(form.locator("input[type=checkbox]")).to_have_count(10)  # Erika and Franz won money
    expect(form.locator("input:checked")).to_have_count(0)
    assert_accessible(phone, "the prize list with the raffle's form")
    assert horizontal_overflow(phone) == 0, "the prize list scrolls sideways at 390 px"
    assert small_targets(phone) == [], "the prize list: tap targets under 44 px"
    for name in ("Leo", "Gerti", "Anna", "Hans"):
        form.get_by_label(name).check()
    form.locator("button[type=submit]").click()
    # Tickets of 482915 in order: 11, 3, 1, 8, 12, 5, 4, 6, 7 … — of those present: Anna, Hans, Leo.
    result = phone.locator("#raffle-result tbody tr")
    expect(result).to_have_count(3)
    expect(result.nth(0)).to_contain_text("Anna")
    expect(result.nth(1)).to_contain_text("Hans")
    expect(result.nth(2)).to_contain_text("Leo")
    assert_accessible(phone, "the prize list after the draw")
    assert horizontal_overflow(phone) == 0, "the drawn prizes scroll sideways at 390 px"
    stored = Tournament.objects.get(pk=t.pk).raffle
    assert stored is not None and stored["present"] == [1, 7, 8, 12]
    assert t.changes.filter(action=TournamentChange.Action.RAFFLE).count() == 1
