"""A player's rating page and a group's ratings at a phone's size: drawn, passing
axe-core, no sideways scrolling, tap targets of 44 px; screenshots kept."""

from __future__ import annotations

import re
from typing import Any

import pytest

from club.models import GroupPlayer
from club.services import groups
from ratings.services.marks import ratings_update
from tests.browser.support import (
    assert_accessible,
    expect,
    horizontal_overflow,
    login,
    screenshot,
    small_targets,
)
from tests.ratings.support import closed_evening

pytestmark = pytest.mark.browser


def check_page(page: Any, name: str) -> None:
    screenshot(page, name)
    assert_accessible(page, name)
    assert horizontal_overflow(page) == 0, f"{name} scrolls sideways at 390 px"
    assert small_targets(page) == [], f"{name}: tap targets under 44 px"


def test_her_rating_page_and_the_groups_ratings_on_a_phone(phone, live_server, player):
    group = groups.group_create(owner=player, name="Dienstagsrunde")
    for index in range(14):
        closed_evening(group, player, index)
    ratings_update()
    base = live_server.url
    login(phone, base, player)

    phone.goto(f"{base}/rating/")
    expect(phone.locator("#rating-off")).to_be_visible()
    phone.locator("#rating-player").select_option(str(GroupPlayer.objects.get(group=group, name="Anna").pk))
    phone.locator("#rating-link-form button[type=submit]").click()
    ratings_update()  # the thread's work, done here (RATINGS_UPDATE=command in the tests)
    phone.locator('#rating-setting input[name="visible"]').check()
    phone.locator('#rating-setting input[name="shared"]').check()
    phone.locator("#rating-setting button[type=submit]").click()
    expect(phone.locator("#rating-french .rating-number")).to_have_text(re.compile(r"^\d{3,4}$"))
    expect(phone.locator("#rating-french svg .rating-line")).to_have_count(1)
    check_page(phone, "rating-mine")

    phone.goto(f"{base}/groups/{group.pk}/ratings/")
    expect(phone.locator("#rating-table tbody tr")).to_have_count(1)
    expect(phone.locator("#rating-table")).to_contain_text("Anna")
    check_page(phone, "group-ratings")
