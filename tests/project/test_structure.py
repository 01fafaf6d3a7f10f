"""Rules of the code's shape, kept by tests rather than by hope: views are short,
say which methods they take, and leave the work to services and the sheet; the
apps depend on each other one way only and never on another app's views; a
migration runs nothing of the applications' code."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import cast

from django.db.models import Model
from django.template.loader import render_to_string
from django.urls import URLPattern

from tests import layout
from tests.layout import ROOT, app_patterns
from tests.sources import parsed

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
    from tournaments import circuit_urls, public_urls, urls

    patterns = [*app_patterns(), *urls.urlpatterns, *public_urls.urlpatterns, *circuit_urls.urlpatterns]
    names = {pattern.callback.__name__ for pattern in patterns if isinstance(pattern, URLPattern)}
    found: dict[str, ast.FunctionDef] = {}
    for path in VIEW_MODULES:
        for node in parsed(path).body:
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
        tree = parsed(path)
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Call) and decorator_name(node) == "HandForm":
                    builders.append(f"{path.relative_to(VIEWS.parent)}:{function.name}")
    assert sorted(set(builders)) == ["hand_pages.py:_hand_form"]


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
        found.append((module, parsed(path)))
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


# -- migrations run no application code ---------------------------------------------------------


def names_only_choices(tree: ast.AST, module: str) -> bool:
    """Whether a migration uses ``module`` (imported whole) only to name a field's
    ``choices`` callable, as Django's migration writer writes one: a reference
    the field's state compares with the model's, which changes no table and no row."""
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
    return bool(uses) and all(id(node) in as_choices for node in uses)


def live_imports(tree: ast.AST, module: str) -> list[str]:
    """The application code a migration imports: anything of the project's packages
    (another migration's module too), a field's choices callable named apart."""
    return [
        name
        for name in imported(tree, module)
        if name.split(".")[0] in OURS and not (name.endswith(".models") and names_only_choices(tree, name))
    ]


MIGRATING_APPS = sorted({*MAY_IMPORT, "plumbing"})


def test_no_migration_imports_the_applications_code():
    """A migration's behaviour is fixed when it is written: it may use Django, never
    the apps' code (a later change of that code would change what the migration does
    to a database, and a migration would keep code alive that nothing else runs)."""
    found = [
        f"{module} imports {name}"
        for app in MIGRATING_APPS
        for module, tree in app_modules(app, migrations=True)
        for name in live_imports(tree, module)
    ]
    assert found == []
    read = {module for app in MIGRATING_APPS for module, _ in app_modules(app, migrations=True)}
    assert {f"{app}.migrations.0001_initial" for app in MAY_IMPORT} <= read  # all were read


def test_the_migrations_packages_hold_migrations_only():
    """No helper modules or frozen copies of the code beside the migrations."""
    found = [
        path.relative_to(ROOT).as_posix()
        for app in MIGRATING_APPS
        for path in (ROOT / app).rglob("migrations/**/*")
        if path.suffix == ".py"
        and (path.parent.name != "migrations" or not re.fullmatch(r"__init__|\d{4}_\w+", path.stem))
    ]
    assert found == []


def test_the_migrations_test_would_catch_a_live_import():
    tree = ast.parse(
        "from scoring.services.standings import evening_from\nimport club.services.kasse\n"
        "import scoring.models\nfrom scoring.migrations.frozen.engine import VARIANTS\n"
        "from plumbing import queries\nimport tournaments.models\n"
        "def fill(apps, editor):\n    scoring.models.Session.objects.all()\n"
    )
    live = live_imports(tree, "scoring.migrations.0099_example")
    assert {
        "scoring.services.standings",
        "club.services.kasse",
        "scoring.models",
        "scoring.migrations.frozen.engine",
        "plumbing.queries",
        "tournaments.models",  # imported and never used is no exception either
    } <= set(live)
    named = ast.parse("import scoring.models\nmodels.CharField(choices=scoring.models.variant_choices)\n")
    assert live_imports(named, "scoring.migrations.0099_example") == []
    mixed = ast.parse(
        "import scoring.models\nmodels.CharField(choices=scoring.models.variant_choices)\n"
        "def fill(apps, editor):\n    scoring.models.fill()\n"
    )
    assert live_imports(mixed, "scoring.migrations.0099_example") == ["scoring.models"]


# -- games only through the registry ---------------------------------------------------------

# Where the Python of the project lives: the apps, the layer below them and the project.
CODE_PACKAGES = (*MAY_IMPORT, "plumbing", "tarockscore")


def game_keys_named(tree: ast.AST, keys: set[str], *, compared_only: bool = False) -> list[str]:
    """Each string literal in ``tree`` that is a game's key (``"french"``), with its
    line; with ``compared_only``, only those in a comparison (``==``, ``in``, …)."""
    if compared_only:
        nodes = [part for node in ast.walk(tree) if isinstance(node, ast.Compare) for part in ast.walk(node)]
    else:
        nodes = list(ast.walk(tree))
    found = [
        (node.lineno, node.col_offset, node.value)
        for node in nodes
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in keys
    ]
    return [f"{line}: {value!r}" for line, _, value in sorted(found)]


def own_game_module(path: Path, key: str) -> bool:
    """A game's own module, where its key is given once (``key = "french"``)."""
    return path == ROOT / "scoring" / "engine" / f"{key}.py"


