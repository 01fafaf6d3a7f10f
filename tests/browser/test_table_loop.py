"""The table loop on a phone (390 × 844): a hand in a handful of taps, never an
incomplete hand saved by a key, every missing field listed at once; a long
evening's board with its names, totals and "New hand" always in sight."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scoring import services
from scoring.models import Hand, Session
from tests.browser.support import (
    expect,
    field,
    french_session,
    horizontal_overflow,
    login,
    screenshot,
    signed,
)

pytestmark = pytest.mark.browser

FIVE = ["Anna", "Bert", "Carl", "Dora", "Emil"]
# The tap budgets, and the taps docs/playing.md states (each within its budget).
FRENCH_TYPICAL, EXTRA, ILLUSTRATED_TYPICAL, CHAMBERY_CALL = 6, 2, 6, 5
STATED = {"french": 6, "poignee": 8, "chelem": 8, "illustrated": 5, "chambery": 4}


class Taps:
    """Taps a player makes on the form: each click or fill is one (typing the
    digits into a field already tapped is not another)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.count = 0

    def tap(self, locator: Any) -> None:
        locator.click()
        self.count += 1

    def choose(self, name: str, value: str) -> None:
        self.tap(self.page.locator(f'label.seg-opt:has(input[name="{name}"][value="{value}"])'))
        expect(self.page.locator(f'input[name="{name}"][value="{value}"]')).to_be_checked()

    def fill(self, name: str, text: str) -> None:
        field(self.page, name).fill(text)
        self.count += 1

    def hand(self, choices: dict[str, str], points: str | None = None) -> Taps:
        """Tap each choice in turn, then type the points."""
        for name, value in choices.items():
            self.choose(name, value)
        if points is not None:
            self.fill("points", points)
        return self

    def save(self) -> None:
        self.tap(self.page.locator("#save"))
        expect(self.page).to_have_url(re.compile(r"/sessions/\d+/#hand-\d+$"))


def session_of(owner: Any, variant: str, players: list[str], name: str = "Table") -> Session:
    return services.session_create(owner=owner, name=name, variant=variant, players=players, options={})


def open_form(page: Any, base: str, session: Session) -> None:
    page.goto(f"{base}/sessions/{session.pk}/hands/new/")
    expect(page.locator("#hand-form")).to_be_visible()


def last_hand(session: Session) -> Hand:
    return session.hands.order_by("-number")[0]


# -- the tap budgets -------------------------------------------------------------------------


def french_garde(page: Any, taker: str, partner: str, bouts: str, points: str) -> Taps:
    """A Garde with five players, as a table calls it out: five taps so far."""
    return Taps(page).hand({"contract": "garde", "taker": taker, "partner": partner, "bouts": bouts}, points)


def test_a_typical_french_hand_in_six_taps_a_poignee_or_a_chelem_two_more(phone, live_server, player):
    session = session_of(player, "french", FIVE)
    login(phone, live_server.url, player)

    open_form(phone, live_server.url, session)
    taps = french_garde(phone, "Anna", "Carl", "2", "47")
    expect(phone.locator("#quick .short")).to_be_visible()
    screenshot(phone, "hand-form-french-phone", full_page=False)
    taps.save()
    assert taps.count == STATED["french"] <= FRENCH_TYPICAL, taps.count
    # Garde, 2 bouts, 47 of 41: (25 + 6) × 2 = 62; the taker 2 × 62, the partner 62.
    deltas = {"Anna": 124, "Bert": -62, "Carl": 62, "Dora": -62, "Emil": -62}
    assert last_hand(session).delta_points() == deltas

    open_form(phone, live_server.url, session)
    taps = french_garde(phone, "Bert", "Dora", "2", "47")
    taps.choose("poignees[1].player", "Bert")
    taps.choose("poignees[1].size", "simple")
    screenshot(phone, "table-loop-french-poignee")
    taps.save()
    assert taps.count == STATED["poignee"] <= FRENCH_TYPICAL + EXTRA, taps.count
    assert last_hand(session).inputs["poignees"] == [{"player": "Bert", "size": "simple"}]

    open_form(phone, live_server.url, session)
    taps = french_garde(phone, "Carl", "Emil", "3", "91")
    taps.tap(phone.locator("details.more:not(.counter) > summary"))
    taps.choose("chelem", "unannounced_made")
    taps.save()
    assert taps.count == STATED["chelem"] <= FRENCH_TYPICAL + EXTRA, taps.count
    assert last_hand(session).inputs["chelem"] == "unannounced_made"


