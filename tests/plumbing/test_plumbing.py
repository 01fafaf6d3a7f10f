"""The plumbing's rules, kept by tests: it sits below the apps and imports none of
them; every SQL statement written out by hand lives in ``plumbing/queries.py``;
the sheet's read model reads no database, cache or template."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from club.models import Membership
from plumbing import queries
from scoring.models import HandChange
from scoring.services.access import Right
from tests.sources import parsed

ROOT = Path(__file__).resolve().parents[2]
PLUMBING = ROOT / "plumbing"
# Where the project's code is: every package at the top but the tests. The
# scripts (bench, load, two servers) check the running application from outside.
OUTSIDE = {"tests", "scripts", ".venv"}
QUERIES = PLUMBING / "queries.py"

SQL = re.compile(r"\b(SELECT\b.*\bFROM|INSERT\s+INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM)\b", re.DOTALL)


def packages() -> list[Path]:
    return sorted(
        path.parent
        for path in ROOT.glob("*/__init__.py")
        if path.parent.name not in OUTSIDE and path.parent != PLUMBING
    )


def project_files() -> list[Path]:
    return sorted(
        path
        for folder in [*packages(), PLUMBING]
        for path in folder.rglob("*.py")
        if "__pycache__" not in path.parts
    )


def raw_sql(source: str) -> list[str]:
    """Where ``source`` runs SQL of its own: a cursor, ``.raw(sql)``, ``.extra(…)``,
    ``RawSQL``, ``RunSQL``, or an f-string (or a string joined to one) that is a statement."""
    found = []
    tree = ast.parse(source)
    docstrings = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            name = node.func.attr
            if name in ("cursor", "execute", "executemany", "extra") or (name == "raw" and node.args):
                found.append(f"{line}: .{name}(")
        if isinstance(node, (ast.Name, ast.Attribute)):
            name = node.id if isinstance(node, ast.Name) else node.attr
            if name in ("RawSQL", "RunSQL"):
                found.append(f"{line}: {name}")
        if isinstance(node, ast.alias) and node.name.rpartition(".")[2] in ("RawSQL", "RunSQL"):
            found.append(f"{line}: import {node.name}")
        if isinstance(node, ast.JoinedStr):
            text = "".join(str(part.value) for part in node.values if isinstance(part, ast.Constant))
            if SQL.search(text):
                found.append(f"{line}: f-string {text[:40]!r}")
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and SQL.search(node.value)
        ):
            found.append(f"{line}: string {node.value[:40]!r}")
    return found


def test_raw_sql_lives_only_in_the_queries_module():
    found = {
        str(path.relative_to(ROOT)): hits
        for path in project_files()
        if path != QUERIES
        for hits in [raw_sql(path.read_text(encoding="utf-8"))]
        if hits
    }
    assert found == {}
    assert raw_sql(QUERIES.read_text(encoding="utf-8")), "the queries module is where the statements are"


def test_the_check_finds_each_kind_of_raw_sql():
    for source in (
        'with connection.cursor() as c:\n    c.execute("x")',
        'connections["default"].cursor()',
        'Session.objects.raw("x")',
        "Session.objects.extra(where=['1'])",
        "from django.db.models.expressions import RawSQL",
        "x = RawSQL('1', [])",
        "migrations.RunSQL('x')",
        "STATEMENT = f'SELECT {columns} FROM \"{table}\" WHERE id = %s'",
        "STATEMENT = (f'UPDATE \"{table}\"' ' SET \"version\" = 2')",
        "STATEMENT = 'DELETE FROM x'",
        "STATEMENT = f'INSERT INTO {table} VALUES (%s)'",
    ):
        assert raw_sql(source), source
    for source in (
        "form.raw()",
        '"""SELECT the hands FROM a session: a docstring."""',
        "message = _('Select a player from the list')",
        "note = f'Update {name} from the roster'",
    ):
        assert raw_sql(source) == [], source


def imported(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_the_plumbing_imports_no_app():
    """Below every app: what it needs of them is passed in or looked up by label."""
    apps = {folder.name for folder in packages()}
    assert {"scoring", "tarockscore"} <= apps
    found = {
        f"{path.name}: {name}"
        for path in PLUMBING.rglob("*.py")
        for name in imported(path)
        if name.partition(".")[0] in apps
    }
    assert found == set()


def test_the_read_model_reads_no_database_cache_or_template():
    """``scoring.sheet.model``: the engine and the standard library at run time;
    the types it names only for the type checker."""
    path = ROOT / "scoring" / "sheet" / "model.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    checking = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
        for inner in ast.walk(node)
    }
    run_time = {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and id(node) not in checking
    } | {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    own = {name for name in run_time if name.partition(".")[0] in {"scoring", "plumbing", "django"}}
    assert own and all(name.startswith("scoring.engine") for name in own), own


def test_the_statements_use_the_apps_own_words():
    """The values the written-out statements compare with are the models' own."""
    assert Membership.Role.OWNER.value == queries.OWNER_ROLE
    assert HandChange.Action.EDITED.value == queries.EDITED
    assert [int(right) for right in Right] == [
        queries.RIGHT_NONE,
        queries.RIGHT_READ,
        queries.RIGHT_RECORD,
        queries.RIGHT_OWN,
    ]


def test_the_release_fingerprint_covers_the_plumbing():
    """Kept pages and the offline worker's caches are named after the files the
    pages are drawn from: the plumbing draws them too (the kept-page splice)."""
    from plumbing import offline

    sources = offline.page_sources()
    assert (PLUMBING / "pages.py").resolve() in sources
    assert (PLUMBING / "compression.py").resolve() in sources
