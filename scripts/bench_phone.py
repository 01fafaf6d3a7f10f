"""The engine on the phone in Debian's Chromium, against a floor measured in the same run.

    .venv/bin/python scripts/bench_phone.py --runs 5   (the figures in docs/performance.md)

Starts the app under gunicorn with production settings on 127.0.0.1 with a fresh
database: a French Tarot evening of four players with --stored hands (the floor's)
and another like it (the measured one), and Debian's Chromium (headless, 390 × 844,
touch, as the browser tests drive it). Per run, in a fresh browser context, the
phone logs in and opens both sheets online until the service worker keeps them,
their hand forms, the runtime and the engine bundle. Then the server is stopped
for real (the phone keeps its network, as when the server is down) and:

- one visit, then offline: in a fresh browser context the phone logs in and opens
  the measured sheet once, online, and is left until what that visit starts in the
  background is done (the worker keeps the sheet, its hand form, the runtime and
  the bundle; the engine is started); the server stops, and the hand form is opened
  from the phone's copy, a hand filled in as soon as the form is set up, until the
  first preview is drawn. Its floor: the same opening until ``#hand-form`` is there;
- first visit: the hand form opened from the phone's copy, a hand filled in as
  soon as the form is set up, until the first preview is drawn; the engine as the
  visits left it (started on the sheets, in the background: in Chromium its
  SharedWorker is still running). Resident memory is read after it;
- ten hands recorded offline through the hand form, waiting in the outbox; the
  hand form → preview of the second to the tenth is timed (engine running);
- --repeats times, alternately, after one of each not counted: the floor, the
  floor evening's sheet (nothing waiting) opened from the phone's copy until
  ``#board`` is there (and its load event), and the measured sheet opened the
  same way until the provisional totals of its ten waiting hands are drawn, the
  engine already running (same tab, the SharedWorker kept); a run's figure is
  the median of its openings;
- re-scoring: one ``score_table`` call with 60 waiting hands (the ten, repeated),
  against the same call with 1 waiting hand as its floor;
- a cold start: the tab closed and the engine's SharedWorker ended (closed over
  the DevTools protocol, as Chromium keeps it a while with extendedLifetime), then a
  new tab opens the measured sheet (provisional totals), against a new tab
  opening the floor sheet;
- memory without the engine: with the server started again, another fresh
  context whose pages have no ``WebAssembly`` (so the hand form says it cannot
  score offline) does the same steps up to the first hand filled in.

Times are taken on the page (``performance.now()`` from the navigation's start,
when a MutationObserver first sees the element). Each figure is the median
(min–max) over the runs, each time also as its ratio to the floor of its run.
Memory: the resident memory (VmRSS) of Chromium's renderer processes (the pages
and the engine's worker; one context is open at a time) and of all Chromium's
processes. Traffic goes only to 127.0.0.1; the run stops by itself.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

ROOT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT_DIR))

from scripts.harness import PASSWORD, app_database, free_port, server  # noqa: E402
from tests.browser.phone_table import CHROMIUM, CHROMIUM_ARGS, KEPT, PHONE, PLAYERS  # noqa: E402
from tests.browser.phone_table import HANDS as TYPED  # noqa: E402

CHROMIUM_BINARY = b"/usr/lib/chromium/chromium"  # what /usr/bin/chromium starts
SELECTORS = {
    "board": "#board",
    "totals": "#provisional .provisional-totals li",
    "preview": "#preview .preview-deltas li",
    "form": "#hand-form",
}
# In every page before its own scripts: the moment each watched element first appears.
MARKS = """(() => {
    const watched = SELECTORS;
    const marks = (self.__marks = {});
    const look = () => {
        for (const [name, selector] of Object.entries(watched)) {
            if (!(name in marks) && document.querySelector(selector)) marks[name] = performance.now();
        }
    };
    new MutationObserver(look).observe(document, { childList: true, subtree: true });
})();""".replace("SELECTORS", json.dumps(SELECTORS))
# A phone that cannot run the engine: the pages fall back to "cannot score offline".
NO_WEBASSEMBLY = "delete globalThis.WebAssembly;"
# Sets the hand form's fields as taps would, then tells the form (tests/browser/test_phone_engine.py).
FILL = """async (pairs) => {
    while (!document.querySelector("#hand-form[data-ready]")) await new Promise((r) => setTimeout(r, 5));
    const form = document.getElementById("hand-form");
    const missing = [];
    for (const [name, value] of pairs) {
        const controls = [...form.querySelectorAll(`[name="${CSS.escape(name)}"]`)];
        if (!controls.length) missing.push(name);
        for (const control of controls) {
            if (control.type === "radio" || control.type === "checkbox") control.checked = control.value === value;
            else control.value = value;
        }
    }
    form.dispatchEvent(new Event("change", { bubbles: true }));
    return missing;
}"""
RESCORE = """async ([session, repeats]) => {
    const evening = JSON.parse(document.getElementById("engine-game").textContent);
    const forms = (await self.Outbox.all())
        .filter((e) => e.kind === "new" && e.session === session && e.state !== "refused")
        .map((e) => [...new URLSearchParams(e.body)]);
    const sixty = Array.from({ length: 60 }, (_, i) => forms[i % forms.length]);
    const call = (waiting) => self.TarockEngine.call("score_table", { ...evening, waiting, lang: "en" });
    await call(sixty);
    const one = [], all = [];
    let count = 0;
    for (let i = 0; i < repeats; i++) {
        let started = performance.now();
        await call(sixty.slice(0, 1));
        one.push(performance.now() - started);
        started = performance.now();
        const result = await call(sixty);
        all.push(performance.now() - started);
        count = result.count - evening.stored.length;
    }
    return { one, all, count, forms: forms.length };
}"""


class Server:
    """The app on a fixed port, stopped and started again as a real server is."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.port = free_port()
        self.stack: ExitStack | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        if self.stack is None:
            self.stack = ExitStack()
            self.stack.enter_context(server(self.env, workers=2, threads=4, port=self.port))

    def stop(self) -> None:
        if self.stack is not None:
            self.stack.close()
            self.stack = None


