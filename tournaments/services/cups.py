"""Cups and seasons (``TOURNAMENTS.md`` §5): a cup and its scheme, its player
register and merging two of its entries, the cup points each tournament gives
(written with its places when provisional and again when final), and the season
ranking.

The rules (points per scheme, what counts, the season's order) are
``tournaments.core.cup``; this module reads and writes the rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils.translation import gettext_noop

from club.models import Group
from scoring.engine import InvalidInput
from scoring.engine.schema import name_problem
from scoring.engine.types import invalid
from tournaments.core import cup as rules
from tournaments.models import Cup, CupChange, CupPlayer, Entrant, Tournament, TournamentPlace

MOST_POINTS_TABLE = 400


def _text(field: str, value: str, longest: int) -> str:
    value = " ".join(value.split())
    if not value or len(value) > longest:
        raise invalid(field, gettext_noop("a name of 1 to {n} characters"), n=longest)
    problem = name_problem(value)
    if problem is not None:
        raise InvalidInput(field, problem)
    return value


def _best_n(value: str) -> str:
    value = value.strip().lower()
    if value in rules.BEST_N_WORDS or (value.isascii() and value.isdecimal() and 1 <= int(value) <= 100):
        return value
    raise invalid("best_n", gettext_noop("a number from 1 to 100, “all” or “half”"))


def _points_table(scheme: str, table: list[int]) -> list[int]:
    if scheme != Cup.Scheme.CUSTOM:
        return []
    if not table or len(table) > MOST_POINTS_TABLE or any(not 0 <= p <= 10000 for p in table):
        raise invalid(
            "points_table", gettext_noop("the points of places 1, 2, … (0 to 10000 each, at most 400)")
        )
    return list(table)


def cups_of(user: User) -> QuerySet[Cup]:
    return Cup.objects.filter(owner=user, deleted_at__isnull=True)


def cup_for(user: User, pk: int) -> Cup:
    """A cup ``user`` owns or helps to run one of its tournaments; ``DoesNotExist`` otherwise."""
    organised = Tournament.objects.filter(Q(owner=user) | Q(organisers=user), deleted_at__isnull=True)
    return (
        Cup.objects.filter(Q(owner=user) | Q(tournaments__in=organised), deleted_at__isnull=True)
        .distinct()
        .get(pk=pk)
    )


@transaction.atomic
def cup_create(
    *,
    owner: User,
    name: str,
    season: str,
    scheme: str = "fixed",
    points_table: list[int] | None = None,
    best_n: str = "6",
    final_mode: str = "extra",
    starts_on: date | None = None,
    ends_on: date | None = None,
    group: Group | None = None,
) -> Cup:
    """A cup of ``owner``; its tournaments join it when they are created."""
    if scheme not in rules.SCHEMES:
        raise invalid("scheme", gettext_noop("one of: {allowed}"), allowed=", ".join(rules.SCHEMES))
    if final_mode not in rules.FINAL_MODES:
        raise invalid("final_mode", gettext_noop("one of: {allowed}"), allowed=", ".join(rules.FINAL_MODES))
    if starts_on and ends_on and ends_on < starts_on:
        raise invalid("ends_on", gettext_noop("on or after the first day"))
    if group is not None and not group.memberships.filter(user=owner).exists():
        raise invalid("group", gettext_noop("must be one of your groups"))
    return Cup.objects.create(
        owner=owner,
        group=group,
        name=_text("name", name, 80),
        season=_text("season", season, 40),
        starts_on=starts_on,
        ends_on=ends_on,
        scheme=scheme,
        points_table=_points_table(scheme, points_table or []),
        best_n=_best_n(best_n),
        final_mode=final_mode,
    )


def _kept(player: CupPlayer) -> CupPlayer:
    """The register entry a merged one now counts as."""
    seen = set()
    while player.merged_into_id is not None and player.pk not in seen:
        seen.add(player.pk)
        player = CupPlayer.objects.get(pk=player.merged_into_id)
    return player


@transaction.atomic
def cup_player_merge(*, cup: Cup, user: User, player_id: int, into_id: int) -> CupPlayer:
    """Two register entries are one person: ``player_id`` counts as ``into_id`` from now
    on, every entry linked to him follows; kept in the cup's audit."""
    locked = Cup.objects.select_for_update().get(pk=cup.pk)
    found = {p.pk: p for p in CupPlayer.objects.filter(cup=locked, pk__in=(player_id, into_id))}
    if player_id == into_id or len(found) != 2:
        raise invalid("into", gettext_noop("two different players of the cup's register"))
    player, into = _kept(found[player_id]), _kept(found[into_id])
    if player.pk == into.pk:
        raise invalid("into", gettext_noop("these two are merged already"))
    CupPlayer.objects.filter(pk=player.pk).update(merged_into=into)
    Entrant.objects.filter(cup_player=player).update(cup_player=into)
    CupChange.objects.create(
        cup=locked,
        user=user,
        action="merge",
        before={"id": player.pk, "name": player.name},
        after={"id": into.pk, "name": into.name},
    )
    Cup.objects.filter(pk=locked.pk).update(version=F("version") + 1)
    return into