def test_no_game_key_is_named_outside_its_own_module():
    """What a game is and what a tournament needs of it is asked of the registry
    (``Variant``: its name, sections, house rules; ``TournamentTerms``: offered for
    tournaments, defaults, fixed house rules, halves, Heine), so a new game is one
    registry line: no module compares or lists game keys. Its own module names its
    key once. Left out, each for a narrow reason: migrations (history, frozen
    when written: a choice once stored stays named there), the tests (they play
    named games), the translations and the templates (the templates are walked by
    ``test_no_template_knows_a_game_or_its_sections_by_name``). The scripts (load
    and benchmark runs) may pick a game to play, but never compare one."""
    from scoring.engine import VARIANTS

    keys = set(VARIANTS)
    named = []
    for package in CODE_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.relative_to(ROOT).parts:
                continue
            own = {key for key in keys if own_game_module(path, key)}
            tree = parsed(path)
            named += [f"{path.relative_to(ROOT)}:{hit}" for hit in game_keys_named(tree, keys - own)]
    for path in sorted((ROOT / "scripts").rglob("*.py")):
        tree = parsed(path)
        named += [
            f"{path.relative_to(ROOT)}:{hit}" for hit in game_keys_named(tree, keys, compared_only=True)
        ]
    in_javascript = re.compile(rf"""["'`]({"|".join(sorted(keys))})["'`]""")
    for path in sorted((ROOT / "static" / "js").glob("*.js")):
        text = path.read_text(encoding="utf-8")
        named += [f"{path.relative_to(ROOT)}: {match.group(0)}" for match in in_javascript.finditer(text)]
    assert named == []


def test_the_game_key_rule_would_catch_a_comparison_a_list_and_a_default():
    keys = {"french", "koenigrufen"}
    tree = ast.parse(
        'GAMES = ("koenigrufen", "french")\n'
        'def f(variant="koenigrufen"):\n    return variant == "french"\n'
        'halves = "french" in picked\n'
    )
    assert game_keys_named(tree, keys) == [
        "1: 'koenigrufen'",
        "1: 'french'",
        "2: 'koenigrufen'",
        "3: 'french'",
        "4: 'french'",
    ]
    assert game_keys_named(tree, keys, compared_only=True) == ["3: 'french'", "4: 'french'"]
    assert own_game_module(ROOT / "scoring" / "engine" / "french.py", "french")
    assert not own_game_module(ROOT / "tournaments" / "core" / "cup.py", "french")


# -- apps meet through services ----------------------------------------------------------------

# What writes a row: a manager's or a query's writing methods, an instance's ``save``
# and ``delete``, and a many-to-many field's ``set``/``add``/``remove``/``clear``.
WRITES = {"create", "get_or_create", "update_or_create", "bulk_create", "bulk_update", "update", "delete"}
INSTANCE_WRITES = {"save", "delete"}
RELATION_WRITES = {"set", "add", "remove", "clear"}
# The apps built on the evenings: none of them writes a scoring row.
OTHER_APPS = tuple(app for app in MAY_IMPORT if app != "scoring")


