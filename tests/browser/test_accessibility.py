"""Every main page at a phone's size: screenshots, axe-core, tap targets, no
sideways scrolling; every input labelled; errors next to their fields and
announced; the hand form filled and saved by keyboard alone, focus visible."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User

from scoring import services
from scoring.models import Hand, Session
from tests.browser.support import (
    assert_accessible,
    axe_violations,
    expect,
    field,
    fill_hand,
    french_session,
    horizontal_overflow,
    login,
    screenshot,
    small_targets,
)

pytestmark = pytest.mark.browser

PLAYERS = ["Anna", "Bert", "Carl", "Dora", "Emil"]


def evening(owner: User, players: list[str] = PLAYERS) -> Session:
    hands: list[dict[str, Any]] = [
        {"taker": "Anna", "contract": "garde", "bouts": 2, "points": 50},
        {"taker": "Bert", "contract": "prise", "bouts": 1, "points": 45},
        {
            "taker": "Carl",
            "contract": "garde",
            "bouts": 3,
            "points": 40,
            "petit_au_bout": "attack",
            "poignees": [{"player": "Carl", "size": "simple"}],
            "note": "Carl showed a handful",
        },
    ]
    if len(players) == 5:
        hands[0]["partner"] = "Carl"
        hands[1]["partner"] = "Emil"
    return french_session(owner, "Friday at Carl's", players, hands, money_rate=Decimal("0.05"))


def check_page(page: Any, name: str) -> None:
    """What every page must pass at a phone's size."""
    screenshot(page, name)
    assert_accessible(page, name)
    assert horizontal_overflow(page) == 0, f"{name} scrolls sideways at 390 px"
    assert small_targets(page) == [], f"{name}: tap targets under 44 px"


def test_the_main_pages_pass_axe_and_fit_a_phone(phone, live_server, player):
    base = live_server.url
    phone.goto(f"{base}/accounts/login/")
    check_page(phone, "login")
    login(phone, base, player)
    check_page(phone, "session-list-empty")

    session = evening(player)
    hand = session.hands.get(number=3)
    pages = {
        "session-list": "/",
        "new-session-game": "/sessions/new/",
        "new-session-french": "/sessions/new/french/",
        "new-session-illustrated": "/sessions/new/illustrated/",
        "new-session-chambery": "/sessions/new/chambery/",
        "scoreboard": f"/sessions/{session.pk}/",
        "hand-detail": f"/sessions/{session.pk}/hands/{hand.pk}/",
        "hand-correct": f"/sessions/{session.pk}/hands/{hand.pk}/edit/",
        "settlement": f"/sessions/{session.pk}/settlement/",
        "print-view": f"/sessions/{session.pk}/sheet/",
        "hand-form": f"/sessions/{session.pk}/hands/new/",
    }
    for name, path in pages.items():
        phone.goto(base + path)
        check_page(phone, name)

    # The hand form with an error shown: saved before anything was filled in.
    phone.locator("#save").click()
    expect(phone.locator(".field.invalid [role=alert]").first).to_be_visible()
    check_page(phone, "hand-form-error")
    # A deleted hand offers its undo on the sheet.
    phone.goto(f"{base}/sessions/{session.pk}/hands/{hand.pk}/")
    phone.locator('form[action$="/delete/"] button').click()
    expect(phone.locator("#undo")).to_be_visible()
    check_page(phone, "scoreboard-undo-notice")


def test_the_pages_of_the_other_games_pass_axe(phone, live_server, player):
    base = live_server.url
    login(phone, base, player)
    illustrated = services.session_create(
        owner=player, name="Graz", variant="illustrated", players=["A", "B", "C"], options={}
    )
    services.hand_record(
        session=illustrated,
        raw={"declarer": "A", "game": "dreiblatt", "bid": "announced", "points": 40},
        user=player,
        client_token="ill-1",
    )
    chambery = services.session_create(
        owner=player, name="Savoy", variant="chambery", players=["A", "B", "C"], options={}
    )
    for name, session in (("illustrated", illustrated), ("chambery", chambery)):
        for page, path in (("scoreboard", "/"), ("hand-form", "/hands/new/"), ("settlement", "/settlement/")):
            phone.goto(f"{base}/sessions/{session.pk}{path}")
            phone.locator("details").evaluate_all("(all) => all.forEach(d => d.open = true)")
            check_page(phone, f"{name}-{page}")


def test_axe_reports_what_it_should(phone, live_server):
    """The check is not vacuous: axe finds an unlabelled input and poor contrast."""
    phone.goto(f"{live_server.url}/accounts/login/")
    phone.locator("#id_username").evaluate(
        "(input) => { input.id = 'nameless'; input.closest('form').querySelector('label').remove(); }"
    )
    phone.locator("h1").evaluate("(h1) => { h1.style.color = '#ddd'; }")
    found = {violation["id"] for violation in axe_violations(phone)}
    assert {"label", "color-contrast"} <= found


