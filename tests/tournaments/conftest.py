"""Fixtures shared by the tournament tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.tournaments import factory
from tournaments.views import board as board_views


@pytest.fixture
def nothing_kept() -> Iterator[None]:
    """Each test starts as a fresh server process (the test databases reuse ids)."""
    factory.forget_kept()
    yield
    factory.forget_kept()


@pytest.fixture
def one_progress_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kept page with the tables' progress in it lasts ``PROGRESS_SECONDS``
    (``board.progress_window``): a test that counts what a second request reads
    must not see that window turn between its requests."""
    monkeypatch.setattr(board_views, "progress_window", lambda: 0)
