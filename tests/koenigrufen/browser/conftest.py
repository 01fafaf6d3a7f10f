"""Königrufen's pages in the browser, with the browser tests' own fixtures
(tests/browser/conftest.py): one Chromium for this folder, a context per test."""

from tests.browser.conftest import (  # noqa: F401
    browser,
    desktop,
    engine_only_where_tested,
    page_for,
    phone,
    player,
)
