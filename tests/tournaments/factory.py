"""Building a tournament the way the organiser does, through the services: for the
organiser's tests, the table pages' tests and the end-to-end tests.

    t = tournament(owner, entrants=EXAMPLE_NAMES, seed="482915")
    draw(t)                      # round 1 (upfront: every round)
    release(t)                   # round 1's table links open
    desk_round(t, 1, EXAMPLE_SUMS[0])   # each table's paper sheet typed in
    release(t)                   # round 2 …
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User

from scoring import services
from tournaments.models import Cup, TableRound, Tournament, TournamentChange
from tournaments.services import cups, desk, entrants, hall, plan, results, tournaments
from tournaments.services import tables as tables_service
from tournaments.services.plan import seating

# TOURNAMENTS.md §9: twelve entrants, seed 482915, three rounds of three four-tables.
EXAMPLE_NAMES = (
    "Anna", "Bernd", "Christa", "Dieter", "Erika", "Franz",
    "Gerti", "Hans", "Ida", "Josef", "Karin", "Leo",
)  # fmt: skip
EXAMPLE_SEED = "482915"
# The seating of §9, round by round and table by table, seats in playing order.
EXAMPLE_SEATING = (
    (
        ("Erika", "Hans", "Bernd", "Anna"),
        ("Ida", "Dieter", "Gerti", "Christa"),
        ("Karin", "Josef", "Leo", "Franz"),
    ),
    (
        ("Franz", "Bernd", "Ida", "Erika"),
        ("Christa", "Leo", "Anna", "Josef"),
        ("Hans", "Karin", "Gerti", "Dieter"),
    ),
    (
        ("Erika", "Ida", "Dieter", "Josef"),
        ("Christa", "Franz", "Karin", "Hans"),
        ("Leo", "Bernd", "Anna", "Gerti"),
    ),
)
EXAMPLE_DEALERS = (("Erika", "Christa", "Josef"), ("Erika", "Anna", "Hans"), ("Ida", "Christa", "Gerti"))
# The made-up round results of §9, per round: each player's sum at his table.
EXAMPLE_SUMS: tuple[dict[str, int], ...] = (
    {"Erika": 92, "Hans": -31, "Bernd": 45, "Anna": -106, "Ida": 17, "Dieter": 64, "Gerti": -38, "Christa": -43,
     "Karin": 118, "Josef": -52, "Leo": -24, "Franz": -42},
    {"Franz": 71, "Bernd": 29, "Ida": -58, "Erika": -42, "Christa": 97, "Leo": 8, "Anna": -35, "Josef": -70,
     "Hans": 55, "Karin": -19, "Gerti": 14, "Dieter": -50},
    {"Erika": 61, "Ida": 36, "Dieter": -80, "Josef": -17, "Christa": -9, "Franz": 44, "Karin": -54, "Hans": 19,
     "Leo": 45, "Bernd": -45, "Anna": 27, "Gerti": -27},
)  # fmt: skip


def tournament(
    owner: User,
    *,
    names: Sequence[str] = EXAMPLE_NAMES,
    seed: str = EXAMPLE_SEED,
    variant: str = "koenigrufen",
    settings: Mapping[str, Any] | None = None,
    money_rate: Decimal | None = Decimal("0.10"),
    cup: Cup | None = None,
    name: str = "Cupabend",
    **kwargs: Any,
) -> Tournament:
    """A tournament in registration with ``names`` registered (start numbers in order)."""
    made = tournaments.tournament_create(
        owner=owner,
        name=name,
        played_on=kwargs.pop("played_on", date(2025, 11, 21)),
        variant=variant,
        settings=settings or {},
        money_rate=money_rate,
        seed=seed,
        cup=cup,
        **kwargs,
    )
    for entrant in names:
        entrants.entrant_add(tournament=made, user=owner, name=entrant)
    return fresh(made)


def fresh(t: Tournament) -> Tournament:
    return Tournament.objects.get(pk=t.pk)


def draw(t: Tournament, seed: str = "") -> Tournament:
    return plan.plan_draw(tournament=t, user=t.owner, seed=seed)


def release(t: Tournament) -> None:
    plan.round_release(tournament=fresh(t), user=t.owner)


def table_names(t: Tournament, round_number: int) -> list[tuple[str, ...]]:
    """The round's tables as names in seat order."""
    names = {e.number: e.name for e in t.entrants.all()}
    return [tuple(names[n] for n in table) for table in seating(t.rounds.get(number=round_number))]


