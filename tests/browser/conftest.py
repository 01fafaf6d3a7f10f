"""The real pages in headless Chromium, at a phone's size and a desktop's.

Debian's Chromium is driven through Playwright: its headless shell
(``/usr/bin/chromium-headless-shell``, the same build without the browser's
windowing layer) where it is installed, as CI installs it, otherwise the browser
itself (``/usr/bin/chromium``). Without either the browser tests are skipped with
the reason; under CI (``CI=true``) a missing browser fails them instead, so a green
CI always drove the pages.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.browser.phone_table import CHROMIUM, CHROMIUM_ARGS, HEADLESS_SHELL, PHONE
from tests.browser.support import PASSWORD

DESKTOP = {"width": 1280, "height": 800}
BROWSER = HEADLESS_SHELL if HEADLESS_SHELL.exists() else CHROMIUM


def _missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -r requirements-dev.txt)"
    if not BROWSER.exists():
        return f"no Chromium at {HEADLESS_SHELL} or {CHROMIUM} (apt-get install chromium-headless-shell)"
    return None


@pytest.fixture(autouse=True)
def engine_only_where_tested(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The phone's engine (Pyodide) on the pages only in the tests marked ``engine``.

    Starting it costs each fresh browser context about 2 s of the renderer's processor,
    half a browser test's; a phone keeps it between pages, a test's new context cannot.
    The other tests get the pages as a phone without the engine gets them (no engine
    configured: ``scoring.phone.engine_config``), which score every hand on the server
    as they do while the engine is starting."""
    if request.node.get_closest_marker("engine") is None:
        from scoring import phone

        monkeypatch.setattr(phone, "engine_config", lambda: None)


def _under_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    """One Chromium for all the browser tests; each test opens its own context.

    Package-scoped so that Playwright's event loop, which runs in this thread
    while Playwright is started, is gone again before the other tests run."""
    missing = _missing()
    if missing:
        if _under_ci():
            pytest.fail(f"the browser tests must run under CI: {missing}", pytrace=False)
        pytest.skip(f"browser tests skipped: {missing}")
    from playwright.sync_api import sync_playwright

    # The test code's ORM calls (users, sessions, assertions on rows) run while
    # Playwright's loop is running in this thread; they are ordinary sync calls.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    playwright = sync_playwright().start()
    try:
        chromium = playwright.chromium.launch(executable_path=str(BROWSER), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
    finally:
        playwright.stop()
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


def _page(browser: Any, viewport: dict[str, int], *, mobile: bool, locale: str) -> Iterator[Any]:
    from playwright.sync_api import expect

    # Waits, not measures of speed: generous, as the machine running them is shared and busy.
    expect.set_options(timeout=30_000)
    context = browser.new_context(
        viewport=viewport, is_mobile=mobile, has_touch=mobile, locale=locale, accept_downloads=True
    )
    context.set_default_timeout(45_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    def refused(message: Any) -> None:
        # What the Content-Security-Policy blocks is missing from the page.
        if message.type == "error" and "Content Security Policy" in message.text:
            errors.append(message.text)

    page.on("console", refused)
    yield page
    context.close()
    assert not errors, f"JavaScript errors or blocked content on the page: {errors}"


@pytest.fixture
def phone(browser: Any, live_server: Any) -> Iterator[Any]:
    """A page at a phone's size (390 × 844, touch), English."""
    yield from _page(browser, PHONE, mobile=True, locale="en-US")


@pytest.fixture
def desktop(browser: Any, live_server: Any) -> Iterator[Any]:
    """A page at a desktop's size (1280 × 800), English."""
    yield from _page(browser, DESKTOP, mobile=False, locale="en-US")


@pytest.fixture
def page_for(browser: Any, live_server: Any) -> Iterator[Callable[..., Any]]:
    """Pages at a phone's size with another preferred language."""
    pages: list[Iterator[Any]] = []

    def make(locale: str) -> Any:
        made = _page(browser, PHONE, mobile=True, locale=locale)
        pages.append(made)
        return next(made)

    yield make
    for made in pages:
        next(made, None)


@pytest.fixture
def player(transactional_db: Any) -> User:
    """The account a test logs in with, through the login page."""
    return User.objects.create_user("lena", password=PASSWORD)
