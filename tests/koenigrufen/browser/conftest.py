"""Königrufen's pages in the browser, with the browser tests' own fixtures
(tests/browser/conftest.py): one Chromium for this folder, a context per test."""

from tests.browser.conftest import browser, desktop, page_for, phone, player  # noqa: F401
