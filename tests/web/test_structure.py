"""Rules of the code's shape, kept by tests rather than by hope: views are short,
say which methods they take, and leave the work to services and the sheet; the
apps depend on each other one way only and never on another app's views; a
migration runs only code frozen with it."""

from __future__ import annotations

import ast
import re

from django.template.loader import render_to_string
from django.urls import URLPattern

from tests import layout
from tests.layout import ROOT, app_patterns

VIEWS = ROOT / "scoring" / "views"
# Every module of views: the evenings' package and each other app's module.
VIEW_MODULES = (
    *sorted(VIEWS.glob("*.py")),
    ROOT / "club" / "views.py",
    ROOT / "accounts" / "views.py",
    ROOT / "ratings" / "views.py",
    *sorted((ROOT / "tournaments" / "views").glob("*.py")),
)
METHOD_DECORATORS = {"require_GET", "require_POST", "require_http_methods", "require_safe"}
MOST_LINES = 25


def view_functions() -> dict[str, ast.FunctionDef]:
    from tournaments import public_urls, urls

    patterns = [*app_patterns(), *urls.urlpatterns, *public_urls.urlpatterns]
    names = {pattern.callback.__name__ for pattern in patterns if isinstance(pattern, URLPattern)}
    found: dict[str, ast.FunctionDef] = {}
    for path in VIEW_MODULES:
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and node.name in names:
                found[node.name] = node
    return found


def decorator_name(node: ast.expr) -> str:
    target = node.func if isinstance(node, ast.Call) else node
    return target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")


def test_every_view_of_the_app_is_found():
    assert {"scoreboard", "hand_new", "hand_edit", "shared_board", "session_export"} <= set(view_functions())
    assert {"group_detail", "group_kasse", "season_table", "signup", "join"} <= set(view_functions())
    assert {"tournament_detail", "tournament_release", "table_page", "signoff", "board"} <= set(
        view_functions()
    )


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
        f"{path.relative_to(folder)}: {match.group(0)}"
        for folder, path in layout.templates()
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


FIELD_NOTES = "_field_notes.html"
# A field's error (``class="error" id="…-error"``, or an inline ``<span class="error"``)
# or its help text (``help_text``, a widget's ``help``) written out by hand.
BY_HAND = re.compile(r'<span class="error"|class="error" id="|\{\{ *(?:[\w.]*\.help_text|w\.help)\b')


def test_a_fields_error_and_help_are_written_by_one_partial():
    by_hand = [
        f"{path.relative_to(folder)}:{number}"
        for folder, path in layout.templates()
        if path.name != FIELD_NOTES
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if BY_HAND.search(line)
    ]
    assert by_hand == []
    users = [path for _, path in layout.templates() if f'include "{FIELD_NOTES}"' in path.read_text("utf-8")]
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


# -- the apps and the arrows between them ----------------------------------------------------

# Which app may import which: the regular table is built on the evenings, accounts
# on both, tournaments on both, the ratings on all three; the evenings know none of them (they tell the club app what changed through
# ``scoring.services.events``). Every app may use ``plumbing``; ``tarockscore`` is
# the project that puts them together, imported by no app.
MAY_IMPORT = {
    "scoring": {"scoring", "plumbing"},
    "club": {"club", "scoring", "plumbing"},
    "accounts": {"accounts", "club", "scoring", "plumbing"},
    "tournaments": {"tournaments", "club", "scoring", "plumbing"},
    "ratings": {"ratings", "tournaments", "club", "scoring", "plumbing"},  # above them all; none imports it
}
OURS = {*MAY_IMPORT, "plumbing", "tarockscore"}


