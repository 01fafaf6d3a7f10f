"""Benchmark: the player page and the season table of a big regular table.

    .venv/bin/python scripts/bench_groups.py --database sqlite|postgres [--rounds 60]

Generates a group of 10 players with 200 weekly evenings of 60 French Tarot hands
each (12,000 hands; five of the ten at the table, every kind of hand), each evening
imported, brought into the group and closed (booked into the Kasse), on a fresh
database (an SQLite file in a temporary folder, or a PostgreSQL database created on
the local server and dropped afterwards). Then it serves the app under gunicorn
(gunicorn.conf.py, production settings) on 127.0.0.1 and, as one logged-in phone,
asks in turn for a bare Django view (the same middleware and login check, nothing
else), a player's page, this calendar year's table and a season spanning all 200
evenings, ``--rounds`` times after a warm-up. It prints each page's SQL queries and
its p50 (p10–p90) against the bare view's, measured in the same run. The pages are
cached per version of the group's statistics, so after the warm-up these are the
views of an unchanged group; each page's time rendered from scratch (the first view
after a change, in-process, cache emptied) is printed beside it.

Traffic goes only to 127.0.0.1; the run is bounded by --rounds and stops by itself.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import re
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
GUNICORN_CONF = ROOT / "gunicorn.conf.py"  # the production settings of the server
PASSWORD = "bench-groups-password-4711"


ROSTER = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fritz", "Gerti", "Hans", "Ilse", "Karl"]
EVENINGS = 200
HANDS = 60  # per evening: 12,000 in all
FIRST_EVENING = date(2023, 1, 3)  # a Tuesday; weekly until late 2026


# A round of hands that every evening plays again, seat by seat: (taker seat,
# partner seat, contract, bouts, points, extras); None: a redeal.
ROUND: list[tuple[int, int, str, int, float, dict[str, Any]] | None] = [
    (0, 2, "garde", 2, 50, {}),
    (1, 4, "prise", 1, 45, {"petit_au_bout": "defence"}),
    (2, 2, "garde", 3, 40, {"poignees": [{"seat": 2, "size": "simple"}]}),
    (3, 0, "garde_sans", 2, 41, {}),
    (4, 1, "prise", 2, 43.5, {"petit_au_bout": "attack"}),
    None,
    (0, 3, "garde_contre", 3, 61, {}),
    (1, 1, "prise", 0, 60, {}),
    (2, 0, "garde", 1, 48, {}),
    (3, 4, "prise", 2, 36, {}),
]


def evening_document(index: int) -> str:
    """Evening ``index``: five of the ten, in a rotating seat order, HANDS hands."""
    seats = [ROSTER[(index * 3 + k) % 10] for k in range(5)]
    hands: list[dict[str, Any]] = []
    for n in range(HANDS):
        dealer = seats[n % 5]
        played = ROUND[n % len(ROUND)]
        if played is None:
            hands.append({"dealer": dealer, "type": "redeal"})
            continue
        taker, partner, contract, bouts, points, extras = played
        hand = {"dealer": dealer, "taker": seats[(taker + n) % 5], "contract": contract, "bouts": bouts}
        hand |= {"points": points, "partner": seats[(partner + n) % 5], **extras}
        if hand["partner"] == hand["taker"]:
            hand["partner"] = None  # the called king was the taker's own: alone
        if "poignees" in extras:
            hand["poignees"] = [{"player": seats[(2 + n) % 5], "size": "simple"}]
        hands.append(hand)
    date_played = (FIRST_EVENING + timedelta(weeks=index)).isoformat()
    document = {
        "variant": "french",
        "players": seats,
        "date": date_played,
        "money_rate": "0.05",
        "hands": hands,
    }
    return json.dumps(document)


def build(owner: Any) -> dict[str, str]:
    """The generated group; the pages to measure, by name."""
    from club.models import EveningResult, GroupPlayer
    from club.services import groups
    from scoring import services

    group = groups.group_create(owner=owner, name="Benchmark", money_rate=Decimal("0.05"))
    for index in range(EVENINGS):
        session = services.session_import(
            owner=owner, text=evening_document(index), name=f"Abend {index + 1}"
        )
        groups.group_session_add(group=group, session=session)
        services.session_close(session=session, user=owner)
    last = FIRST_EVENING + timedelta(weeks=EVENINGS - 1)
    season = groups.season_create(group=group, name="All", starts_on=FIRST_EVENING, ends_on=last)
    player = GroupPlayer.objects.get(group=group, name="Anna")
    assert EveningResult.objects.filter(group=group).count() == EVENINGS * 5
    return {
        "bare view": "/bench/bare/",
        "player page": f"/groups/{group.pk}/players/{player.pk}/",
        "season table, this year": f"/groups/{group.pk}/table/",
        "season table, 200 evenings": f"/groups/{group.pk}/table/s{season.pk}/",
    }


def in_process(pages: dict[str, str], owner: Any, rounds: int = 15) -> dict[str, tuple[int, float]]:
    """Each page's SQL queries and its p50 rendered from scratch (the cache emptied
    before every request), in this process through Django's test client: what the
    first view after a change costs."""
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client as TestClient
    from django.test.utils import CaptureQueriesContext

    client = TestClient()
    client.force_login(owner)
    found = {}
    for name, path in pages.items():
        times = []
        for _ in range(rounds):
            cache.clear()
            with CaptureQueriesContext(connection) as captured:
                started = time.perf_counter()
                response = client.get(path)
                times.append(time.perf_counter() - started)
            assert response.status_code == 200, (path, response.status_code)
        found[name] = (len(captured.captured_queries), statistics.median(times))
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def logged_in(base: str) -> urllib.request.OpenerDirector:
    """A client with the benchmark user's session cookie, logged in through the login page."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    deadline = time.monotonic() + 30
    while True:
        try:
            page = opener.open(f"{base}/accounts/login/", timeout=5).read().decode()
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)  # gunicorn still starting
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    form = {"username": "bench", "password": PASSWORD, "csrfmiddlewaretoken": csrf.group(1) if csrf else ""}
    login = urllib.request.Request(
        f"{base}/accounts/login/", urllib.parse.urlencode(form).encode(), headers={"Referer": base}
    )
    with opener.open(login, timeout=30) as response:
        if "/accounts/login/" in response.url:
            raise RuntimeError("the benchmark user could not log in")
    return opener