def until(page: Any, script: str, arg: Any = None, seconds: float = 90) -> Any:
    """Wait until a script on the page answers something true; that answer."""
    from playwright.sync_api import Error

    deadline = time.monotonic() + seconds
    while True:
        try:
            found = page.evaluate(script, arg)
        except Error as error:  # the page is being replaced
            if "context was destroyed" not in str(error) and "is not defined" not in str(error):
                raise
            found = None
        if found:
            return found
        if time.monotonic() > deadline:
            raise RuntimeError(f"still not true after {seconds} s: {script}")
        page.wait_for_timeout(20)


def mark(page: Any, name: str) -> float:
    """Milliseconds from the navigation's start until the watched element appeared."""
    return float(until(page, "(name) => self.__marks && self.__marks[name]", name))


def loaded(page: Any) -> float:
    return float(
        until(page, "() => performance.getEntriesByType('navigation')[0]?.loadEventEnd || 0", seconds=30)
    )


def kept(page: Any, path: str) -> None:
    until(page, KEPT, path)


def prepare(context: Any, site: Server, username: str, sheets: list[str]) -> Any:
    """Log in and open the sheets online, until the worker keeps them, their hand forms,
    the runtime and the engine bundle (tests/browser/test_offline.py, open_sheet_for_offline)."""
    page = logged_in(context, site, username, sheets[0])
    page.goto(f"{site.url}/")
    kept(page, "/")
    for sheet in sheets:
        page.goto(f"{site.url}{sheet}")
        kept(page, sheet)
        kept(page, f"{sheet}hands/new/")
    until(page, ENGINE_KEPT)
    return page


def logged_in(context: Any, site: Server, username: str, sheet: str) -> Any:
    """A new page, logged in, on ``sheet`` once the service worker controls it."""
    from playwright.sync_api import expect

    page = context.new_page()
    page.goto(f"{site.url}/accounts/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("#main button[type=submit]").click()
    expect(page).to_have_url(f"{site.url}/")
    page.goto(f"{site.url}{sheet}")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=90_000)
    return page


