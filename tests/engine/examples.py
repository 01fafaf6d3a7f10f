"""How many examples a property test draws. On CPython, as each test says; under
Pyodide (``make test-pyodide``, which sets ``TAROCK_EXAMPLES_SCALE=10``) a tenth, at
least ten: the rules are explored in full on CPython, and the phone's runtime is
proven on the same tests with fewer draws (the server is held to the phone's engine
over 2,000 evenings besides: tests/scoring/test_evening_pyodide.py)."""

from __future__ import annotations

import os

SCALE = max(1, int(os.environ.get("TAROCK_EXAMPLES_SCALE", "1")))


def examples(count: int) -> int:
    """The examples a test that asks for ``count`` draws in this run."""
    return count if SCALE == 1 else max(10, count // SCALE)
