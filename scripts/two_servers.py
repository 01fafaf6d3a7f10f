"""Two app servers, one database, one shared cache: a hand saved through one
shows at once on the other's sheet, shared board and PDF.

    .venv/bin/python scripts/two_servers.py [--database postgres|sqlite] [--cache database|local|redis://HOST:PORT/DB]

Starts two gunicorn instances on two ports of 127.0.0.1 with production
settings, on one fresh database (PostgreSQL by default) and, with
--cache database, the cache table in it; with --cache redis://127.0.0.1:6379/1
the two share that Redis database (nothing in it is emptied: every key carries
the session's version and creation time). A phone logged in once uses both (the
login session is in the database). With Redis it also checks that a share
link's limit holds exactly across both servers: phones on both, started at
once behind a barrier, poll one new link more often than its limit allows;
and that on a tournament's board one phone polling at ten times its budget
through both servers gets exactly its budget, while the hall screen (its own
link) and the phone that writes at a table, polling at the same time, never
get a 429.
Prints what it checked; exits 1 if anything was stale or missing.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
import threading
import uuid
from datetime import date
from pathlib import Path

ROOT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT_DIR))

from scripts.harness import Phone, app_database, hand_form, server  # noqa: E402

PLAYERS = ["Anna", "Bert", "Carl", "Dora"]
PHONES_PER_SERVER = 6  # watchers of the new link on each server, all polling at once
EXTRA_POLLS = 60  # polls beyond the link's limit, spread over all the phones


def pdf_text(data: bytes) -> str:
    from pypdf import PdfReader

    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def totals(page: str) -> list[str]:
    row = re.search(r'<tr class="totals"[^>]*>(.*?)</tr>', page, re.S)
    return re.findall(r'data-player="[^"]+">([^<]+)<', row.group(1)) if row else []


def cache_kind(raw: str) -> str:
    """--cache: database, local, or a Redis URL (what CACHE in the settings takes)."""
    if raw in ("database", "local") or raw.startswith(("redis://", "rediss://")):
        return raw
    raise argparse.ArgumentTypeError("database, local or redis://host:port/db")


def hammer(ports: tuple[int, int], board: str, polls: int) -> list[tuple[int, int]]:
    """``polls`` polls of a board with nothing changed, from phones on both servers
    that start together (a barrier); each answer's port and status."""
    phones = [Phone(port, language="en") for port in ports for _ in range(PHONES_PER_SERVER)]
    share, rest = divmod(polls, len(phones))
    start = threading.Barrier(len(phones))
    answers: list[tuple[int, int]] = []
    lock = threading.Lock()

    def watch(phone: Phone, count: int) -> None:
        start.wait()
        for _ in range(count):
            status = phone.get(board, **{"HX-Request": "true"}).status
            with lock:
                answers.append((phone.port, status))

    threads = [
        threading.Thread(target=watch, args=(phone, share + (i < rest))) for i, phone in enumerate(phones)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for phone in phones:
        phone.close()
    return answers


def crowded_hall(ports: tuple[int, int]) -> tuple[list[int], list[int], list[int], int]:
    """A tournament whose board one phone polls at ten times its budget through
    both servers (the same cookie on each), while the hall screen and the phone
    that writes at table 1 poll beside it: the statuses of each, and the budget."""
    from django.contrib.auth.models import User

    from tournaments.models import TableRound, Tournament
    from tournaments.services import entrants, plan, tables, tournaments
    from tournaments.views.board import BOARD_COOKIE, BOARD_PER_PHONE

    owner = User.objects.create_user("organiser", password="hall-password-4711")
    made = tournaments.tournament_create(
        owner=owner, name="Hall", played_on=date(2025, 11, 21), variant="koenigrufen", settings={}
    )
    for n in range(8):
        entrants.entrant_add(tournament=made, user=owner, name=f"Player {n + 1}")
    plan.plan_draw(tournament=Tournament.objects.get(pk=made.pk), user=owner)
    plan.round_release(tournament=Tournament.objects.get(pk=made.pk), user=owner)
    t = Tournament.objects.get(pk=made.pk)
    table = TableRound.objects.filter(round__tournament=t).order_by("round__number", "number").first()
    assert table is not None
    cookie = tables.new_phone_cookie()
    assert tables.claim(table, cookie)
    attackers = [Phone(port, language="en") for port in ports for _ in range(PHONES_PER_SERVER)]
    for attacker in attackers:
        attacker.cookies[BOARD_COOKIE] = "one-phone-polling-far-too-often"
    hall, writer = Phone(ports[1], language="en"), Phone(ports[0], language="en")
    writer.cookies[tables.PHONE_COOKIE] = cookie
    polls = 10 * BOARD_PER_PHONE
    start = threading.Barrier(len(attackers) + 2)
    statuses: dict[str, list[int]] = {"attacker": [], "hall": [], "writer": []}
    lock = threading.Lock()

    def poll(phone: Phone, who: str, path: str, count: int) -> None:
        start.wait()
        for _ in range(count):
            status = phone.get(path, **{"HX-Request": "true"}).status
            with lock:
                statuses[who].append(status)

    share, rest = divmod(polls, len(attackers))
    threads = [
        threading.Thread(
            target=poll, args=(a, "attacker", f"/b/{t.board_token}/?since={t.version}", share + (i < rest))
        )
        for i, a in enumerate(attackers)
    ]
    threads.append(
        threading.Thread(target=poll, args=(hall, "hall", f"/h/{t.screen_token}/?since={t.version}", 30))
    )
    threads.append(threading.Thread(target=poll, args=(writer, "writer", f"/t/{table.link_token}/", 30)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for phone in [*attackers, hall, writer]:
        phone.close()
    return statuses["attacker"], statuses["hall"], statuses["writer"], BOARD_PER_PHONE


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="postgres")
    parser.add_argument(
        "--cache", type=cache_kind, default="database", help="database, local or redis://HOST:PORT/DB"
    )
    args = parser.parse_args()
    redis_url = args.cache if "://" in args.cache else ""
    failures: list[str] = []

    def check(what: str, ok: bool) -> None:
        print(f"{'ok' if ok else 'STALE'}: {what}")
        if not ok:
            failures.append(what)

    with app_database(args.database, "two", cache=args.cache) as env:
        from django.contrib.auth.models import User
        from django.db import connection

        from scoring import services
        from scoring.models import Session
        from scoring.views.sharing import SHARED_BOARD_PER_MINUTE

        owner = User.objects.create_user("host", password="table-password-4711")
        session = services.session_create(
            owner=owner, name="Two servers", variant="french", players=PLAYERS, options={}
        )
        services.hand_record(
            session=session,
            raw={"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56},
        )
        token = services.session_share(session=session)
        sheet, board, pdf = f"/sessions/{session.pk}/", f"/s/{token}/", f"/sessions/{session.pk}/export/pdf/"

        with server(env, workers=1, threads=2) as first, server(env, workers=1, threads=2) as second:
            one, other = Phone(first, language="en"), Phone(second, language="en")
            one.login("host")
            other.cookies = dict(one.cookies)  # the same login, through the other server
            before = {path: other.get(path) for path in (sheet, board, pdf)}
            version = re.search(r"\?since=(\d+)", before[board].body).group(1)  # type: ignore[union-attr]
            check(
                "the other server drew the sheet, the board and the PDF",
                all(a.status == 200 for a in before.values()),
            )
            if args.cache == "database":
                with connection.cursor() as cursor:
                    cursor.execute("SELECT COUNT(*) FROM tarockscore_cache")
                    check("what it drew is in the cache both servers share", cursor.fetchone()[0] > 0)
            if redis_url:
                import redis

                drawn = Session.objects.get(pk=session.pk).sheet_key
                kept = redis.Redis.from_url(redis_url).scan_iter(match=f"*:session:{drawn}:*")
                check("what it drew is in the Redis both servers share", next(kept, None) is not None)

            saved = one.post(f"{sheet}hands/new/", hand_form("Bert", "Anna", 1, uuid.uuid4().hex))
            check("a hand saved through the first server", saved.status == 302)
            after_sheet = other.get(sheet)
            check(
                f"the other server's sheet shows it at once: totals {totals(before[sheet].body)} → {totals(after_sheet.body)}",
                after_sheet.body.count('<tbody id="hand-') == 2
                and totals(after_sheet.body) != totals(before[sheet].body),
            )
            poll = other.get(f"{board}?since={version}", **{"HX-Request": "true"})
            check("a watcher of the other server gets the new board at its next poll", poll.status == 200)
            check("the new board shows both hands", poll.body.count('<tbody id="hand-') == 2)
            after_pdf = other.get(pdf)
            text = pdf_text(after_pdf.data) if after_pdf.status == 200 else ""
            check(
                "the other server's PDF is drawn anew, with the new hand",
                after_pdf.data != before[pdf].data and re.search(r"^2 · Anna", text, re.M) is not None,
            )
            one.close()
            other.close()
            if redis_url:
                watched = services.session_create(
                    owner=owner, name="Watched", variant="french", players=PLAYERS, options={}
                )
                link = services.session_share(session=watched)
                since = Session.objects.get(pk=watched.pk).version
                polls = SHARED_BOARD_PER_MINUTE + EXTRA_POLLS
                answers = hammer((first, second), f"/s/{link}/?since={since}", polls)
                let_through = [port for port, status in answers if status == 204]
                refused = sum(status == 429 for _, status in answers)
                check(
                    f"a link polled {polls} times at once through both servers lets exactly its "
                    f"{SHARED_BOARD_PER_MINUTE} through: {len(let_through)} answered "
                    f"({let_through.count(first)} + {let_through.count(second)}), {refused} refused",
                    len(let_through) == SHARED_BOARD_PER_MINUTE
                    and refused == EXTRA_POLLS
                    and {first, second} <= set(let_through),
                )
                attacker, hall, writer, budget = crowded_hall((first, second))
                check(
                    f"one phone polling a board {len(attacker)} times through both servers gets exactly "
                    f"its {budget}: {attacker.count(204)} answered, {attacker.count(429)} refused",
                    attacker.count(204) == budget and attacker.count(429) == len(attacker) - budget,
                )
                check(
                    f"the hall screen and the phone that writes, polling beside it, get no 429: "
                    f"hall {sorted(set(hall))}, writer {sorted(set(writer))}",
                    429 not in hall and 429 not in writer and set(hall) == {204} and set(writer) == {200},
                )
    print("result: ok" if not failures else f"result: FAILED ({len(failures)})")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