def test_a_typical_illustriertes_hand_in_six_taps(phone, live_server, player):
    session = session_of(player, "illustrated", ["A", "B", "C"])
    login(phone, live_server.url, player)
    open_form(phone, live_server.url, session)
    taps = Taps(phone).hand({"declarer": "A", "game": "dreiblatt", "bid": "announced"}, "40")
    expect(phone.locator("#quick .short")).to_be_visible()
    screenshot(phone, "hand-form-illustrated-phone", full_page=False)
    taps.save()
    assert taps.count == STATED["illustrated"] <= ILLUSTRATED_TYPICAL, taps.count
    # Dreiblatt announced, won with 40: 3 + 5 = 8.
    assert last_hand(session).delta_points() == {"A": 8, "B": 0, "C": 0}


def test_a_chambery_call_in_five_taps(phone, live_server, player):
    session = session_of(player, "chambery", FIVE)
    login(phone, live_server.url, player)
    open_form(phone, live_server.url, session)
    # The fields of a solo stay out of the way until a solo is chosen.
    expect(phone.locator('input[name="soloist"]').first).to_be_hidden()
    taps = Taps(phone).hand({"mode": "call", "partner": "Bert"}, "40")
    expect(phone.locator("#quick .short")).to_be_visible()
    screenshot(phone, "hand-form-chambery-phone", full_page=False)
    taps.save()
    assert taps.count == STATED["chambery"] <= CHAMBERY_CALL, taps.count
    # Five players, call: 40 of 68, tie at 34, won by 6: the three pay 6 each,
    # the dealer (Emil) and his partner share 18, the dealer the odd point.
    assert last_hand(session).delta_points() == {"Anna": -6, "Bert": 9, "Carl": -6, "Dora": -6, "Emil": 9}


def test_points_counted_for_the_defence_are_turned_into_the_attacks_in_the_preview(
    phone, live_server, player
):
    session = french_session(player, "Sides", FIVE[:4], [])
    login(phone, live_server.url, player)
    open_form(phone, live_server.url, session)
    taps = Taps(phone).hand({"taker": "Anna", "contract": "garde", "bouts": "2"}, "44")
    taps.choose("points.side", "other")
    expect(phone.locator("#preview .conversion")).to_have_text("Defence 44 → Attack 47")
    expect(phone.locator("#quick")).to_contain_text("+186")
    taps.save()
    assert last_hand(session).inputs["points"] == 47


# -- never an incomplete hand by a key ----------------------------------------------------------

STOPS = """() => {
    const seen = new Set();
    const found = [];
    for (const el of document.querySelectorAll("#hand-fields input, #hand-fields select")) {
        if (el.type === "hidden" || el.hasAttribute("data-no-stop")) continue;
        if (!(el.type === "radio" ? el.parentElement : el).checkVisibility({visibilityProperty: true})) continue;
        const key = el.type === "radio" ? "radio:" + el.name : el.name || el.id;
        if (seen.has(key)) continue;
        seen.add(key);
        found.push(el.type === "radio" ? `input[name="${el.name}"]` : `[name="${el.name}"]`);
    }
    return found;
}"""