def tables(t: Tournament, round_number: int) -> list[TableRound]:
    return list(TableRound.objects.filter(round__tournament=t, round__number=round_number).order_by("number"))


def desk_round(t: Tournament, round_number: int, sums: Mapping[str, int | str]) -> None:
    """Type in every table of the round from ``sums`` (each player's round sum by name)."""
    for table in tables(t, round_number):
        by_number = {s.entrant.number: sums[s.entrant.name] for s in table.seats.select_related("entrant")}
        desk.desk_enter(tournament=fresh(t), user=t.owner, table_id=table.pk, sums=by_number)


def play_example(
    owner: User, *, settings: Mapping[str, Any] | None = None, cup: Cup | None = None
) -> Tournament:
    """§9 through the desk: drawn upfront from 482915, every round released and typed in, provisional."""
    t = tournament(owner, settings=settings, cup=cup)
    draw(t)
    for number, sums in enumerate(EXAMPLE_SUMS, 1):
        release(t)
        desk_round(t, number, sums)
    tournaments.tournament_provisional(tournament=fresh(t), user=owner)
    return fresh(t)


def complaints_over(t: Tournament) -> Tournament:
    """The complaint window (§4.4) closed: the tournament was made provisional that
    many minutes ago, so it can be made final now."""
    minutes = t.settings["complaint_minutes"] or 0
    for change in TournamentChange.objects.filter(tournament=t, action=TournamentChange.Action.PROVISIONAL):
        TournamentChange.objects.filter(pk=change.pk).update(at=change.at - timedelta(minutes=minutes))
    return fresh(t)


def make_final(t: Tournament, *, client_token: str = "") -> Tournament:
    """Final after the complaint window, as the organiser confirms it once the window closed."""
    return tournaments.tournament_final(
        tournament=complaints_over(t), user=t.owner, client_token=client_token
    )


def cup(owner: User, **kwargs: Any) -> Cup:
    kwargs.setdefault("name", "Hausruckcup")
    kwargs.setdefault("season", "2025/26")
    return cups.cup_create(owner=owner, **kwargs)


def play_hand(table: TableRound, raw: Mapping[str, Any] | None = None) -> None:
    """Record one hand at the table through its session (a plain Rufer the first two seats win)."""
    session = tables_service.open_table(table)
    names = [seat.name for seat in session.seats.order_by("position")]
    dealer = names[table.first_dealer - 1]
    hand = raw or {
        "dealer": dealer,
        "declarer": names[0],
        "game": "rufer",
        "partner": names[1],
        "points": "41/2",
    }
    services.hand_record(session=session, raw=dict(hand), user=table.round.tournament.owner)


def forget_kept() -> None:
    """What a server process keeps in its memory (the standings, the hall's rows),
    forgotten: the next request is another process's."""
    results._KEPT.clear()
    hall._KEPT.clear()


def settings_saved(t: Tournament, user: User, **changes: Any) -> Tournament:
    """The tournament's settings page saved with ``changes`` (cup, cup_final,
    cup_factor, …), every other setting as it is."""
    t = fresh(t)
    values: dict[str, Any] = {"cup": t.cup, "cup_final": t.cup_final, "cup_factor": t.cup_factor, **changes}
    return tournaments.tournament_update(
        tournament=t,
        user=user,
        name=t.name,
        played_on=t.played_on,
        options=t.options,
        settings=t.settings,
        money_rate=t.money_rate,
        **values,
    )
