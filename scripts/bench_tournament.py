"""A cup day of 300 players on one server: 75 tables recording Königrufen hands
through their table links while every player's phone and the hall screen poll
the ranking.

    .venv/bin/python scripts/bench_tournament.py --database postgres   (the figures in docs/performance.md)
    .venv/bin/python scripts/bench_tournament.py --database sqlite --players 40 --seconds 20   (a quick look)

Starts the app under gunicorn with production settings (3 workers × 8 threads)
on 127.0.0.1 with a fresh database, a tournament of --players entrants, round 1
drawn and released. Then, for --windows windows of --seconds each:

- every table is one phone on its table link: it opens the hand form, the
  players take --pause seconds (uniformly 0.5× to 1.5×) to play the hand, then
  it saves the hand (the first save claims the table) and loads the page the
  save leads to; every tenth hand is sent twice, as a double tap does;
- the players' phones poll the board as the page does (every 15 s, answered
  204 when nothing changed): --players phones are simulated by --pollers
  threads, each polling --players / (15 × --pollers) times a second with a
  version of its own; the hall screen polls ``?screen=1`` every 10 s;
- a floor: one thread asks a bare Django view once a second through the same
  server, under the same load.

The ranking poll's p95 is compared with the bare view's p95 of the same
window; the ratio is given as the median (min–max) over the windows. Then
the ranking rebuild after a sign-off: --rebuilds tables are ended (as the
organiser ends a table, a change that enters the ranking) one by one, and
each is followed by the board read once (built anew for the new version) and
once more (kept): both timed.

Afterwards every hand a table saw acknowledged must be stored exactly once.
Traffic goes only to 127.0.0.1; the run stops by itself.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import threading
import time
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path

ROOT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT_DIR))

from scripts.harness import PASSWORD, Phone, app_database, form_token, percentile, server  # noqa: E402

POLL_SECONDS = 15.0  # a phone's board poll (TOURNAMENTS.md §4.3)
HALL_SECONDS = 10.0  # the hall screen turns a page every 10 s
DEALER = re.compile(r'<option value="([^"]+)"[^>]*\bselected\b')


@dataclass
class Tally:
    saves: list[float] = field(default_factory=list)
    forms: list[float] = field(default_factory=list)
    polls: list[float] = field(default_factory=list)
    hall: list[float] = field(default_factory=list)
    bare: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    acknowledged: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name in ("saves", "forms", "polls", "hall", "bare", "errors", "acknowledged"):
            getattr(self, name).extend(getattr(other, name))


def table(phone: Phone, token: str, players: list[str], pause: float, deadline: float, tally: Tally) -> None:
    """One table's phone, recording hands at the table's pace until the window ends."""
    path = f"/t/{token}/hands/new/"
    rng = random.Random(token)
    time.sleep(rng.uniform(0, pause))  # tables do not all start a hand at the same moment
    n = 0
    while time.monotonic() < deadline:
        n += 1
        try:
            page = phone.get(path)
            tally.forms.append(page.seconds)
            if page.status != 200:
                tally.errors.append(f"GET {path}: {page.status}")
                time.sleep(1)
                continue
            if "hands/new" not in page.body or 'name="token"' not in page.body:
                return  # the target is reached: the form is closed
            token_sent = form_token(page.body)
            dealer = DEALER.search(page.body)
            time.sleep(pause * rng.uniform(0.5, 1.5))  # the hand is played
            declarer = players[n % len(players)]
            partner = players[(n + 1) % len(players)]
            data = {
                "token": token_sent,
                "type": "played",
                "action": "save",
                "dealer": dealer.group(1) if dealer else players[0],
                "declarer": declarer,
                "game": "rufer",
                "partner": partner,
                "points": str(20 + n % 31),
                "kontra": "0",
            }
            answers = [phone.post(path, data) for _ in range(2 if n % 10 == 0 else 1)]
            if any(answer.status != 302 for answer in answers):
                tally.errors.append(f"POST {path}: {[answer.status for answer in answers]}")
                continue
            tally.acknowledged.append(token_sent)
            tally.saves.extend(answer.seconds for answer in answers)
            after = phone.get(answers[-1].location.split("#")[0])
            if after.status != 200:
                tally.errors.append(f"GET after save: {after.status}")
        except Exception as error:  # a benchmark reports what went wrong and goes on
            tally.errors.append(f"{type(error).__name__}: {error}")
    phone.close()


def version_of(page: str) -> str:
    found = re.search(r"since=(\d+)", page)
    return found.group(1) if found else ""


def poller(port: int, token: str, phones: int, deadline: float, tally: Tally, seed: int) -> None:
    """``phones`` players' phones polling the board, each every 15 s with its own version."""
    phone = Phone(port)
    rng = random.Random(seed)
    first = phone.get(f"/b/{token}/")
    versions = [version_of(first.body)] * phones
    interval = POLL_SECONDS / phones
    next_at = time.monotonic() + rng.uniform(0, interval)
    turn = 0
    while True:
        wait = next_at - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        if time.monotonic() >= deadline:
            break
        which = turn % phones
        answer = phone.get(f"/b/{token}/?since={versions[which]}", **{"HX-Request": "true"})
        tally.polls.append(answer.seconds)
        if answer.status == 200:
            versions[which] = version_of(answer.body) or versions[which]
        elif answer.status != 204:
            tally.errors.append(f"board poll: {answer.status}")
        turn += 1
        next_at += interval
    phone.close()


