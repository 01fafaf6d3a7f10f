"""The circuit at scale: every season page, qualification list and the player's
own view of a season of 7 cups × 25 tournaments × 150 players against the bare
view in the same run, and the time from a tournament made final until the pages
are drawn anew.

    .venv/bin/python scripts/bench_circuit.py                                  (the full season, PostgreSQL)
    .venv/bin/python scripts/bench_circuit.py --database sqlite
    .venv/bin/python scripts/bench_circuit.py --cups 2 --tournaments 3 --players 20 --rounds 2 --samples 5

Seeds a fresh database (PostgreSQL at 127.0.0.1:5432, user postgres, created and
dropped; or an SQLite file) straight through the models the pages read, the way
a season's tournaments made final leave them: a circuit with --register entries
(default: 3,000 for the full season; some in two cups, a few with a category or
a shortened public name), --cups cups of tiers A, B, C in turn, each with
--tournaments tournaments of --players entrants drawn from the cup's pool, each
with its places, totals and cup points by the cup's scheme, three round results
per entrant and the tournament final (``bulk_create``, no hand is played); two
side rankings on the first cup; the circuit's final (a cup of its own that does
not qualify) with the qualified players' results. One more tournament of the
first cup is played through the services (entrants from the register, the draw,
every table of three rounds typed in at the desk, provisional) and its board is
shared: it is the one made final.

The app runs under gunicorn with production settings (3 workers × 4 threads) on
127.0.0.1, the cache in each worker's memory. One logged-in client asks, one
request at a time, in turn for the page's bare view (a Django view that answers
"ok" behind the same check the page passes before its own work: for the
organiser's pages the login check, as ``scripts/bench_groups.py`` has it; for the
board link's pages the board link's, ``board_view``: the link's tournament read,
the phone's and the link's budgets counted), for a board link's page the public
bare view too (no check at all), the page floor (a logged-in page of nothing but
base.html, as ``make bench`` has it) and the page, --samples times per page and
round, in --rounds rounds, after every page was opened twice (built and kept for
this version): the organiser's season table of the first cup, its side
rankings, its qualification list, the circuit's qualified list, the
Gesamtwertung, the circuit's and the cup's honours, and from the board link
Meine Saison, Mein Tag and the cup's season table (a new board cookie per
request, its bare view's too, as many phones). Each page's ratio to its bare
view (and to the public one and the page floor) is the ratio of the medians of
one round, given as median (min–max) over the rounds.

Then, --rebuilds times: the tournament is opened again (``tournament_reopen``,
every page opened once, not timed) and made final (``tournament_final``, timed
in this process), and every page is asked for once right after, in the order
above: from the service's call until the last page has answered is the time to
rebuild; each page's first answer after the change is given beside its answer
when read again.

Traffic goes only to 127.0.0.1; the run stops by itself.
"""

from __future__ import annotations

import argparse
import random
import secrets
import statistics
import sys
import time
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

ROOT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT_DIR))

from scripts.harness import PASSWORD, Phone, app_database, percentile, server  # noqa: E402

TARGET = 3.0  # a page's p50 within this many times the bare view's p50 (issue 32)
SEASON_START = date(2025, 9, 6)
BOARD_COOKIE = "tarock_board"  # tournaments.views.board.BOARD_COOKIE: each request a phone of its own


@dataclass
class Season:
    """What the seeding made: ids and links the pages are asked by."""

    circuit: int
    cup: int
    tournament: int  # the one made final
    board_token: str
    number: int  # the register number of a player of that tournament (Meine Saison, Mein Tag)
    results: int
    register: int
    seeded: float = 0.0
    played: float = 0.0


# The bare views, by what they pass before answering "ok" (``bench_urls``).
PUBLIC, LOGIN, BOARD_LINK = "bare view", "bare view, login checked", "bare view, board link checked"


