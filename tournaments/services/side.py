"""Side rankings (``TOURNAMENTS.md`` §14.4): a cup or a tournament defines up to
ten, each a name, a filter and optional prizes; they never change the main
ranking.

- A tournament's (``category``, ``home``) rank its entrants in the main
  ranking's order among those the filter keeps (``core.circuit.tournament_side_ranking``),
  from the standings as stored for the results version; a cup's ``category``
  side rankings are shown on each of its tournaments' boards too.
- A cup's (``category``, ``region``, ``region_not``) are its season table over
  the players or the tournaments the filter keeps (``core.circuit.cup_side_ranking``),
  from the places and totals each tournament wrote.
- Prizes go down the side ranking's order; with ``one_prize_per_player`` a
  winner of the main ranking's prize keeps that one and the side prize passes
  down (``core.circuit.side_prize_winners``).

The rules are the pure functions'; this module reads the rows, in a fixed
number of statements however many players there are.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F, Q
from django.utils.translation import gettext_noop

from scoring.engine import InvalidInput
from scoring.engine.schema import name_problem
from scoring.engine.types import invalid
from tournaments.core import circuit as rules
from tournaments.core import cup as cup_rules
from tournaments.core.names import name_key
from tournaments.models import (
    Cup,
    CupChange,
    Entrant,
    SideRanking,
    Tournament,
    TournamentChange,
    TournamentPlace,
)
from tournaments.services import cups, results

CUP_KINDS = ("category", "region", "region_not")
TOURNAMENT_KINDS = ("category", "home")
MAX_PRIZES = 50
PRIZE_LENGTH = 80


# -- defining them -----------------------------------------------------------------------


def sides_of(*, cup: Cup | None = None, tournament: Tournament | None = None) -> list[SideRanking]:
    """A cup's or a tournament's own side rankings, in the order they were made."""
    if cup is not None:
        return list(SideRanking.objects.filter(cup=cup).order_by("id"))
    return list(SideRanking.objects.filter(tournament=tournament).order_by("id"))


def prize_texts(prizes: Iterable[str]) -> list[str]:
    """Prize texts for places 1, 2, … (side rankings, teams): spaces collapsed,
    empty lines at the end dropped; refused naming ``prizes``."""
    found = [" ".join(text.split()) for text in prizes]
    while found and not found[-1]:
        found.pop()
    if len(found) > MAX_PRIZES or any(not text or len(text) > PRIZE_LENGTH for text in found):
        raise invalid(
            "prizes",
            gettext_noop(
                "one prize per line for places 1, 2, … (at most {n}, each 1 to {length} characters)"
            ),
            n=MAX_PRIZES,
            length=PRIZE_LENGTH,
        )
    return found


@dataclass(frozen=True)
class SideSettings:
    """What the organiser sets of a side ranking, as ``side_ranking_add`` takes it."""

    name: str
    kind: str
    value: str
    prizes: Sequence[str] = ()
    one_prize_per_player: bool = True

    def checked(self, kinds: Sequence[str]) -> dict[str, Any]:
        """The fields, each checked; ``InvalidInput`` naming the first one wrong."""
        if self.kind not in kinds:
            raise invalid("kind", gettext_noop("one of: {allowed}"), allowed=", ".join(kinds))
        return {
            "name": cups.name_text("name", self.name, 60),
            "kind": self.kind,
            "value": cups.name_text("value", self.value, 40),
            "prizes": prize_texts(self.prizes),
            "one_prize_per_player": bool(self.one_prize_per_player),
        }


def _category(values: Mapping[str, Any], cup: Cup | None, tournament: Tournament | None) -> str:
    """A category as the circuit's register spells it ("damen" is its "Damen"),
    refused naming the circuit's categories when it has none of that name; a
    cup outside a circuit keeps what was typed (its players have no categories
    until it joins one)."""
    if values["kind"] != SideRanking.Kind.CATEGORY:
        return str(values["value"])
    cup_id = cup.pk if cup is not None else (tournament.cup_id if tournament is not None else None)
    categories = (
        Cup.objects.filter(pk=cup_id or 0, circuit__isnull=False)
        .values_list("circuit__categories", flat=True)
        .first()
    )
    if categories is None:
        return str(values["value"])
    known = {name_key(category): str(category) for category in categories or ()}
    if name_key(values["value"]) not in known:
        raise invalid(
            "value",
            gettext_noop("one of the register's categories: {allowed}"),
            allowed=", ".join(known.values()),
        )
    return known[name_key(values["value"])]


def _described(side: SideRanking) -> dict[str, Any]:
    return {
        "side_ranking": side.name,
        "kind": side.kind,
        "value": side.value,
        "prizes": list(side.prizes),
        "one_prize_per_player": side.one_prize_per_player,
    }


@transaction.atomic
def side_ranking_add(
    *, user: User, cup: Cup | None = None, tournament: Tournament | None = None, **settings: Any
) -> SideRanking:
    """A side ranking of ``cup`` (its owner's) or of ``tournament`` (its
    organisers'), with ``settings`` (the fields of ``SideSettings``): at most ten
    each (§14.9). The same side ranking sent twice is stored once; another one of
    the same name is refused. Kept in the cup's or the tournament's audit, and its
    pages show it from now on."""
    if (cup is None) == (tournament is None):
        raise ValueError("side_ranking_add: a cup or a tournament")
    values = SideSettings(**settings).checked(CUP_KINDS if cup is not None else TOURNAMENT_KINDS)
    values["value"] = _category(values, cup, tournament)
    if cup is not None:
        Cup.objects.select_for_update().get(pk=cup.pk)
        mine = SideRanking.objects.filter(cup=cup)
    else:
        assert tournament is not None
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        mine = SideRanking.objects.filter(tournament=tournament)
    for found in mine:
        if name_key(found.name) == name_key(values["name"]):
            if all(getattr(found, field) == value for field, value in values.items()):
                return found  # sent twice: stored once
            raise invalid("name", gettext_noop("a side ranking of this name is there already"))
    if mine.count() >= rules.MAX_SIDE_RANKINGS:
        raise invalid("name", gettext_noop("at most {n} side rankings"), n=rules.MAX_SIDE_RANKINGS)
    side = SideRanking.objects.create(cup=cup, tournament=tournament, **values)
    _audit(side, user, before=None, after=_described(side))
    return side


@transaction.atomic
def side_ranking_delete(
    *, user: User, side_id: int, cup: Cup | None = None, tournament: Tournament | None = None
) -> bool:
    """The side ranking goes (its main ranking is untouched); one already gone is
    no error (sent twice, removed once): ``False`` then."""
    found = SideRanking.objects.filter(pk=side_id, cup=cup, tournament=tournament).first()
    if found is None or (cup is None and tournament is None):
        return False
    before = _described(found)
    found.delete()
    found.cup, found.tournament = cup, tournament
    _audit(found, user, before=before, after=None)
    return True


def _audit(side: SideRanking, user: User, *, before: Any, after: Any) -> None:
    """Kept in the audit, and the pages that show it drawn again."""
    if side.cup is not None:
        CupChange.objects.create(cup=side.cup, user=user, action="side", before=before, after=after)
        Cup.objects.filter(pk=side.cup.pk).update(version=F("version") + 1)
        if side.kind == SideRanking.Kind.CATEGORY:  # shown on its tournaments' boards too
            Tournament.objects.filter(cup=side.cup).update(
                version=F("version") + 1, results_version=F("results_version") + 1
            )
    elif side.tournament is not None:
        TournamentChange.objects.create(
            tournament=side.tournament,
            user=user,
            action=TournamentChange.Action.SETTINGS,
            before=before,
            after=after,
        )
        results.bump(side.tournament)


# -- a tournament's ------------------------------------------------------------------------


@dataclass(frozen=True)
class SideRow:
    place: int
    number: int  # the start number
    name: str
    club: str
    total: Fraction
    main_place: int
    prize: str = ""


@dataclass(frozen=True)
class SideTable:
    side: SideRanking
    rows: tuple[SideRow, ...]


def tournament_sides(tournament: Tournament, table: results.Standings | None = None) -> list[SideTable]:
    """The tournament's side rankings, and its cup's ``category`` ones, from the
    standings as stored (``results.standings``): each with its places, the main
    place beside, and its prizes. Three statements however many entrants."""
    where = Q(tournament=tournament)
    if tournament.cup_id is not None:
        where |= Q(cup_id=tournament.cup_id, kind=SideRanking.Kind.CATEGORY)
    # The tournament's own first, then its cup's, each in the order they were made.
    sides = sorted(
        SideRanking.objects.filter(where), key=lambda found: (found.tournament_id is None, found.pk)
    )
    if not sides:
        return []
    table = table if table is not None else results.standings(tournament)
    register = _register(tournament)
    ranked = [row for row in table.rows if row.place is not None]
    day = rules.CupTournament(tournament.name, tuple((row.number, row.total) for row in ranked))
    by_number = {row.number: row for row in ranked}
    winners = main_prize_winners(tournament, table)
    found = []
    for side in sides:
        filtered = rules.tournament_side_ranking(_core(side), day, register)
        prized = rules.side_prize_winners(
            [p.player for p in filtered],
            len(side.prizes),
            winners,
            one_prize_per_player=side.one_prize_per_player,
        )
        prize = {player: side.prizes[index] for index, player in enumerate(prized)}
        rows = tuple(
            SideRow(
                p.place,
                p.player,
                by_number[p.player].name,
                by_number[p.player].club,
                p.total,
                p.main_place,
                prize.get(p.player, ""),
            )
            for p in filtered
        )
        found.append(SideTable(side, rows))
    return found


def _core(side: SideRanking) -> rules.SideRanking:
    return rules.SideRanking(side.name, side.kind, side.value)


def _register(tournament: Tournament) -> dict[int, rules.RegisterEntry]:
    """Each entrant (not a filler) by start number as the side rankings read him:
    his place, from his circuit's register entry where he has one (else as typed),
    and the categories of that entry."""
    rows = (
        Entrant.objects.filter(tournament=tournament, kind=Entrant.Kind.PLAYER)
        .order_by()
        .values_list(
            "number",
            "name",
            "place",
            "cup_player__circuit_player__place",
            "cup_player__circuit_player__categories",
        )
    )
    return {
        number: rules.RegisterEntry(
            number, name, "", registered if registered is not None else place, tuple(categories or ())
        )
        for number, name, place, registered, categories in rows
    }


def main_prize_winners(tournament: Tournament, table: results.Standings) -> set[int]:
    """The start numbers the main ranking's prize list gives a prize by place."""
    prizes = (tournament.settings or {}).get("prizes") or []
    raffle = bool((tournament.settings or {}).get("prize_raffle"))
    return {
        row.number
        for row in table.rows
        if row.place is not None
        and any(
            prize["from"] <= row.place <= prize["to"] and (not raffle or prize.get("amount") is not None)
            for prize in prizes
        )
    }


# -- a cup's ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class CupSideLine:
    place: int
    name: str
    club: str
    number: int | None  # the circuit's number where the cup is in a circuit
    points: Fraction
    participations: int
    prize: str = ""


@dataclass(frozen=True)
class CupSideTable:
    side: SideRanking
    lines: tuple[CupSideLine, ...]


@dataclass(frozen=True)
class CupPlayers:
    """A cup's season as the pure rules read it: its tournaments (provisional and
    final) in order with their places, the rules, and who each player key is."""

    tournaments: tuple[rules.CupTournament, ...]
    cup_rules: rules.CupRules
    register: Mapping[int, rules.RegisterEntry]
    names: Mapping[int, tuple[str, str, int | None]]  # key: name, place, circuit number


def cup_players(cup: Cup) -> CupPlayers:
    """The cup's tournaments and places from the stored ``TournamentPlace`` rows (two
    statements): players keyed by the register entry kept (``CupPlayer``)."""
    return cups_players([cup])[cup.pk]


def cups_players(cup_rows: Sequence[Cup]) -> dict[int, CupPlayers]:
    """``cup_players`` of several cups at once, by cup id: two statements however many cups."""
    tournaments = list(
        Tournament.objects.filter(
            cup__in=[cup.pk for cup in cup_rows],
            deleted_at__isnull=True,
            status__in=(Tournament.Status.PROVISIONAL, Tournament.Status.FINAL),
        )
        .order_by("played_on", "id")
        .values_list("pk", "name", "cup_factor", "region", "cup_final", "cup_id")
    )
    rows = (
        TournamentPlace.objects.filter(
            tournament_id__in=[t[0] for t in tournaments],
            entrant__kind=Entrant.Kind.PLAYER,
            entrant__cup_player__isnull=False,
        )
        .order_by("tournament_id", "place")
        .values_list(
            "tournament_id",
            "total",
            "entrant__cup_player_id",
            "entrant__cup_player__merged_into_id",
            "entrant__cup_player__name",
            "entrant__cup_player__place",
            "entrant__cup_player__circuit_player__number",
            "entrant__cup_player__circuit_player__categories",
        )
    )
    cup_of = {t[0]: t[5] for t in tournaments}
    ranking: dict[int, list[tuple[int, Fraction]]] = {}
    register: dict[int, dict[int, rules.RegisterEntry]] = {cup.pk: {} for cup in cup_rows}
    names: dict[int, dict[int, tuple[str, str, int | None]]] = {cup.pk: {} for cup in cup_rows}
    for tid, total, player, merged, name, place, number, categories in rows:
        key = merged or player
        ranking.setdefault(tid, []).append((key, Fraction(str(total))))
        cup_id = cup_of[tid]
        if key not in names[cup_id] or merged is None:
            names[cup_id][key] = (name, place, number)
            register[cup_id][key] = rules.RegisterEntry(key, name, "", place, tuple(categories or ()))
    found = {}
    for cup in cup_rows:
        best_n: str | int = cup.best_n if cup.best_n in cup_rules.BEST_N_WORDS else int(cup.best_n)
        found[cup.pk] = CupPlayers(
            tuple(
                rules.CupTournament(name, tuple(ranking.get(pk, ())), factor, region, final)
                for pk, name, factor, region, final, cup_id in tournaments
                if cup_id == cup.pk
            ),
            rules.CupRules(cup.scheme, tuple(cup.points_table or ()), best_n, cup.final_mode),
            register[cup.pk],
            names[cup.pk],
        )
    return found


def cup_sides(cup: Cup, players: CupPlayers | None = None) -> list[CupSideTable]:
    """The cup's side rankings as season tables (§14.4), each with its prizes by
    place (the season's main prizes are the cup's affair, none are kept here)."""
    sides = sides_of(cup=cup)
    if not sides:
        return []
    players = players if players is not None else cup_players(cup)
    found = []
    for side in sides:
        season = rules.cup_side_ranking(_core(side), players.tournaments, players.cup_rules, players.register)
        lines = tuple(
            CupSideLine(
                row.place,
                players.names[row.key][0],
                players.names[row.key][1],
                players.names[row.key][2],
                row.total,
                row.participations,
                side.prizes[index] if index < len(side.prizes) else "",
            )
            for index, row in enumerate(season)
        )
        found.append(CupSideTable(side, lines))
    return found


@transaction.atomic
def tournament_region_set(*, tournament: Tournament, user: User, region: str) -> Tournament:
    """The venue region of the tournament (§14.4: what a cup's ``region`` side
    ranking keeps or leaves out); the same region again changes nothing. Kept in
    the audit; its cup's side rankings follow."""
    region = " ".join((region or "").split())
    if len(region) > 60:
        raise invalid("region", gettext_noop("at most {n} characters"), n=60)
    if region and (problem := name_problem(region)) is not None:
        raise InvalidInput("region", problem)
    row = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if row.region == region:
        return row
    before = row.region
    Tournament.objects.filter(pk=row.pk).update(region=region)
    row.region = tournament.region = region
    TournamentChange.objects.create(
        tournament=row,
        user=user,
        action=TournamentChange.Action.SETTINGS,
        before={"region": before},
        after={"region": region},
    )
    results.bump(row)
    if row.cup_id is not None:
        Cup.objects.filter(pk=row.cup_id).update(version=F("version") + 1)
    return row
