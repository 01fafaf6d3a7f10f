"""Benchmark: the ratings recomputed, and that closing or signing does not wait for them.

    .venv/bin/python scripts/bench_ratings.py [--database sqlite|postgres] [--repeats 30]

On a fresh database (``scripts.harness.app_database``), in this process:

1. A group of 8 players with 60 closed French evenings (4 of the 8 at the table,
   8 hands each), made through the services. It times following the 60
   evenings' marks (every rating from nothing), a recomputation of the whole
   family, and the correction of the 3rd evening (reopened, a hand corrected,
   closed again: events 3–60 recomputed).
2. A cup of 300 players with 4 tournaments (3 rounds of 75 tables typed in at
   the desk: 900 table-rounds, 3,600 entries), the same 300 names in each, so the
   register knows them across the four. It times following the 900 marks and a
   table of the first round opened and locked again (every later event recomputed).
3. The answer's cost with and without the ratings, in the same run, alternating:
   a hand saved at a group evening, an evening closed, a table typed in at the
   desk, ``--repeats`` times each; the ratings' receivers connected with
   ``RATINGS_UPDATE=thread`` against the receivers disconnected. Each is timed
   once the previous thread has ended (what the answer itself costs: the mark and
   the thread started), and after an answer with ratings, how long until the
   thread has computed them. It prints p50 and p95 of each.

Nothing leaves the machine; the run stops by itself.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from datetime import date
from decimal import Decimal
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.harness import app_database, percentile  # noqa: E402

ROSTER = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fritz", "Gerti", "Hans"]


def evening_hands(index: int, seats: list[str]) -> list[dict[str, Any]]:
    """Eight French hands, takers in turn, won or lost by the evening's number."""
    found: list[dict[str, Any]] = []
    for n in range(8):
        hand: dict[str, Any] = {
            "taker": seats[(n + index) % 4],
            "contract": "garde" if n % 2 else "prise",
            "bouts": (n + index) % 4,
            "points": 20 + (index * 7 + n * 13) % 60,
        }
        if n == 0:
            hand["dealer"] = seats[-1]
        found.append(hand)
    return found


def group_evenings(owner: Any, count: int) -> list[Any]:
    from club.services import groups
    from scoring import services

    group = groups.group_create(owner=owner, name="Stammtisch")
    sessions = []
    for index in range(count):
        seats = [ROSTER[(index * 3 + k) % 8] for k in range(4)]
        session = groups.group_session_create(
            group=group,
            owner=owner,
            name=f"Abend {index + 1}",
            variant="french",
            players=seats,
            options={},
            money_rate=None,
        )
        for raw in evening_hands(index, seats):
            services.hand_record(session=session, raw=raw, user=owner)
        services.session_close(session=session, user=owner)
        sessions.append(session)
    return sessions


def cup_days(owner: Any, players: int, days: int) -> list[Any]:
    from tournaments.models import TableRound, Tournament
    from tournaments.services import cups, desk, entrants, plan, tournaments

    rng = random.Random(players)
    cup = cups.cup_create(owner=owner, name="Hausruckcup", season="2025/26")
    made = []
    for day in range(days):
        t = tournaments.tournament_create(
            owner=owner,
            name=f"Cupabend {day + 1}",
            played_on=date(2025, 10, 3 + 7 * day),
            variant="koenigrufen",
            settings={},
            money_rate=Decimal("0.10"),
            seed=f"{111111 + day}",
            cup=cup,
        )
        for start in range(1, players + 1):
            entrants.entrant_add(tournament=t, user=owner, name=f"Spieler {start:03d}")
        plan.plan_draw(tournament=t, user=owner)
        rounds = int(Tournament.objects.get(pk=t.pk).settings["rounds"])
        for number in range(1, rounds + 1):
            plan.round_release(tournament=Tournament.objects.get(pk=t.pk), user=owner)
            for found in TableRound.objects.filter(round__tournament=t, round__number=number).order_by(
                "number"
            ):
                numbers = list(found.seats.order_by("position").values_list("entrant__number", flat=True))
                sums = [rng.randrange(-60, 61) for _ in numbers[1:]]
                by_number = dict(zip(numbers, [-sum(sums), *sums], strict=True))
                desk.desk_enter(
                    tournament=Tournament.objects.get(pk=t.pk), user=owner, table_id=found.pk, sums=by_number
                )
        made.append(Tournament.objects.get(pk=t.pk))
    return made


