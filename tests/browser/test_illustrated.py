"""An Illustriertes Tarock hand on a phone: premiums and Kontra through the
premium rows, the declarer's points counted with "Count the cards"."""

from __future__ import annotations

import re

import pytest

from scoring import services
from scoring.models import Hand
from tests.browser.support import choose, expect, expect_preview, field, login, screenshot

pytestmark = pytest.mark.browser


def test_an_illustriertes_hand_with_premiums_kontra_and_counted_cards(phone, live_server, player):
    session = services.session_create(
        owner=player, name="Graz trip", variant="illustrated", players=["A", "B", "C"], options={}
    )
    base = live_server.url
    login(phone, base, player)
    phone.locator(f'a[href="/sessions/{session.pk}/"]').click()
    phone.locator("#new-hand").click()

    choose(phone, "declarer", "A")
    choose(phone, "game", "zweiblatt")
    choose(phone, "bid", "announced")  # three buttons in every language
    choose(phone, "kontra", "1")
    # The premium grid: the declarer's Köpfe, announced before the talon.
    choose(phone, "premiums.koepfe.who", "A")
    choose(phone, "premiums.koepfe.how", "before_talon")
    # An opponent's Königstrull, declared silently.
    choose(phone, "premiums.koenigstrull.who", "B")
    choose(phone, "premiums.koenigstrull.how", "silent")
    expect(phone.locator('input[name="premiums.koepfe.how"][value="before_talon"]')).to_be_checked()

    # The declarer's cards: 5 fives, 2 queens, 2 cavalls, 2 jacks, 9 others:
    # 25 + 8 + 6 + 4 + 9 = 52 for 20 cards, 52 − 2/3 × 20 = 38.7, so 39 points.
    # The preview is a live region: it stays in place and only its content
    # changes, so a screen reader announces each new result.
    phone.locator("#preview").evaluate("(preview) => { preview.dataset.kept = 'yes'; }")
    phone.locator("#card-counter > summary").click()
    field(phone, "count.fives").fill("5")
    field(phone, "count.others").fill("9")
    choose(phone, "count.queens", "2")
    choose(phone, "count.cavalls", "2")
    choose(phone, "count.jacks", "2")
    expect(phone.locator("#preview")).to_contain_text("Points missing")
    phone.locator('#card-counter button[value="count"]').click()
    expect(field(phone, "points")).to_have_value("39")
    expect(phone.locator("#card-counter .counted")).to_contain_text("39")
    expect(phone.locator('input[name="premiums.koenigstrull.who"][value="B"]')).to_be_checked()

    # Zweiblatt ×2, Kontra ×2 on everything (profile beck): the game
    # (3 + 39 − 35) × 2 × 2 = 28, Köpfe 2 × 2 × 2 × 2 = 16, Königstrull 5 × 2 × 2 = 20.
    expect_preview(phone, {"A": 44, "B": 20, "C": 0})
    expect(phone.locator("#preview")).to_have_attribute("data-kept", "yes")
    expect(phone.locator("#preview")).to_have_attribute("aria-live", "polite")
    screenshot(phone, "illustrated-hand-form")
    phone.locator("#save").click()
    expect(phone).to_have_url(re.compile(rf"/sessions/{session.pk}/#hand-\d+$"))

    hand = Hand.objects.get(session=session)
    assert hand.delta_points() == {"A": 44, "B": 20, "C": 0}
    assert hand.inputs["points"] == 39 and hand.inputs["kontra"] == 1
    # In the grid's order (the premiums' order), not the order they were tapped.
    assert [(p["type"], p["player"], p.get("announced", "silent")) for p in hand.inputs["premiums"]] == [
        ("koenigstrull", "B", "silent"),
        ("koepfe", "A", "before_talon"),
    ]
    # The head: the running series, and the balance the settlement pays:
    # A 3 × 44 − 64 = +68, B 3 × 20 − 64 = −4, C −64.
    expect(phone.locator('tr.series td[data-player="A"]')).to_have_text("+44")
    expect(phone.locator('tr.balance td[data-player="A"]')).to_have_text("+68")
    expect(phone.locator('tr.balance td[data-player="B"]')).to_have_text("\u22124")
    screenshot(phone, "illustrated-scoreboard")


def test_the_graz_form_offers_an_announcement_and_its_kontra_only_where_the_rules_allow(
    phone, live_server, player
):
    session = services.session_create(
        owner=player, name="Graz", variant="illustrated", players=["A", "B", "C"], options={"profile": "graz"}
    )
    login(phone, live_server.url, player)
    phone.goto(f"{live_server.url}/sessions/{session.pk}/hands/new/")
    announced = phone.locator("#f-premiums-pagat-how")
    kontra = phone.locator("#f-premiums-pagat-kontra")
    expect(announced).to_be_hidden()  # no player chosen for the Pagat yet
    choose(phone, "premiums.pagat.who", "A")
    expect(announced).to_be_visible()
    expect(kontra).to_be_hidden()  # a silent Pagat cannot be kontra'd
    choose(phone, "premiums.pagat.how", "after_talon")
    expect(kontra).to_be_visible()
    # Köpfe is only ever silent under the Graz rules: nothing to announce, nothing to kontra.
    choose(phone, "premiums.koepfe.who", "A")
    expect(phone.locator('input[name="premiums.koepfe.how"]')).to_have_count(1)
    expect(phone.locator("#f-premiums-koepfe-kontra")).to_have_count(0)


def test_in_an_opponents_valat_the_counter_asks_for_the_declarers_discard(phone, live_server, player):
    """docs/rules.md §2.6: the opponents took every trick, so the declarer's points are his
    own discard; the counter says so as soon as the valat is entered."""
    session = services.session_create(
        owner=player, name="Valat", variant="illustrated", players=["A", "B", "C"], options={}
    )
    login(phone, live_server.url, player)
    phone.goto(f"{live_server.url}/sessions/{session.pk}/hands/new/")
    choose(phone, "declarer", "A")
    choose(phone, "game", "dreiblatt")
    choose(phone, "bid", "announced")
    help_text = phone.locator("#counter-help")
    expect(help_text).to_have_text("Count the cards by kind; the points are counted for you and filled in.")
    phone.locator("details.more:not(.counter) > summary").click()
    choose(phone, "valat.by", "opponents")
    expect(help_text).to_have_text(
        "The opponents took every trick: count the declarer's discard, 3 cards in this Dreiblatt; "
        "his points are 1 to 13."
    )
    choose(phone, "game", "einblatt")
    expect(help_text).to_contain_text("1 card in this Einblatt; his points are 0 to 4.")
    choose(phone, "game", "dreiblatt")
    expect(help_text).to_contain_text("3 cards in this Dreiblatt")
    # A king (5) and two plain cards (1 each): 7 − 2 = 5 by the three-card method.
    phone.locator("#card-counter > summary").click()
    field(phone, "count.fives").fill("1")
    field(phone, "count.others").fill("2")
    phone.locator('#card-counter button[value="count"]').click()
    expect(field(phone, "points")).to_have_value("5")
    screenshot(phone, "illustrated-opponents-valat")
    # The opponents have 70 − 5 = 65: each (3 + 65 − 35) × 1 and the silent valat 12, 45.
    expect_preview(phone, {"A": 0, "B": 45, "C": 45})
    phone.locator("#save").click()
    expect(phone).to_have_url(re.compile(rf"/sessions/{session.pk}/#hand-\d+$"))
    hand = Hand.objects.get(session=session)
    assert (hand.inputs["points"], hand.inputs["valat"]["by"]) == (5, "opponents")