def scoring_model_names() -> set[str]:
    from django.apps import apps

    return {model.__name__ for model in apps.get_app_config("scoring").get_models()}


def _in_scope(scope: ast.AST) -> list[ast.AST]:
    """The nodes of a module or a function, without those of the functions inside it."""
    found, waiting = [], list(ast.iter_child_nodes(scope))
    while waiting:
        node = waiting.pop()
        found.append(node)
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            waiting.extend(ast.iter_child_nodes(node))
    return found


def scoring_writes(tree: ast.AST, models: set[str]) -> list[str]:
    """Each write of a scoring row in ``tree``: a query of a scoring model that writes
    (``Session.objects.filter(…).update(…)``), and ``save``/``delete`` or a
    relation's ``set`` on a value that is a scoring row in its function (a parameter
    annotated with a scoring model, or a name taken from one of its queries)."""
    found = []
    uses_model = re.compile(rf"\b({'|'.join(sorted(models))})\.objects\b")
    scopes: list[ast.AST] = [tree, *(node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef))]
    for function in scopes:  # the module, then each function with the rows it names
        rows: set[str] = set()
        for arg in (
            [*function.args.args, *function.args.kwonlyargs] if isinstance(function, ast.FunctionDef) else []
        ):
            if arg.annotation is not None and ast.unparse(arg.annotation).split("|")[0].strip() in models:
                rows.add(arg.arg)
        for node in _in_scope(function):
            if isinstance(node, ast.Assign | ast.For) and uses_model.search(
                ast.unparse(node.value if isinstance(node, ast.Assign) else node.iter)
            ):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:  # a name, or the names of a tuple (never an attribute's object)
                    names = target.elts if isinstance(target, ast.Tuple) else [target]
                    rows |= {name.id for name in names if isinstance(name, ast.Name)}
        for node in _in_scope(function):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            receiver = ast.unparse(node.func.value)
            root = receiver.split(".")[0].split("(")[0]
            writes = (
                (node.func.attr in WRITES and uses_model.search(receiver))
                or (node.func.attr in INSTANCE_WRITES and receiver in rows)
                or (node.func.attr in RELATION_WRITES and "." in receiver and root in rows)
            )
            if writes:
                found.append(f"{node.lineno}: {ast.unparse(node)[:80]}")
    return sorted(set(found), key=lambda line: int(line.split(":")[0]))


def test_no_other_app_writes_a_scoring_row_but_through_its_services():
    """A tournament's table is an ordinary session: it is created with its target,
    managed flag, players and editors in one call (``session_create``), its seats
    changed by ``session_reseat``, removed unplayed by ``sessions_discard_unplayed``,
    each in scoring's transaction with its version (and history where it has one).
    The club's links to its evenings are its own rows (``GroupSession``,
    ``RosterSeat``); it writes no column of the evenings' tables, nor do the
    accounts or the ratings."""
    models = scoring_model_names()
    assert {"Session", "Seat", "Hand", "SessionChange"} <= models
    found = [
        f"{module}:{hit}"
        for app in OTHER_APPS
        for module, tree in app_modules(app)
        for hit in scoring_writes(tree, models)
    ]
    assert found == []


def test_the_write_rule_would_catch_a_query_a_save_and_a_relation():
    models = {"Session", "Seat"}
    tree = ast.parse(
        "def a(table):\n    Session.objects.filter(pk=1).update(hands_target=4, managed=True)\n"
        "def b(session: Session):\n    session.first_dealer = 'A'\n    session.save(update_fields=['first_dealer'])\n"
        "def c(table):\n    for seat in Seat.objects.filter(session=table.session):\n        seat.delete()\n"
        "def d(session: Session, users):\n    session.editors.set(users)\n"
        "def e(group):\n    Seat.objects.filter(roster=1).update(roster=2)\n"
        "def f(table):\n    TableRound.objects.filter(pk=1).update(first_dealer=2)\n    table.save()\n"
        "def g(session):\n    RosterSeat.objects.filter(seat__session=session).update(player=2)\n"
        "def h(pk):\n    locked = Session.objects.select_for_update().get(pk=pk)\n"
        "    locked.save(update_fields=['group'])\n"
    )
    # A write of the evenings' columns is caught whichever columns it names (the
    # club's old links on them too); a write of another app's own rows is not.
    assert [hit.split(":")[0] for hit in scoring_writes(tree, models)] == ["2", "5", "8", "10", "12", "20"]


