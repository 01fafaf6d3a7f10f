"""The language form in the footer: German by default, English and French on
request, and the choice stays while moving between pages.

The catalogs are still being written, so the tests read the page's language
from ``<html lang>`` and the form's selected option, not from translated words."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.support import expect, login

pytestmark = pytest.mark.browser


def expect_language(page: Any, code: str) -> None:
    expect(page.locator("html")).to_have_attribute("lang", code)
    expect(page.locator("#language")).to_have_value(code)
    expect(page.locator("#language option[selected]")).to_have_attribute("value", code)


def switch_to(page: Any, code: str) -> None:
    page.locator("#language").select_option(code)
    page.locator("form.lang button[type=submit]").click()


def test_german_is_the_default_and_the_footer_form_switches_the_language(page_for, live_server, player):
    # A browser asking for a language the app does not have gets German.
    page = page_for("it-IT")
    base = live_server.url
    page.goto(f"{base}/accounts/login/")
    expect_language(page, "de")

    switch_to(page, "en")
    expect(page).to_have_url(f"{base}/accounts/login/")
    expect_language(page, "en")

    login(page, base, player)
    expect_language(page, "en")
    switch_to(page, "fr")
    expect(page).to_have_url(f"{base}/")
    expect_language(page, "fr")
    page.locator('a[href="/sessions/new/"]').first.click()
    expect(page).to_have_url(f"{base}/sessions/new/")
    expect_language(page, "fr")

    switch_to(page, "de")
    expect(page).to_have_url(f"{base}/sessions/new/")
    expect_language(page, "de")


def test_a_browser_asking_for_french_gets_french(page_for, live_server):
    page = page_for("fr-FR")
    page.goto(f"{live_server.url}/accounts/login/")
    expect_language(page, "fr")