def hall(port: int, token: str, deadline: float, tally: Tally) -> None:
    phone = Phone(port)
    while time.monotonic() < deadline:
        answer = phone.get(f"/b/{token}/?screen=1", **{"HX-Request": "true"})
        tally.hall.append(answer.seconds)
        if answer.status not in (200, 204):
            tally.errors.append(f"hall: {answer.status}")
        time.sleep(HALL_SECONDS)
    phone.close()


def floor(port: int, deadline: float, tally: Tally) -> None:
    phone = Phone(port)
    while time.monotonic() < deadline:
        answer = phone.get("/bench/bare/")
        tally.bare.append(answer.seconds)
        time.sleep(1.0)
    phone.close()


def warm_up(port: int, board_token: str, links: list[str], rounds: int) -> None:
    """Every worker and thread past its first requests (imports, connections,
    templates) before the clock starts: not what a table waits for all day."""
    phones = [Phone(port) for _ in range(4)]
    for turn in range(rounds):
        phone = phones[turn % len(phones)]
        phone.get("/bench/bare/")
        phone.get(f"/b/{board_token}/")
        phone.get(f"/b/{board_token}/?screen=1")
        phone.get(f"/t/{links[turn % len(links)]}/")
    for phone in phones:
        phone.close()


def ms(values: list[float], share: float) -> float:
    return percentile(values, share) * 1000