def timed(work: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    result = work()
    return time.perf_counter() - started, result


def quantile(values: list[float], share: float) -> float:
    return percentile(values, share) * 1000


def line(name: str, values: list[float]) -> str:
    return f"  {name:<40} p50 {quantile(values, 0.5):7.1f} ms   p95 {quantile(values, 0.95):7.1f} ms   (n={len(values)})"


def recompute_figures(owner: Any, evenings: int, players: int, days: int) -> None:
    from ratings.models import RatingEntry, RatingEvent
    from ratings.services.marks import ratings_update
    from ratings.services.recompute import family_recompute
    from scoring import services
    from scoring.models import Session
    from tournaments.models import TableRound, Tournament
    from tournaments.services import desk

    built, sessions = timed(lambda: group_evenings(owner, evenings))
    print(f"group: {evenings} evenings of 8 players made in {built:.1f} s")
    seconds, followed = timed(ratings_update)
    print(f"  {followed} marks followed (every rating from nothing): {seconds * 1000:.0f} ms")
    seconds, rated = timed(lambda: family_recompute("french", None))
    print(f"  the family recomputed from its first event ({rated} events): {seconds * 1000:.0f} ms")
    third = sessions[2]
    services.session_reopen(session=Session.objects.get(pk=third.pk), user=owner)
    hand = third.hands.order_by("number").first()
    raw = dict(evening_hands(2, list(third.seats.order_by("position").values_list("name", flat=True)))[0])
    raw["points"] = 90 - raw["points"]
    services.hand_edit(hand=hand, raw=raw, user=owner)
    services.session_close(session=Session.objects.get(pk=third.pk), user=owner)
    seconds, _ = timed(ratings_update)
    print(f"  the 3rd evening corrected, events 3–{evenings} recomputed: {seconds * 1000:.0f} ms")

    built, made = timed(lambda: cup_days(owner, players, days))
    tables = TableRound.objects.filter(round__tournament__in=made).count()
    print(f"cup: {days} tournaments of {players} players ({tables} table-rounds) made in {built:.1f} s")
    seconds, followed = timed(ratings_update)
    entries = RatingEntry.objects.filter(family="koenigrufen").count()
    print(f"  {followed} marks followed ({entries} entries written): {seconds * 1000:.0f} ms")
    first = TableRound.objects.filter(round__tournament=made[0], round__number=1).order_by("number").first()
    assert first is not None
    t = Tournament.objects.get(pk=made[0].pk)
    sums = dict(first.results.values_list("entrant__number", "points"))
    desk.table_open(tournament=t, user=owner, table_id=first.pk, reason="Tippfehler")
    t = Tournament.objects.get(pk=made[0].pk)
    desk.desk_enter(tournament=t, user=owner, table_id=first.pk, sums={n: str(p) for n, p in sums.items()})
    seconds, _ = timed(ratings_update)
    later = RatingEvent.objects.filter(family="koenigrufen").count()
    print(
        f"  a table of round 1 opened and typed in again, {later} events recomputed: {seconds * 1000:.0f} ms"
    )


def answer_figures(owner: Any, repeats: int) -> None:
    from django.test import override_settings

    from club.services import groups
    from ratings.services import background, marks
    from scoring import services
    from scoring.services import events
    from tournaments.models import TableRound, Tournament
    from tournaments.services import desk, entrants, plan, tournaments
    from tournaments.services import events as tournament_events

    def ratings_on(on: bool) -> None:
        if on:
            events.evening_settled.connect(marks.on_evening_settled, dispatch_uid="ratings.evening_settled")
            tournament_events.table_changed.connect(
                marks.on_table_changed, dispatch_uid="ratings.table_changed"
            )
        else:
            events.evening_settled.disconnect(dispatch_uid="ratings.evening_settled")
            tournament_events.table_changed.disconnect(dispatch_uid="ratings.table_changed")

    group = groups.group_create(owner=owner, name="Messung")
    free_tables: list[Any] = []
    for part in range(-(-repeats * 2 // 100)):  # at most 100 tables a tournament
        t = tournaments.tournament_create(
            owner=owner,
            name=f"Messung {part + 1}",
            played_on=date(2025, 12, 1),
            variant="koenigrufen",
            settings={"rounds": 1},
            money_rate=None,
            seed=f"{222222 + part}",
        )
        for start in range(1, 4 * min(100, repeats * 2 - 100 * part) + 1):
            entrants.entrant_add(tournament=t, user=owner, name=f"M {start:03d}")
        plan.plan_draw(tournament=t, user=owner)
        plan.round_release(tournament=Tournament.objects.get(pk=t.pk), user=owner)
        free_tables += (
            TableRound.objects.filter(round__tournament=t).select_related("round").order_by("number")
        )
    figures: dict[str, list[float]] = {}

    def settle() -> None:
        while background.running():
            time.sleep(0.002)

    def answer(name: str, on: bool, work: Callable[[], Any]) -> None:
        settle()
        started = time.perf_counter()
        work()
        answered = time.perf_counter()
        figures.setdefault(f"{name}, {'with ratings' if on else 'without'}", []).append(answered - started)
        if on:
            settle()
            figures.setdefault(f"{name}: until the ratings are computed", []).append(
                time.perf_counter() - answered
            )

    with override_settings(RATINGS_UPDATE="thread"):
        background.kick()  # the process's ratings thread started once, as a server's first close does
        settle()
        for index in range(repeats * 2):
            on = index % 2 == 1
            ratings_on(on)
            seats = [ROSTER[(index + k) % 8] for k in range(4)]
            session = groups.group_session_create(
                group=group,
                owner=owner,
                name=f"M {index}",
                variant="french",
                players=seats,
                options={},
                money_rate=None,
            )
            hands = evening_hands(index, seats)
            for raw in hands[:-1]:
                services.hand_record(session=session, raw=raw, user=owner)
            last = hands[-1]
            answer("hand saved", on, partial(services.hand_record, session=session, raw=last, user=owner))
            answer("evening closed", on, partial(services.session_close, session=session, user=owner))
            table = free_tables[index]
            numbers = list(table.seats.order_by("position").values_list("entrant__number", flat=True))
            sums = dict(zip(numbers, [30, -10, -10, -10], strict=True))
            answer(
                "table typed in",
                on,
                partial(
                    desk.desk_enter,
                    tournament=Tournament.objects.get(pk=table.round.tournament_id),
                    user=owner,
                    table_id=table.pk,
                    sums=sums,
                ),
            )
        ratings_on(True)
        while background.running():
            time.sleep(0.05)
    print(f"the answer's cost, {repeats} times each, alternating with and without the ratings:")
    for name in sorted(figures):
        print(line(name, figures[name]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--evenings", type=int, default=60)
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--days", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=30, help="answers measured each way")
    args = parser.parse_args()
    with app_database(args.database, "ratings"):
        from django.contrib.auth.models import User

        owner = User.objects.create_user("organiser", password="bench-ratings-4711")
        from django.test import override_settings

        with override_settings(RATINGS_UPDATE="command"):  # the marks wait for the timed runs
            recompute_figures(owner, args.evenings, args.players, args.days)
        answer_figures(owner, args.repeats)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
