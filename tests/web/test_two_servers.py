"""Several app servers behind a proxy share one database and one cache: what
one of them saved shows at once on the others' sheets, shared boards and PDFs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def test_a_hand_saved_through_one_server_shows_at_once_on_the_others_sheet_board_and_pdf():
    database = "postgres" if connection.vendor == "postgresql" else "sqlite"
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "two_servers.py"),
            "--database",
            database,
            "--cache",
            "database",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "DEBUG")},
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    checks = [line for line in result.stdout.splitlines() if line.startswith(("ok: ", "STALE: "))]
    assert len(checks) == 7 and all(line.startswith("ok: ") for line in checks), result.stdout
    assert "the other server's sheet shows it at once" in result.stdout