def spread(values: list[float], unit: str = "", digits: int = 1) -> str:
    return f"{statistics.median(values):.{digits}f}{unit} ({min(values):.{digits}f}–{max(values):.{digits}f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="postgres")
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--pollers", type=int, default=20, help="threads simulating the players' phones")
    parser.add_argument("--pause", type=float, default=20.0, help="seconds a table takes per hand")
    parser.add_argument("--seconds", type=float, default=40.0, help="length of one window")
    parser.add_argument("--windows", type=int, default=3)
    parser.add_argument("--rebuilds", type=int, default=12, help="tables ended one by one at the end")
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()

    with app_database(args.database, "cupday") as env:
        from django.contrib.auth.models import User

        from scoring.models import Hand
        from tournaments.models import TableRound
        from tournaments.services import desk, entrants, plan, results, tournaments

        owner = User.objects.create_user("organiser", password=PASSWORD)
        cup_day = tournaments.tournament_create(
            owner=owner,
            name="Cupabend",
            played_on=date(2025, 11, 21),
            variant="koenigrufen",
            settings={},
            money_rate=Decimal("0.10"),
            seed="482915",
        )
        for number in range(1, args.players + 1):
            entrants.entrant_add(tournament=cup_day, user=owner, name=f"Spieler {number:03d}")
        plan.plan_draw(tournament=cup_day, user=owner)
        plan.round_release(tournament=cup_day, user=owner)
        cup_day.refresh_from_db()
        board_token = results.board_share(tournament=cup_day)
        tables = list(
            TableRound.objects.filter(round__tournament=cup_day, round__number=1).order_by("number")
        )
        seated = {
            t.pk: [s.entrant.name for s in t.seats.select_related("entrant").order_by("position")]
            for t in tables
        }

        windows: list[Tally] = []
        everything = Tally()
        per_table = {t.pk: Tally() for t in tables}
        with server(env, workers=args.workers, threads=args.threads) as port:
            phones = {t.pk: Phone(port) for t in tables}  # each table's phone keeps its claim all day
            warm_up(port, board_token, [t.link_token for t in tables], args.workers * args.threads)
            started = time.monotonic()
            for _window in range(args.windows):
                tally = Tally()
                deadline = time.monotonic() + args.seconds
                mine = {t.pk: Tally() for t in tables}
                threads = [
                    threading.Thread(
                        target=table,
                        args=(phones[t.pk], t.link_token, seated[t.pk], args.pause, deadline, mine[t.pk]),
                    )
                    for t in tables
                ]
                share = max(1, args.players // args.pollers)
                threads += [
                    threading.Thread(target=poller, args=(port, board_token, share, deadline, tally, i))
                    for i in range(args.pollers)
                ]
                threads += [
                    threading.Thread(target=hall, args=(port, board_token, deadline, tally)),
                    threading.Thread(target=floor, args=(port, deadline, tally)),
                ]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join(timeout=args.seconds + 300)
                for pk, part in mine.items():
                    tally.add(part)
                    per_table[pk].acknowledged.extend(part.acknowledged)
                windows.append(tally)
                everything.add(tally)
            elapsed = time.monotonic() - started

            # The ranking rebuilt after a change that enters it: a table ended.
            built, kept = [], []
            reader = Phone(port)
            reader.get(f"/b/{board_token}/")
            for t in tables[: args.rebuilds]:
                desk.table_end(
                    tournament=type(cup_day).objects.get(pk=cup_day.pk),
                    user=owner,
                    table_id=t.pk,
                    reason="bench",
                )
                first = reader.get(f"/b/{board_token}/")
                again = reader.get(f"/b/{board_token}/")
                if first.status != 200 or again.status != 200:
                    everything.errors.append(f"board after a change: {first.status}, {again.status}")
                built.append(first.seconds)
                kept.append(again.seconds)
            reader.close()

        lost = duplicated = stored = 0
        for t in tables:
            t.refresh_from_db()
            tokens = (
                list(Hand.objects.filter(session_id=t.session_id).values_list("client_token", flat=True))
                if t.session_id
                else []
            )
            stored += len(tokens)
            lost += sum(1 for token in per_table[t.pk].acknowledged if token not in tokens)
            duplicated += len(tokens) - len(set(tokens))
    return report(args, elapsed, windows, everything, built, kept, stored, lost, duplicated)


def report(
    args: argparse.Namespace,
    elapsed: float,
    windows: list[Tally],
    tally: Tally,
    built: list[float],
    kept: list[float],
    stored: int,
    lost: int,
    duplicated: int,
) -> int:
    tables = args.players // 4
    hands = len(tally.acknowledged)
    print(
        f"database: {args.database}, {args.players} players at {tables} tables, {args.windows} windows of "
        f"{args.seconds:.0f} s, gunicorn {args.workers} workers × {args.threads} threads"
    )
    print(
        f"pace: a hand per table every {args.pause:.0f} s on average ({hands / elapsed:.1f} saves/s); "
        f"{args.players} phones polling every {POLL_SECONDS:.0f} s ({args.players / POLL_SECONDS:.0f} polls/s) "
        f"and the hall screen"
    )
    print(
        f"save: p50 {ms(tally.saves, 0.5):.0f} ms, p95 {ms(tally.saves, 0.95):.0f} ms ({len(tally.saves)} posts)"
    )
    print(f"hand form: p50 {ms(tally.forms, 0.5):.0f} ms, p95 {ms(tally.forms, 0.95):.0f} ms")
    print(
        f"ranking poll: p50 {ms(tally.polls, 0.5):.1f} ms, p95 {ms(tally.polls, 0.95):.1f} ms "
        f"({len(tally.polls)} polls); hall screen p95 {ms(tally.hall, 0.95):.1f} ms"
    )
    print(f"bare view (floor): p50 {ms(tally.bare, 0.5):.1f} ms, p95 {ms(tally.bare, 0.95):.1f} ms")
    ratios = [ms(w.polls, 0.95) / ms(w.bare, 0.95) for w in windows if w.polls and w.bare]
    saves95 = [ms(w.saves, 0.95) for w in windows if w.saves]
    if ratios:
        print(f"ranking poll p95 / bare view p95, per window: {spread(ratios, '×', 2)}")
    if saves95:
        print(f"save p95 per window: {spread(saves95, ' ms', 0)}")
    if built:
        print(
            f"board after a table ended (ranking built anew): p50 {ms(built, 0.5):.1f} ms, "
            f"max {max(built) * 1000:.1f} ms; read again (kept): p50 {ms(kept, 0.5):.1f} ms "
            f"({len(built)} changes); built / kept: {spread([b / k for b, k in zip(built, kept, strict=True)], '×', 1)}"
        )
    print(f"errors: {len(tally.errors)}")
    for error in tally.errors[:5]:
        print(f"  error: {error}")
    print(f"hands acknowledged: {hands}, stored: {stored}, lost: {lost}, duplicated: {duplicated}")
    ok = not tally.errors and not lost and not duplicated and hands > 0 and stored == hands
    print("result: ok" if ok else "result: FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
