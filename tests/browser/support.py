"""What the browser tests do on a page: log in, tap choices, read the preview,
take screenshots, run axe-core and measure tap targets."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
MINUS = "\u2212"
TAP = 44  # the smallest tap target, in CSS pixels
PASSWORD = "a-long-browser-test-password"


def expect(actual: Any, message: str | None = None) -> Any:
    """Playwright's ``expect``, imported when a test runs: the test modules load
    (and the browser fixture explains the skip) even without Playwright."""
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(actual, message)


def login(page: Any, base_url: str, account: User) -> None:
    """Log in through the real login page and land on the session list."""
    page.goto(f"{base_url}/accounts/login/")
    page.locator("#id_username").fill(account.get_username())
    page.locator("#id_password").fill(PASSWORD)
    page.locator("#main button[type=submit]").click()
    expect(page).to_have_url(f"{base_url}/")


def choose(page: Any, name: str, value: str) -> None:
    """Tap the button-sized label of one radio choice (the radio itself is hidden)."""
    option = page.locator(f'label.seg-opt:has(input[name="{name}"][value="{value}"])')
    option.click()
    expect(page.locator(f'input[name="{name}"][value="{value}"]')).to_be_checked()


def field(page: Any, name: str) -> Any:
    return page.locator(f'[name="{name}"]')


def fill_hand(page: Any, values: dict[str, str]) -> None:
    """Fill the French hand form: the points typed, everything else tapped."""
    for name, value in values.items():
        if name == "points":
            field(page, "points").fill(value)
        else:
            choose(page, name, value)


def french_session(
    owner: User, name: str, players: list[str], hands: list[dict[str, Any]], **kwargs: Any
) -> Any:
    """A French Tarot session with these hands already recorded (not through the pages)."""
    from scoring import services

    session = services.session_create(
        owner=owner, name=name, variant="french", players=players, options={}, **kwargs
    )
    for index, hand in enumerate(hands):
        services.hand_record(session=session, raw=hand, user=owner, client_token=f"{name}-{index}")
    return session


def signed(value: int | float) -> str:
    """A delta as the pages write it: +136, −68, 0, +1.5."""
    text = f"{abs(value):g}"
    return text if value == 0 else ("+" if value > 0 else MINUS) + text


def delta_texts(deltas: Mapping[str, int | float]) -> list[str | re.Pattern[str]]:
    """The preview's lines, one per player: name and signed delta."""
    return [re.compile(rf"^\s*{re.escape(name)}\s+{re.escape(signed(v))}\s*$") for name, v in deltas.items()]


def expect_preview(page: Any, deltas: Mapping[str, int | float]) -> None:
    """The live preview shows exactly these deltas (it updates as the form changes)."""
    expect(page.locator("#preview .preview-deltas li")).to_have_text(delta_texts(deltas))


def screenshot(page: Any, name: str, *, full_page: bool = True) -> Path:
    """The whole page, or (``full_page=False``) what the screen shows: sticky
    and fixed parts where the player sees them."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


@cache
def _axe_source() -> str:
    return AXE.read_text(encoding="utf-8")


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's serious and critical findings on the page as it is now.

    The script is evaluated over the DevTools protocol, so the app's
    Content-Security-Policy stays as it is and the app itself never loads axe."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_axe_source())
    found = page.evaluate(
        """async () => {
            const result = await axe.run(document, {resultTypes: ["violations"]});
            return result.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => ({target: n.target.join(" "), summary: n.failureSummary})),
            }));
        }"""
    )
    return [v for v in found if v["impact"] in ("serious", "critical")]


def assert_accessible(page: Any, what: str) -> None:
    violations = axe_violations(page)
    assert not violations, f"axe on {what}:\n" + json.dumps(violations, indent=1, ensure_ascii=False)


def small_targets(page: Any) -> list[str]:
    """Visible controls a finger can hardly hit: less than 44 px high or wide.

    Links inside running text are left out (WCAG's inline exception), and so is
    the skip link, which appears only on keyboard focus."""
    return page.evaluate(
        """(tap) => {
            const controls = document.querySelectorAll(
                "a[href], button, select, input:not([type=hidden]), summary, label.seg-opt > span, .check > label, textarea");
            const small = [];
            for (const el of controls) {
                if (el.matches(".seg-opt input, .skip")) continue;
                if (el.matches("input[type=checkbox]")) continue;  // its whole label is the target
                const box = el.getBoundingClientRect();
                if (box.width === 0 && box.height === 0) continue;
                if (!el.checkVisibility({visibilityProperty: true})) continue;
                const text = el.matches("a:not(.button)") && el.parentElement.closest("p, li, dd");
                if (text && text.textContent.trim() !== el.textContent.trim()) continue;
                if (box.height < tap || box.width < tap) {
                    const name = (el.innerText || el.value || el.name || "").trim().slice(0, 40);
                    small.push(`${el.tagName.toLowerCase()} "${name}" ${Math.round(box.width)}×${Math.round(box.height)}`);
                }
            }
            return small;
        }""",
        TAP,
    )


def horizontal_overflow(page: Any) -> int:
    """How many CSS pixels the page is wider than the screen (0: none). Measured
    against the page's own width: a phone widens its window to what overflows
    (a header 7 px too wide makes the window 397 px), so the window's width
    would hide it."""
    return page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")


def goto_while_it_reloads(page: Any, url: str) -> None:
    """``page.goto(url)`` on a page that may be drawing the sheet again by itself (its
    outbox heard the server back and sent what waited): where the page's own
    navigation aborts this one, it is asked once more."""
    _while_it_reloads(lambda: page.goto(url))


def reload_while_it_reloads(page: Any) -> None:
    """``page.reload()`` on such a page: the sheet drawn again by the test, whether or
    not the page's own outbox (the connection back, a hand refused) reloaded it first."""
    _while_it_reloads(page.reload)


def _while_it_reloads(navigate: Callable[[], Any]) -> None:
    for attempt in (1, 2):
        try:
            navigate()
            return
        except Exception as error:  # playwright's Error: net::ERR_ABORTED
            if attempt == 2 or "ERR_ABORTED" not in str(error):
                raise
