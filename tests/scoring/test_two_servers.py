"""Several app servers behind a proxy share one database and one cache: what
one of them saved shows at once on the others' sheets, shared boards and PDFs.
With Redis as the cache, a share link's limit also holds exactly across them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.cache


def two_servers(cache: str) -> subprocess.CompletedProcess[str]:
    database = "postgres" if connection.vendor == "postgresql" else "sqlite"
    return subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "two_servers.py"), "--database", database, "--cache", cache],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "DEBUG")},
        timeout=600,
        check=False,
    )


def test_a_hand_saved_through_one_server_shows_at_once_on_the_others_sheet_board_and_pdf():
    result = two_servers("database")
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    checks = [line for line in result.stdout.splitlines() if line.startswith(("ok: ", "STALE: "))]
    assert len(checks) == 7 and all(line.startswith("ok: ") for line in checks), result.stdout
    assert "the other server's sheet shows it at once" in result.stdout


@pytest.mark.redis
def test_with_redis_the_servers_share_what_they_drew_and_a_links_limit_holds_exactly_across_them(redis_url):
    result = two_servers(redis_url)
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    checks = [line for line in result.stdout.splitlines() if line.startswith(("ok: ", "STALE: "))]
    assert len(checks) == 10 and all(line.startswith("ok: ") for line in checks), result.stdout
    assert "the other server's sheet shows it at once" in result.stdout
    assert "ok: what it drew is in the Redis both servers share" in result.stdout
    assert "lets exactly its 600 through: 600 answered" in result.stdout
    # One phone polling a board at ten times its budget through both servers is
    # refused alone: the hall screen and the phone that writes never get a 429.
    assert "ok: one phone polling a board 600 times through both servers gets exactly its 60" in result.stdout
    assert "ok: the hall screen and the phone that writes, polling beside it, get no 429" in result.stdout