@dataclass
class Page:
    label: str
    path: str
    board: str  # the board link's token for a page opened from it (a phone); "": by the logged-in organiser

    @property
    def floor(self) -> str:
        """The kind of its bare view: behind the check the page passes before its own
        work, the login for the organiser's pages, the board link's for its pages."""
        return BOARD_LINK if self.board else LOGIN

    @property
    def bare(self) -> str:
        return f"/bench/bare-board/{self.board}/" if self.board else "/bench/bare-login/"

    ratios: list[float] = field(default_factory=list)  # to the bare view, per round
    to_public: list[float] = field(default_factory=list)  # a board link's page: to the public bare view
    to_floor: list[float] = field(default_factory=list)  # to the page floor, per round
    times: list[float] = field(default_factory=list)
    first: list[float] = field(default_factory=list)  # right after the tournament was made final
    again: list[float] = field(default_factory=list)  # the same page read once more


def pool_of(cup: int, cups: int, register: int, players: int) -> list[int]:
    """The register numbers who play in ``cup``: a window of the register, overlapping
    its neighbours' (so some play in two cups)."""
    size = min(register, max(players, 2 * register // cups))
    step = (register - size) // max(1, cups - 1)
    return list(range(1 + cup * step, 1 + cup * step + size))


def seed(args: argparse.Namespace) -> Season:
    """The season, straight through the models; then one tournament played through the services."""
    from django.contrib.auth.models import User
    from django.db import transaction
    from django.utils import timezone

    from scoring.models import Player
    from tournaments.core import cup as cup_rules
    from tournaments.models import (
        Circuit,
        CircuitPlayer,
        Cup,
        Tournament,
    )
    from tournaments.services import circuit as circuits
    from tournaments.services import circuit_final as finals
    from tournaments.services import cups as cup_services
    from tournaments.services import side
    from tournaments.services import tournaments as tournament_services

    started = time.perf_counter()
    rng = random.Random(args.seed)
    owner = User.objects.create_user("organiser", password=PASSWORD)
    circuit = circuits.circuit_create(owner=owner, name="Tarock Österreich", season="2025/26")
    category = circuit.categories[0]
    # The tournament made final is created first: its settings are every seeded one's.
    measured = tournament_services.tournament_create(
        owner=owner,
        name="Cupabend gemessen",
        played_on=SEASON_START + timedelta(days=7 * args.tournaments + 14),
        variant="koenigrufen",
        settings={},
        money_rate=None,
        seed="482915",
    )
    names = {n: (f"Familie{n:04d}", "Eva" if n % 3 else "Karl") for n in range(1, args.register + 1)}
    CircuitPlayer.objects.bulk_create(
        (
            CircuitPlayer(
                circuit=circuit,
                number=n,
                family=family,
                given=given,
                place="Wien" if n % 4 else "Linz",
                match_key=circuits.key_text(family, given, "Wien" if n % 4 else "Linz"),
                categories=[category] if n % 4 == 1 else [],
                public_name="short" if n % 10 == 0 else "full",
            )
            for n, (family, given) in names.items()
        ),
        batch_size=1000,
    )
    register = {row.number: row for row in CircuitPlayer.objects.filter(circuit=circuit)}
    players = {
        p.name: p
        for p in Player.objects.bulk_create(
            (Player(owner=owner, name=f"{family} {given}") for family, given in names.values()),
            batch_size=1000,
        )
    }
    results = 0
    cup_rows = []
    for c in range(args.cups):
        cup = cup_services.cup_create(owner=owner, name=f"Cup {c + 1}", season="2025/26")
        Cup.objects.filter(pk=cup.pk).update(circuit=circuit, circuit_tier="ABC"[c % 3], version=2)
        cup.refresh_from_db()
        cup_rows.append(cup)
        pool = pool_of(c, args.cups, args.register, args.players)
        entries = _register_names(cup, pool, names, register)
        days = [
            Tournament(
                owner=owner,
                name=f"Cup {c + 1} Turnier {d + 1}",
                played_on=SEASON_START + timedelta(days=7 * d + c % 7),
                variant="koenigrufen",
                options=measured.options,
                settings=measured.settings,
                seed="000000",
                status=Tournament.Status.FINAL,
                closed_at=timezone.now(),
                cup=cup,
                region="Wien" if d % 3 else "Niederösterreich",
            )
            for d in range(args.tournaments)
        ]
        Tournament.objects.bulk_create(days)
        with transaction.atomic():
            for day in days:
                results += _results(day, rng.sample(pool, args.players), entries, players, cup, cup_rules)
    with transaction.atomic():
        final_cup = cup_services.cup_create(owner=owner, name="Finale", season="2025/26")
        Cup.objects.filter(pk=final_cup.pk).update(circuit=circuit, circuit_qualifies=False)
        qualified = [q.row.player for q in finals.standings_built(circuit).qualified]
        final = Tournament.objects.create(
            owner=owner,
            name="Finale",
            played_on=SEASON_START + timedelta(days=7 * args.tournaments + 60),
            variant="koenigrufen",
            options=measured.options,
            settings=measured.settings,
            seed="000000",
            status=Tournament.Status.FINAL,
            closed_at=timezone.now(),
            cup=final_cup,
        )
        finalists = qualified[: args.finalists]
        final_entries = _register_names(final_cup, finalists, names, register)
        results += _results(
            final, rng.sample(finalists, len(finalists)), final_entries, players, final_cup, cup_rules
        )
        Circuit.objects.filter(pk=circuit.pk).update(final=final, open_final=False, version=2)
    first = Cup.objects.get(pk=cup_rows[0].pk)
    side.side_ranking_add(user=owner, cup=first, name="Damen", kind="category", value=category)
    side.side_ranking_add(user=owner, cup=first, name="Out-of-Vienna", kind="region_not", value="Wien")
    seeded = time.perf_counter() - started

    started = time.perf_counter()
    pool = pool_of(0, args.cups, args.register, args.players)
    field_numbers = rng.sample(pool, args.players)
    played = _played(owner, measured, first, field_numbers, names, rng)
    return Season(
        circuit.pk,
        first.pk,
        played.pk,
        played.board_token or "",
        field_numbers[0],
        results,
        args.register,
        seeded,
        time.perf_counter() - started,
    )


def _register_names(
    cup: Any, numbers: list[int], names: dict[int, tuple[str, str]], register: dict[int, Any]
) -> dict[int, Any]:
    """The cup's register entry (``CupPlayer``) of each number, linked to the circuit's, by number."""
    from tournaments.models import CupPlayer

    made = CupPlayer.objects.bulk_create(
        (
            CupPlayer(
                cup=cup,
                name=f"{names[n][0]} {names[n][1]}",
                place=register[n].place,
                circuit_player=register[n],
            )
            for n in numbers
        ),
        batch_size=1000,
    )
    return dict(zip(numbers, made, strict=True))


def _results(
    tournament: Any,
    numbers: list[int],
    entries: dict[int, Any],
    players: dict[str, Any],
    cup: Any,
    cup_rules: Any,
) -> int:
    """A tournament's entrants in ``numbers``' order as its final ranking: places,
    totals, cup points by the cup's scheme, and three counted round results each."""
    from tournaments.models import Entrant, Round, RoundResult, TableRound, TournamentPlace

    made = Entrant.objects.bulk_create(
        Entrant(
            tournament=tournament,
            number=start,
            name=entries[n].name,
            place=entries[n].place,
            player=players[entries[n].name],
            cup_player=entries[n],
        )
        for start, n in enumerate(numbers, 1)
    )
    rounds = Round.objects.bulk_create(
        Round(tournament=tournament, number=k, status=Round.Status.COMPLETE) for k in (1, 2, 3)
    )
    # One table per round holds the round's results: the pages read the rows, not the seating.
    held = TableRound.objects.bulk_create(
        TableRound(
            round=r,
            number=1,
            size=4,
            hands_target=24,
            link_token=secrets.token_urlsafe(24),
            short_code=secrets.token_hex(3),
            status=TableRound.Status.DESK,
        )
        for r in rounds
    )
    totals = [600 - 4 * place for place in range(len(made))]
    TournamentPlace.objects.bulk_create(
        (
            TournamentPlace(
                tournament=tournament,
                entrant=entrant,
                place=place,
                total=Decimal(total),
                cup_points=_decimal(
                    cup_rules.points(
                        cup.scheme,
                        place=place,
                        total=Fraction(total),
                        ranked=len(made),
                        points_table=cup.points_table or (),
                    )
                ),
                final=True,
            )
            for place, (entrant, total) in enumerate(zip(made, totals, strict=True), 1)
        ),
        batch_size=1000,
    )
    RoundResult.objects.bulk_create(
        (
            RoundResult(
                tournament=tournament,
                round=r,
                entrant=entrant,
                table=table,
                points=Decimal(total // 3 + (total % 3 if k == 0 else 0)),
                counted=True,
                hands_played=24,
            )
            for entrant, total in zip(made, totals, strict=True)
            for k, (r, table) in enumerate(zip(rounds, held, strict=True))
        ),
        batch_size=1000,
    )
    return len(made)


def _decimal(value: Fraction) -> Decimal:
    return Decimal(value.numerator) / Decimal(value.denominator)


def _played(
    owner: Any, t: Any, cup: Any, numbers: list[int], names: dict[int, tuple[str, str]], rng: random.Random
) -> Any:
    """The tournament played through the services: in the cup, its entrants the
    register's names, drawn, every table of every round typed in at the desk,
    provisional, the complaint window over, the board shared."""
    from tournaments.models import TableRound, Tournament, TournamentChange
    from tournaments.services import cups as cup_services
    from tournaments.services import desk, entrants, plan, results
    from tournaments.services import tournaments as tournament_services

    t = Tournament.objects.get(pk=t.pk)
    cup_services.tournament_cup_set(tournament=t, user=owner, cup=cup, final=False, factor=1)
    entrants.entrants_add(
        tournament=Tournament.objects.get(pk=t.pk),
        user=owner,
        entrants=[entrants.NewEntrant(f"{names[n][0]} {names[n][1]}") for n in numbers],
    )
    plan.plan_draw(tournament=Tournament.objects.get(pk=t.pk), user=owner)
    rounds = int(Tournament.objects.get(pk=t.pk).settings["rounds"])
    for number in range(1, rounds + 1):
        plan.round_release(tournament=Tournament.objects.get(pk=t.pk), user=owner)
        for table in TableRound.objects.filter(round__tournament=t, round__number=number).order_by("number"):
            starts = list(table.seats.order_by("position").values_list("entrant__number", flat=True))
            sums = [rng.randrange(-60, 61) for _ in starts[1:]]
            desk.desk_enter(
                tournament=Tournament.objects.get(pk=t.pk),
                user=owner,
                table_id=table.pk,
                sums=dict(zip(starts, [-sum(sums), *sums], strict=True)),
            )
    tournament_services.tournament_provisional(tournament=Tournament.objects.get(pk=t.pk), user=owner)
    minutes = Tournament.objects.get(pk=t.pk).settings.get("complaint_minutes") or 0
    for change in TournamentChange.objects.filter(tournament=t, action=TournamentChange.Action.PROVISIONAL):
        TournamentChange.objects.filter(pk=change.pk).update(at=change.at - timedelta(minutes=minutes + 1))
    results.board_share(Tournament.objects.get(pk=t.pk))
    return Tournament.objects.get(pk=t.pk)


def pages(season: Season) -> list[Page]:
    k, c, token = season.circuit, season.cup, season.board_token
    return [
        Page("cup season table", f"/cups/{c}/", ""),
        Page("cup side rankings", f"/cups/{c}/sides/", ""),
        Page("qualification list", f"/circuits/{k}/cups/{c}/qualification/", ""),
        Page("circuit's qualified list", f"/circuits/{k}/qualified/", ""),
        Page("Gesamtwertung", f"/circuits/{k}/final/ranking/", ""),
        Page("circuit honours", f"/circuits/{k}/honours/", ""),
        Page("cup honours", f"/cups/{c}/honours/", ""),
        Page("Meine Saison (board link)", f"/b/{token}/me/season/", token),
        Page("Mein Tag (board link)", f"/b/{token}/me/", token),
        Page("cup season (board link)", f"/b/{token}/season/", token),
    ]


def fetch(phone: Phone, page: Page, errors: list[str], path: str = "") -> float:
    """The page (or ``path``, its bare view), from a phone of its own where it is the board link's."""
    if page.board:
        phone.cookies[BOARD_COOKIE] = secrets.token_urlsafe(16)
    answer = phone.get(path or page.path)
    if answer.status != 200:
        errors.append(f"GET {path or page.path}: {answer.status}")
    return answer.seconds


def measure(
    phone: Phone, shown: list[Page], args: argparse.Namespace, errors: list[str]
) -> tuple[dict[str, list[float]], list[float]]:
    """Paired timing: the page's bare view (and, for the board link's pages, the public
    one), the page floor and the page in turn; the bare views' times by kind, and
    the page floor's."""
    bare_all: dict[str, list[float]] = {}
    floor_all: list[float] = []
    for page in shown:  # built once for this version, and read once kept
        fetch(phone, page, errors)
        fetch(phone, page, errors)
    for _round in range(args.rounds):
        for page in shown:
            bare, public, floor, times = [], [], [], []
            for _ in range(args.samples):
                bare.append(fetch(phone, page, errors, page.bare))
                if page.board:
                    public.append(phone.get("/bench/bare/").seconds)
                floor.append(phone.get("/bench/floor/").seconds)
                times.append(fetch(phone, page, errors))
            page.times.extend(times)
            page.ratios.append(statistics.median(times) / statistics.median(bare))
            if public:
                page.to_public.append(statistics.median(times) / statistics.median(public))
            page.to_floor.append(statistics.median(times) / statistics.median(floor))
            bare_all.setdefault(page.floor, []).extend(bare)
            bare_all.setdefault(PUBLIC, []).extend(public)
            floor_all.extend(floor)
    return bare_all, floor_all


def rebuild(
    phone: Phone, shown: list[Page], season: Season, args: argparse.Namespace, errors: list[str]
) -> tuple[list[float], list[float]]:
    """``--rebuilds`` times: reopened where final (pages opened once), then made final through the
    service and every page asked for once: the service's seconds, and from its call
    until the last page answered."""
    from django.contrib.auth.models import User

    from tournaments.models import Tournament
    from tournaments.services import tournaments as tournament_services

    owner = User.objects.get(username="organiser")
    service, whole = [], []
    for n in range(args.rebuilds):
        if Tournament.objects.get(pk=season.tournament).status == Tournament.Status.FINAL:
            tournament_services.tournament_reopen(
                tournament=Tournament.objects.get(pk=season.tournament), user=owner, reason=f"bench {n}"
            )
        for page in shown:
            fetch(phone, page, errors)
        started = time.perf_counter()
        tournament_services.tournament_final(
            tournament=Tournament.objects.get(pk=season.tournament), user=owner
        )
        service.append(time.perf_counter() - started)
        for page in shown:
            page.first.append(fetch(phone, page, errors))
        whole.append(time.perf_counter() - started)
        for page in shown:
            page.again.append(fetch(phone, page, errors))
    return service, whole


def ms(values: list[float], share: float) -> float:
    return percentile(values, share) * 1000


def spread(values: list[float], unit: str = "", digits: int = 1, scale: float = 1.0) -> str:
    if not values:
        return "–"
    scaled = [v * scale for v in values]
    return f"{statistics.median(scaled):.{digits}f}{unit} ({min(scaled):.{digits}f}–{max(scaled):.{digits}f})"


def report(
    args: argparse.Namespace,
    season: Season,
    shown: list[Page],
    bare: dict[str, list[float]],
    floor: list[float],
    service: list[float],
    whole: list[float],
    errors: list[str],
) -> int:
    print(
        f"database: {args.database}; circuit: {args.cups} cups × {args.tournaments} tournaments × "
        f"{args.players} players ({season.results:,} results with the final's, {season.register:,} register "
        f"entries), seeded in {season.seeded:.1f} s, the measured tournament played at the desk in "
        f"{season.played:.1f} s; gunicorn 3 × 4, loopback; {args.rounds} rounds × {args.samples} requests"
    )
    for label in (PUBLIC, LOGIN, BOARD_LINK):
        times = bare.get(label, [])
        print(f"{label:<30} p50 {ms(times, 0.5):7.1f} ms  p95 {ms(times, 0.95):7.1f} ms")
    print(
        f"{'page floor (login + base.html)':<30} p50 {ms(floor, 0.5):7.1f} ms  p95 {ms(floor, 0.95):7.1f} ms"
    )
    missed = []
    for page in shown:
        ratio = statistics.median(page.ratios) if page.ratios else float("inf")
        verdict = "ok" if ratio <= TARGET else "MISSED"
        if verdict != "ok":
            missed.append(page.label)
        print(
            f"{page.label:<30} p50 {ms(page.times, 0.5):7.1f} ms  p95 {ms(page.times, 0.95):7.1f} ms  "
            f"{spread(page.ratios, '×', 2)} its bare view, "
            + (f"{spread(page.to_public, '×', 2)} the public one, " if page.board else "")
            + f"{spread(page.to_floor, '×', 2)} the page floor   "
            f"target ≤ {TARGET:g}× its bare view: {verdict}"
        )
    print(
        f"made final (tournament_final, {args.players} entrants, in process): "
        f"{spread(service, ' ms', 1, 1000)} ({len(service)} times)"
    )
    print(
        f"made final → every page above drawn anew, one request each: {spread(whole, ' s', 2)} ({len(whole)} times)"
    )
    for page in shown:
        print(
            f"  {page.label:<28} first after the change p50 {ms(page.first, 0.5):7.1f} ms, "
            f"max {max(page.first, default=0) * 1000:7.1f} ms; read again p50 {ms(page.again, 0.5):6.1f} ms"
        )
    print(f"errors: {len(errors)}")
    for error in errors[:5]:
        print(f"  error: {error}")
    print("target (p50 ≤ 3 × its bare view): " + ("ok" if not missed else "missed: " + ", ".join(missed)))
    print("result: ok" if not errors else "result: FAILED")
    return 0 if not errors else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="postgres")
    parser.add_argument("--cups", type=int, default=7)
    parser.add_argument("--tournaments", type=int, default=25, help="tournaments per cup")
    parser.add_argument("--players", type=int, default=150, help="entrants per tournament")
    parser.add_argument(
        "--register",
        type=int,
        default=0,
        help="register entries (default: cups × players × 20 / 7, 3,000 in all)",
    )
    parser.add_argument(
        "--finalists", type=int, default=200, help="at most this many qualified play the final"
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--samples", type=int, default=15)
    parser.add_argument("--rebuilds", type=int, default=5, help="times the tournament is made final again")
    parser.add_argument("--seed", type=int, default=4711)
    args = parser.parse_args()
    if min(args.cups, args.tournaments) < 1 or args.players < 8:
        parser.error("--cups and --tournaments: at least 1; --players: at least 8")
    args.register = args.register or max(args.players, args.cups * args.players * 20 // 7)
    if args.register < args.players:
        parser.error("--register: at least --players")

    with app_database(args.database, "circuit") as env:
        season = seed(args)
        shown = pages(season)
        errors: list[str] = []
        with server(env, workers=3, threads=4) as port:
            phone = Phone(port)
            phone.login("organiser")
            phone.cookies[f"tarock_me_{season.circuit}"] = str(season.number)
            bare, floor = measure(phone, shown, args, errors)
            service, whole = rebuild(phone, shown, season, args, errors)
            phone.close()
    return report(args, season, shown, bare, floor, service, whole, errors)


if __name__ == "__main__":
    sys.exit(main())
