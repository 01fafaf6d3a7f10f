"""What the benchmark and the load test share: a throw-away app under gunicorn
with production settings on 127.0.0.1, and a phone that talks to it over HTTP
as a browser does (cookies, CSRF token, gzip, one kept-alive connection).

Traffic goes only to 127.0.0.1.
"""

from __future__ import annotations

import fcntl
import gzip
import http.client
import math
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from scripts import server_timing

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "table-password-4711"
POSTGRES = "postgres://postgres@127.0.0.1:5432"


@dataclass
class Answer:
    status: int
    body: str
    location: str
    seconds: float
    size: int  # bytes on the wire
    data: bytes  # the body, uncompressed
    server: tuple[float, float] | None = None  # (app, cpu) seconds, where the server says (server_timing)
    before_app: float | None = None  # seconds from sending to the app's first middleware (server_timing)
    connections: int = (
        1  # 2: the kept connection was closed by the server, the request sent again on a new one
    )
    # seconds from the moment taken as sent until the request was handed to the network: the
    # client's own share of before_app (its threads wait for its interpreter like the server's)
    sending: float | None = None


class Phone:
    """One player's browser: its cookies and one kept-alive connection."""

    def __init__(self, port: int, language: str = "de") -> None:
        self.port = port
        self.language = language
        self.cookies: dict[str, str] = {}
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> Answer:
        sent = {
            "Accept-Encoding": "gzip",
            "Accept-Language": self.language,
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
            **(headers or {}),
        }
        if body is not None:
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        started, sent_at = time.perf_counter(), time.monotonic()
        for attempt in (1, 2):
            try:
                tried_at = time.monotonic()
                self.connection.request(method, path, body=body, headers=sent)
                handed = time.monotonic()
                response = self.connection.getresponse()
                raw = response.read()
                break
            except (http.client.HTTPException, ConnectionError):
                self.connection.close()  # the server closed a kept-alive connection: open a new one
                if attempt == 2:
                    raise
        seconds = time.perf_counter() - started
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
        data = gzip.decompress(raw) if response.getheader("Content-Encoding") == "gzip" else raw
        text = data.decode(errors="replace") if not data.startswith(b"%PDF") else ""
        timing = response.getheader("Server-Timing")
        in_app = server_timing.started(timing)
        return Answer(
            response.status,
            text,
            response.getheader("Location") or "",
            seconds,
            len(raw),
            data,
            server_timing.read(timing),
            None if in_app is None else in_app - sent_at,
            attempt,
            handed - tried_at,  # this attempt's own: a first one on a closed connection is not in it
        )

    def get(self, path: str, **headers: str) -> Answer:
        return self.request("GET", path, headers=headers)

    def post(self, path: str, data: dict[str, str]) -> Answer:
        form = {**data, "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")}
        return self.request("POST", path, urllib.parse.urlencode(form).encode())

    def login(self, username: str, password: str = PASSWORD) -> None:
        self.get("/accounts/login/")
        answer = self.post("/accounts/login/", {"username": username, "password": password})
        if answer.status != 302:
            raise RuntimeError(f"{username} could not log in ({answer.status})")

    def close(self) -> None:
        self.connection.close()


def hand_form(taker: str, dealer: str, n: int, token: str) -> dict[str, str]:
    """A French Tarot hand of four as the hand form posts it."""
    return {
        "token": token,
        "type": "played",
        "action": "save",
        "dealer": dealer,
        "taker": taker,
        "contract": "garde",
        "bouts": str(n % 4),
        "points": str(36 + n % 40),
        "poignees.rows": "1",
    }


def form_token(page: str) -> str:
    found = re.search(r'name="token" value="([^"]+)"', page)
    if not found:
        raise RuntimeError("the hand form has no token")
    return found.group(1)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile: the smallest value with at least ``share`` of
    the values at or below it (p95 of 20 answers is the 19th, of 40 the 38th), so
    that a p95 over 20 answers and one over 40 leave out the same share."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)] if ordered else 0.0


# The static files as production collects them (WhiteNoise compresses each one with
# Brotli and gzip: about 6 s of processor), collected once for each state of their
# sources and shared by every server of the benchmarks and the tests on this checkout.
COLLECTED = ROOT / "var" / "collected-static"


def static_sources_key() -> str:
    """A digest of what collectstatic would collect (every file its finders list, by
    name and contents) and of the storage that writes it. Needs Django set up."""
    from django.contrib.staticfiles import finders

    from plumbing import staticfiles
    from plumbing.offline import version_of

    found: dict[str, str] = {}
    for finder in finders.get_finders():
        for name, storage in finder.list([]):
            found.setdefault(name, storage.path(name))
    names = sorted(found)
    return version_of([Path(staticfiles.__file__), *(Path(found[name]) for name in names)], names)