UNLABELLED = """() => [...document.querySelectorAll("input, select, textarea")]
    .filter(el => el.type !== "hidden")
    .filter(el => !(el.labels && el.labels.length) && !el.getAttribute("aria-label")
                  && !el.getAttribute("aria-labelledby"))
    .map(el => el.name || el.id || el.outerHTML.slice(0, 60))"""


def test_every_input_of_every_form_is_labelled(phone, live_server, player):
    """Folded-away inputs too (card counter, rare fields): axe sees only what is shown."""
    base = live_server.url
    phone.goto(f"{base}/accounts/login/")
    assert phone.evaluate(UNLABELLED) == []
    login(phone, base, player)
    for variant, players in (
        ("french", PLAYERS),
        ("illustrated", ["A", "B", "C"]),
        ("chambery", ["A", "B", "C"]),
    ):
        phone.goto(f"{base}/sessions/new/{variant}/")
        assert phone.evaluate(UNLABELLED) == [], f"new {variant} session"
        session = services.session_create(
            owner=player, name=variant, variant=variant, players=players, options={}
        )
        phone.goto(f"{base}/sessions/{session.pk}/hands/new/")
        expect(phone.locator("#hand-form")).to_be_visible()
        assert phone.evaluate(UNLABELLED) == [], f"{variant} hand form"
    phone.goto(f"{base}/sessions/import/")
    assert phone.evaluate(UNLABELLED) == []


def test_an_error_is_shown_next_to_its_field_and_announced(phone, live_server, player):
    session = evening(player, PLAYERS[:4])
    login(phone, live_server.url, player)
    phone.goto(f"{live_server.url}/sessions/{session.pk}/hands/new/")
    fill_hand(phone, {"taker": "Dora", "contract": "garde", "bouts": "0", "points": "80"})
    phone.locator("#save").click()

    points = phone.locator("#f-points")
    error = phone.locator("#f-points-error")
    expect(error).to_be_visible()
    screenshot(phone, "hand-form-points-error")
    expect(error).to_have_attribute("role", "alert")
    expect(points).to_have_attribute("aria-invalid", "true")
    expect(points).to_have_attribute("aria-describedby", "f-points-error")
    expect(points).to_have_accessible_description(re.compile(r"\b78\b.*\b80\b"))
    # Next to its field: in the same block, right under the input.
    assert error.evaluate(
        "(e) => e.closest('.field') === document.querySelector('#f-points').closest('.field')"
    )
    input_box, error_box = points.bounding_box(), error.bounding_box()
    assert 0 <= error_box["y"] - (input_box["y"] + input_box["height"]) < 40
    expect(points).to_have_value("80")
    # The page comes back with the focus on the field to fix, in sight.
    expect(points).to_be_focused()
    expect(points).to_be_in_viewport()
    assert session.hands.count() == 3

    # A missing choice: the radios of that group are described by the error.
    phone.goto(f"{live_server.url}/sessions/{session.pk}/hands/new/")
    phone.locator("#save").click()
    taker_error = phone.locator("#f-taker-error")
    expect(taker_error).to_have_attribute("role", "alert")
    description = taker_error.inner_text().strip()
    assert description
    for radio in phone.locator('input[name="taker"]').all():
        expect(radio).to_have_accessible_description(description)
    expect(phone.locator('input[name="taker"]').first).to_be_focused()

    # The new-session form: a money rate that is not a number.
    phone.goto(f"{live_server.url}/sessions/new/french/")
    for seat, name in enumerate(PLAYERS[:4], 1):
        phone.locator(f"#id_seat_{seat}").fill(name)
    phone.locator("#id_money_rate").fill("a lot")
    phone.locator("#session-form button[type=submit]").click()
    rate = phone.locator("#id_money_rate")
    expect(phone.locator("#id_money_rate-error")).to_have_attribute("role", "alert")
    expect(rate).to_have_attribute("aria-invalid", "true")
    expect(rate).to_have_accessible_description(phone.locator("#id_money_rate-error").inner_text().strip())
    expect(rate).to_be_focused()
    expect(rate).to_have_value("a lot")
    assert Session.objects.count() == 1


FOCUSED = """() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const shown = el.matches(".seg-opt input") ? el.nextElementSibling : el;
    const style = getComputedStyle(shown);
    return {
        what: `${el.tagName.toLowerCase()} ${el.name || el.id || el.textContent.trim().slice(0, 30)}`,
        name: el.name || "", value: el.value || "", id: el.id || "",
        ring: el.matches(":focus-visible") && style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2,
    };
}"""


