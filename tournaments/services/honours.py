"""Honours (``TOURNAMENTS.md`` §14.8), all from stored results: a cup's and a
circuit's Bestenliste (most wins, most podiums, highest tournament total,
highest round result, most participations; all-time and per season), the
Cupsieger of each season, and a tournament's Spiel des Tages.

A cup's seasons are the cups of its owner with its name ("RTC 2024/25", "RTC
2025/26") **[decision: a cup is one season here; its earlier seasons are its
owner's cups of the same name]**; a circuit's are its cups. Places and totals
are the tournaments' written ``TournamentPlace`` rows of final tournaments,
round results their ``RoundResult`` rows; the Spiel des Tages reads the tables'
hands through scoring's services. The rules are ``core.circuit``'s.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from plumbing import caching
from scoring import services as scoring
from scoring.engine.types import Line
from tournaments.core import circuit as rules
from tournaments.core.names import name_key
from tournaments.models import Circuit, Cup, Entrant, RoundResult, TableRound, Tournament, TournamentPlace
from tournaments.services import cups as cups_service
from tournaments.services import side

TOP = 10


@dataclass(frozen=True)
class Named:
    """A record with its holder's name."""

    place: int
    name: str
    value: Fraction


@dataclass(frozen=True)
class Table:
    """One table of the Bestenliste: its key (``wins`` …) and its lines."""

    key: str
    lines: tuple[Named, ...]


@dataclass(frozen=True)
class Honours:
    """The Bestenliste all-time and per season (newest first), and the
    Cupsieger of each season (a cup's name with its winners' names)."""

    all_time: tuple[Table, ...]
    seasons: tuple[tuple[str, tuple[Table, ...]], ...]
    winners: tuple[tuple[str, str, tuple[str, ...]], ...]  # (season, cup, names)


def _tables(found: rules.Bestenliste, names: Mapping[int, str]) -> tuple[Table, ...]:
    return tuple(
        Table(
            key,
            tuple(Named(leader.place, names[leader.player], leader.value) for leader in getattr(found, key)),
        )
        for key in rules.BESTENLISTE
    )


def _performances(cups: Sequence[Cup], *, by_circuit: bool) -> tuple[list[rules.Performance], dict[int, str]]:
    """Every ranked player's final tournament in these cups (two statements): keyed
    by the circuit's number (``by_circuit``) or the cup register's entry kept;
    a player without either by his entrant, on his own."""
    seasons = {cup.pk: (cup.season, cup.name) for cup in cups}
    places = list(
        TournamentPlace.objects.filter(
            tournament__cup__in=list(seasons),
            tournament__status=Tournament.Status.FINAL,
            tournament__deleted_at__isnull=True,
            entrant__kind=Entrant.Kind.PLAYER,
        )
        .order_by()
        .values_list(
            "tournament_id",
            "tournament__name",
            "tournament__cup_id",
            "entrant_id",
            "entrant__name",
            "place",
            "total",
            "entrant__cup_player_id",
            "entrant__cup_player__name",
            "entrant__cup_player__place",
            "entrant__cup_player__circuit_player__number",
            "entrant__cup_player__circuit_player__family",
            "entrant__cup_player__circuit_player__given",
            "entrant__cup_player__circuit_player__public_name",
        )
    )
    rounds: dict[int, list[Fraction]] = {}
    for entrant_id, points in (
        RoundResult.objects.filter(
            tournament_id__in={row[0] for row in places}, counted=True, bye=False, table__isnull=False
        )
        .order_by()
        .values_list("entrant_id", "points")
    ):
        rounds.setdefault(entrant_id, []).append(Fraction(str(points)))
    found: list[rules.Performance] = []
    names: dict[int, str] = {}
    keys: dict[tuple[Any, ...], int] = {}
    for (
        _tid,
        tname,
        cup_id,
        entrant_id,
        name,
        place,
        total,
        cup_player,
        cup_name,
        cup_place,
        number,
        family,
        given,
        public_name,
    ) in places:
        if by_circuit and number is not None:
            who: tuple[Any, ...] = ("number", number)
            # As every public page names a register entry: "Huber Maria" or "Huber M." (§14.1).
            shown = rules.RegisterEntry(number, family, given, public_name=public_name).public()
        elif cup_player is not None:
            # Across a cup's seasons (each its own register) the same name and place
            # are the same player, as the circuit's matching key has it.
            who, shown = ("name", name_key(cup_name), name_key(cup_place)), cup_name
        else:
            who, shown = ("entrant", entrant_id), name
        key = keys.setdefault(who, len(keys) + 1)
        names.setdefault(key, shown)
        season, cup = seasons[cup_id]
        found.append(
            rules.Performance(
                key, season, cup, tname, place, Fraction(str(total)), tuple(rounds.get(entrant_id, ()))
            )
        )
    return found, names


