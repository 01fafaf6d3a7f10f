"""The benchmarks' own arithmetic (scripts/harness.py)."""

from __future__ import annotations

import pytest

from scripts.harness import percentile


@pytest.mark.parametrize(
    ("count", "share", "expected"),
    [
        (20, 0.95, 19),  # the hall's polls in a window: one slow answer of 20 is left out
        (40, 0.95, 38),  # the bare view's, twice as many: two are left out
        (100, 0.95, 95),
        (20, 0.5, 10),
        (1, 0.95, 1),
    ],
)
def test_a_percentile_is_the_nearest_rank(count: int, share: float, expected: int) -> None:
    values = [float(n) for n in range(count, 0, -1)]  # unordered on purpose
    assert percentile(values, share) == expected


def test_no_values_give_zero() -> None:
    assert percentile([], 0.95) == 0.0