@pytest.mark.parametrize(
    ("variant", "players", "partial", "open_choice"),
    [
        # Five at a French table, all but the partner: "alone" is never assumed.
        ("french", FIVE, {"taker": "Anna", "contract": "garde", "bouts": "2", "points": "47"}, "Partner"),
        # Illustriertes, all but the points.
        (
            "illustrated",
            ["A", "B", "C"],
            {"declarer": "A", "game": "dreiblatt", "bid": "announced"},
            "Points",
        ),
        # Chambéry's call, all but the partner: "the dealer alone" is never assumed.
        ("chambery", FIVE, {"mode": "call", "points": "40"}, "Partner"),
    ],
)
def test_enter_on_every_field_never_saves_an_incomplete_hand(
    phone, live_server, player, variant, players, partial, open_choice
):
    session = session_of(player, variant, players)
    login(phone, live_server.url, player)
    open_form(phone, live_server.url, session)
    Taps(phone).hand(
        {name: value for name, value in partial.items() if name != "points"}, partial.get("points")
    )
    stops = phone.evaluate(STOPS)
    assert len(stops) >= 5, stops
    for selector in stops:
        target = phone.locator(selector)
        checked = phone.locator(f"{selector}:checked")
        (checked if checked.count() else target.first).focus()
        phone.keyboard.press("Enter")
        phone.wait_for_load_state()
        assert not session.hands.exists(), f"Enter in {selector} saved an incomplete hand"
    # Enter in the last field asked to save: refused, what is open said in words.
    expect(phone.locator("#quick .open")).to_contain_text(f"{open_choice}")
    expect(phone.locator("#quick .open")).to_contain_text("missing")
    assert not session.hands.exists()


def test_without_script_enter_still_never_saves_an_incomplete_hand(browser, live_server, player):
    """The form's first button (Save) takes the Enter; the server refuses."""
    from tests.browser.phone_table import PHONE

    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, java_script_enabled=False, locale="en-US"
    )
    page = context.new_page()
    try:
        session = session_of(player, "french", FIVE)
        login(page, live_server.url, player)
        open_form(page, live_server.url, session)
        for name, value in {"taker": "Anna", "contract": "garde", "bouts": "2"}.items():
            page.locator(f'label.seg-opt:has(input[name="{name}"][value="{value}"])').click()
        field(page, "points").fill("47")
        field(page, "points").press("Enter")
        page.wait_for_load_state()
        expect(page.locator("#f-partner-error")).to_have_text("Partner (called king) missing")
        assert not session.hands.exists()
    finally:
        context.close()


def test_an_empty_save_lists_every_missing_field_at_once(phone, live_server, player):
    session = session_of(player, "french", FIVE)
    login(phone, live_server.url, player)
    open_form(phone, live_server.url, session)
    phone.locator("#save").click()
    expect(phone.locator("#quick .open a")).to_have_text(
        [
            "Taker missing",
            "Contract missing",
            "Partner (called king) missing",
            "Bouts missing",
            "Points missing",
        ]
    )
    for name in ("taker", "contract", "partner", "bouts", "points"):
        expect(phone.locator(f"#f-{name}-error")).to_be_visible()
    # The summary sits by the save button, in sight.
    expect(phone.locator("#quick .open")).to_be_in_viewport()
    expect(phone.locator("#save")).to_be_in_viewport()
    screenshot(phone, "table-loop-empty-save")
    assert not session.hands.exists()


def test_the_partner_list_never_offers_the_taker(phone, live_server, player):
    session = session_of(player, "french", FIVE)
    login(phone, live_server.url, player)
    open_form(phone, live_server.url, session)
    partner = 'label.seg-opt:has(input[name="partner"][value="{}"])'
    phone.locator(partner.format("Bert")).click()
    phone.locator('label.seg-opt:has(input[name="taker"][value="Bert"])').click()
    expect(phone.locator(partner.format("Bert"))).to_be_hidden()
    expect(phone.locator('input[name="partner"]:checked')).to_have_count(0)  # the choice went with it
    expect(phone.locator(partner.format("Anna"))).to_be_visible()
    phone.locator('label.seg-opt:has(input[name="taker"][value="Anna"])').click()
    expect(phone.locator(partner.format("Bert"))).to_be_visible()
    expect(phone.locator(partner.format("Anna"))).to_be_hidden()


