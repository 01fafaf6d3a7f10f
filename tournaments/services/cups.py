"""Cups and seasons (``TOURNAMENTS.md`` §5): a cup and its scheme, its player
register and merging two of its entries, the cup points each tournament gives
(written with its places when provisional and again when final), and the season
ranking.

The rules (points per scheme, what counts, the season's order) are
``tournaments.core.cup``; this module reads and writes the rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F, QuerySet
from django.utils.translation import gettext_noop

from club.models import Group, GroupPlayer
from plumbing import caching, queries
from scoring.engine import InvalidInput
from scoring.engine.registry import terms_of
from scoring.engine.schema import name_problem
from scoring.engine.types import Line, invalid
from scoring.games import registry
from tournaments.core import circuit as circuit_rules
from tournaments.core import cup as rules
from tournaments.core.ranking import shares_places
from tournaments.models import Cup, CupChange, CupPlayer, Entrant, Tournament, TournamentPlace
from tournaments.services import changes, events

MOST_POINTS_TABLE = 400


def name_text(field: str, value: str, longest: int) -> str:
    """A one-line name of a cup or a side ranking: spaces collapsed, 1 to ``longest``
    characters, text that shows."""
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
    """A cup ``user`` owns or helps to run one of its tournaments, with its circuit
    (the versions ``season_key_of`` reads); ``DoesNotExist`` otherwise. Read on
    every view of the cup's pages: written out once (``queries.cup_run_by``)."""
    cup: Cup | None = queries.cup_run_by(user.pk, pk)
    if cup is None:
        raise Cup.DoesNotExist
    return cup


@dataclass(frozen=True)
class CupSettings:
    """What the cup's owner sets: as ``cup_create`` and ``cup_update`` take it."""

    name: str
    season: str
    scheme: str = "fixed"
    points_table: list[int] | None = None
    best_n: str = "6"
    final_mode: str = "extra"
    starts_on: date | None = None
    ends_on: date | None = None
    group: Group | None = None

    def checked(self, owner: User) -> dict[str, Any]:
        """The cup's fields, each checked; ``InvalidInput`` naming the first one wrong."""
        if self.scheme not in rules.SCHEMES:
            raise invalid("scheme", gettext_noop("one of: {allowed}"), allowed=", ".join(rules.SCHEMES))
        if self.final_mode not in rules.FINAL_MODES:
            allowed = ", ".join(rules.FINAL_MODES)
            raise invalid("final_mode", gettext_noop("one of: {allowed}"), allowed=allowed)
        if self.starts_on and self.ends_on and self.ends_on < self.starts_on:
            raise invalid("ends_on", gettext_noop("on or after the first day"))
        if self.group is not None and not self.group.memberships.filter(user=owner).exists():
            raise invalid("group", gettext_noop("must be one of your groups"))
        return {
            "name": name_text("name", self.name, 80),
            "season": name_text("season", self.season, 40),
            "starts_on": self.starts_on,
            "ends_on": self.ends_on,
            "scheme": self.scheme,
            "points_table": _points_table(self.scheme, self.points_table or []),
            "best_n": _best_n(self.best_n),
            "final_mode": self.final_mode,
            "group": self.group,
        }


@transaction.atomic
def cup_create(*, owner: User, **settings: Any) -> Cup:
    """A cup of ``owner`` with ``settings`` (the fields of ``CupSettings``);
    tournaments join it when they are created or later, in their settings
    (``tournament_cup_set``)."""
    return Cup.objects.create(owner=owner, **CupSettings(**settings).checked(owner))


