"""Every refusal of the rules reads in the players' words: the engine's own
refusals (not the session file's shape) never show a key, a field path, an
enum value or a JSON literal, whichever language the reader has."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "scoring" / "engine"
# Each game with every module of it (``illustrated.py``, ``illustrated_input.py``, …).
GAMES = ("french", "illustrated", "chambery")

# What a player never reads: ``true``/``false``/``null``, "allowed: 0",
# ``snake_case`` keys, ``premiums[1]`` paths, "profile graz". Placeholders
# (``{talon_low}``) are filled in with words, so they may be keys.
NOT_WORDS = re.compile(r"\b(true|false|null)\b|allowed: \d|\b[a-z]+_[a-z_]+\b|\bprofile (beck|graz)")
PATH = re.compile(r"\w\[\{?\w*\}?\]")
PLACEHOLDER = re.compile(r"\{\w*\}")


def in_words(text: str) -> bool:
    return not PATH.search(text) and not NOT_WORDS.search(PLACEHOLDER.sub("", text))


def modules(game: str) -> list[str]:
    return sorted(path.name for path in ENGINE.glob(f"{game}*.py"))


def refusals(name: str) -> list[ast.Call]:
    tree = ast.parse((ENGINE / name).read_text(encoding="utf-8"))
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "invalid"
    ]


def _marked(node: ast.AST) -> list[tuple[int, str]]:
    return [
        (found.lineno, str(found.args[0].value))
        for found in ast.walk(node)
        if isinstance(found, ast.Call)
        and isinstance(found.func, ast.Name)
        and found.func.id == "gettext_noop"
        and isinstance(found.args[0], ast.Constant)
    ]


def refusal_texts(name: str) -> set[tuple[int, str]]:
    """Every text a refusal of the module can say: those written in its
    ``raise``, and those it takes from a variable (``text = …``)."""
    tree = ast.parse((ENGINE / name).read_text(encoding="utf-8"))
    found: set[tuple[int, str]] = set()
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef):
            continue
        assigned: dict[str, list[tuple[int, str]]] = {}
        for node in ast.walk(function):
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
                assigned.setdefault(node.targets[0].id, []).extend(_marked(node.value))
        for node in ast.walk(function):
            if not isinstance(node, ast.Raise) or node.exc is None:
                continue
            found.update(_marked(node.exc))
            for call in ast.walk(node.exc):
                if isinstance(call, ast.Call) and len(call.args) > 1 and isinstance(call.args[1], ast.Name):
                    found.update(assigned.get(call.args[1].id, []))
    return found


def raw_argument(value: ast.expr) -> str | None:
    """Why an argument of a refusal would show a raw value, or None."""
    if isinstance(value, ast.Attribute) and value.attr == "value":
        return "an enum's value"
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "allowed_list":
        return "a list of keys"
    if isinstance(value, ast.Constant) and isinstance(value.value, bool):
        return "a boolean"
    return None


@pytest.mark.parametrize("game", GAMES)
def test_no_refusal_fills_in_a_raw_value(game):
    calls = [(name, call) for name in modules(game) for call in refusals(name)]
    assert len(calls) > 5, "the walk finds the refusals"
    wrong = [
        f"{name}:{call.lineno} {keyword.arg}: {why}"
        for name, call in calls
        for keyword in call.keywords
        if (why := raw_argument(keyword.value)) is not None
    ]
    assert wrong == []


@pytest.mark.parametrize("game", GAMES)
def test_no_refusal_speaks_in_keys(game):
    texts = [(name, line, text) for name in modules(game) for line, text in refusal_texts(name)]
    assert len(texts) > 5, "the walk finds the texts"
    wrong = sorted(f"{name}:{line} {text!r}" for name, line, text in texts if not in_words(text))
    assert wrong == []


def test_the_walk_would_catch_a_raw_profile_and_a_boolean():
    assert not in_words("profile graz has no Mit Vierzig")
    assert not in_words("a silent valat is recorded only when made; allowed: true")
    assert not in_words("points must be 70 − talon_rest")
    assert not in_words("premiums[{index}] rules out this Mondfang")
    assert in_words("the talon holds {talon_low} to {talon_high} points")
    assert in_words("under the {profile} rules a premium is announced only silently")
    call = ast.parse("invalid('x', t, profile=options.profile.value, allowed=allowed_list(a))", mode="eval")
    assert isinstance(call.body, ast.Call)
    assert [raw_argument(k.value) for k in call.body.keywords] == ["an enum's value", "a list of keys"]
