"""Benchmark: import a generated 300-hand session and render its PDF score sheet.

    make bench            (or: .venv/bin/python scripts/bench_pdf.py [--hands 300] [--players 6])

Targets on the 2-core machines: the PDF in at most 3 s, the process at most
300 MB peak resident memory. Prints the import time, the PDF time (cold, in a
fresh process, and the median of three warm renders as a running server does
them), the page count and the peak memory.
Runs on a throw-away SQLite database; touches nothing else.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PLAYERS = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fritz"]


def generated_session(hands: int, players: int) -> dict[str, Any]:
    """A French Tarot evening with every kind of hand, valid by construction."""
    names = PLAYERS[:players]
    out: list[dict[str, Any]] = []
    contracts = ["prise", "garde", "garde_sans", "garde_contre"]
    for n in range(hands):
        dealer = names[n % players]
        active = [p for p in names if not (players == 6 and p == dealer)]
        if n % 17 == 16:
            out.append({"dealer": dealer, "type": "redeal"})
            continue
        bouts = n % 4
        low = 4.5 * bouts
        high = 91 - 4.5 * (3 - bouts) + (0.5 if bouts < 3 else 0)
        points = low + ((n * 7.5) % (high - low + 0.5))
        hand: dict[str, Any] = {
            "dealer": dealer,
            "taker": active[n % len(active)],
            "contract": contracts[n % 4],
            "bouts": bouts,
            "points": points,
        }
        if len(active) == 5:
            hand["partner"] = active[(n + 2) % 5]
        if bouts and n % 5 == 0:
            hand["petit_au_bout"] = "attack"
        if n % 9 == 0:
            hand["poignees"] = [{"player": active[(n + 1) % len(active)], "size": "simple"}]
        if n % 11 == 0:
            hand["note"] = "a note written at the table"
        out.append(hand)
    return {"format": "tarockscore/1", "variant": "french", "players": names, "options": {}, "hands": out}


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--players", type=int, default=6, choices=(3, 4, 5, 6))
    args = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="tarock-bench-")
    os.environ.update(
        DJANGO_SETTINGS_MODULE="tarockscore.settings",
        DATABASE_URL=f"sqlite:///{workdir}/bench.sqlite3",
        SECRET_KEY="benchmark-only",
        SECURE_SSL_REDIRECT="0",
    )
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from pypdf import PdfReader

    from scoring import services
    from scoring.exports import session_pdf
    from scoring.sheet import build_sheet

    call_command("migrate", verbosity=0)
    owner = User.objects.create_user("bench")
    document = json.dumps(generated_session(args.hands, args.players))
    start_memory = peak_mb()

    started = time.perf_counter()
    session = services.session_import(owner=owner, text=document, name="Benchmark")
    imported = time.perf_counter() - started

    started = time.perf_counter()
    pdf = session_pdf(build_sheet(session))  # a fresh process: WeasyPrint's import and font setup included
    cold = time.perf_counter() - started

    warm = []
    for _ in range(3):  # what a running server pays for each sheet
        started = time.perf_counter()
        session_pdf(build_sheet(session))
        warm.append(time.perf_counter() - started)

    pages = len(PdfReader(io.BytesIO(pdf)).pages)
    peak = peak_mb()
    median = statistics.median(warm)
    print(f"hands: {args.hands}, players: {args.players}")
    print(f"import of the session file: {imported:.2f} s")
    print(f"PDF, cold (fresh process, WeasyPrint import included): {cold:.2f} s")
    print(
        f"PDF, warm: median {median:.2f} s, slowest {max(warm):.2f} s   target ≤ 3 s: "
        f"{'ok' if median <= 3 else 'MISSED'}"
    )
    print(f"pages: {pages}, size: {len(pdf) / 1024:.0f} KiB")
    print(
        f"peak memory: {peak:.0f} MB (before the import: {start_memory:.0f} MB)   target ≤ 300 MB: "
        f"{'ok' if peak <= 300 else 'MISSED'}"
    )


if __name__ == "__main__":
    main()
