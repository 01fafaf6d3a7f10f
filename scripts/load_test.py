"""Load test: concurrent clients recording hands against gunicorn, on loopback.

    make load              (both databases)
    .venv/bin/python scripts/load_test.py --database sqlite|postgres [--clients 20] [--seconds 30]

Starts the app under gunicorn (with gunicorn.conf.py, as in production) with
production settings on 127.0.0.1, on a fresh database (an SQLite file in a
temporary folder, or a PostgreSQL database created on the local server and
dropped afterwards). Each client logs in through the
login page and records hands into its own session, as a phone does: it opens the
hand form, then submits it; every tenth hand it sends the same form twice, as a
double tap does. Afterwards it checks that every hand a client saw acknowledged
is stored exactly once, and reports requests, errors and latency.

Traffic goes only to 127.0.0.1; the run is bounded by --seconds and stops by itself.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import os
import re
import runpy
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GUNICORN_CONF = ROOT / "gunicorn.conf.py"  # the production settings of the server
PASSWORD = "load-test-password-4711"
PLAYERS = ["Anna", "Bert", "Carl", "Dora"]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    acknowledged: list[str] = field(default_factory=list)  # client tokens answered with a redirect


class Client:
    def __init__(self, base: str, username: str, tally: Tally) -> None:
        self.base = base
        self.tally = tally
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), _NoRedirect
        )
        page = self.get("/accounts/login/")
        status, _ = self.post("/accounts/login/", {"username": username, "password": PASSWORD}, page)
        if status != 302:
            raise RuntimeError(f"{username} could not log in ({status})")

    def _timed(self, request: urllib.request.Request | str) -> tuple[int, str, str]:
        started = time.perf_counter()
        try:
            with self.opener.open(request, timeout=30) as response:
                status, body, location = response.status, response.read().decode(), ""
        except urllib.error.HTTPError as error:
            status, body, location = error.code, "", error.headers.get("Location", "")
        finally:
            self.tally.latencies.append(time.perf_counter() - started)
        return status, body, location

    def get(self, path: str) -> str:
        status, body, _ = self._timed(self.base + path)
        if status != 200:
            raise RuntimeError(f"GET {path}: {status}")
        return body

    def post(self, path: str, data: dict[str, str], page: str) -> tuple[int, str]:
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": csrf.group(1) if csrf else ""}).encode()
        request = urllib.request.Request(self.base + path, data=body, headers={"Referer": self.base + path})
        status, _, location = self._timed(request)
        return status, location


def record_hands(base: str, username: str, session_id: int, deadline: float, tally: Tally) -> None:
    try:
        client = Client(base, username, tally)
    except Exception as error:  # a client that cannot start counts as an error, the run goes on
        tally.errors.append(f"login {username}: {error}")
        return
    path = f"/sessions/{session_id}/hands/new/"
    n = 0
    while time.monotonic() < deadline:
        n += 1
        try:
            page = client.get(path)
            token = re.search(r'name="token" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
            dealer = PLAYERS[(n - 1) % 4]
            hand = {
                "token": token,
                "type": "played",
                "action": "save",
                "dealer": dealer,
                "taker": PLAYERS[n % 4],
                "contract": "garde",
                "bouts": str(n % 4),
                "points": str(36 + n % 40),
                "poignees.rows": "1",
            }
            sends = 2 if n % 10 == 0 else 1  # a double tap
            statuses = [client.post(path, hand, page)[0] for _ in range(sends)]
            if all(status == 302 for status in statuses):
                tally.acknowledged.append(token)
            else:
                tally.errors.append(f"POST {path}: {statuses}")
        except Exception as error:
            tally.errors.append(f"{type(error).__name__}: {error}")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("gunicorn did not start")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30)
    served = runpy.run_path(str(GUNICORN_CONF))
    parser.add_argument("--workers", type=int, default=served["workers"])
    parser.add_argument("--threads", type=int, default=served["threads"])
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432", help="server URL")
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="tarock-load-"))
    dbname = f"tarockscore_load_{os.getpid()}"
    url = f"sqlite:///{workdir}/load.sqlite3" if args.database == "sqlite" else f"{args.postgres}/{dbname}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tarockscore.settings",
        "DATABASE_URL": url,
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",  # plain HTTP on loopback
        "SECURE_COOKIES": "0",
        "STATIC_ROOT": str(workdir / "static"),
    }
    env.pop("DEBUG", None)
    os.environ.update(env)
    if args.database == "postgres":
        import psycopg

        with psycopg.connect(f"{args.postgres}/postgres", autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{dbname}"')

    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connections

    from scoring import services
    from scoring.models import Hand

    call_command("migrate", verbosity=0)
    call_command("collectstatic", verbosity=0, interactive=False)
    sessions = []
    for index in range(args.clients):
        owner = User.objects.create_user(f"player{index}", password=PASSWORD)
        sessions.append(
            services.session_create(
                owner=owner, name=f"Table {index}", variant="french", players=PLAYERS, options={}
            ).pk
        )
    connections.close_all()

    port = free_port()
    server = subprocess.Popen(
        [
            str(ROOT / ".venv" / "bin" / "gunicorn"),
            "--config",
            str(GUNICORN_CONF),
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(args.workers),
            "--threads",
            str(args.threads),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        wait_for(port)
        base = f"http://127.0.0.1:{port}"
        tallies = [Tally() for _ in range(args.clients)]
        deadline = time.monotonic() + args.seconds
        started = time.monotonic()
        threads = [
            threading.Thread(
                target=record_hands, args=(base, f"player{i}", sessions[i], deadline, tallies[i])
            )
            for i in range(args.clients)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=args.seconds + 120)
        elapsed = time.monotonic() - started
    finally:
        server.terminate()
        server.wait(timeout=30)

    latencies = [value for tally in tallies for value in tally.latencies]
    errors = [error for tally in tallies for error in tally.errors]
    lost = duplicated = stored = acknowledged = 0
    for session_id, tally in zip(sessions, tallies, strict=True):
        tokens = list(Hand.objects.filter(session_id=session_id).values_list("client_token", flat=True))
        stored += len(tokens)
        acknowledged += len(tally.acknowledged)
        lost += sum(1 for token in tally.acknowledged if tokens.count(token) == 0)
        duplicated += sum(1 for token in set(tokens) if tokens.count(token) > 1)
    unacknowledged = stored - (acknowledged - lost)
    connections.close_all()
    if args.database == "postgres":
        import psycopg

        with psycopg.connect(f"{args.postgres}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{dbname}"')

    print(
        f"database: {args.database}, clients: {args.clients}, {elapsed:.0f} s, "
        f"gunicorn {args.workers} workers × {args.threads} threads"
    )
    print(f"requests: {len(latencies)} ({len(latencies) / elapsed:.0f}/s), errors: {len(errors)}")
    print(
        f"latency: p50 {percentile(latencies, 0.5) * 1000:.0f} ms, p95 {percentile(latencies, 0.95) * 1000:.0f} ms, "
        f"mean {statistics.fmean(latencies) * 1000 if latencies else 0:.0f} ms"
    )
    print(
        f"hands acknowledged: {acknowledged}, stored: {stored}, lost: {lost}, duplicated: {duplicated}, "
        f"stored but not acknowledged: {unacknowledged}"
    )
    for error in errors[:5]:
        print(f"  error: {error}")
    ok = not errors and not lost and not duplicated and acknowledged > 0
    print("result: ok" if ok else "result: FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