def tab_to(page: Any, wanted: Any, *, limit: int = 40) -> list[dict[str, Any]]:
    """Press Tab until ``wanted(focused)`` holds; every stop must show its focus."""
    stops = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        assert focused is not None, "Tab left the page"
        assert focused["ring"], f"no visible focus on {focused['what']}"
        stops.append(focused)
        if wanted(focused):
            return stops
    raise AssertionError(f"not reached by Tab: {[s['what'] for s in stops]}")


def test_the_hand_form_is_filled_and_saved_with_the_keyboard_alone(desktop, live_server, player):
    session = evening(player, PLAYERS[:4])
    login(desktop, live_server.url, player)
    desktop.goto(f"{live_server.url}/sessions/{session.pk}/hands/new/")
    expect(desktop.locator("#hand-form")).to_be_visible()

    stops = tab_to(desktop, lambda f: f["name"] == "taker")
    assert stops[0]["what"].startswith("a"), "the first stop is the skip link"
    assert stops[-1]["value"] == "Anna"
    desktop.keyboard.press("Space")
    tab_to(desktop, lambda f: f["name"] == "contract")
    desktop.keyboard.press("ArrowRight")  # prise → garde
    tab_to(desktop, lambda f: f["name"] == "bouts")
    desktop.keyboard.press("ArrowRight")
    desktop.keyboard.press("ArrowRight")  # 0 → 2
    tab_to(desktop, lambda f: f["name"] == "points")
    desktop.keyboard.type("50")
    tab_to(desktop, lambda f: f["name"] == "note")
    desktop.keyboard.type("by keyboard")

    for name, value in (("taker", "Anna"), ("contract", "garde"), ("bouts", "2")):
        expect(desktop.locator(f'input[name="{name}"][value="{value}"]')).to_be_checked()
    # Garde, 2 bouts, 50 of 41: (25 + 9) × 2 = 68, the taker 3 × 68 against three.
    expect(desktop.locator("#preview .preview-deltas li")).to_have_text(
        [
            re.compile(rf"{name}\s+{value}")
            for name, value in (
                ("Anna", "\\+204"),
                ("Bert", "\u221268"),
                ("Carl", "\u221268"),
                ("Dora", "\u221268"),
            )
        ]
    )
    tab_to(desktop, lambda f: f["id"] == "save")
    desktop.keyboard.press("Enter")
    expect(desktop).to_have_url(re.compile(rf"/sessions/{session.pk}/#hand-\d+$"))
    hand = Hand.objects.get(session=session, number=4)
    assert hand.delta_points() == {"Anna": 204, "Bert": -68, "Carl": -68, "Dora": -68}
    assert hand.note == "by keyboard"


def test_enter_moves_to_the_next_field_and_in_the_last_one_saves(phone, live_server, player):
    """The keypad's Next/Go in the points moves on to the extras (a poignée may
    follow); in the last field it saves, with Save, never "Another row"."""
    session = evening(player, PLAYERS[:4])
    login(phone, live_server.url, player)
    phone.goto(f"{live_server.url}/sessions/{session.pk}/hands/new/")
    fill_hand(phone, {"taker": "Bert", "contract": "garde", "bouts": "2", "points": "50"})
    expect(field(phone, "points")).to_have_attribute("enterkeyhint", "next")
    field(phone, "points").press("Enter")
    expect(phone.locator('input[name="petit_au_bout"]').first).to_be_focused()
    assert session.hands.count() == 3
    field(phone, "note").press("Enter")
    expect(phone).to_have_url(re.compile(rf"/sessions/{session.pk}/#hand-\d+$"))
    hand = Hand.objects.get(session=session, number=4)
    assert hand.inputs["taker"] == "Bert" and not hand.inputs.get("poignees")


def test_the_keyboard_and_the_sticky_bar_leave_every_field_in_sight(phone, live_server, player):
    """With the on-screen keyboard up (a 500 px high view), each field reached
    with Tab is scrolled clear of the sticky Save bar, and Save stays in sight."""
    session = evening(player)
    login(phone, live_server.url, player)
    phone.set_viewport_size({"width": 390, "height": 500})
    phone.goto(f"{live_server.url}/sessions/{session.pk}/hands/new/")
    bar = phone.locator("#thumb-bar")
    save = phone.locator("#save")
    seen = []
    for _ in range(40):
        phone.keyboard.press("Tab")
        box = phone.evaluate(
            """() => {
                const el = document.activeElement;
                const shown = el.matches(".seg-opt input") ? el.nextElementSibling : el;
                const r = shown.getBoundingClientRect();
                return {name: el.name || el.id || el.tagName, top: r.top, bottom: r.bottom,
                        inForm: !!el.closest("#hand-fields")};
            }"""
        )
        if box["name"] == "save":
            break
        if not box["inForm"]:
            continue
        seen.append(box["name"])
        bar_top = bar.bounding_box()["y"]
        assert box["top"] >= 0 and box["bottom"] <= bar_top, f"{box['name']} is hidden behind the Save bar"
        save_box = save.bounding_box()
        assert save_box["y"] + save_box["height"] <= 500, "Save is out of sight"
    assert {"taker", "contract", "bouts", "points", "partner", "note"} <= set(seen)
    field(phone, "points").focus()
    expect(phone.locator("#quick")).to_be_in_viewport()
    screenshot(phone, "hand-form-keypad-open", full_page=False)