@transaction.atomic
def cup_update(*, cup: Cup, user: User, **settings: Any) -> Cup:
    """The cup's owner changes its name, season, scheme and what counts
    (``settings``: the fields of ``CupSettings``): the cup points of every
    tournament in it are worked out again from their places by the new scheme,
    and the season follows. A scheme a tournament of the cup cannot take (Heine
    for French Tarot; a place-based scheme where places are shared) is refused,
    naming it; kept in the cup's audit."""
    row = Cup.objects.select_for_update().get(pk=cup.pk)
    if row.owner_id != user.pk:
        raise invalid("cup", gettext_noop("only the cup's owner changes its settings"))
    values = CupSettings(**settings).checked(row.owner)
    members = list(row.tournaments.filter(deleted_at__isnull=True).order_by("played_on", "id"))
    for tournament in members:
        _refuse_member(tournament, values["scheme"], "scheme")
    before = _cup_settings(row)
    for field, value in values.items():
        setattr(row, field, value)
    row.save()
    for tournament in members:
        tournament.cup = row
        places_rescored(tournament)
    _moved(row, *members)
    CupChange.objects.create(cup=row, user=user, action="settings", before=before, after=_cup_settings(row))
    return row


def _cup_settings(cup: Cup) -> dict[str, Any]:
    return {
        "name": cup.name,
        "season": cup.season,
        "scheme": cup.scheme,
        "points_table": list(cup.points_table or []),
        "best_n": cup.best_n,
        "final_mode": cup.final_mode,
    }


# -- membership: a tournament joins, leaves or moves (§5.1) ----------------------------------


def _refuse_member(tournament: Tournament, scheme: str, field: str) -> None:
    """Refused when ``tournament`` cannot count in a cup of ``scheme``: Heine points
    are not offered for every game (French Tarot: ``TournamentTerms.heine``); shared places (§4.2) only with Heine."""
    game = registry()[tournament.variant]
    if scheme == Cup.Scheme.HEINE and scheme not in rules.schemes_for(terms_of(game).heine):
        raise invalid(field, gettext_noop("Heine points are not offered for {game}"), game=Line(game.name))
    if shares_places(tournament.settings.get("tie_break", "")) and scheme in rules.BY_PLACE:
        raise invalid(
            field,
            gettext_noop(
                "{name} shares places between equal totals: cup points by place need every place "
                "given once (shared places only with Heine points)"
            ),
            name=tournament.name,
        )


def check_membership(tournament: Tournament, cup: Cup | None, field: str = "cup") -> Cup | None:
    """``cup`` if ``tournament`` (as it will be saved) may count in it: a cup of the
    tournament's owner that takes its game and tie-break."""
    if cup is None:
        return None
    if cup.owner_id != tournament.owner_id or cup.deleted_at is not None:
        raise invalid("cup", gettext_noop("must be one of your cups"))
    _refuse_member(tournament, cup.scheme, field)
    return cup


def register_entry(cup: Cup | None, name: str, place: str, roster: GroupPlayer | None) -> CupPlayer | None:
    """The cup register's entry of that name (the one it was merged into), made when new (§5.1)."""
    if cup is None:
        return None
    found = CupPlayer.objects.filter(cup=cup, name=name).order_by("id").first()
    while found is not None and found.merged_into_id is not None:
        found = found.merged_into
    if found is None:
        found = CupPlayer.objects.create(cup=cup, name=name, place=place, roster=roster)
        if cup.circuit_id is not None:
            # Imported here: the circuit's services build on this module's merge.
            from tournaments.services.circuit import cup_name_linked

            cup_name_linked(found)
    return found


def register_pruned(cup_id: int | None) -> None:
    """The register keeps only those who played in the cup: an entry no entrant links
    to any more (its tournament left the cup, its entrant was struck or renamed) goes,
    unless another entry was merged into it or it was merged itself (the merge stays)."""
    if cup_id is None:
        return
    linked = Entrant.objects.filter(cup_player__cup_id=cup_id).values("cup_player_id")
    kept = CupPlayer.objects.filter(cup_id=cup_id, merged_into__isnull=False).values("merged_into_id")
    CupPlayer.objects.filter(cup_id=cup_id, merged_into__isnull=True).exclude(pk__in=linked).exclude(
        pk__in=kept
    ).delete()


