"""Benchmark: the pages a table uses, against floors measured in the same run.

    make bench      (or: .venv/bin/python scripts/bench.py [--rounds 5] [--samples 15] [--database sqlite])

Starts the app under gunicorn (production settings, 3 workers × 4 threads) on
127.0.0.1 with a fresh database, and measures over HTTP, one request at a time
as a phone makes them (latency, not throughput):

- the floors: a bare Django view, and a logged-in page of nothing but base.html;
- the sheet of 500 hands seen before (from the cache);
- the sheet right after a save, at 60 and at 500 hands, the save itself, and
  the hand form opened from that sheet for the next hand;
- the server CPU time of a save at 60 and at 500 hands, read from the workers'
  /proc counters;
- a watcher's poll of a shared 2,000-hand session with nothing changed;
- the PDF of 300 hands as the player waits for it the first time a version is
  downloaded (the sheet built, its HTML written, the PDF drawn by a process
  forked from the machine's drawing server, which loaded WeasyPrint when the
  server started) and downloaded again (from the cache); the first PDF right
  after the server is started again (as soon as it listens: the workers and the
  drawing server still starting); the peak memory of a drawing in a fresh
  process of its own (``python -m plumbing.pdf``);
- the PDF of the largest sheet a PDF shows (500 hands), and three at once,
  with the floor page's latency meanwhile and the workers' memory after.

Each latency is the median of --samples requests; every measurement is taken
in --rounds rounds, and a ratio is given as median (min–max) over the rounds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT_DIR))

from scripts.bench_pdf import generated_session  # noqa: E402
from scripts.harness import (  # noqa: E402
    ROOT,
    Phone,
    app_database,
    cpu_seconds,
    drawing_server_pids,
    hand_form,
    rss_mb,
    server,
    worker_pids,
)

TARGETS = {  # what each ratio (to the floor named) may be at most
    "sheet of 500 hands, seen before": ("page", 2),
    "sheet right after a save, 60 hands": ("page", 3),
    "sheet right after a save, 500 hands": ("page", 10),
    "hand form after a save, 60 hands": ("page", 2),
    "hand form after a save, 500 hands": ("page", 2),
    "watcher's poll, 2,000 hands, unchanged": ("bare", 2),
}


def median_ms(measure: Callable[[], float], samples: int) -> float:
    return statistics.median(measure() for _ in range(samples)) * 1000


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.1f} ({min(values):.1f}–{max(values):.1f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--samples", type=int, default=15)
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    args = parser.parse_args()

    with app_database(args.database, "bench") as env:
        from django.contrib.auth.models import User

        from scoring import services

        owner = User.objects.create_user("bench", password="table-password-4711")

        def evening(hands: int, players: int) -> Any:
            text = json.dumps(generated_session(hands, players))
            return services.session_import(owner=owner, text=text, name=f"{hands} hands")

        sessions = {hands: evening(hands, 4) for hands in (60, 500, 2000)}
        printed = {hands: evening(hands, 6) for hands in (300, 500)}
        token = services.session_share(session=sessions[2000])

        with server(env, workers=3, threads=4) as port:
            phone = Phone(port, language="en")
            phone.login("bench")
            results = measure_pages(phone, sessions, token, args)
            pdf = measure_pdfs(phone, port, printed, args)
            phone.close()
        pdf["after restart"] = [first_pdf_after_a_restart(env, printed[300]) for _ in range(args.rounds)]
        report(args, results, pdf)


def measure_pages(phone: Phone, sessions: dict[int, Any], token: str, args: Any) -> dict[str, list[float]]:
    from scoring.models import Hand, Session

    sheet = {hands: f"/sessions/{session.pk}/" for hands, session in sessions.items()}
    shared = Session.objects.get(pk=sessions[2000].pk)
    poll = f"/s/{token}/?since={shared.version}"
    results: dict[str, list[float]] = {}

    def timed(path: str, **headers: str) -> Callable[[], float]:
        def run() -> float:
            answer = phone.get(path, **headers)
            if answer.status not in (200, 204):
                raise RuntimeError(f"GET {path}: {answer.status}")
            return answer.seconds

        return run

    def after_save(hands: int) -> tuple[float, float, float]:
        """Save a hand as the form does, load the sheet it redirects to, then the
        hand form for the next hand, as the table does; the hand is deleted
        afterwards (not timed) so the sheet keeps its length, and then removed for
        good, so that no list of deleted hands grows on the sheet from round to
        round (a real table has few, if any)."""
        n = int(time.monotonic() * 1000)
        saved = phone.post(f"{sheet[hands]}hands/new/", hand_form("Anna", "Dora", n, uuid.uuid4().hex))
        if saved.status != 302:
            raise RuntimeError(f"save: {saved.status}")
        page = phone.get(saved.location)
        form = phone.get(f"{sheet[hands]}hands/new/")
        if form.status != 200:
            raise RuntimeError(f"hand form: {form.status}")
        hand = saved.location.rsplit("#hand-", 1)[1]
        phone.post(f"{sheet[hands]}hands/{hand}/delete/", {})
        Hand.objects.filter(pk=hand, deleted_at__isnull=False).delete()
        return saved.seconds, page.seconds, form.seconds

    phone.get(sheet[500])  # drawn once; from now on from the cache
    for _ in range(args.rounds):
        results.setdefault("bare", []).append(median_ms(timed("/bench/bare/"), args.samples))
        results.setdefault("page", []).append(median_ms(timed("/bench/floor/"), args.samples))
        results.setdefault("sheet of 500 hands, seen before", []).append(
            median_ms(timed(sheet[500]), args.samples)
        )
        for hands in (60, 500):
            timings = [after_save(hands) for _ in range(args.samples)]
            for at, name in enumerate(("save", "sheet right after a save", "hand form after a save")):
                results.setdefault(f"{name}, {hands} hands", []).append(
                    statistics.median(timing[at] for timing in timings) * 1000
                )
        results.setdefault("watcher's poll, 2,000 hands, unchanged", []).append(
            median_ms(timed(poll, **{"HX-Request": "true"}), args.samples)
        )
        for hands in (60, 500):
            results.setdefault(f"{SAVE_CPU}, {hands} hands", []).append(
                save_cpu(phone, sessions[hands], args.samples * 4)
            )
        phone.get(sheet[500])  # the saves above made a new version: drawn again, not timed
    return results


SAVE_CPU = "server CPU per save"


def save_cpu(phone: Phone, session: Any, saves: int) -> float:
    """Server CPU per save, in ms: the workers' CPU time over ``saves`` saves
    (the save alone: no form page, no sheet after it). The hands are removed
    afterwards (not counted), so the evening keeps its length. A worker replaced
    meanwhile (gunicorn's ``max_requests``) takes its time with it: measured again."""
    from scoring import services
    from scoring.models import Hand

    last = Hand.objects.filter(session=session).order_by("-number").values_list("number", flat=True)[0]
    for _attempt in range(3):
        workers = worker_pids(phone.port)
        before = cpu_seconds(workers)
        for n in range(saves):
            form = hand_form("Bert", "Anna", n, uuid.uuid4().hex)
            saved = phone.post(f"/sessions/{session.pk}/hands/new/", form)
            if saved.status != 302:
                raise RuntimeError(f"save: {saved.status}")
        try:
            spent = (cpu_seconds(workers) - before) / saves * 1000
        except FileNotFoundError:  # a worker ended
            spent = None
        Hand.objects.filter(session=session, number__gt=last).delete()
        services.mark_changed(session)
        if spent is not None and set(worker_pids(phone.port)) == set(workers):
            return spent
    raise RuntimeError("the workers were replaced during every measurement of a save's CPU")


def first_pdf_after_a_restart(env: dict[str, str], session: Any) -> float:
    """The server started; as soon as it listens, a player logs in and asks for the
    PDF of ``session`` (never drawn by this server): milliseconds from asking to the PDF."""
    with server(env, workers=3, threads=4) as port:
        phone = Phone(port, language="en")
        phone.login("bench")
        answer = phone.get(f"/sessions/{session.pk}/export/pdf/")
        phone.close()
        if answer.status != 200:
            raise RuntimeError(f"PDF after a restart: {answer.status}")
        return answer.seconds * 1000


def measure_pdfs(phone: Phone, port: int, printed: dict[int, Any], args: Any) -> dict[str, Any]:
    from plumbing.pdf import MEMORY_BYTES
    from scoring import services
    from scoring.exports import print_html
    from scoring.exports import printed as printed_context
    from scoring.sheet import build_sheet

    out: dict[str, Any] = {"drawn": [], "again": []}
    url = f"/sessions/{printed[300].pk}/export/pdf/"
    for _ in range(args.rounds):
        services.mark_changed(printed[300])  # a new version: the next download draws it
        first = phone.get(url)
        again = phone.get(url)
        if first.status != 200 or again.status != 200:
            raise RuntimeError(f"PDF: {first.status}, {again.status}")
        out["drawn"].append(first.seconds * 1000)
        out["again"].append(again.seconds * 1000)
        out["pages_kib"] = first.size / 1024

    for hands, session in printed.items():  # the drawing process as the server starts it, its own peak memory
        html = print_html({**printed_context(build_sheet(session)), "for_pdf": True})
        started = time.perf_counter()
        drawing = subprocess.Popen(
            [sys.executable, "-m", "plumbing.pdf", str(MEMORY_BYTES)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=ROOT,
        )
        assert drawing.stdin is not None and drawing.stdout is not None
        drawing.stdin.write(html.encode())
        drawing.stdin.close()
        pdf = drawing.stdout.read()
        _, status, usage = os.wait4(drawing.pid, 0)
        if status != 0 or not pdf.startswith(b"%PDF"):
            raise RuntimeError(f"the {hands}-hand PDF was not drawn")
        out[f"direct {hands}"] = time.perf_counter() - started
        out[f"peak {hands}"] = usage.ru_maxrss / 1024

    big = f"/sessions/{printed[500].pk}/export/pdf/"
    workers = worker_pids(port)
    answers: dict[str, str] = {}

    def download(language: str) -> None:
        own = Phone(port, language=language)
        own.cookies = dict(phone.cookies)
        answer = own.get(big)
        answers[language] = (
            f"{answer.seconds:.1f} s" if answer.status == 200 else f"refused ({answer.status})"
        )
        own.close()

    services.mark_changed(printed[500])
    threads = [threading.Thread(target=download, args=(language,)) for language in ("de", "en", "fr")]
    for thread in threads:
        thread.start()
    floor = []
    while any(thread.is_alive() for thread in threads):
        floor.append(phone.get("/bench/floor/").seconds * 1000)
        time.sleep(0.2)
    for thread in threads:
        thread.join()
    out["three"] = answers
    out["floor meanwhile"] = floor
    out["worker memory"] = [rss_mb(pid) for pid in workers]
    out["server memory"] = [rss_mb(pid) for pid in drawing_server_pids(port)]
    return out


def report(args: Any, results: dict[str, list[float]], pdf: dict[str, Any]) -> None:
    print(
        f"database: {args.database}, {args.rounds} rounds × {args.samples} requests, gunicorn 3 × 4, loopback"
    )
    print(f"floor, bare Django view: p50 {spread(results['bare'])} ms")
    print(f"floor, login + base.html page: p50 {spread(results['page'])} ms")
    for name, values in results.items():
        if name in ("bare", "page") or name.startswith(SAVE_CPU):
            continue
        line = f"{name}: p50 {spread(values)} ms"
        if name in TARGETS:
            floor, most = TARGETS[name]
            ratios = [value / base for value, base in zip(values, results[floor], strict=True)]
            verdict = "ok" if statistics.median(ratios) <= most else "MISSED"
            line += f", {spread(ratios)}× the {'bare view' if floor == 'bare' else 'page floor'}"
            line += f"   target ≤ {most}×: {verdict}"
        print(line)
    for hands in (60, 500):
        cpu = results[f"{SAVE_CPU}, {hands} hands"]
        verdict = "ok" if statistics.median(cpu) <= 5 else "MISSED"
        print(
            f"{SAVE_CPU}, {hands} hands (workers' /proc counters): {spread(cpu)} ms   target ≤ 5 ms: {verdict}"
        )
    drawn = statistics.median(pdf["drawn"]) / 1000
    print(
        f"PDF, 300 hands, first download of a version (drawn then): {spread(pdf['drawn'])} ms"
        f"   target ≤ 1.5 s: {'ok' if drawn <= 1.5 else 'MISSED'}"
    )
    restarted = statistics.median(pdf["after restart"]) / 1000
    print(
        f"PDF, 300 hands, the first right after the server started: {spread(pdf['after restart'])} ms"
        f"   target ≤ 1.5 s: {'ok' if restarted <= 1.5 else 'MISSED'}"
    )
    again = statistics.median(pdf["again"])
    print(
        f"PDF, 300 hands, downloaded again: {spread(pdf['again'])} ms   target ≤ 50 ms: {'ok' if again <= 50 else 'MISSED'}"
    )
    print(
        f"PDF, 300 hands: {pdf['pages_kib']:.0f} KiB; drawing process peak memory {pdf['peak 300']:.0f} MB"
        f"   target ≤ 250 MB: {'ok' if pdf['peak 300'] <= 250 else 'MISSED'}"
    )
    print(
        f"PDF, 500 hands (the most a PDF shows): {pdf['direct 500']:.1f} s, drawing process peak {pdf['peak 500']:.0f} MB"
    )
    three = ", ".join(pdf["three"].values())
    meanwhile = pdf["floor meanwhile"]
    print(
        f"PDF, 500 hands, three at once: {three}; the floor page meanwhile p50 "
        f"{statistics.median(meanwhile):.0f} ms, slowest {max(meanwhile):.0f} ms; "
        f"workers' memory after: {', '.join(f'{mb:.0f} MB' for mb in pdf['worker memory'])}"
    )
    print(
        "PDF drawing servers (one for the machine, WeasyPrint loaded): "
        f"{', '.join(f'{mb:.0f} MB' for mb in pdf['server memory'])}"
    )


if __name__ == "__main__":
    main()
