"""Cup days on one server at a round's end: every table recording Königrufen
hands through its table link, every player's phone polling the board, the
hall screen polling its own link, tables signed off while it all runs.

    .venv/bin/python scripts/bench_tournament.py --all   (the three runs of docs/performance.md)
    .venv/bin/python scripts/bench_tournament.py --players 300              (one day of 300)
    .venv/bin/python scripts/bench_tournament.py --players 400              (one day at the limit)
    .venv/bin/python scripts/bench_tournament.py --players 300 --days 2     (two cups at once)
    .venv/bin/python scripts/bench_tournament.py --database sqlite --players 40 --seconds 20 --rebuild-entrants 0

Starts the app under gunicorn with production settings (gunicorn.conf.py: 3
workers × 4 threads, as the production command runs; --workers and --threads
try others) on 127.0.0.1 with a fresh PostgreSQL database of its own (created and dropped;
PostgreSQL at 127.0.0.1:5432, user postgres), and --days tournaments of
--players entrants each, round 1 drawn and released. A few tables of each day
(--signoffs per window) are played to their target before the clock starts and
held by a phone; the others record during the windows. Then, for --windows
windows of --seconds each:

- every other table is one phone on its table link: it opens the hand form,
  the players take --pause seconds (uniformly 0.5× to 1.5×: a hand every 20 s
  on average, the pace at a round's end) to play the hand, then it saves the
  hand (the first save claims the table) and loads the page the save leads to;
  every tenth hand is sent twice, as a double tap does;
- every player's phone polls the board as the page does (every
  ``BOARD_POLL_SECONDS``, answered 204 when nothing changed), each with a
  cookie and a version of its own: --players phones per day simulated by
  --pollers threads (all from one address, as a hall's wifi). Each phone opened
  the board once before the first window, as at a round's end the players have
  had it open for a while (a first visit the address's budget refuses is made
  again 5 s later, as a player reloads); the time that took is reported;
- the hall screen of each day polls its own link (``/h/<token>/``) every
  ``HALL_POLL_SECONDS`` as the page does;
- --signoffs tables per day are signed through their table links, spread over
  the window, by the phone that holds each; the time from the sign-off's answer
  to the first hall answer that shows it is taken;
- a floor: one thread asks a bare Django view once a second through the same
  server, under the same load.

The polls' p95 is compared with the bare view's p95 of the same window (the
ratio as the median (min–max) over the windows). Answers 429 are counted by
who got them: the hall and the phones that hold a table must get none. Then the
board right after a table is ended (the ranking built anew) and read again,
and, in this process, the ranking rebuilt for a day of --rebuild-entrants
entrants with three rounds typed in at the desk (``results.build_standings``).

Afterwards every hand a table saw acknowledged must be stored exactly once.
Traffic goes only to 127.0.0.1; the run stops by itself.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT_DIR))

from scripts.harness import (  # noqa: E402
    PASSWORD,
    Answer,
    Phone,
    app_database,
    form_token,
    percentile,
    server,
)

DEALER = re.compile(r'<option value="([^"]+)"[^>]*\bselected\b')
VERSION = re.compile(r"since=(\d+)")
SCENARIOS = (
    ("300", ["--players", "300"]),
    ("400", ["--players", "400"]),
    ("2 × 300", ["--players", "300", "--days", "2"]),
)


@dataclass(frozen=True)
class Timed:
    """One answer, where its time went: at the client, before the app (a new
    connection, gunicorn's queue and reading), in the app and on the processor
    (``scripts/server_timing.py``); ``connections`` 2 where the server had closed
    the kept connection and the request went again on a new one."""

    status: int
    seconds: float
    before_app: float | None
    server: tuple[float, float] | None
    connections: int
    sending: float | None = None

    @classmethod
    def of(cls, answer: Answer) -> Timed:
        return cls(
            answer.status,
            answer.seconds,
            answer.before_app,
            answer.server,
            answer.connections,
            answer.sending,
        )


@dataclass
class Tally:
    saves: list[float] = field(default_factory=list)
    forms: list[float] = field(default_factory=list)
    polls: list[float] = field(default_factory=list)
    redraws: list[float] = field(default_factory=list)  # the phones' polls answered with a new board
    redraws_timed: list[Timed] = field(default_factory=list)
    hall: list[float] = field(default_factory=list)
    # Each hall poll and floor request, where its time went (``Timed``).
    hall_timed: list[Timed] = field(default_factory=list)
    bare: list[float] = field(default_factory=list)
    bare_timed: list[Timed] = field(default_factory=list)
    signoffs: list[float] = field(default_factory=list)  # the sign-off's own answer
    to_hall: list[float] = field(default_factory=list)  # sign-off answered → the hall shows it
    limited: Counter[str] = field(default_factory=Counter)  # answers 429, by who got them
    errors: list[str] = field(default_factory=list)
    acknowledged: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name in (
            "saves",
            "forms",
            "polls",
            "redraws",
            "redraws_timed",
            "hall",
            "hall_timed",
            "bare",
            "bare_timed",
            "signoffs",
            "to_hall",
            "errors",
            "acknowledged",
        ):
            getattr(self, name).extend(getattr(other, name))
        self.limited.update(other.limited)


@dataclass
class Signer:
    """A table played to its target before the clock starts, held by ``phone``."""

    token: str
    scorer: str
    checker: str
    phone: Phone | None = None
    cookie: str = ""


@dataclass
class Day:
    """One tournament on the server: its links, the tables that record, those signed."""

    pk: int
    board_token: str
    screen_token: str
    recording: list[tuple[int, str, list[str]]]  # (table pk, link token, players)
    signers: list[Signer]
    # Sign-offs waiting for the hall: (the tournament's version after it, when it was answered).
    pending: list[tuple[int, float]] = field(default_factory=list)
    seen: dict[int, float] = field(default_factory=dict)  # each version the hall showed, first seen at
    lock: threading.Lock = field(default_factory=threading.Lock)

    def signed(self, version: int, answered: float, tally: Tally) -> None:
        """A sign-off answered: timed now if the hall showed its version already, else when it does."""
        with self.lock:
            shown = [at for v, at in self.seen.items() if v >= version]
            if shown:
                tally.to_hall.append(max(0.0, min(shown) - answered))
            else:
                self.pending.append((version, answered))

    def shown(self, version: int, at: float, tally: Tally) -> None:
        with self.lock:
            self.seen.setdefault(version, at)
            done = [(v, answered) for v, answered in self.pending if version >= v]
            self.pending[:] = [item for item in self.pending if item not in done]
        tally.to_hall.extend(max(0.0, at - answered) for _, answered in done)


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
            if page.status == 429:
                tally.limited["claim holder"] += 1
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
            tally.limited["claim holder"] += sum(1 for answer in answers if answer.status == 429)
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


def version_of(page: str) -> str:
    found = VERSION.search(page)
    return found.group(1) if found else ""


@dataclass
class Boards:
    """Players' phones with the board open, simulated by one thread: each phone's
    cookie (as each phone is counted) and the version its board shows."""

    phone: Phone
    jars: list[dict[str, str]]
    versions: list[str]
    refused: int = 0  # answers 429 while the phones opened the board


def open_boards(port: int, token: str, phones: int) -> Boards:
    """``phones`` players open the board once, before the windows: at a round's end
    the phones have had it open for a while (a first visit is not what is measured)."""
    phone = Phone(port)
    boards = Boards(phone, [], [])
    for _ in range(phones):
        phone.cookies = {}
        first = phone.get(f"/b/{token}/")
        while first.status == 429:  # a hall's phones behind one address: opened again a little later
            boards.refused += 1
            time.sleep(5)
            first = phone.get(f"/b/{token}/")
        boards.jars.append(phone.cookies)
        boards.versions.append(version_of(first.body))
    return boards


def poller(boards: Boards, token: str, every: float, deadline: float, tally: Tally, seed: int) -> None:
    """The phones of ``boards`` polling the board, each every ``every`` seconds."""
    phone, jars, versions = boards.phone, boards.jars, boards.versions
    phones = len(jars)
    rng = random.Random(seed)
    interval = every / phones
    next_at = time.monotonic() + rng.uniform(0, interval)
    turn = 0
    while True:
        wait = next_at - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        if time.monotonic() >= deadline:
            break
        which = turn % phones
        phone.cookies = jars[which]
        answer = phone.get(f"/b/{token}/?since={versions[which]}", **{"HX-Request": "true"})
        tally.polls.append(answer.seconds)
        if answer.status == 200:
            tally.redraws.append(answer.seconds)
            tally.redraws_timed.append(Timed.of(answer))
            versions[which] = version_of(answer.body) or versions[which]
        elif answer.status == 429:
            tally.limited["board phone"] += 1
        elif answer.status != 204:
            tally.errors.append(f"board poll: {answer.status}")
        turn += 1
        next_at += interval


def hall(port: int, day: Day, every: float, deadline: float, tally: Tally) -> None:
    """The hall screen on its own link, polling as the page does; each sign-off
    waiting for it is seen when the first answer of its version (or a later) arrives."""
    phone = Phone(port)
    path = f"/h/{day.screen_token}/"
    version = version_of(phone.get(path).body)
    while time.monotonic() < deadline:
        answer = phone.get(f"{path}?since={version}", **{"HX-Request": "true"})
        arrived = time.monotonic()
        tally.hall.append(answer.seconds)
        tally.hall_timed.append(Timed.of(answer))
        if answer.status == 200:
            version = version_of(answer.body) or version
            if version.isdigit():
                day.shown(int(version), arrived, tally)
        elif answer.status == 429:
            tally.limited["hall"] += 1
        elif answer.status != 204:
            tally.errors.append(f"hall: {answer.status}")
        time.sleep(max(0.0, every - answer.seconds))
    phone.close()


def signer(day: Day, signers: list[Signer], seconds: float, deadline: float, tally: Tally, seed: int) -> None:
    """The scorers of ``signers`` sign their tables through their links, spread
    over the window; the tournament's version after each is read here."""
    from tournaments.models import Tournament

    rng = random.Random(seed)
    start = time.monotonic()
    moments = sorted(rng.uniform(0.1, 0.7) * seconds for _ in signers)
    for moment, held in zip(moments, signers, strict=True):
        time.sleep(max(0.0, start + moment - time.monotonic()))
        assert held.phone is not None
        path = f"/t/{held.token}/signoff/"
        try:
            held.phone.get(path)
            answer = held.phone.post(
                path, {"scorer": held.scorer, "checker": held.checker, "token": uuid.uuid4().hex}
            )
            answered = time.monotonic()
            tally.signoffs.append(answer.seconds)
            if answer.status == 429:
                tally.limited["claim holder"] += 1
            if answer.status != 302:
                tally.errors.append(f"sign-off: {answer.status}")
                continue
            version = Tournament.objects.filter(pk=day.pk).values_list("version", flat=True).get()
            day.signed(version, answered, tally)
        except Exception as error:
            tally.errors.append(f"sign-off: {type(error).__name__}: {error}")
    while time.monotonic() < deadline and day.pending:
        time.sleep(0.2)


def floor(port: int, deadline: float, tally: Tally) -> None:
    phone = Phone(port)
    while time.monotonic() < deadline:
        answer = phone.get("/bench/bare/")
        tally.bare.append(answer.seconds)
        tally.bare_timed.append(Timed.of(answer))
        time.sleep(1.0)
    phone.close()


def warm_up(port: int, days: list[Day], rounds: int) -> None:
    """Every worker and thread past its first requests (imports, connections,
    templates) before the clock starts: not what a table waits for all day."""
    phones = [Phone(port) for _ in range(4)]
    for turn in range(rounds):
        phone = phones[turn % len(phones)]
        day = days[turn % len(days)]
        phone.get("/bench/bare/")
        phone.get(f"/b/{day.board_token}/")
        phone.get(f"/h/{day.screen_token}/")
        phone.get(f"/t/{day.recording[turn % len(day.recording)][1]}/")
    for phone in phones:
        phone.close()


def open_all(port: int, days: list[Day], players: int, pollers: int) -> tuple[list[list[Boards]], float]:
    """Every player's phone opens its day's board, ``pollers`` at a time per day; the
    seconds it took."""
    share = max(1, players // pollers)
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=pollers * len(days)) as pool:
        opening = [
            [pool.submit(open_boards, port, day.board_token, share) for _ in range(pollers)] for day in days
        ]
    return [[future.result() for future in day] for day in opening], time.monotonic() - started


def where_it_went(timed: list[Timed], share: float = 1.0) -> str:
    """Each part's p50 and, with ``share`` below 1, its percentile, and the slowest."""
    parts = [
        ("at the client", [t.seconds for t in timed]),
        ("before the app", [t.before_app for t in timed if t.before_app is not None]),
        ("of it in the client, sending", [t.sending for t in timed if t.sending is not None]),
        ("in the app", [t.server[0] for t in timed if t.server]),
        ("on the processor", [t.server[1] for t in timed if t.server]),
    ]
    return ", ".join(
        f"{name} {ms(values, 0.5):.1f}"
        + (f" / {ms(values, share):.1f}" if share < 1 else "")
        + f" / {max(values) * 1000:.1f} ms"
        for name, values in parts
        if values
    )


def ms(values: list[float], share: float) -> float:
    return percentile(values, share) * 1000


def spread(values: list[float], unit: str = "", digits: int = 1) -> str:
    if not values:
        return "–"
    return f"{statistics.median(values):.{digits}f}{unit} ({min(values):.{digits}f}–{max(values):.{digits}f})"


def rufer(names: list[str], dealer: str, n: int) -> dict[str, str]:
    """A Rufer at a table of four or five: the dealer of a five-table sits out."""
    playing = [name for name in names if len(names) == 4 or name != dealer]
    return {
        "dealer": dealer,
        "declarer": playing[n % 4],
        "game": "rufer",
        "partner": playing[(n + 1) % 4],
        "points": "41/2",
    }


def make_day(owner: Any, number: int, players: int, signed: int) -> Day:
    """A tournament of ``players`` entrants, round 1 drawn and released, its board
    shared; ``signed`` of its tables played to their target, each held by a phone."""
    from scoring import services as scoring
    from tournaments.models import TableRound, Tournament
    from tournaments.services import entrants, plan, results, tables, tournaments

    cup_day = tournaments.tournament_create(
        owner=owner,
        name=f"Cupabend {number}",
        played_on=date(2025, 11, 21),
        variant="koenigrufen",
        settings={},
        money_rate=Decimal("0.10"),
        seed=f"{482915 + number:06d}",
    )
    for start in range(1, players + 1):
        entrants.entrant_add(tournament=cup_day, user=owner, name=f"Spieler {number}-{start:03d}")
    plan.plan_draw(tournament=cup_day, user=owner)
    plan.round_release(tournament=cup_day, user=owner)
    cup_day.refresh_from_db()
    board_token = results.board_share(tournament=cup_day)
    screen_token = Tournament.objects.get(pk=cup_day.pk).screen_token or ""
    found = list(TableRound.objects.filter(round__tournament=cup_day, round__number=1).order_by("number"))
    seated = {
        t.pk: [s.entrant.name for s in t.seats.select_related("entrant").order_by("position")] for t in found
    }
    signers = []
    for t in found[len(found) - signed :]:
        cookie = tables.new_phone_cookie()
        t = tables.table_by_token(t.link_token)
        assert tables.claim(t, cookie)
        session = tables.open_table(t)
        names = [seat.name for seat in session.seats.order_by("position")]
        first = names.index(session.first_dealer) if session.first_dealer in names else 0
        for n in range(t.hands_target):
            scoring.hand_record(session=session, raw=rufer(names, names[(first + n) % len(names)], n))
        signers.append(Signer(t.link_token, names[0], names[1], cookie=cookie))
    recording = [(t.pk, t.link_token, seated[t.pk]) for t in found[: len(found) - signed]]
    return Day(cup_day.pk, board_token, screen_token, recording, signers)


def rebuild_in_process(owner: Any, entrants_count: int, repeats: int) -> list[float]:
    """The ranking built anew (``results.build_standings``) for a day of
    ``entrants_count`` entrants, three rounds typed in at the desk: seconds each time."""
    from tournaments.models import TableRound, Tournament
    from tournaments.services import desk, entrants, plan, results, tournaments

    rng = random.Random(entrants_count)
    t = tournaments.tournament_create(
        owner=owner,
        name="Rangliste",
        played_on=date(2025, 11, 22),
        variant="koenigrufen",
        settings={},
        money_rate=Decimal("0.10"),
        seed="111111",
    )
    for start in range(1, entrants_count + 1):
        entrants.entrant_add(tournament=t, user=owner, name=f"Rang {start:03d}")
    plan.plan_draw(tournament=t, user=owner)
    rounds = int(Tournament.objects.get(pk=t.pk).settings["rounds"])
    for number in range(1, rounds + 1):
        plan.round_release(tournament=Tournament.objects.get(pk=t.pk), user=owner)
        for found in TableRound.objects.filter(round__tournament=t, round__number=number).order_by("number"):
            numbers = list(found.seats.order_by("position").values_list("entrant__number", flat=True))
            sums = [rng.randrange(-60, 61) for _ in numbers[1:]]
            by_number = dict(zip(numbers, [-sum(sums), *sums], strict=True))
            desk.desk_enter(
                tournament=Tournament.objects.get(pk=t.pk), user=owner, table_id=found.pk, sums=by_number
            )
    ranked = Tournament.objects.get(pk=t.pk)
    seconds = []
    for _ in range(repeats):
        started = time.perf_counter()
        results.build_standings(ranked)
        seconds.append(time.perf_counter() - started)
    return seconds


def run_all(args: argparse.Namespace) -> int:
    """The three runs of docs/performance.md, one after another, each on a fresh database."""
    worst = 0
    for name, extra in SCENARIOS:
        print(f"== {name} ==", flush=True)
        command = [sys.executable, __file__, "--database", args.database, *extra]
        command += [
            "--windows",
            str(args.windows),
            "--seconds",
            str(args.seconds),
            "--pause",
            str(args.pause),
        ]
        command += ["--rebuild-entrants", str(args.rebuild_entrants if name == "400" else 0)]
        worst = max(worst, subprocess.run(command, check=False).returncode)
    return worst


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="one day of 300, one of 400, two days of 300")
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="postgres")
    parser.add_argument("--players", type=int, default=300, help="entrants per day")
    parser.add_argument("--days", type=int, default=1, help="tournaments at once on the server")
    parser.add_argument(
        "--pollers", type=int, default=20, help="threads per day simulating the players' phones"
    )
    parser.add_argument("--pause", type=float, default=20.0, help="seconds a table takes per hand")
    parser.add_argument("--seconds", type=float, default=40.0, help="length of one window")
    parser.add_argument("--windows", type=int, default=3)
    parser.add_argument("--signoffs", type=int, default=2, help="tables signed per day and window")
    parser.add_argument("--rebuilds", type=int, default=8, help="tables ended one by one at the end")
    parser.add_argument(
        "--rebuild-entrants", type=int, default=400, help="the ranking rebuilt in process (0: not)"
    )
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args()
    if args.all:
        return run_all(args)

    with app_database(args.database, "cupday") as env:
        from django.contrib.auth.models import User

        from scoring.models import Hand
        from tournaments.models import TableRound, Tournament
        from tournaments.services import desk, tables
        from tournaments.views.board import BOARD_POLL_SECONDS, HALL_POLL_SECONDS

        owner = User.objects.create_user("organiser", password=PASSWORD)
        days = [
            make_day(owner, n, args.players, args.signoffs * args.windows) for n in range(1, args.days + 1)
        ]

        windows: list[Tally] = []
        everything = Tally()
        acknowledged: dict[int, list[str]] = {}
        with server(env, workers=args.workers, threads=args.threads) as port:
            phones = {pk: Phone(port) for day in days for pk, _, _ in day.recording}  # each keeps its claim
            for day in days:
                for held in day.signers:
                    held.phone = Phone(port)
                    held.phone.cookies[tables.PHONE_COOKIE] = held.cookie
            warm_up(port, days, args.workers * args.threads)
            opened, opening = open_all(port, days, args.players, args.pollers)
            everything.limited["board phone opening"] += sum(
                boards.refused for day in opened for boards in day
            )
            started = time.monotonic()
            for window in range(args.windows):
                tally = Tally()
                deadline = time.monotonic() + args.seconds
                mine = {pk: Tally() for day in days for pk, _, _ in day.recording}
                threads = [
                    threading.Thread(
                        target=table, args=(phones[pk], token, names, args.pause, deadline, mine[pk])
                    )
                    for day in days
                    for pk, token, names in day.recording
                ]
                for d, day in enumerate(days):
                    threads += [
                        threading.Thread(
                            target=poller,
                            args=(boards, day.board_token, BOARD_POLL_SECONDS, deadline, tally, 100 * d + i),
                        )
                        for i, boards in enumerate(opened[d])
                    ]
                    threads.append(
                        threading.Thread(target=hall, args=(port, day, HALL_POLL_SECONDS, deadline, tally))
                    )
                    turn = day.signers[window * args.signoffs : (window + 1) * args.signoffs]
                    threads.append(
                        threading.Thread(
                            target=signer, args=(day, turn, args.seconds, deadline, tally, 1000 * d + window)
                        )
                    )
                threads.append(threading.Thread(target=floor, args=(port, deadline, tally)))
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join(timeout=args.seconds + 300)
                for pk, part in mine.items():
                    tally.add(part)
                    acknowledged.setdefault(pk, []).extend(part.acknowledged)
                for day in days:
                    if day.pending:
                        tally.errors.append(
                            f"{len(day.pending)} sign-offs never reached the hall in the window"
                        )
                        day.pending.clear()
                windows.append(tally)
                everything.add(tally)
            elapsed = time.monotonic() - started
            for phone in [*phones.values(), *(boards.phone for day in opened for boards in day)]:
                phone.close()

            # The board right after a change that enters the ranking (a table ended), and read again.
            built, kept = [], []
            reader = Phone(port)
            first_day = days[0]
            reader.get(f"/b/{first_day.board_token}/")
            for pk, _, _ in first_day.recording[: args.rebuilds]:
                desk.table_end(
                    tournament=Tournament.objects.get(pk=first_day.pk),
                    user=owner,
                    table_id=pk,
                    reason="bench",
                )
                first = reader.get(f"/b/{first_day.board_token}/")
                again = reader.get(f"/b/{first_day.board_token}/")
                if first.status != 200 or again.status != 200:
                    everything.errors.append(f"board after a change: {first.status}, {again.status}")
                built.append(first.seconds)
                kept.append(again.seconds)
            reader.close()

        lost = duplicated = stored = 0
        for pk, tokens_seen in acknowledged.items():
            session_id = TableRound.objects.filter(pk=pk).values_list("session_id", flat=True).get()
            tokens = list(Hand.objects.filter(session_id=session_id).values_list("client_token", flat=True))
            stored += len(tokens)
            lost += sum(1 for token in tokens_seen if token not in tokens)
            duplicated += len(tokens) - len(set(tokens))
        rebuilt = rebuild_in_process(owner, args.rebuild_entrants, 10) if args.rebuild_entrants else []
    return report(args, elapsed, opening, windows, everything, built, kept, rebuilt, stored, lost, duplicated)