# -- the board after a long evening -----------------------------------------------------------


def long_evening(owner: Any, players: list[str], hands: int) -> Session:
    """Five players, every kind of contract, bouts and points."""
    raws = []
    for n in range(hands):
        raws.append(
            {
                "dealer": players[n % 5],
                "taker": players[n % 5],
                "partner": players[(n + 2) % 5],
                "contract": ("prise", "garde", "garde_sans")[n % 3],
                "bouts": n % 4,
                "points": 40 + n % 11,
            }
        )
    session = french_session(owner, "Long evening", players, [])
    for index, raw in enumerate(raws):
        services.hand_record(session=session, raw=raw, user=owner, client_token=f"long-{index}")
    return session


def boxes(page: Any, selector: str) -> list[dict[str, float]]:
    return page.locator(selector).evaluate_all(
        """(all) => all.map(el => {
            const r = el.getBoundingClientRect();
            return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                    cut: el.scrollWidth > el.clientWidth + 1, text: el.textContent.trim()};
        })"""
    )


def test_after_sixty_hands_names_totals_and_new_hand_stay_in_sight(phone, live_server, player):
    session = long_evening(player, FIVE, 60)
    login(phone, live_server.url, player)
    phone.goto(f"{live_server.url}/sessions/{session.pk}/")
    assert phone.evaluate("() => document.documentElement.scrollHeight") > 3000
    for where in ("middle", "end"):
        phone.evaluate(
            "(where) => window.scrollTo(0, where === 'end' ? document.body.scrollHeight"
            " : document.body.scrollHeight / 2)",
            where,
        )
        head = phone.locator("table.sheet thead")
        expect(head).to_be_in_viewport()
        assert 0 <= head.bounding_box()["y"] <= 1, "the names stick to the top"
        for name in FIVE:
            expect(phone.locator(f'thead tr.names th[data-player="{name}"]')).to_be_in_viewport()
            expect(phone.locator(f'thead tr.totals td[data-player="{name}"]')).to_be_in_viewport()
        new_hand = phone.locator("#new-hand").bounding_box()
        assert new_hand["y"] >= 0 and new_hand["y"] + new_hand["height"] <= 844, "New hand is out of reach"
    screenshot(phone, "board-60-hands", full_page=False)
    assert horizontal_overflow(phone) == 0

    # After a save the page opens at the new row, clear of the sticky head and the bottom bar.
    phone.locator("#new-hand").click()
    french_garde(phone, "Anna", "Carl", "2", "47").save()
    row = phone.locator(f"#hand-{last_hand(session).pk}")
    expect(row).to_be_in_viewport()
    head_bottom = phone.locator("table.sheet thead").bounding_box()
    bar_top = phone.locator("#board-actions").bounding_box()["y"]
    box = row.bounding_box()
    assert box["y"] >= head_bottom["y"] + head_bottom["height"] - 1, "the new row is under the sticky head"
    assert box["y"] + box["height"] <= bar_top + 1, "the new row is under the bottom bar"
    screenshot(phone, "board-after-save", full_page=False)