def _honours(cups: Sequence[Cup], *, by_circuit: bool) -> Honours:
    performances, names = _performances(cups, by_circuit=by_circuit)
    labels = sorted({cup.season for cup in cups}, reverse=True)
    winners = []
    every = side.cups_players(cups)
    for cup in sorted(cups, key=lambda c: (c.season, c.name), reverse=True):
        players = every[cup.pk]
        season = rules.cup_season(players.tournaments, players.cup_rules)
        won = tuple(players.names[key][0] for key in rules.cupsieger(season))
        if won:
            winners.append((cup.season, cup.name, won))
    return Honours(
        _tables(rules.bestenliste(performances, top=TOP), names),
        tuple(
            (label, _tables(rules.bestenliste(performances, season=label, top=TOP), names))
            for label in labels
        ),
        tuple(winners),
    )


def cup_seasons(cup: Cup) -> list[Cup]:
    """The cup's seasons: its owner's cups of the same name."""
    return list(
        Cup.objects.filter(owner_id=cup.owner_id, name=cup.name, deleted_at__isnull=True)
        .select_related("circuit")
        .order_by("-season")
    )


def honours_key(what: str, cup_rows: Sequence[Cup]) -> str:
    """This version of the honours of ``what`` over these cups, for cache keys: each
    cup's season key (``cups.season_keys``: its ``version`` goes up with its places
    written, a tournament made final or reopened, its name or season changed, and
    its circuit's with the register's numbers and names the honours show). The cups
    as just read, each with its circuit."""
    keys = sorted(
        cups_service.season_key(cup, cup.circuit.version if cup.circuit is not None else None)
        for cup in cup_rows
    )
    # Digested: a circuit of many cups would pass the length a cache key may have.
    return f"honours:{what}:" + hashlib.sha256("|".join(keys).encode()).hexdigest()[:40]


@dataclass(frozen=True)
class Kept:
    """Honours as a page reads them: the key of this version (the page keeps its
    tables drawn under it) and a way to the honours themselves, kept under it too."""

    key: str
    build: Callable[[], Honours]

    def honours(self) -> Honours:
        return caching.cached(self.key, self.build)


def _kept(what: str, cup_rows: list[Cup], *, by_circuit: bool) -> Kept:
    """``_honours`` kept per version of what it reads (``honours_key``): one statement
    (the cups) when kept, four more when built, however many seasons and players."""
    return Kept(honours_key(what, cup_rows), lambda: _honours(cup_rows, by_circuit=by_circuit))


def kept_cup_honours(cup: Cup) -> Kept:
    return _kept(
        f"cup{cup.pk}.{cup.created_at.timestamp():.6f}",
        cup_seasons(cup),
        by_circuit=cup.circuit_id is not None,
    )


def kept_circuit_honours(circuit: Circuit) -> Kept:
    cup_rows = list(circuit.cups.filter(deleted_at__isnull=True).select_related("circuit"))
    return _kept(f"circuit{circuit.pk}.{circuit.created_at.timestamp():.6f}", cup_rows, by_circuit=True)


def cup_honours(cup: Cup) -> Honours:
    """A cup's Bestenliste (all-time over its seasons, and per season) and its Cupsieger."""
    return kept_cup_honours(cup).honours()


def circuit_honours(circuit: Circuit) -> Honours:
    """A circuit's Bestenliste over all its cups (players by their number) and each cup's Cupsieger."""
    return kept_circuit_honours(circuit).honours()


# -- the Spiel des Tages ---------------------------------------------------------------------


@dataclass(frozen=True)
class GameOfTheDay:
    """The hand with the highest Schrift for its declarer (§14.8): where it was
    played, who declared it, its Schrift and the hand in short."""

    round: int
    table: int
    hand: int
    declarer: str
    schrift: Fraction
    description: Line | None


def spiel_des_tages(tournament: Tournament) -> GameOfTheDay | None:
    """The tournament's Spiel des Tages among its locked tables' hands (ties: the
    earlier round, then the lower table); ``None`` before any hand was declared.
    Three statements however many tables."""
    tables = {
        session_id: (round_number, number)
        for session_id, round_number, number in TableRound.objects.filter(
            round__tournament=tournament, status__in=TableRound.LOCKED, session__isnull=False
        )
        .order_by()
        .values_list("session_id", "round__number", "number")
    }
    hands = scoring.declared_hands(list(tables))
    described = {(h.session_id, h.number): h.description for h in hands}
    sessions = {tables[h.session_id]: h.session_id for h in hands}
    best = rules.spiel_des_tages(_day_hands(hands, tables))
    if best is None:
        return None
    session_id = sessions[(best.round, best.table)]
    return GameOfTheDay(
        best.round, best.table, best.hand, best.declarer, best.schrift, described.get((session_id, best.hand))
    )


def _day_hands(
    hands: Iterable[scoring.DeclaredHand], tables: Mapping[int, tuple[int, int]]
) -> list[rules.DayHand]:
    return [
        rules.DayHand(tables[h.session_id][0], tables[h.session_id][1], h.number, h.declarer, h.points)
        for h in hands
    ]
