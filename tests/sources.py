"""The project's Python files parsed once per test process: the structure tests walk
the same few hundred files again and again (about 9 s of processor in a run)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path


@functools.cache
def _parsed(path: Path, stamp: int) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def parsed(path: Path) -> ast.Module:
    """The file's tree, read again only where the file changed. Walk it, never change it."""
    return _parsed(path, path.stat().st_mtime_ns)