def test_six_long_names_fit_a_phone_without_a_column_cut_off(phone, live_server, player):
    players = ["Annabella", "Annemarie", "Bernhardt", "Christina", "Friedrich", "Gabriella"]
    session = french_session(player, "Six", players, [])
    # Big numbers too: a garde contre with a made chelem is 880 from each defender.
    for n in range(9):
        services.hand_record(
            session=session,
            raw={
                "dealer": players[5],
                "taker": players[0],
                "partner": players[1 + n % 2],
                "contract": "garde_contre",
                "bouts": 3,
                "points": 91,
                "chelem": "announced_made",
            },
            user=player,
            client_token=f"six-{n}",
        )
    login(phone, live_server.url, player)
    phone.goto(f"{live_server.url}/sessions/{session.pk}/")
    expect(phone.locator('thead tr.totals td[data-player="Annabella"]')).to_have_text(signed(9 * 2 * 880))
    cells = boxes(phone, "table.sheet thead th, table.sheet thead td, table.sheet tr.scores td")
    assert len(cells) > 7 * 3
    for cell in cells:
        assert cell["right"] <= 390 and cell["left"] >= 0, f"cut off: {cell}"
        assert not cell["cut"], f"number cut: {cell}"
    numbers = boxes(phone, "table.sheet .delta, table.sheet .total")
    for number in numbers:
        assert number["right"] <= 390, number
    assert horizontal_overflow(phone) == 0
    # Short heads, unique, with the names spelt out above the sheet.
    expect(phone.locator("thead tr.names th abbr")).to_have_text(
        ["Annab.", "Annem.", "Bernh.", "Chris.", "Fried.", "Gabri."]
    )
    expect(phone.locator("#legend")).to_contain_text("Annabella")
    screenshot(phone, "board-six", full_page=False)


def test_the_illustriertes_head_equals_the_settlement(phone, live_server, player):
    session = session_of(player, "illustrated", ["A", "B", "C"], "Graz")
    hands = [("A", 60), ("B", 50), ("C", 30), ("A", 45), ("B", 70), ("C", 40), ("A", 38)]
    for index, (declarer, points) in enumerate(hands):
        services.hand_record(
            session=session,
            raw={"declarer": declarer, "game": "zweiblatt", "bid": "held", "points": points},
            user=player,
            client_token=f"ill-{index}",
        )
    login(phone, live_server.url, player)
    phone.goto(f"{live_server.url}/sessions/{session.pk}/settlement/")
    net = {
        name: phone.locator(f'#net tr[data-player="{name}"] td').first.inner_text().strip() for name in "ABC"
    }
    phone.goto(f"{live_server.url}/sessions/{session.pk}/")
    balance = {
        name: phone.locator(f'thead tr.balance td[data-player="{name}"]').inner_text().strip()
        for name in "ABC"
    }
    assert balance == net
    expect(phone.locator("thead tr.series th")).to_contain_text("Series")
    assert phone.locator("thead tr.totals").count() == 0  # no sum of series to contradict it
    expect(phone.locator("#chart svg")).to_have_attribute("aria-label", "Balance after each hand")
    screenshot(phone, "board-illustrated", full_page=False)


def test_the_chart_keeps_its_text_at_reading_size_on_a_desktop(desktop, live_server, player):
    session = long_evening(player, FIVE, 12)
    login(desktop, live_server.url, player)
    desktop.goto(f"{live_server.url}/sessions/{session.pk}/")
    sizes = desktop.locator("#chart svg text").evaluate_all(
        "(all) => all.map(t => t.getBoundingClientRect().height)"
    )
    assert sizes and max(sizes) <= 22 and min(sizes) >= 12, sizes


@pytest.mark.parametrize("locale", ["de-DE", "en-US", "fr-FR"])
def test_the_thumbs_bar_is_one_row_and_hides_nothing_at_the_foot(page_for, live_server, player, locale):
    """New hand and Settlement at the thumb, one row in every language; the
    owner's occasional pages (sharing, settings) beside the title; scrolled to
    the end, the page's foot (the language form) is above the bar, not under it."""
    page = page_for(locale)
    session = long_evening(player, FIVE, 12)
    login(page, live_server.url, player)
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    bar = page.locator("#board-actions").bounding_box()
    button = page.locator("#new-hand").bounding_box()
    assert bar["height"] < 2 * button["height"], f"the bar wraps in {locale}"
    expect(page.locator(".bar #settings")).to_be_visible()
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    language = page.locator("#language").bounding_box()
    assert language["y"] + language["height"] <= bar["y"] + 1, "the language form is under the bar"