def tournament_cup_set(
    *, tournament: Tournament, user: User, cup: Cup | None, final: bool, factor: int
) -> None:
    """The one way a tournament joins a cup, leaves it or moves to another (created
    in the cup, or later in its settings): it is saved with its cup, every entrant
    who is not a filler is linked to the new cup's register (and none to the old
    one's), the cup points of its places are worked out again by the new cup's
    scheme and factor, and both seasons follow. The caller holds the tournament's row."""
    if factor not in rules.FACTORS:
        raise invalid("cup_factor", gettext_noop("1, or 2 for double points"))
    cup = check_membership(tournament, cup)
    # Imported here: the final of the circuit builds on this module.
    from tournaments.services import circuit_final

    circuit_final.refuse_final_moved(tournament, cup)
    old = tournament.cup_id
    tournament.cup, tournament.cup_final, tournament.cup_factor = cup, bool(final and cup), factor
    Tournament.objects.filter(pk=tournament.pk).update(
        cup=cup, cup_final=tournament.cup_final, cup_factor=factor
    )
    if old != tournament.cup_id:
        for entrant in tournament.entrants.filter(kind=Entrant.Kind.PLAYER).select_related("roster"):
            entrant.cup_player = register_entry(cup, entrant.name, entrant.place, entrant.roster)
            entrant.save(update_fields=["cup_player"])
        register_pruned(old)
        circuit_final.refuse_unqualified_moved(tournament)
        for cup_id, action in ((old, "leave"), (tournament.cup_id, "join")):
            if cup_id is not None:
                what = {"tournament": tournament.pk, "name": tournament.name}
                CupChange.objects.create(cup_id=cup_id, user=user, action=action, after=what)
    places_rescored(tournament)
    Cup.objects.filter(pk__in=[c for c in (old, tournament.cup_id) if c is not None]).update(
        version=F("version") + 1
    )


def places_rescored(tournament: Tournament) -> None:
    """The cup points of the tournament's written places (provisional or final) by
    its cup's scheme and its factor, from each place and total as written: the
    places stay as they were ranked; no cup, no cup points."""
    places = list(TournamentPlace.objects.filter(tournament=tournament))
    cup = tournament.cup
    for place in places:
        points = (
            rules.points(
                cup.scheme,
                place=place.place,
                total=Fraction(str(place.total)),
                ranked=len(places),
                points_table=cup.points_table or (),
                factor=tournament.cup_factor,
            )
            if cup is not None
            else Fraction(0)
        )
        place.cup_points = Decimal(points.numerator) / Decimal(points.denominator)
    TournamentPlace.objects.bulk_update(places, ["cup_points"])


