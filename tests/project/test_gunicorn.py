"""The server's settings (gunicorn.conf.py): what the production command of docs/deployment.md
and the load test run with."""

from __future__ import annotations

import os
import re
import secrets
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

from scripts.harness import collected_static
from tournaments.views.board import HALL_POLL_SECONDS

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = str(ROOT / ".venv" / "bin" / "gunicorn")
CONF = str(ROOT / "gunicorn.conf.py")


def production_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "DJANGO_SETTINGS_MODULE")}
    env.update(
        DJANGO_SETTINGS_MODULE="tarockscore.settings",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        SECURE_SSL_REDIRECT="0",
        SECURE_COOKIES="0",
    )
    return env


def test_each_worker_has_a_timeout_and_a_bounded_number_of_requests(tmp_path):
    result = subprocess.run(
        [GUNICORN, "--config", CONF, "--print-config"],
        capture_output=True,
        text=True,
        cwd=tmp_path,  # the file is found by its path, not because it lies in the working folder
        env=production_env(tmp_path),
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    config = dict(re.findall(r"^(\w+)\s+= (.*)$", result.stdout, re.M))
    assert config["wsgi_app"] == "tarockscore.wsgi"
    assert (config["worker_class"], config["workers"], config["threads"]) == ("gthread", "3", "4")
    most, jitter = int(config["max_requests"]), int(config["max_requests_jitter"])
    assert most > 0 and 0 < jitter < most
    assert 0 < int(config["timeout"]) <= 60 and int(config["graceful_timeout"]) > 0
    assert config["control_socket_disable"] == "True"
    # A kept connection outlives the hall screen's pause between two polls, so it is never closed as the hall asks.
    assert int(config["keepalive"]) >= HALL_POLL_SECONDS + 2


def test_the_production_command_serves_the_app_and_replaces_a_worker_that_served_its_share(tmp_path):
    env = production_env(tmp_path)
    env["STATIC_ROOT"] = str(collected_static())
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    log = tmp_path / "gunicorn.log"
    # The command of docs/deployment.md, with one worker whose share is three requests, to see it replaced.
    command = [GUNICORN, "--config", CONF, "--bind", f"127.0.0.1:{port}", "--workers", "1"]
    command += ["--max-requests", "3", "--max-requests-jitter", "0", "--log-level", "info"]
    with log.open("w") as output:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT)
    statuses: list[int] = []
    try:
        for _ in range(8):
            statuses.append(get_when_listening(f"http://127.0.0.1:{port}/accounts/login/"))
        # One PDF drawing server for the machine, the master's, however many workers came and went.
        drawing = [pid for pid in descendants(server.pid) if "plumbing.pdf --serve" in cmdline(pid)]
        assert [parent_of(pid) for pid in drawing] == [server.pid], drawing
    finally:
        server.terminate()
        server.wait(timeout=60)
    output = log.read_text()
    assert statuses == [200] * 8, output
    # The first worker ends after its third request (an ending worker may still
    # finish one that reached it meanwhile) and another takes over.
    assert "Autorestarting worker after current request" in output
    assert len(set(re.findall(r"Booting worker with pid: (\d+)", output))) >= 2, output
    # Each worker, the replacement too, settled before its first request: what it held
    # after loading the app is out of the collector's full collections (plumbing.workers).
    settled = [int(n) for n in re.findall(r"Worker settled: (\d+) objects", output)]
    assert len(settled) >= 2 and min(settled) > 20_000, output
    # And its threads take turns with the interpreter every 0.5 ms, not Python's 5 ms.
    assert re.findall(r"threads switched every ([\d.]+) ms", output) == ["0.5"] * len(settled), output


def get_when_listening(url: str, seconds: float = 30) -> int:
    """The status of a GET, retried while nothing listens yet (the server starting)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                return int(response.status)
        except urllib.error.HTTPError as error:
            return error.code
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def descendants(pid: int) -> list[int]:
    """Every process below ``pid``."""
    found, below = [], [pid]
    while below:
        parent = below.pop()
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    if parent_of(int(entry.name)) == parent:
                        found.append(int(entry.name))
                        below.append(int(entry.name))
                except (OSError, ValueError, IndexError):
                    continue
    return found