# True once the phone keeps the runtime's files and the engine bundle.
ENGINE_KEPT = """async () => {
    const config = JSON.parse(document.getElementById("offline-config").textContent).engine;
    for (const url of [...config.runtimeFiles, config.bundle]) if (!(await caches.match(url))) return false;
    return true;
}"""


# True once the engine this page started in the background has loaded (its first answer).
ENGINE_WARM = """async () => {
    if (!self.TarockEngine || !self.TarockEngine.ready()) return false;
    try {
        await self.TarockEngine.call("score_table", { variant: "french", players: ["A", "B", "C"], lang: "en" });
    } catch (refused) {
        // loaded: it answered
    }
    return true;
}"""


def one_visit(context: Any, site: Server, username: str, sheet: str) -> Any:
    """Log in and open the sheet once, online; wait for what that one visit does in the
    background: the worker keeps the sheet and its hand form, the runtime and the bundle,
    and the engine started on the sheet has loaded."""
    page = logged_in(context, site, username, sheet)
    kept(page, sheet)
    kept(page, f"{sheet}hands/new/")
    until(page, ENGINE_KEPT)
    until(page, ENGINE_WARM, seconds=120)
    return page


def typed(hand: dict[str, str]) -> list[list[str]]:
    return [[name, value] for name, value in hand.items()]


def fill(page: Any, hand: dict[str, str]) -> None:
    missing = page.evaluate(FILL, typed(hand))
    if missing:
        raise RuntimeError(f"the hand form has no {missing}")


def descendants() -> list[int]:
    """The processes this script started, and theirs."""
    parent: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found, frontier = [], [os.getpid()]
    while frontier:
        pid = frontier.pop()
        children = [child for child, of in parent.items() if of == pid]
        found += children
        frontier += children
    return found


def chromium_memory() -> dict[str, float]:
    """Resident memory (MiB) of Chromium's renderer processes and of all its processes."""
    renderers = everything = 0.0
    for pid in descendants():
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")  # Chromium rewrites it
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        if not command.startswith(CHROMIUM_BINARY):
            continue
        rss = next(
            (int(line.split()[1]) / 1024 for line in status.splitlines() if line.startswith("VmRSS:")), 0
        )
        everything += rss
        if b"--type=renderer" in command:
            renderers += rss
    return {"renderers": renderers, "all": everything}


def end_shared_workers(cdp: Any) -> None:
    """End the engine's SharedWorker, as a browser does that discards it after its last page
    has gone (Chromium keeps it a while with extendedLifetime)."""
    deadline = time.monotonic() + 60
    while workers := [
        t for t in cdp.send("Target.getTargets")["targetInfos"] if t["type"] == "shared_worker"
    ]:
        if time.monotonic() > deadline:
            raise RuntimeError(f"the engine's SharedWorker did not end: {workers}")
        for worker in workers:
            cdp.send("Target.closeTarget", {"targetId": worker["targetId"]})
        time.sleep(0.2)


def open_offline(page: Any, site: Server, path: str, name: str) -> float:
    page.goto(f"{site.url}{path}", wait_until="commit")
    return mark(page, name)