def register(cup: Cup) -> list[CupPlayer]:
    """The cup's register without the merged entries."""
    return list(CupPlayer.objects.filter(cup=cup, merged_into__isnull=True).order_by("name", "place", "id"))


# -- cup points per tournament (§5.2) --------------------------------------------------------


def cup_changed(tournament: Tournament) -> None:
    """The tournament's places and cup points were written again (``results.write_places``
    computes the points by the cup's scheme): the season table follows."""
    if tournament.cup_id is not None:
        Cup.objects.filter(pk=tournament.cup_id).update(version=F("version") + 1)


# -- the season (§5.3, §5.4) -----------------------------------------------------------------


@dataclass(frozen=True)
class SeasonLine:
    place: int
    player: CupPlayer
    total: int
    final_points: int | None
    counted: tuple[int, ...]
    participations: int
    podiums: tuple[int, int, int]
    best_place: int | None


@dataclass(frozen=True)
class Season:
    cup: Cup
    lines: tuple[SeasonLine, ...]
    held: int
    ended: bool  # the final is made final: "Endstand"
    as_of: date | None


def season_ranking(cup: Cup) -> Season:
    """The season table from the cup points of its provisional and final tournaments."""
    tournaments = list(
        cup.tournaments.filter(
            deleted_at__isnull=True, status__in=(Tournament.Status.PROVISIONAL, Tournament.Status.FINAL)
        ).order_by("played_on", "id")
    )
    players: dict[int, list[rules.Result]] = {}
    kept: dict[int, CupPlayer] = {}
    places = TournamentPlace.objects.filter(
        tournament__in=tournaments, entrant__kind=Entrant.Kind.PLAYER, entrant__cup_player__isnull=False
    ).select_related("entrant__cup_player", "tournament")
    for row in places:
        player = _kept(row.entrant.cup_player) if row.entrant.cup_player else None
        if player is None:
            continue
        kept[player.pk] = player
        players.setdefault(player.pk, []).append(
            rules.Result(row.tournament_id, int(row.cup_points), row.place, row.tournament.cup_final)
        )
    best_n: str | int = cup.best_n if cup.best_n in rules.BEST_N_WORDS else int(cup.best_n)
    regular = sum(1 for t in tournaments if not t.cup_final)
    rows = rules.season(players, best_n=best_n, final_mode=cup.final_mode, held=regular)
    lines = tuple(
        SeasonLine(
            r.place,
            kept[r.key],
            r.total,
            r.final_points,
            r.counted,
            r.participations,
            r.podiums,
            r.best_place,
        )
        for r in rows
    )
    ended = any(t.cup_final and t.status == Tournament.Status.FINAL for t in tournaments)
    as_of = tournaments[-1].played_on if tournaments else None
    return Season(cup, lines, len(tournaments), ended, as_of)
