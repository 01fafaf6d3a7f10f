"""The engine stays readable: no function above cyclomatic complexity 25 (radon's
measure, as ``radon cc scoring/engine`` reports it) and no module above 900 lines.
A game that grows splits by concern (``koenigrufen_tariffs.py``, ``_fields``,
``_input``, ``_scoring``, ``_trischaken``) rather than growing one module."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

if sys.platform == "emscripten":  # pragma: no cover - radon is a dev tool, not in Pyodide's wheels
    pytest.skip("radon is not installed under Pyodide", allow_module_level=True)

from radon.complexity import cc_visit
from radon.visitors import Class, Function

ENGINE = Path(__file__).resolve().parents[2] / "scoring" / "engine"
MAX_COMPLEXITY = 25
MAX_LINES = 900


def functions(blocks: list[Function | Class]) -> Iterator[Function]:
    """Every function of a module: top-level, methods and the functions inside them."""
    for block in blocks:
        if isinstance(block, Class):
            yield from functions([*block.methods, *block.inner_classes])
        else:
            yield block
            yield from functions(block.closures)


def too_complex(code: str) -> list[str]:
    # radon lists a method both on its own and in its class: each is named once.
    found = {
        f"{function.fullname} (line {function.lineno}): {function.complexity}"
        for function in functions(cc_visit(code))
        if function.complexity > MAX_COMPLEXITY
    }
    return sorted(found)


def modules() -> list[Path]:
    found = sorted(ENGINE.glob("*.py"))
    assert len(found) > 10, "the walk finds the engine's modules"
    return found


@pytest.mark.parametrize("path", modules(), ids=lambda path: path.name)
def test_no_engine_function_is_above_complexity_25(path: Path) -> None:
    assert too_complex(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", modules(), ids=lambda path: path.name)
def test_no_engine_module_is_above_900_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.name} has {lines} lines: split it by concern"


def branching(header: str, ifs: int, indent: str = "") -> str:
    """A function of complexity ``ifs + 1``, its body indented under ``indent``."""
    body = "".join(f"{indent}    if x == {n}:\n{indent}        return {n}\n" for n in range(ifs))
    return f"{indent}{header}\n{body}{indent}    return -1\n"


def test_the_measure_would_catch_a_function_a_method_and_a_nested_function_above_25() -> None:
    assert too_complex(branching("def fine(x):", 24)) == []
    assert too_complex(branching("def score(x):", 25)) == ["score (line 1): 26"]
    method = "class Game:\n" + branching("def score(self, x):", 25, "    ")
    assert too_complex(method) == ["Game.score (line 2): 26"]
    nested = "def outer(x):\n" + branching("def inner(x):", 25, "    ") + "    return inner(x)\n"
    assert too_complex(nested) == ["inner (line 2): 26"]