def spread(values: list[float]) -> tuple[float, float, float]:
    """p10, p50 and p90."""
    deciles = statistics.quantiles(values, n=10)
    return deciles[0], statistics.median(values), deciles[-1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432", help="server URL")
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="tarock-bench-groups-"))
    dbname = f"tarockscore_bench_groups_{os.getpid()}"
    url = f"sqlite:///{workdir}/bench.sqlite3" if args.database == "sqlite" else f"{args.postgres}/{dbname}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "scripts.bench_groups_settings",
        "DATABASE_URL": url,
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,testserver",
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
    try:
        return measure(args, env)
    finally:
        if args.database == "postgres":
            from django.db import connections

            connections.close_all()
            import psycopg

            with psycopg.connect(f"{args.postgres}/postgres", autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{dbname}"')


def measure(args: argparse.Namespace, env: dict[str, str]) -> int:
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connections

    call_command("migrate", verbosity=0)
    call_command("collectstatic", verbosity=0, interactive=False)
    owner = User.objects.create_user("bench", password=PASSWORD)
    started = time.perf_counter()
    pages = build(owner)
    built = time.perf_counter() - started
    uncached = in_process(pages, owner)
    connections.close_all()

    port = free_port()
    server = subprocess.Popen(
        [
            str(ROOT / ".venv" / "bin" / "gunicorn"),
            *("--config", str(GUNICORN_CONF), "--bind", f"127.0.0.1:{port}", "--log-level", "warning"),
        ],
        cwd=ROOT,
        env=env,
    )
    timings: dict[str, list[float]] = {name: [] for name in pages}
    try:
        opener = logged_in(f"http://127.0.0.1:{port}")
        names = list(pages)
        for round_ in range(args.warmup + args.rounds):
            # A different page goes first each round, so no page always follows another.
            for name in names[round_ % len(names) :] + names[: round_ % len(names)]:
                started = time.perf_counter()
                with opener.open(f"http://127.0.0.1:{port}{pages[name]}", timeout=30) as response:
                    response.read()
                if round_ >= args.warmup:
                    timings[name].append(time.perf_counter() - started)
    finally:
        server.terminate()
        server.wait(timeout=30)

    print(
        f"database: {args.database}; {len(ROSTER)} players, {EVENINGS} evenings, {EVENINGS * HANDS} hands "
        f"(generated in {built:.0f} s); {args.rounds} rounds after {args.warmup} to warm up"
    )
    bare = statistics.median(timings["bare view"])
    ok = True
    for name, values in timings.items():
        low, p50, high = spread(values)
        queries, cold = uncached[name]
        line = f"{name:28} {queries:2} queries  p50 {p50 * 1000:6.1f} ms (p10 {low * 1000:.1f} – p90 {high * 1000:.1f})"
        if name != "bare view":
            line += f"  {p50 / bare:.2f} × bare; rendered from scratch: {cold * 1000:.0f} ms"
            ok = ok and p50 / bare <= 3 and queries <= 15
        print(line)
    print("target (≤ 15 queries, p50 ≤ 3 × bare): " + ("ok" if ok else "MISSED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
