"""The tournament rules are pure: tournaments/core imports nothing but the
standard library and the scoring engine (no Django, no app code)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "tournaments" / "core"


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                names.add("tournaments.core." + (node.module or ""))
            elif node.module:
                names.add(node.module)
    return names


def outside(names: set[str]) -> set[str]:
    return {
        name
        for name in names
        if name.split(".")[0] not in sys.stdlib_module_names
        and name != "__future__"
        and not name.startswith(("scoring.engine", "tournaments.core"))
    }


def test_core_imports_only_the_standard_library_and_the_engine():
    files = sorted(CORE.glob("*.py"))
    assert {"draw.py", "ranking.py", "cup.py", "money.py"} <= {path.name for path in files}
    for path in files:
        assert outside(imported(path)) == set(), path.name


def test_the_check_would_catch_django_and_app_code(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import json\nfrom django.db import models\nfrom scoring.models import Hand\nimport club\n"
    )
    assert outside(imported(bad)) == {"django.db", "scoring.models", "club"}


def test_importing_core_loads_no_django():
    import subprocess

    modules = ", ".join(f"tournaments.core.{path.stem}" for path in sorted(CORE.glob("*.py")))
    code = (
        f"import sys, {modules}; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'club', 'accounts') "
        "or m.startswith('scoring.') and not m.startswith('scoring.engine')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=CORE.parents[1]
    )
    assert out.stdout.strip() == "[]"