SIX_LONG = ["Annabella", "Annemarie", "Bernhardt", "Christina", "Friedrich", "Gabriella"]
# The header's room: the brand and the navigation side by side with this much
# to spare, so a slightly wider font or a longer word still fits.
HEADER_ROOM = """() => {
    const brand = document.querySelector("header.top .brand").getBoundingClientRect();
    const nav = document.querySelector("header.top nav");
    const items = [...nav.querySelectorAll("a, button")].map(el => el.getBoundingClientRect());
    return {
        spare: Math.round(nav.getBoundingClientRect().left - brand.right),
        right: Math.round(Math.max(...items.map(box => box.right))),
        rows: new Set(items.map(box => Math.round(box.top))).size,
        cut: nav.scrollWidth > nav.clientWidth,
    };
}"""


def logged_in_pages(owner: User) -> dict[str, str]:
    """A page of every kind a logged-in player sees, with six long names at the table."""
    from club.services.groups import group_create

    deals = [
        {"dealer": SIX_LONG[5], "taker": SIX_LONG[0], "partner": SIX_LONG[1], "contract": "garde"},
        {
            "taker": SIX_LONG[1],
            "partner": SIX_LONG[2],
            "contract": "garde_contre",
            "note": "Gabriella spielt",
        },
        {"taker": SIX_LONG[2], "partner": SIX_LONG[3], "contract": "prise", "chelem": "announced_made"},
    ]
    six = french_session(
        owner,
        "Freitag bei Friedrich",
        SIX_LONG,
        [{**deal, "bouts": 3, "points": 91} for deal in deals],
        money_rate=Decimal("0.05"),
    )
    hand = six.hands.get(number=3)
    illustrated = services.session_create(
        owner=owner, name="Graz", variant="illustrated", players=["A", "B", "C"], options={}
    )
    chambery = services.session_create(
        owner=owner, name="Savoy", variant="chambery", players=SIX_LONG[:5], options={}
    )
    group = group_create(owner=owner, name="Dienstagsrunde")
    return {
        "session-list": "/",
        "new-session-game": "/sessions/new/",
        "new-session-french": "/sessions/new/french/",
        "scoreboard-six": f"/sessions/{six.pk}/",
        "hand-form-six": f"/sessions/{six.pk}/hands/new/",
        "hand-detail": f"/sessions/{six.pk}/hands/{hand.pk}/",
        "hand-correct": f"/sessions/{six.pk}/hands/{hand.pk}/edit/",
        "settlement-six": f"/sessions/{six.pk}/settlement/",
        "session-settings": f"/sessions/{six.pk}/settings/",
        "sharing": f"/sessions/{six.pk}/sharing/",
        "illustrated-hand-form": f"/sessions/{illustrated.pk}/hands/new/",
        "chambery-hand-form": f"/sessions/{chambery.pk}/hands/new/",
        "groups": "/groups/",
        "group": f"/groups/{group.pk}/",
        "password": "/accounts/password_change/",
    }


@pytest.mark.parametrize("locale", ["de-DE", "en-US", "fr-FR"])
def test_every_logged_in_page_fits_a_phone_in_every_language(page_for, live_server, player, locale):
    page = page_for(locale)
    base = live_server.url
    pages = logged_in_pages(player)
    login(page, base, player)
    for name, path in pages.items():
        page.goto(base + path)
        expect(page.locator("html")).to_have_attribute("lang", locale[:2])
        room = page.evaluate(HEADER_ROOM)
        assert horizontal_overflow(page) == 0, f"{locale} {name} scrolls sideways at 390 px: {room}"
        assert room["rows"] == 1 and not room["cut"], f"{locale} {name}: header {room}"
        assert room["right"] <= 390 - 12, f"{locale} {name}: header reaches the edge {room}"
        assert room["spare"] >= 24, f"{locale} {name}: header without room to spare {room}"
    screenshot(page, f"header-{locale[:2]}", full_page=False)