def one_run(
    browser: Any, cdp: Any, site: Server, username: str, floor: str, sheet: str, repeats: int
) -> dict[str, Any]:
    from playwright.sync_api import expect

    session = int(sheet.strip("/").split("/")[-1])
    found: dict[str, Any] = {}

    # One visit, then offline: a fresh phone that opened the sheet once.
    site.start()
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-US")
    context.add_init_script(MARKS)
    page = one_visit(context, site, username, sheet)
    site.stop()
    page.goto(f"{site.url}{sheet}hands/new/", wait_until="commit")
    fill(page, TYPED[0])
    found["one_visit"] = mark(page, "preview")
    found["one_visit_form"] = mark(page, "form")
    expect(page.locator("#preview .preview-deltas li")).to_have_count(4)
    context.close()

    # With the engine: a fresh phone.
    site.start()
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-US")
    context.add_init_script(MARKS)
    page = prepare(context, site, username, [floor, sheet])
    site.stop()

    page.goto(f"{site.url}{sheet}hands/new/", wait_until="commit")
    fill(page, TYPED[0])
    found["first_visit"] = mark(page, "preview")
    expect(page.locator("#preview .preview-deltas li")).to_have_count(4)
    page.wait_for_timeout(2000)
    found["memory_engine"] = chromium_memory()
    for n, hand in enumerate(TYPED):
        if n:
            page.goto(f"{site.url}{sheet}hands/new/", wait_until="commit")
            fill(page, hand)
            found.setdefault("preview_warm", []).append(mark(page, "preview"))
            expect(page.locator("#preview .preview-deltas li")).to_have_count(4)
        page.locator("#save").click()
        expect(page).to_have_url(re.compile(rf"{sheet}#pending-\d+$"), timeout=30_000)
    expect(page.locator("#provisional .provisional-totals li")).to_have_count(4)

    open_offline(page, site, floor, "board")  # one opening of each not counted
    open_offline(page, site, sheet, "totals")
    floors, boards, loads, totals = [], [], [], []
    for turn in range(repeats):
        for which in ("floor", "sheet") if turn % 2 == 0 else ("sheet", "floor"):
            if which == "floor":
                floors.append(open_offline(page, site, floor, "board"))
                loads.append(loaded(page))
            else:
                totals.append(open_offline(page, site, sheet, "totals"))
                boards.append(mark(page, "board"))
    found.update(floor=floors, floor_load=loads, totals=totals, totals_board=boards)

    open_offline(page, site, sheet, "totals")  # the engine running on this page
    rescore = page.evaluate(RESCORE, [session, repeats])
    if rescore["count"] != 60 or rescore["forms"] != len(TYPED):
        raise RuntimeError(f"re-scoring 60 waiting hands scored {rescore}")
    found["rescore_1"], found["rescore_60"] = rescore["one"], rescore["all"]

    # A cold start: the tab closed and the engine's worker ended, then a new tab.
    page.close()
    end_shared_workers(cdp)
    page = context.new_page()
    found["floor_new_tab"] = open_offline(page, site, floor, "board")
    page.close()
    page = context.new_page()
    found["totals_cold"] = open_offline(page, site, sheet, "totals")
    context.close()

    # Without the engine: the same steps on a phone whose pages have no WebAssembly.
    site.start()
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-US")
    context.add_init_script(MARKS)
    context.add_init_script(NO_WEBASSEMBLY)
    page = prepare(context, site, username, [floor, sheet])
    site.stop()
    page.goto(f"{site.url}{sheet}hands/new/", wait_until="commit")
    fill(page, TYPED[0])
    expect(page.locator("#preview")).to_contain_text("cannot score offline")
    page.wait_for_timeout(2000)
    found["memory_plain"] = chromium_memory()
    context.close()
    return found


@contextmanager
def chromium() -> Iterator[tuple[Any, Any]]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser, browser.new_browser_cdp_session()
        finally:
            browser.close()


def evenings(stored: int) -> tuple[str, str, str]:
    """The floor's evening and the measured one, each with ``stored`` hands; the player's name."""
    from django.contrib.auth.models import User

    from scoring import services

    owner = User.objects.create_user("lena", password=PASSWORD)
    paths = []
    for name in ("Floor", "Waiting"):
        session = services.session_create(
            owner=owner, name=name, variant="french", players=PLAYERS, options={}
        )
        for n in range(stored):
            hand = TYPED[n % len(TYPED)]
            raw = {
                **hand,
                "bouts": int(hand["bouts"]),
                "points": float(hand["points"]),
                "dealer": PLAYERS[(n + 3) % 4],
            }
            services.hand_record(session=session, raw=raw, user=owner, client_token=f"{name}-{n}")
        paths.append(f"/sessions/{session.pk}/")
    return paths[0], paths[1], owner.get_username()


def spread(values: list[float], digits: int = 0, unit: str = "") -> str:
    return f"{statistics.median(values):.{digits}f}{unit} ({min(values):.{digits}f}–{max(values):.{digits}f})"


