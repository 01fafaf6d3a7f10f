"""Benchmark: how long the largest allowed import holds SQLite's write lock.

    .venv/bin/python scripts/bench_import.py [--runs 3] [--players 6]

Imports a generated French Tarot session of MAX_HANDS hands (the most a session
file may hold) into a throw-away SQLite database and prints, per run, the time
from BEGIN IMMEDIATE to the end of the import: what any other write waits for
behind it. The SQLite busy timeout in the settings must be longer.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.bench_pdf import generated_session  # noqa: E402  (the same generated evening)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--players", type=int, default=6, choices=(3, 4, 5, 6))
    args = parser.parse_args()
    os.environ.update(
        DJANGO_SETTINGS_MODULE="tarockscore.settings",
        DATABASE_URL=f"sqlite:///{tempfile.mkdtemp(prefix='tarock-bench-')}/bench.sqlite3",
        SECRET_KEY="benchmark-only",
    )
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection

    from scoring import services
    from scoring.engine.session_file import MAX_HANDS

    call_command("migrate", verbosity=0)
    owner = User.objects.create_user("bench")
    document = json.dumps(generated_session(MAX_HANDS, args.players))
    began: list[float] = []

    def note_begin(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if sql.startswith("BEGIN"):
            began.append(time.perf_counter())
        return execute(sql, params, many, context)

    held = []
    with connection.execute_wrapper(note_begin):
        for _ in range(args.runs):
            services.session_import(owner=owner, text=document, name="Benchmark")
            held.append(time.perf_counter() - began[-1])
    timeout = settings.DATABASES["default"]["OPTIONS"]["timeout"]
    print(f"hands: {MAX_HANDS}, players: {args.players}, file: {len(document) / 1024:.0f} KiB")
    print("write lock held by the import: " + ", ".join(f"{s:.2f} s" for s in held))
    print(f"busy timeout: {timeout} s, {timeout / max(held):.1f} × the longest")


if __name__ == "__main__":
    main()
