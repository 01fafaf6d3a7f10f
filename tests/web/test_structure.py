"""Rules of the code's shape, kept by tests rather than by hope: views are short,
say which methods they take, and leave the work to services and the sheet."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from django.template.loader import render_to_string

from scoring.urls import urlpatterns

VIEWS = Path(__file__).resolve().parents[2] / "scoring" / "views"
METHOD_DECORATORS = {"require_GET", "require_POST", "require_http_methods", "require_safe"}
MOST_LINES = 25


def view_functions() -> dict[str, ast.FunctionDef]:
    names = {pattern.callback.__name__ for pattern in urlpatterns}
    found: dict[str, ast.FunctionDef] = {}
    for path in VIEWS.glob("*.py"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and node.name in names:
                found[node.name] = node
    return found


def decorator_name(node: ast.expr) -> str:
    target = node.func if isinstance(node, ast.Call) else node
    return target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")


def test_every_view_of_the_app_is_found():
    assert {"scoreboard", "hand_new", "hand_edit", "shared_board", "session_export"} <= set(view_functions())


def test_every_view_says_which_http_methods_it_takes():
    missing = [
        name
        for name, node in view_functions().items()
        if not {decorator_name(d) for d in node.decorator_list} & METHOD_DECORATORS
    ]
    assert missing == []


def test_every_view_is_short():
    long = {
        name: (node.end_lineno or node.lineno) - node.lineno + 1
        for name, node in view_functions().items()
        if (node.end_lineno or node.lineno) - node.lineno + 1 > MOST_LINES
    }
    assert long == {}


def test_no_template_knows_a_game_or_its_sections_by_name():
    """What a game calls its sections, its hand types and itself comes from the
    engine: a template that compared names would miss a fourth game."""
    from scoring.engine import VARIANTS

    names = set(VARIANTS) | {"series", "partie", "trischaken"}
    alternatives = "|".join(sorted(names))
    compared = re.compile(rf"""==\s*["']({alternatives})["']""", re.IGNORECASE)
    found = [
        f"{path.relative_to(TEMPLATES)}: {match.group(0)}"
        for path in TEMPLATES.rglob("*.html")
        for match in compared.finditer(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_hand_form_is_built_in_one_place():
    """New hand, correction, preview and a refused delete all show the form one
    helper builds: the same dealer, type and values for the same hand."""
    builders = []
    for path in sorted((VIEWS.parent).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Call) and decorator_name(node) == "HandForm":
                    builders.append(f"{path.relative_to(VIEWS.parent)}:{function.name}")
    assert sorted(set(builders)) == ["views/hands.py:_hand_form"]


TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
FIELD_NOTES = "_field_notes.html"
# A field's error (``class="error" id="…-error"``, or an inline ``<span class="error"``)
# or its help text (``help_text``, a widget's ``help``) written out by hand.
BY_HAND = re.compile(r'<span class="error"|class="error" id="|\{\{ *(?:[\w.]*\.help_text|w\.help)\b')


def test_a_fields_error_and_help_are_written_by_one_partial():
    by_hand = [
        f"{path.relative_to(TEMPLATES)}:{number}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        if path.name != FIELD_NOTES
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if BY_HAND.search(line)
    ]
    assert by_hand == []
    users = [
        path for path in TEMPLATES.rglob("*.html") if f'include "{FIELD_NOTES}"' in path.read_text("utf-8")
    ]
    assert len(users) >= 7


def test_the_partial_writes_an_error_the_input_names_and_the_help_under_it():
    def notes(**context: object) -> str:
        return " ".join(render_to_string(FIELD_NOTES, context).split())

    assert notes(errors=["Missing.", "Too long."], id="f-name", help="Your name.") == (
        '<span class="error" id="f-name-error" role="alert">Missing. Too long.</span> '
        '<small class="help">Your name.</small>'
    )
    assert notes(errors=["Pick one."], id="f-contract", block=True) == (
        '<p class="error" id="f-contract-error" role="alert">Pick one.</p>'
    )
    assert notes(error="Taken.", error_id="player-error-2", help="<b>", help_id="h") == (
        '<span class="error" id="player-error-2" role="alert">Taken.</span> <small class="help" id="h">&lt;b&gt;</small>'
    )
    assert notes(errors=[], id="f-x") == ""