def _moved(cup: Cup, *members: Tournament) -> None:
    """The cup's season and its tournaments' rankings (their cup points) are drawn again."""
    Cup.objects.filter(pk=cup.pk).update(version=F("version") + 1)
    Tournament.objects.filter(pk__in=[t.pk for t in members]).update(
        version=F("version") + 1, results_version=F("results_version") + 1
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
    on, every entry linked to him follows; kept in the cup's audit, and heard of by
    the apps built on the register (``tournaments.services.events``)."""
    locked = Cup.objects.select_for_update().get(pk=cup.pk)
    found = {p.pk: p for p in CupPlayer.objects.filter(cup=locked, pk__in=(player_id, into_id))}
    if player_id == into_id or len(found) != 2:
        raise invalid("into", gettext_noop("two different players of the cup's register"))
    player, into = _kept(found[player_id]), _kept(found[into_id])
    if player.pk == into.pk:
        raise invalid("into", gettext_noop("these two are merged already"))
    CupPlayer.objects.filter(pk=player.pk).update(merged_into=into)
    Entrant.objects.filter(cup_player=player).update(cup_player=into)
    events.send_register_merged(locked, player, into)
    CupChange.objects.create(
        cup=locked,
        user=user,
        action="merge",
        before={"id": player.pk, "name": player.name},
        after={"id": into.pk, "name": into.name},
    )
    Cup.objects.filter(pk=locked.pk).update(version=F("version") + 1)
    return into


def on_roster_merged(*, player: GroupPlayer, into: GroupPlayer, **_: Any) -> None:
    """A group's owner merged a roster name into another: the entrants picked
    from it and the register entries made from it follow to the name kept."""
    Entrant.objects.filter(roster=player).update(roster=into)
    CupPlayer.objects.filter(roster=player).update(roster=into)


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
    total: Fraction
    final_points: Fraction | None
    counted: tuple[Fraction, ...]
    participations: int
    podiums: tuple[int, int, int]
    best_place: int | None
    # Since the previous tournament of the cup (§14.5); ``None`` before a second one.
    change: circuit_rules.Change | None = None

    @property
    def shown(self) -> changes.Shown | None:
        return changes.shown(self.change)


@dataclass(frozen=True)
class Season:
    cup: Cup
    lines: tuple[SeasonLine, ...]
    held: int
    ended: bool  # the final is made final: "Endstand"
    as_of: date | None


def season_key(cup: Cup, circuit_version: int | None = None) -> str:
    """This version of the cup's season, for cache keys: the cup's ``version`` goes
    up with everything its season counts (places and cup points written, a
    tournament joining, leaving or made final, a merge, the settings); a cup of a
    circuit adds the circuit's ``version``, which goes up when a register entry its
    names are linked to changes (a merge of numbers, a name linked)."""
    circuit = f"c{circuit_version}" if cup.circuit_id is not None else "-"
    return f"cup-season:{cup.pk}.{cup.version}.{cup.created_at.timestamp():.6f}:{circuit}"


def season_keys(cups: Sequence[Cup]) -> dict[int, str]:
    """``season_key`` of each of these cups by its id, from their versions and their
    circuits' as stored now (one statement: a cup handed in may be an older read)."""
    found = Cup.objects.filter(pk__in=[cup.pk for cup in cups]).values_list(
        "pk", "version", "circuit__version"
    )
    versions = {pk: (version, circuit) for pk, version, circuit in found}
    keys = {}
    for cup in cups:
        cup.version, circuit = versions.get(cup.pk, (cup.version, None))
        keys[cup.pk] = season_key(cup, circuit)
    return keys


def season_key_of(cup: Cup) -> str:
    """``season_key`` of a cup read in this request with its circuit (``cup_for``,
    ``cup_seen``), before anything of its season: no statement."""
    return season_key(cup, cup.circuit.version if cup.circuit is not None else None)


def cup_seen(pk: int) -> Cup | None:
    """A cup not deleted, with its circuit (``season_key_of``), for a page without an
    account (the board link's season table); one statement."""
    return Cup.objects.select_related("circuit").filter(pk=pk, deleted_at__isnull=True).first()


def season_ranking(cup: Cup) -> Season:
    """The season table from the cup points of its provisional and final tournaments,
    kept per version of the cup (``season_key``)."""
    return season_rankings([cup])[cup.pk]


def season_rankings(cups: Sequence[Cup], keys: dict[int, str] | None = None) -> dict[int, Season]:
    """The season tables of these cups, by cup id: those kept for the cups' versions
    read in one round trip to the cache, the others built together (two statements
    however many cups, tournaments and players) and kept. ``keys``: their
    ``season_keys``, where the caller read them already. The cache only
    accelerates: a cache that does not answer has nothing kept (``steady_cache``)."""
    if not cups:
        return {}
    keys = season_keys(cups) if keys is None else keys
    kept = caching.get_many(list(keys.values()))
    found: dict[int, Season] = {}
    for cup in cups:
        value = kept.get(keys[cup.pk])
        if isinstance(value, Season):
            found[cup.pk] = value
    missing = [cup for cup in cups if cup.pk not in found]
    if missing:
        built = _seasons_built(missing)
        caching.set_many({keys[pk]: season for pk, season in built.items()})
        found.update(built)
    return found


def _seasons_built(cups: Sequence[Cup]) -> dict[int, Season]:
    """The season tables of these cups from their stored places: two statements."""
    tournaments = list(
        Tournament.objects.filter(
            cup__in=[cup.pk for cup in cups],
            deleted_at__isnull=True,
            status__in=(Tournament.Status.PROVISIONAL, Tournament.Status.FINAL),
        ).order_by("played_on", "id")
    )
    by_cup: dict[int, list[Tournament]] = {cup.pk: [] for cup in cups}
    for tournament in tournaments:
        by_cup[tournament.cup_id or 0].append(tournament)
    final_of = {t.pk: t.cup_final for t in tournaments}
    cup_of = {t.pk: t.cup_id for t in tournaments}
    players: dict[int, dict[int, list[rules.Result]]] = {cup.pk: {} for cup in cups}
    kept: dict[int, CupPlayer] = {}
    places = (
        TournamentPlace.objects.filter(
            tournament__in=tournaments, entrant__kind=Entrant.Kind.PLAYER, entrant__cup_player__isnull=False
        )
        .select_related("entrant__cup_player__merged_into")
        .order_by("tournament_id", "place", "id")
    )
    for row in places:
        entry = row.entrant.cup_player
        if entry is None:
            continue
        # Entrants follow a merge (``cup_player_merge``); a name merged since is read here.
        player = entry.merged_into if entry.merged_into is not None else entry
        if player.merged_into_id is not None:
            player = _kept(player)
        kept[player.pk] = player
        cup_id = cup_of[row.tournament_id] or 0
        players[cup_id].setdefault(player.pk, []).append(
            rules.Result(
                row.tournament_id, Fraction(str(row.cup_points)), row.place, final_of[row.tournament_id]
            )
        )
    return {cup.pk: _season(cup, by_cup[cup.pk], players[cup.pk], kept) for cup in cups}


def _season(
    cup: Cup,
    tournaments: list[Tournament],
    players: dict[int, list[rules.Result]],
    kept: dict[int, CupPlayer],
) -> Season:
    best_n: str | int = cup.best_n if cup.best_n in rules.BEST_N_WORDS else int(cup.best_n)
    regular = sum(1 for t in tournaments if not t.cup_final)
    rows = rules.season(players, best_n=best_n, final_mode=cup.final_mode, held=regular)
    changes = _season_changes(players, tournaments, rows, best_n, cup.final_mode, regular)
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
            changes.get(r.key),
        )
        for r in rows
    )
    ended = any(t.cup_final and t.status == Tournament.Status.FINAL for t in tournaments)
    as_of = tournaments[-1].played_on if tournaments else None
    return Season(cup, lines, len(tournaments), ended, as_of)


def _season_changes(
    players: dict[int, list[rules.Result]],
    tournaments: list[Tournament],
    rows: list[rules.SeasonRow[int]],
    best_n: str | int,
    final_mode: str,
    regular: int,
) -> dict[int, circuit_rules.Change]:
    """Each season place's change since the previous tournament of the cup (§14.5):
    the season of the same stored cup points without the latest tournament, by the
    same rules, against the season with it; nothing before a second tournament."""
    if len(tournaments) < 2:
        return {}
    last = tournaments[-1]
    earlier = {
        key: kept for key, found in players.items() if (kept := [r for r in found if r.tournament != last.pk])
    }
    before = rules.season(
        earlier, best_n=best_n, final_mode=final_mode, held=regular - (0 if last.cup_final else 1)
    )
    return circuit_rules.rank_changes(
        {row.key: row.place for row in before}, {row.key: row.place for row in rows}
    )