# -- the evenings name nothing of the apps built on them ---------------------------------------

# What the evenings' models may point at besides their own rows: Django's users.
SCORING_POINTS_AT = {"scoring", "auth"}
QUERIES = ROOT / "plumbing" / "queries.py"


def links_out(models: Sequence[type[Model]], allowed: set[str]) -> list[str]:
    """Each field of ``models`` that points at a model of an app not ``allowed``
    (a foreign key, a one-to-one, a many-to-many): reverse relations left out."""
    return [
        f"{model.__name__}.{field.name} → {related._meta.label}"
        for model in models
        for field in model._meta.get_fields()
        if field.is_relation and not field.auto_created
        for related in [cast(type[Model], field.related_model)]
        if related._meta.app_label not in allowed
    ]


def test_the_evenings_models_point_at_nothing_of_the_apps_built_on_them():
    """An evening's group and a seat's roster player are the club's rows pointing at
    the evenings (``club.GroupSession``, ``club.RosterSeat``), a tournament's table
    points at its session: no model of the evenings names a model above them."""
    from django.apps import apps

    models = list(apps.get_app_config("scoring").get_models())
    assert len(models) >= 6
    assert links_out(models, SCORING_POINTS_AT) == []


def scoring_code() -> list[tuple[str, ast.AST]]:
    """The evenings' Python, the engine and the migrations left out (history: the
    first migration made the old links)."""
    return [
        (module, tree) for module, tree in app_modules("scoring") if not module.startswith("scoring.engine")
    ]


def labels_named(tree: ast.AST, apps_named: Sequence[str]) -> list[str]:
    """Each string in ``tree`` that is the label of a model of ``apps_named`` (``"club.Group"``,
    ``"club.group"``): a lazy foreign key or a look-up in Django's app registry."""
    label = re.compile(rf"({'|'.join(apps_named)})\.[A-Za-z_]\w*")
    return [
        f"{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and label.fullmatch(node.value)
    ]


def foreign_relations() -> set[str]:
    """The names other apps' models gave their relations to the evenings' models
    (``group_link``, ``roster_link``, ``tournament_table``, …): reaching through them
    from the evenings' code would name the app above."""
    from django.apps import apps

    return {
        name
        for model in apps.get_app_config("scoring").get_models()
        for rel in model._meta.related_objects
        if rel.related_model._meta.app_label != "scoring"
        for name in (rel.get_accessor_name(), rel.field.related_query_name())
        if name and not name.endswith("+")
    }


def relations_used(tree: ast.AST, names: set[str]) -> list[str]:
    """Each use of one of the relations ``names`` in ``tree``: an attribute
    (``session.group_link``), a query's keyword (``group_link__group=…``) or a
    string naming it (``select_related("group_link")``)."""

    def names_one(text: str) -> bool:
        return text in names or ("__" in text and text.split("__")[0] in names)

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in names:
            found.append(f"{node.lineno}: .{node.attr}")
        elif isinstance(node, ast.keyword) and node.arg and names_one(node.arg):
            found.append(f"{node.value.lineno}: {node.arg}=")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and names_one(node.value):
            found.append(f"{node.lineno}: {node.value!r}")
    return sorted(found, key=lambda hit: (int(hit.split(":")[0]), hit))


def scoring_templates() -> list[Path]:
    return sorted(
        path
        for folder in (ROOT / "templates" / "scoring", ROOT / "scoring" / "templates")
        if folder.is_dir()
        for path in folder.rglob("*.html")
    )