def imported(tree: ast.AST, module: str) -> list[str]:
    """Every module a file imports, anywhere in it (a function's late import too),
    as a dotted name; ``from a import b`` counts as ``a`` and as ``a.b``."""
    names = []
    package = module.rsplit(".", 1)[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the file's own package
                base = ".".join(
                    [*package.split(".")[: len(package.split(".")) - node.level + 1], base]
                ).strip(".")
            names.append(base)
            names += [f"{base}.{alias.name}" for alias in node.names]
    return names


def app_modules(app: str, *, migrations: bool = False) -> list[tuple[str, ast.AST]]:
    """Each Python module of an app (its migrations only with ``migrations``), parsed."""
    found: list[tuple[str, ast.AST]] = []
    for path in sorted((ROOT / app).rglob("*.py")):
        in_migrations = "migrations" in path.relative_to(ROOT).parts
        if in_migrations != migrations:
            continue
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        found.append((module, ast.parse(path.read_text(encoding="utf-8"))))
    return found


# The project's start-up checks are registered when the apps are ready: the one
# place an app names the project's package.
START_UP_CHECKS = ("scoring.apps", "tarockscore.checks")


def test_the_apps_import_each_other_one_way_only():
    against = [
        f"{module} imports {name}"
        for app, allowed in MAY_IMPORT.items()
        for module, tree in app_modules(app)
        for name in imported(tree, module)
        if name.split(".")[0] in OURS
        and name.split(".")[0] not in allowed
        and (module, name) != START_UP_CHECKS
        and (module, f"{name}.checks") != START_UP_CHECKS
    ]
    assert against == []


def test_no_app_imports_the_views_of_another():
    reaching = [
        f"{module} imports {name}"
        for app in MAY_IMPORT
        for module, tree in app_modules(app)
        for name in imported(tree, module)
        if name.split(".")[0] in MAY_IMPORT and name.split(".")[0] != app and "views" in name.split(".")[1:]
    ]
    assert reaching == []


def test_the_evenings_views_import_no_other_view_module():
    """A helper two views share is a service (or the views' ``common``), never
    one view module reaching into another (sharing once read hands' queries)."""
    reaching = [
        f"{module} imports {name}"
        for module, tree in app_modules("scoring")
        if module.startswith("scoring.views.")
        for name in imported(tree, module)
        if name.startswith("scoring.views.") and name.split(".")[2] not in {"common", module.split(".")[2]}
    ]
    assert reaching == []


def test_the_rules_above_catch_an_arrow_back_up_and_a_reach_into_views():
    """The walk itself: what it would find in a module that broke the rules."""
    tree = ast.parse(
        "import club.models\nfrom club import views\ndef late():\n    from accounts.auth import x\n"
    )
    names = imported(tree, "scoring.services.something")
    assert {"club.models", "club.views", "accounts.auth"} <= set(names)
    relative = imported(ast.parse("from ..views import hands\n"), "scoring.services.hands")
    assert "scoring.views.hands" in relative


# -- migrations run frozen code ----------------------------------------------------------------


def names_only_choices(tree: ast.AST, module: str) -> bool:
    """Whether a migration uses ``module`` (imported whole) only to name a field's
    ``choices`` callable, as Django's migration writer writes one: a reference
    the field's state compares with the model's, which changes no data."""
    uses = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and ast.unparse(node.value) == module
    ]
    as_choices = {
        id(keyword.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        for keyword in node.keywords
        if keyword.arg == "choices"
    }
    return all(id(node) in as_choices for node in uses)


def live_imports(tree: ast.AST, module: str) -> list[str]:
    """The application code a migration imports (frozen copies inside a
    migrations package apart, and a field's choices callable named)."""
    return [
        name
        for name in imported(tree, module)
        if name.split(".")[0] in OURS
        and ".migrations" not in f".{name}"
        and not (name.endswith(".models") and names_only_choices(tree, name))
    ]


def test_no_migration_imports_the_applications_code():
    """A migration's behaviour is fixed when it is written: it may use Django and
    what is frozen inside a migrations package, never the apps' live code (a later
    change of that code would change what an old migration does to a database)."""
    found = [
        f"{module} imports {name}"
        for app in MAY_IMPORT
        for module, tree in app_modules(app, migrations=True)
        for name in live_imports(tree, module)
    ]
    assert found == []
    assert len([m for app in MAY_IMPORT for m, _ in app_modules(app, migrations=True)]) > 20  # all were read


def test_the_migrations_test_would_catch_a_live_import():
    tree = ast.parse(
        "from scoring.services.standings import evening_from\nimport club.services.kasse\n"
        "import scoring.models\nfrom scoring.migrations.frozen.engine import VARIANTS\n"
        "def fill(apps, editor):\n    scoring.models.Session.objects.all()\n"
    )
    live = live_imports(tree, "scoring.migrations.0099_example")
    assert {"scoring.services.standings", "club.services.kasse", "scoring.models"} <= set(live)
    assert not [name for name in live if "frozen" in name]
    named = ast.parse("import scoring.models\nmodels.CharField(choices=scoring.models.variant_choices)\n")
    assert live_imports(named, "scoring.migrations.0099_example") == []
