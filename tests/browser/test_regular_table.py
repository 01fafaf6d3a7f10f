"""The regular table on phones: the owner starts a group and invites; a new
player signs up through the link on a second phone and records a hand; the
player page, the season table and the Kasse render and pass axe-core."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User

from club.models import Group, GroupPlayer
from club.services import groups
from scoring.models import Hand, Session
from tests.browser.support import (
    assert_accessible,
    expect,
    fill_hand,
    horizontal_overflow,
    login,
    screenshot,
    small_targets,
)

pytestmark = pytest.mark.browser

PLAYERS = ["Anna", "Bert", "Carl", "Lena"]
NEWCOMER_PASSWORD = "Pagat-Ultimo-1902"


def check_page(page: Any, name: str) -> None:
    screenshot(page, name)
    assert_accessible(page, name)
    assert horizontal_overflow(page) == 0, f"{name} scrolls sideways at 390 px"
    assert small_targets(page) == [], f"{name}: tap targets under 44 px"


def test_an_invited_player_signs_up_and_records_a_hand(phone, page_for, live_server, player):
    base = live_server.url
    login(phone, base, player)

    # The owner starts the group and its first evening on the pages.
    phone.locator('header a[href="/groups/"]').click()
    phone.locator("#id_name").fill("Dienstagsrunde")
    phone.locator("#id_money_rate").fill("0.05")
    phone.locator("#group-form button[type=submit]").click()
    expect(phone).to_have_url(re.compile(r"/groups/\d+/$"))
    group = Group.objects.get(name="Dienstagsrunde")
    check_page(phone, "group-empty")

    phone.locator(f'a[href="/groups/{group.pk}/evenings/new/"]').click()
    phone.locator(f'a[href="/groups/{group.pk}/evenings/new/french/"]').click()
    expect(phone.locator("#id_money_rate")).to_have_value("0.05")
    for seat, name in enumerate(PLAYERS, 1):
        phone.locator(f"#id_seat_{seat}").fill(name)
    phone.locator("#session-form button[type=submit]").click()
    expect(phone).to_have_url(re.compile(r"/sessions/\d+/$"))
    session = Session.objects.get(group_link__group=group)

    # An invitation link, with its QR code.
    phone.goto(f"{base}/groups/{group.pk}/invitations/")
    phone.locator("#invitation-form button[type=submit]").click()
    expect(phone.locator(".qr-box svg")).to_be_visible()
    check_page(phone, "group-invitation")
    link = phone.locator(".invitation input[readonly]").input_value()
    assert link.startswith(f"{base}/join/")

    # Someone new opens it on their own phone and makes an account.
    newcomer = page_for("en-US")
    newcomer.goto(link)
    expect(newcomer.locator("#join h1")).to_contain_text("Dienstagsrunde")
    check_page(newcomer, "join-anonymous")
    newcomer.locator('a[href$="/signup/"]').click()
    newcomer.locator("#id_username").fill("bert")
    newcomer.locator("#id_password1").fill(NEWCOMER_PASSWORD)
    newcomer.locator("#id_password2").fill(NEWCOMER_PASSWORD)
    check_page(newcomer, "signup-by-invitation")
    newcomer.locator("#signup button[type=submit]").click()
    expect(newcomer).to_have_url(f"{base}/groups/{group.pk}/")
    bert = User.objects.get(username="bert")
    assert group.memberships.filter(user=bert, role="member").exists()

    # ... and records a hand of the group's evening.
    newcomer.locator(f'#evenings a[href="/sessions/{session.pk}/"]').click()
    newcomer.locator("#new-hand").click()
    fill_hand(newcomer, {"taker": "Anna", "contract": "garde", "bouts": "2", "points": "56"})
    newcomer.locator("#save").click()
    expect(newcomer).to_have_url(re.compile(rf"/sessions/{session.pk}/#hand-\d+$"))
    hand = Hand.objects.get(session=session)
    assert hand.created_by == bert and hand.deltas["Anna"] == 240

    # The owner closes the evening; the statistics and the Kasse follow.
    phone.goto(f"{base}/groups/{group.pk}/")
    phone.locator(f'form[action="/groups/{group.pk}/evenings/{session.pk}/close/"] button').click()
    expect(phone.locator("#evenings .badge")).to_be_visible()
    check_page(phone, "group-with-evening")
    anna = GroupPlayer.objects.get(group=group, name="Anna")
    phone.locator(f'#roster a[href="/groups/{group.pk}/players/{anna.pk}/"]').click()
    expect(phone.locator("#game-french")).to_contain_text("+240")
    expect(phone.locator("#summary svg.chart")).to_be_visible()
    check_page(phone, "group-player")
    phone.locator(f'nav a[href="/groups/{group.pk}/table/"]').click()
    expect(phone.locator("#table-french tbody tr").first).to_contain_text("Anna")
    expect(phone.locator("#winners")).to_contain_text("Anna")
    check_page(phone, "group-season-table")
    phone.locator(f'nav a[href="/groups/{group.pk}/kasse/"]').click()
    expect(phone.locator('#balances tr[data-player="Anna"]')).to_contain_text("12.00")
    check_page(phone, "group-kasse")


def test_the_other_group_pages_pass_axe_and_fit_a_phone(phone, live_server, player):
    group = groups.group_create(owner=player, name="Runde", money_rate=Decimal("0.10"))
    groups.group_session_create(
        group=group,
        owner=player,
        name="Abend",
        variant="illustrated",
        players=["Anna", "Bert", "Lena"],
        options={},
    )
    login(phone, live_server.url, player)
    for path, name in (
        ("/groups/", "group-list"),
        (f"/groups/{group.pk}/settings/", "group-settings"),
        (f"/groups/{group.pk}/rules/illustrated/", "group-rules"),
        (f"/groups/{group.pk}/evenings/new/illustrated/", "group-new-evening"),
    ):
        phone.goto(live_server.url + path)
        check_page(phone, name)
    phone.goto(f"{live_server.url}/groups/{group.pk}/kasse/")
    phone.locator("#id_payer").select_option(label="Anna")
    phone.locator("#id_payee").select_option(label="the box")
    phone.locator("#id_amount").fill("1.234")
    phone.locator("#payment-form button[type=submit]").click()
    expect(phone.locator("#id_amount-error")).to_be_visible()
    check_page(phone, "group-kasse-refused")
