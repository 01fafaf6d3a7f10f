"""Fixtures shared by the tournament tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.tournaments import factory


@pytest.fixture
def nothing_kept() -> Iterator[None]:
    """Each test starts as a fresh server process (the test databases reuse ids)."""
    factory.forget_kept()
    yield
    factory.forget_kept()