def collected_static() -> Path:
    """The folder of the static files collected by production's settings for the
    sources as they are now: collected once (``manage.py collectstatic``, under a lock
    that other processes of the same checkout wait on), then read by every server that
    is given it as its ``STATIC_ROOT``. Folders of other states are removed."""
    target = COLLECTED / static_sources_key()
    if (target / ".complete").exists():
        return target
    COLLECTED.mkdir(parents=True, exist_ok=True)
    with (COLLECTED / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (target / ".complete").exists():
            return target
        for old in COLLECTED.iterdir():
            if old.is_dir():
                shutil.rmtree(old, ignore_errors=True)
        env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "DJANGO_SETTINGS_MODULE", "CACHE")}
        env.update(
            DJANGO_SETTINGS_MODULE="tarockscore.settings",
            SECRET_KEY=secrets.token_urlsafe(50),
            ALLOWED_HOSTS="127.0.0.1",
            DATABASE_URL=f"sqlite:///{COLLECTED / 'unused.sqlite3'}",
            STATIC_ROOT=str(target),
        )
        command = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"]
        subprocess.run(command, cwd=ROOT, env=env, check=True, timeout=600)
        (target / ".complete").touch()
    return target


@contextmanager
def app_database(kind: str, name: str, *, cache: str = "local") -> Iterator[dict[str, str]]:
    """A fresh database (an SQLite file, or a PostgreSQL database dropped
    afterwards) with Django set up on it in this process; yields the
    environment the servers get."""
    workdir = Path(tempfile.mkdtemp(prefix=f"tarock-{name}-"))
    dbname = f"tarockscore_{name}_{os.getpid()}"
    url = f"sqlite:///{workdir}/app.sqlite3" if kind == "sqlite" else f"{POSTGRES}/{dbname}"
    env = {
        **os.environ,
        # Production's settings: under a test worker the cache URL it is given is already
        # the worker's own Redis database (tarockscore/settings_test.py), not to be moved again.
        "DJANGO_SETTINGS_MODULE": "scripts.bench_settings",
        "DATABASE_URL": url,
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",  # plain HTTP on loopback
        "SECURE_COOKIES": "0",
        "CACHE": cache,
        "PYTHONPATH": str(ROOT),
    }
    env.pop("DEBUG", None)
    os.environ.update(env)
    if kind == "postgres":
        import psycopg

        with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{dbname}"')
    sys.path.insert(0, str(ROOT))
    import django
    from django.core.management import call_command

    django.setup()
    from django.conf import settings

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    env["STATIC_ROOT"] = os.environ["STATIC_ROOT"] = settings.STATIC_ROOT = str(collected_static())
    try:
        yield env
    finally:
        from django.db import connections

        connections.close_all()
        if kind == "postgres":
            import psycopg

            with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')


@contextmanager
def server(env: dict[str, str], *, workers: int, threads: int, port: int | None = None) -> Iterator[int]:
    """The app under gunicorn on 127.0.0.1 (``workers`` and ``threads`` given here
    take precedence over a config file); yields its port."""
    from django.db import connections

    connections.close_all()
    port = port or free_port()
    config = ROOT / "gunicorn.conf.py"  # the production server's settings, where the project has them
    process = subprocess.Popen(
        [
            str(ROOT / ".venv" / "bin" / "gunicorn"),
            *(["--config", str(config)] if config.exists() else []),
            "tarockscore.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--threads",
            str(threads),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("gunicorn did not start") from None
                time.sleep(0.2)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)


def worker_pids(port: int) -> list[int]:
    """The gunicorn workers serving ``port`` (children of its master, its PDF drawing server left out)."""
    return [pid for pid in children(master_pid(port)) if "plumbing.pdf" not in _cmdline(pid)]


def drawing_server_pids(port: int) -> list[int]:
    """The PDF drawing servers of the server on ``port``: the machine's (the master's child)
    and any a worker started for itself."""
    master = master_pid(port)
    below = [master, *children(master)]
    return [pid for parent in below for pid in children(parent) if "plumbing.pdf --serve" in _cmdline(pid)]


def master_pid(port: int) -> int:
    return next(
        int(pid)
        for pid in os.listdir("/proc")
        if pid.isdigit() and _cmdline(int(pid)).count(f"127.0.0.1:{port}") and _ppid(int(pid)) == os.getpid()
    )


def children(pid: int) -> list[int]:
    """The processes ``pid`` started."""
    return [int(child) for child in os.listdir("/proc") if child.isdigit() and _ppid(int(child)) == pid]


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time these processes have used so far."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _ppid(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return -1