def test_the_evenings_code_names_no_model_or_relation_of_the_apps_built_on_them():
    """Not by a label (``"club.Group"``: a lazy foreign key, a look-up in the app
    registry, which the import rule cannot see), nor by a relation another app put
    on the evenings' models, in Python or in a template (a template that read
    ``session.group.currency`` would print nothing once the link moved)."""
    relations = foreign_relations()
    assert {"tournament_table", "evening_results"} <= relations  # what the walk looks for is there
    found = [
        f"{module}:{hit}"
        for module, tree in scoring_code()
        for hit in [*labels_named(tree, OTHER_APPS), *relations_used(tree, relations)]
    ]
    reach = re.compile(rf"\.({'|'.join(sorted(relations))})\b")
    found += [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in scoring_templates()
        for match in reach.finditer(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def query_labels(tree: ast.Module) -> dict[str, set[str]]:
    """For each function of the queries module, the model labels its SQL names: by
    a module constant holding a label (``SESSION = "scoring.Session"``), by the label
    itself, or through another function of the module it calls."""
    constants: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                pairs = (
                    zip(target.elts, node.value.elts, strict=False)
                    if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple)
                    else [(target, node.value)]
                )
                for named, value in pairs:
                    if (
                        isinstance(named, ast.Name)
                        and isinstance(value, ast.Constant)
                        and isinstance(value.value, str)
                        and re.fullmatch(r"\w+\.[A-Z]\w*", value.value)
                    ):
                        constants[named.id] = value.value
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    direct = {
        name: {constants[n.id] for n in ast.walk(function) if isinstance(n, ast.Name) and n.id in constants}
        | {
            n.value
            for n in ast.walk(function)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value in constants.values()
        }
        for name, function in functions.items()
    }
    calls = {
        name: {
            n.func.id
            for n in ast.walk(function)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in functions
        }
        for name, function in functions.items()
    }
    reached = {name: set(labels) for name, labels in direct.items()}
    changed = True
    while changed:  # through the calls, until nothing more is reached
        changed = False
        for name, called in calls.items():
            more = set().union(*(reached[other] for other in called)) - reached[name]
            if more:
                reached[name] |= more
                changed = True
    return reached


def statements_mixing(reached: dict[str, set[str]], apps_named: Sequence[str]) -> list[str]:
    """Each function whose SQL names the evenings' tables and a table of ``apps_named``."""
    return sorted(
        f"{name}: {', '.join(sorted(labels))}"
        for name, labels in reached.items()
        if any(label.startswith("scoring.") for label in labels)
        and any(label.split(".")[0] in apps_named for label in labels)
    )


def test_the_evenings_sql_names_no_table_of_the_apps_built_on_them():
    """Every statement of the evenings (``plumbing.queries``: the access rule, the
    sheet's reads, the save's) names their tables only. Who else has a right on an
    evening comes from the circle the club registers (``scoring.services.circles``),
    whose SQL names the club's tables and none of the evenings'."""
    reached = query_labels(ast.parse(QUERIES.read_text(encoding="utf-8")))
    assert "scoring.Session" in reached["right_sql"] and "club.Membership" in reached["group_of_member"]
    assert statements_mixing(reached, OTHER_APPS) == []


def test_the_access_rule_as_run_takes_the_other_apps_tables_from_the_circle_alone():
    """The rule's statement, with no circle or a stand-in, names no table of another
    app (the club's tables are still called ``scoring_…``: the check reads their
    names from the models); the club's circle is the one registered."""
    from django.apps import apps

    from plumbing import queries
    from scoring.services import circles

    tables = {model._meta.db_table for app in OTHER_APPS for model in apps.get_app_config(app).get_models()}
    stand_in = queries.Circle(key="SELECT NULL", granted="SELECT NULL")
    for circle in (None, stand_in):
        sql = queries.right_sql("s", circle)
        assert "scoring_session_editors" in sql
        assert [name for name in tables if f'"{name}"' in sql] == []
    assert circles.rights() == queries.group_circle()  # the club's, registered when it is ready


def test_the_rules_above_catch_a_label_a_relation_a_link_and_a_mixed_statement():
    from django.apps import apps

    tree = ast.parse(
        'group = models.ForeignKey("club.Group", on_delete=models.SET_NULL)\n'
        'Membership = apps.get_model("club.membership")\n'
        'sessions = Session.objects.filter(group_link__group=1).select_related("tournament_table")\n'
        "currency = session.group_link.group.currency\n"
        'note = "club.Group is the regular table"\n'
    )
    assert labels_named(tree, OTHER_APPS) == ["1: 'club.Group'", "2: 'club.membership'"]
    assert relations_used(tree, {"group_link", "tournament_table"}) == [
        "3: 'tournament_table'",
        "3: group_link__group=",
        "4: .group_link",
    ]
    club_links = links_out([apps.get_model("club", "EveningResult")], SCORING_POINTS_AT)
    assert club_links == ["EveningResult.group → club.Group", "EveningResult.player → club.GroupPlayer"]
    queries = ast.parse(
        'SESSION, MEMBERSHIP = "scoring.Session", "club.Membership"\n'
        "def member():\n    return table(MEMBERSHIP)\n"
        "def rule():\n    return table(SESSION) + member()\n"
        "def sheet():\n    return table(SESSION)\n"
        "def circle():\n    return member()\n"
    )
    assert statements_mixing(query_labels(queries), OTHER_APPS) == ["rule: club.Membership, scoring.Session"]


# What another app may import of the evenings: the engine, the games, the models (to
# read; writes go through the services, above), the services, the command line's
# helpers and the one deliberately public module of its web layer. Anything else of
# ``scoring`` is its web layer (views, the hand pages, the sheet's HTML, the forms,
# the presentation, the files, …), reached from outside only through ``scoring.public``.
SCORING_FOR_OTHERS = (
    "scoring.engine",
    "scoring.games",
    "scoring.models",
    "scoring.services",
    "scoring.commandline",
)
SCORING_PUBLIC = "scoring.public"


def reaches_into_scoring(name: str) -> bool:
    """Whether importing ``name`` from another app reaches past what scoring offers it."""
    if not name.startswith("scoring.") or name == SCORING_PUBLIC or name.startswith(f"{SCORING_PUBLIC}."):
        return False
    return not any(name == allowed or name.startswith(f"{allowed}.") for allowed in SCORING_FOR_OTHERS)


def test_no_app_imports_the_evenings_web_layer_but_its_public_module():
    reaching = [
        f"{module} imports {name}"
        for app in MAY_IMPORT
        if app != "scoring"
        for module, tree in app_modules(app)
        for name in imported(tree, module)
        if reaches_into_scoring(name)
    ]
    assert reaching == []


def test_the_public_module_is_no_door_to_the_views():
    """``scoring.public`` lists what the evenings' web layer promises other apps;
    it imports no view (the hand pages are their own module, which the views call)."""
    reaching = [
        f"{module} imports {name}"
        for module, tree in app_modules("scoring")
        if module in {SCORING_PUBLIC, "scoring.hand_pages"}
        for name in imported(tree, module)
        if name.startswith("scoring.views")
    ]
    assert reaching == []
    # Nor through what they import: a fresh process that loads them has loaded no view.
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django, sys; django.setup(); import scoring.public; "
            "print(' '.join(sorted(m for m in sys.modules if m.startswith('scoring.'))))",
        ],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "tarockscore.settings_test"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert "scoring.hand_pages" in loaded and not [m for m in loaded if m.startswith("scoring.views")]


def test_the_web_layer_rule_would_catch_a_view_a_shim_and_the_sheet():
    caught = [
        name
        for name in (
            "scoring.views.hands",
            "scoring.hand_pages",
            "scoring.sheet_html",
            "scoring.presentation",
            "scoring.forms",
            "scoring.exports",
            "scoring.schema_forms",
        )
        if reaches_into_scoring(name)
    ]
    assert len(caught) == 7
    allowed = (
        "scoring.public",
        "scoring.services.sessions",
        "scoring.engine.types",
        "scoring.models",
        "plumbing.x",
    )
    assert not [name for name in allowed if reaches_into_scoring(name)]
