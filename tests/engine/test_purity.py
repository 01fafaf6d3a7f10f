"""The engine is pure Python: it imports nothing outside the standard library."""

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "scoring" / "engine"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_engine_imports_only_the_standard_library():
    files = sorted(ENGINE.glob("*.py"))
    assert files, "the engine has modules"
    for path in files:
        outside = {name for name in imported_modules(path) if name not in sys.stdlib_module_names}
        outside.discard("__future__")
        assert not outside, f"{path.name} imports {outside}"


def test_the_purity_check_would_catch_a_django_import(tmp_path):
    module = tmp_path / "bad.py"
    module.write_text("from django.db import models\nimport json\n")
    assert imported_modules(module) - set(sys.stdlib_module_names) == {"django"}