def report(runs: list[dict[str, Any]], args: argparse.Namespace, load: tuple[str, str]) -> dict[str, Any]:
    med: Callable[[str], list[float]] = lambda key: [statistics.median(r[key]) for r in runs]  # noqa: E731
    one: Callable[[str], list[float]] = lambda key: [float(r[key]) for r in runs]  # noqa: E731
    floor = med("floor")
    rows: list[tuple[str, list[float], list[float] | None, str]] = [
        ("floor: sheet from the phone's copy → #board", floor, None, "ms"),
        ("floor: the same → load event", med("floor_load"), None, "ms"),
        ("sheet → provisional totals of 10 waiting, engine running", med("totals"), floor, "ms"),
        ("floor, new tab: sheet → #board", one("floor_new_tab"), None, "ms"),
        ("sheet → provisional totals, new tab, engine cold", one("totals_cold"), one("floor_new_tab"), "ms"),
        ("one visit, then offline: hand form → #hand-form (floor)", one("one_visit_form"), None, "ms"),
        ("one visit, then offline: hand form → first preview", one("one_visit"), one("one_visit_form"), "ms"),
        ("first visit: hand form → first preview", one("first_visit"), floor, "ms"),
        ("hand form → preview, engine running (hands 2 to 10)", med("preview_warm"), floor, "ms"),
        ("re-score, 1 waiting hand (floor)", med("rescore_1"), None, "ms"),
        ("re-score, 60 waiting hands", med("rescore_60"), med("rescore_1"), "ms"),
        ("re-score, 60 waiting hands, per hand", [v / 60 for v in med("rescore_60")], None, "ms"),
    ]
    memory = [
        ("memory, renderers, with the engine", [r["memory_engine"]["renderers"] for r in runs]),
        ("memory, renderers, without (no WebAssembly)", [r["memory_plain"]["renderers"] for r in runs]),
        (
            "memory, renderers, difference",
            [r["memory_engine"]["renderers"] - r["memory_plain"]["renderers"] for r in runs],
        ),
        ("memory, all Chromium, with the engine", [r["memory_engine"]["all"] for r in runs]),
        ("memory, all Chromium, without", [r["memory_plain"]["all"] for r in runs]),
    ]
    print(
        f"Chromium {CHROMIUM} headless, 390 × 844; {len(runs)} runs, {args.repeats} repeats each "
        f"(median per run); {args.stored} stored hands per evening, 10 waiting"
    )
    print(f"load average before: {load[0]}; after: {load[1]}")
    width = max(len(r[0]) for r in rows + [(m[0], [], None, "") for m in memory])
    print(f"{'what':<{width}}  {'median (min–max)':<24}  ratio to its floor")
    summary: dict[str, Any] = {}
    for what, values, against, unit in rows:
        digits = 2 if max(values) < 10 else 0
        ratio = [v / f for v, f in zip(values, against, strict=True)] if against else None
        print(
            f"{what:<{width}}  {spread(values, digits, ' ' + unit):<24}  {spread(ratio, 1, '×') if ratio else ''}"
        )
        summary[what] = {"values": values, "ratios": ratio}
    for what, values in memory:
        print(f"{what:<{width}}  {spread(values, 0, ' MiB'):<24}")
        summary[what] = {"values": values}
    return summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=5, help="floor and warm openings per run")
    parser.add_argument("--stored", type=int, default=20, help="hands stored in each evening")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    load_before = Path("/proc/loadavg").read_text().strip()

    runs = []
    with app_database("sqlite", "phone") as env:
        from django.db import connections

        site = Server(env)
        try:
            floor, sheet, username = evenings(args.stored)
            with chromium() as (browser, cdp):
                for number in range(1, args.runs + 1):
                    runs.append(one_run(browser, cdp, site, username, floor, sheet, args.repeats))
                    print(f"run {number} of {args.runs} done", file=sys.stderr)
        finally:
            site.stop()
            connections.close_all()
            # The run's database (the static files are shared: harness.collected_static).
            shutil.rmtree(Path(env["DATABASE_URL"].removeprefix("sqlite:///")).parent, ignore_errors=True)
    load = (load_before, Path("/proc/loadavg").read_text().strip())
    summary = report(runs, args, load)
    if args.json:
        args.json.write_text(json.dumps({"load": load, "runs": runs, "summary": summary}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
