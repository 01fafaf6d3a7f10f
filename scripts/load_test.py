"""Load test: an evening at twenty tables, and five phones watching one long sheet.

    make load              (both databases)
    .venv/bin/python scripts/load_test.py --database sqlite|postgres [--tables 20] [--seconds 60]

Starts the app under gunicorn with production settings (3 workers × 4 threads)
on 127.0.0.1 with a fresh database. Each table is one phone, logged in once
(logins are not among the timings), recording hands at a table's pace: it opens
the hand form, the players take --pause seconds (uniformly 0.5× to 1.5×) to fill
it in, then it saves the hand and loads the sheet the save redirects to; every
tenth hand is sent twice, as a double tap does. One table records into a shared
session of --shared hands; --watchers phones watch that session through its
share link as the page does (a poll every 4 s, the board fetched when it changed).

Afterwards every hand a table saw acknowledged must be stored exactly once.
Reports p50/p95 of the saves, of the sheet after each save, and of the
watchers' requests. Traffic goes only to 127.0.0.1; the run stops by itself.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT_DIR))

from scripts.bench_pdf import generated_session  # noqa: E402
from scripts.harness import PASSWORD, Phone, app_database, form_token, hand_form, percentile, server  # noqa: E402

PLAYERS = ["Anna", "Bert", "Carl", "Dora"]
POLL_SECONDS = 4.0  # as the shared page's hx-trigger


@dataclass
class Tally:
    saves: list[float] = field(default_factory=list)
    sheets: list[float] = field(default_factory=list)
    forms: list[float] = field(default_factory=list)
    polls: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    acknowledged: list[str] = field(default_factory=list)  # client tokens answered with a redirect


def table(phone: Phone, session_id: int, pause: float, deadline: float, tally: Tally) -> None:
    path = f"/sessions/{session_id}/hands/new/"
    rng = random.Random(session_id)
    n = 0
    while time.monotonic() < deadline:
        n += 1
        try:
            page = phone.get(path)
            tally.forms.append(page.seconds)
            token = form_token(page.body)
            time.sleep(pause * rng.uniform(0.5, 1.5))  # the players fill in the form
            hand = hand_form(PLAYERS[n % 4], PLAYERS[(n - 1) % 4], n, token)
            answers = [phone.post(path, hand) for _ in range(2 if n % 10 == 0 else 1)]
            if any(answer.status != 302 for answer in answers):
                tally.errors.append(f"POST {path}: {[answer.status for answer in answers]}")
                continue
            tally.acknowledged.append(token)
            tally.saves.extend(answer.seconds for answer in answers)
            sheet = phone.get(answers[-1].location.split("#")[0])
            if sheet.status != 200:
                tally.errors.append(f"GET sheet: {sheet.status}")
            tally.sheets.append(sheet.seconds)
        except Exception as error:
            tally.errors.append(f"{type(error).__name__}: {error}")
    phone.close()


def watcher(port: int, token: str, deadline: float, tally: Tally) -> None:
    phone = Phone(port)
    board = phone.get(f"/s/{token}/")
    version = _version(board.body)
    while time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)
        answer = phone.get(f"/s/{token}/?since={version}", **{"HX-Request": "true"})
        tally.polls.append(answer.seconds)
        if answer.status == 200:
            version = _version(answer.body)
        elif answer.status != 204:
            tally.errors.append(f"poll: {answer.status}")
    phone.close()


def _version(page: str) -> str:
    found = re.search(r"\?since=(\d+)", page)
    if not found:
        raise RuntimeError("the shared board names no version")
    return found.group(1)


def ms(values: list[float], share: float) -> str:
    return f"{percentile(values, share) * 1000:.0f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--watchers", type=int, default=5)
    parser.add_argument("--shared", type=int, default=1980, help="hands in the watched session")
    parser.add_argument("--pause", type=float, default=3.0, help="seconds the players take per hand form")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args()

    with app_database(args.database, "load") as env:
        from django.contrib.auth.models import User

        from scoring import services
        from scoring.models import Hand

        sessions = []
        for index in range(args.tables):
            owner = User.objects.create_user(f"player{index}", password=PASSWORD)
            if index == 0:
                text = json.dumps(generated_session(args.shared, 4))
                shared = services.session_import(owner=owner, text=text, name="The long evening")
                sessions.append(shared.pk)
                token = services.session_share(session=shared)
                continue
            session = services.session_create(
                owner=owner, name=f"Table {index}", variant="french", players=PLAYERS, options={}
            )
            sessions.append(session.pk)

        with server(env, workers=args.workers, threads=args.threads) as port:
            tallies = [Tally() for _ in range(args.tables + args.watchers)]
            phones = [Phone(port) for _ in range(args.tables)]
            for index, phone in enumerate(phones):  # logins before the clock starts: not a table's pace
                phone.login(f"player{index}")
            started = time.monotonic()
            deadline = started + args.seconds
            threads = [
                threading.Thread(
                    target=table, args=(phones[i], sessions[i], args.pause, deadline, tallies[i])
                )
                for i in range(args.tables)
            ] + [
                threading.Thread(target=watcher, args=(port, token, deadline, tallies[args.tables + i]))
                for i in range(args.watchers)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=args.seconds + 180)
            elapsed = time.monotonic() - started

        everything = Tally()
        for tally in tallies:
            for name in ("saves", "sheets", "forms", "polls", "errors", "acknowledged"):
                getattr(everything, name).extend(getattr(tally, name))
        lost = duplicated = stored = 0
        for session_id, tally in zip(sessions, tallies, strict=False):
            tokens = list(
                Hand.objects.filter(session_id=session_id)
                .exclude(client_token="")
                .values_list("client_token", flat=True)
            )
            stored += len(tokens)
            lost += sum(1 for token in tally.acknowledged if token not in tokens)
            duplicated += len(tokens) - len(set(tokens))
    return report(args, elapsed, everything, stored, lost, duplicated)


def report(args: Any, elapsed: float, tally: Tally, stored: int, lost: int, duplicated: int) -> int:
    hands = len(tally.acknowledged)
    print(
        f"database: {args.database}, {args.tables} tables + {args.watchers} watchers, {elapsed:.0f} s, "
        f"gunicorn {args.workers} workers × {args.threads} threads"
    )
    print(
        f"pace: a hand per table every {args.pause:.0f} s on average ({hands / elapsed:.1f} saves/s in all); "
        f"the watched session: {args.shared} hands"
    )
    print(f"save: p50 {ms(tally.saves, 0.5)}, p95 {ms(tally.saves, 0.95)} ({len(tally.saves)} posts)")
    print(f"sheet after the save: p50 {ms(tally.sheets, 0.5)}, p95 {ms(tally.sheets, 0.95)}")
    print(f"hand form: p50 {ms(tally.forms, 0.5)}, p95 {ms(tally.forms, 0.95)}")
    print(
        f"watchers' polls: p50 {ms(tally.polls, 0.5)}, p95 {ms(tally.polls, 0.95)} ({len(tally.polls)} polls)"
    )
    print(f"errors: {len(tally.errors)}")
    print(f"hands acknowledged: {hands}, stored: {stored}, lost: {lost}, duplicated: {duplicated}")
    for error in tally.errors[:5]:
        print(f"  error: {error}")
    ok = not tally.errors and not lost and not duplicated and hands > 0 and stored == hands
    print("result: ok" if ok else "result: FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