def report(
    args: argparse.Namespace,
    elapsed: float,
    opening: float,
    windows: list[Tally],
    tally: Tally,
    built: list[float],
    kept: list[float],
    rebuilt: list[float],
    stored: int,
    lost: int,
    duplicated: int,
) -> int:
    from tournaments.views.board import BOARD_POLL_SECONDS, HALL_POLL_SECONDS

    tables_count = args.days * (args.players // 4)
    hands = len(tally.acknowledged)
    phones = args.days * args.players
    print(
        f"database: {args.database}, {args.days} × {args.players} players at {tables_count} tables, "
        f"{args.windows} windows of {args.seconds:.0f} s, gunicorn {args.workers} workers × {args.threads} threads"
    )
    print(
        f"pace: a hand per table every {args.pause:.0f} s on average ({hands / elapsed:.1f} saves/s); "
        f"{phones} phones polling the board every {BOARD_POLL_SECONDS} s ({phones / BOARD_POLL_SECONDS:.0f} polls/s), "
        f"{args.days} hall screen(s) every {HALL_POLL_SECONDS} s, {args.signoffs * args.days} sign-offs per window"
    )
    print(
        f"before the windows, every phone opened the board ({args.pollers} at a time per day): {opening:.1f} s"
    )
    print(
        f"save: p50 {ms(tally.saves, 0.5):.0f} ms, p95 {ms(tally.saves, 0.95):.0f} ms ({len(tally.saves)} posts)"
    )
    print(f"save p95 per window: {spread([ms(w.saves, 0.95) for w in windows if w.saves], ' ms', 0)}")
    print(f"hand form: p50 {ms(tally.forms, 0.5):.0f} ms, p95 {ms(tally.forms, 0.95):.0f} ms")
    print(
        f"phone's board poll: p50 {ms(tally.polls, 0.5):.1f} ms, p95 {ms(tally.polls, 0.95):.1f} ms ({len(tally.polls)} polls); "
        f"of them answered with a new board: p50 {ms(tally.redraws, 0.5):.1f} ms, p95 {ms(tally.redraws, 0.95):.1f} ms ({len(tally.redraws)})"
    )
    print(
        f"hall screen's poll: p50 {ms(tally.hall, 0.5):.1f} ms, p95 {ms(tally.hall, 0.95):.1f} ms ({len(tally.hall)} polls)"
    )
    print(f"bare view (floor): p50 {ms(tally.bare, 0.5):.1f} ms, p95 {ms(tally.bare, 0.95):.1f} ms")
    for what, timed in (
        ("hall's redraws", [t for t in tally.hall_timed if t.status == 200]),
        ("hall's unchanged polls (204)", [t for t in tally.hall_timed if t.status == 204]),
        ("bare view", tally.bare_timed),
    ):
        if timed:
            print(f"{what} ({len(timed)}), where the time went, p50 / max: {where_it_went(timed)}")
    if tally.redraws_timed:
        print(
            f"phones' redraws ({len(tally.redraws_timed)}), where the time went, p50 / p95 / max: "
            f"{where_it_went(tally.redraws_timed, 0.95)}"
        )
    again = sum(1 for t in tally.hall_timed if t.connections > 1)
    print(f"hall polls sent again on a new connection (the kept one closed by the server): {again}")
    for name, values in (("phone's poll", "polls"), ("hall's poll", "hall")):
        ratios = [
            ms(getattr(w, values), 0.95) / ms(w.bare, 0.95) for w in windows if getattr(w, values) and w.bare
        ]
        print(f"{name} p95 / bare view p95, per window: {spread(ratios, '×', 2)}")
    print(
        f"sign-off through the link: p50 {ms(tally.signoffs, 0.5):.0f} ms ({len(tally.signoffs)}); "
        f"sign-off answered → on the hall screen: {spread(tally.to_hall, ' s', 2)} ({len(tally.to_hall)} seen)"
    )
    print(
        "answers 429: "
        + ", ".join(
            f"{who} {tally.limited.get(who, 0)}"
            for who in ("hall", "claim holder", "board phone", "board phone opening")
        )
    )
    if built:
        print(
            f"board after a table ended (ranking built anew): p50 {ms(built, 0.5):.1f} ms, "
            f"max {max(built) * 1000:.1f} ms; read again (kept): p50 {ms(kept, 0.5):.1f} ms ({len(built)} changes)"
        )
    if rebuilt:
        print(
            f"ranking rebuilt in process, {args.rebuild_entrants} entrants, 3 rounds: "
            f"{spread([s * 1000 for s in rebuilt], ' ms', 1)} ({len(rebuilt)} times)"
        )
    print(f"errors: {len(tally.errors)}")
    for error in tally.errors[:5]:
        print(f"  error: {error}")
    print(f"hands acknowledged: {hands}, stored: {stored}, lost: {lost}, duplicated: {duplicated}")
    # The hall, a claim holder and a hall's phones opening the board (one address) never wait.
    must_not_wait = sum(tally.limited.get(who, 0) for who in ("hall", "claim holder", "board phone opening"))
    ok = (
        not tally.errors
        and not lost
        and not duplicated
        and hands > 0
        and stored == hands
        and not must_not_wait
    )
    print("result: ok" if ok else "result: FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
