"""Statistics across a group's evenings (reads only).

Everything here is read from the rows ``standings`` keeps per player and evening,
themselves summed from each hand's stored snapshot: a page costs a fixed number of
queries whatever the number of evenings and hands, and a correction or deletion
shows at once. Points of different games are never added up: totals, averages
and rankings are per game; money is money in every game. Statistics return
values only: the chart of a player's running totals is drawn by ``club.chart``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.db.models import Max, Min
from django.utils import timezone

from club.models import EveningResult, Group, GroupPlayer, Season
from plumbing import queries
from scoring.engine import SectionKind, Variant
from scoring.games import registry

RECENT = 10  # evenings listed on a player's page
TENTH = Decimal("0.1")


def ratio(total: Decimal | int, count: int) -> Decimal | None:
    """An average to a tenth, or None when there is nothing to divide by."""
    if not count:
        return None
    return (Decimal(total) / count).quantize(TENTH, rounding=ROUND_HALF_UP)


def percent(part: int, whole: int) -> int | None:
    return (
        None if not whole else int((Decimal(100 * part) / whole).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    )


# -- a player's page ----------------------------------------------------------------------


@dataclass(frozen=True)
class RoleRow:
    """How often the player had a part (taker, declarer, …) in a kind of game, and won it."""

    kind: str  # "kind.garde"
    times: int
    won: int

    @property
    def rate(self) -> int | None:
        return percent(self.won, self.times)


@dataclass(frozen=True)
class Role:
    role: str  # "role.taker"
    times: int
    won: int
    by_kind: tuple[RoleRow, ...]

    @property
    def rate(self) -> int | None:
        return percent(self.won, self.times)


@dataclass(frozen=True)
class EveningRow:
    """One player's evening as the pages read it (a row of ``EveningResult``)."""

    session_id: int
    name: str
    played_on: date
    variant: str
    hands: int
    total: Decimal
    money: Decimal | None
    won: bool
    best: Decimal | None
    best_hand: int | None
    worst: Decimal | None
    worst_hand: int | None
    counts: dict[str, int]


EVENING_FIELDS = (
    "session_id",
    "session__name",
    "played_on",
    "variant",
    "hands",
    "total",
    "money",
    "won",
    "best",
    "best_hand_id",
    "worst",
    "worst_hand_id",
    "counts",
)


@dataclass(frozen=True)
class Extreme:
    """A player's biggest win or loss in a single hand."""

    points: Decimal
    evening: EveningRow
    hand_id: int | None


@dataclass(frozen=True)
class GameStats:
    variant: Variant
    evenings: int
    evenings_won: int
    hands: int
    hands_won: int
    total: Decimal
    money: Decimal | None
    best: Extreme | None
    worst: Extreme | None
    roles: tuple[Role, ...]
    kinds: tuple[tuple[str, int], ...]  # games by type: ("kind.solo", 4)
    marks: tuple[tuple[str, int], ...]  # ("mark.pagat", 2)
    sections_played: int
    sections_won: int
    redeals: int

    @property
    def per_hand(self) -> Decimal | None:
        return ratio(self.total, self.hands)

    @property
    def per_evening(self) -> Decimal | None:
        return ratio(self.total, self.evenings)

    @property
    def section_kind(self) -> SectionKind | None:
        return self.variant.section_kind


@dataclass(frozen=True)
class RunningTotals:
    """A player's running total after each evening, one value per game played
    (``totals[evening][game]``): the series the player page's chart draws
    (``club.chart``); statistics never draw."""

    games: tuple[Variant, ...]
    totals: tuple[tuple[Fraction, ...], ...]


@dataclass(frozen=True)
class PlayerStats:
    player: GroupPlayer
    evenings: int
    hands: int
    money: Decimal | None
    games: tuple[GameStats, ...]
    recent: tuple[EveningRow, ...]  # the latest evenings, newest first
    running: RunningTotals | None  # running totals across evenings, one per game (None: no evening)


def player_stats(player: GroupPlayer) -> PlayerStats:
    """Everything the player page shows (one query)."""
    rows = EveningResult.objects.filter(player=player).order_by("played_on", "session_id")
    # Plain tuples, not model instances: a player of many evenings costs little.
    evenings = [EveningRow(*row) for row in rows.values_list(*EVENING_FIELDS)]
    by_game: dict[str, list[EveningRow]] = {}
    for evening in evenings:
        by_game.setdefault(evening.variant, []).append(evening)
    games = tuple(_game_stats(registry()[key], rows) for key, rows in by_game.items() if key in registry())
    moneys = [e.money for e in evenings if e.money is not None]
    return PlayerStats(
        player=player,
        evenings=len(evenings),
        hands=sum(e.hands for e in evenings),
        money=sum(moneys, Decimal("0.00")) if moneys else None,
        games=games,
        recent=tuple(reversed(evenings[-RECENT:])),
        running=_running(evenings),
    )


def _game_stats(variant: Variant, evenings: Sequence[EveningRow]) -> GameStats:
    counts: Counter[str] = Counter()
    for evening in evenings:
        counts.update(evening.counts)
    moneys = [e.money for e in evenings if e.money is not None]
    best = max((e for e in evenings if e.best is not None), key=lambda e: e.best or 0, default=None)
    worst = min((e for e in evenings if e.worst is not None), key=lambda e: e.worst or 0, default=None)
    kind = variant.section_kind.key if variant.section_kind else "section"
    return GameStats(
        variant=variant,
        evenings=len(evenings),
        evenings_won=sum(1 for e in evenings if e.won),
        hands=sum(e.hands for e in evenings),
        hands_won=counts["hands.won"],
        total=sum((e.total for e in evenings), Decimal(0)),
        money=sum(moneys, Decimal("0.00")) if moneys else None,
        best=Extreme(best.best, best, best.best_hand)
        if best and best.best is not None and best.best > 0
        else None,
        worst=Extreme(worst.worst, worst, worst.worst_hand)
        if worst and worst.worst is not None and worst.worst < 0
        else None,
        roles=_roles(variant, counts),
        kinds=_labelled(variant, counts, "kind."),
        marks=_labelled(variant, counts, "mark."),
        sections_played=counts[f"{kind}.played"],
        sections_won=counts[f"{kind}.won"],
        redeals=counts["redeals"],
    )


def _labelled(variant: Variant, counts: Counter[str], prefix: str) -> tuple[tuple[str, int], ...]:
    """The counts under ``prefix`` in the order the game lists its labels (unknown keys last)."""
    order = {key: i for i, key in enumerate(variant.stat_labels)}
    found = [
        (key, n)
        for key, n in counts.items()
        if key.startswith(prefix) and n and (prefix == "mark." or key.count(".") == 1)
    ]
    return tuple(sorted(found, key=lambda item: (order.get(item[0], len(order)), item[0])))


def _roles(variant: Variant, counts: Counter[str]) -> tuple[Role, ...]:
    """Each part the player had (taker, declarer, …), by kind of game, with wins."""
    kinds = [key.removeprefix("kind.") for key, _ in _labelled(variant, counts, "kind.")]
    roles = []
    for role, times in _labelled(variant, counts, "role."):
        rows = tuple(
            RoleRow(f"kind.{kind}", counts[f"{role}.{kind}"], counts[f"{role}.{kind}.won"])
            for kind in kinds
            if counts[f"{role}.{kind}"]
        )
        roles.append(Role(role, times, sum(row.won for row in rows), rows))
    return tuple(roles)


def _running(evenings: Sequence[EveningRow]) -> RunningTotals | None:
    """The running total after each evening, one value per game played (None: no evening)."""
    if not evenings:
        return None
    keys = list(dict.fromkeys(e.variant for e in evenings if e.variant in registry()))
    running = dict.fromkeys(keys, Fraction(0))
    lines: list[tuple[Fraction, ...]] = []
    for evening in evenings:
        if evening.variant in running:
            running[evening.variant] += Fraction(evening.total)
        lines.append(tuple(running[key] for key in keys))
    return RunningTotals(games=tuple(registry()[key] for key in keys), totals=tuple(lines))


# -- the season table ---------------------------------------------------------------------


@dataclass(frozen=True)
class SeasonRange:
    """A calendar year, or a season the group named."""

    key: str  # "2026", or "s<id>"
    name: str
    starts_on: date
    ends_on: date
    season: Season | None = None


def year_range(year: int) -> SeasonRange:
    return SeasonRange(str(year), str(year), date(year, 1, 1), date(year, 12, 31))


def named_range(season: Season) -> SeasonRange:
    return SeasonRange(f"s{season.pk}", season.name, season.starts_on, season.ends_on, season)


def season_range(group: Group, key: str | None) -> SeasonRange:
    """The season a page asks for: this calendar year (no key), a year ("2026"), or
    one of the group's named seasons ("s12"); ``LookupError`` for anything else."""
    if key is None:
        return year_range(timezone.localdate().year)
    if len(key) == 4 and key.isascii() and key.isdecimal() and int(key) >= 1:
        return year_range(int(key))
    number = key[1:]
    if key.startswith("s") and 0 < len(number) <= 12 and number.isascii() and number.isdecimal():
        season = queries.season_of_group(int(number), group.pk)  # on every view: written out once
        if season is not None:
            return named_range(season)
    raise LookupError(f"no season {key!r}")


def season_choices(group: Group) -> list[SeasonRange]:
    """The calendar years from the group's first evening to its last (this year
    always), newest first, then the group's named seasons (two queries)."""
    span = EveningResult.objects.filter(group=group).aggregate(first=Min("played_on"), last=Max("played_on"))
    this_year = timezone.localdate().year
    first = span["first"].year if span["first"] else this_year
    last = span["last"].year if span["last"] else this_year
    years = set(range(first, last + 1)) | {this_year}
    named = [named_range(season) for season in Season.objects.filter(group=group)]
    return [year_range(year) for year in sorted(years, reverse=True)] + named


@dataclass(frozen=True)
class TableRow:
    player_id: int
    name: str
    evenings: int
    evenings_won: int
    hands: int
    total: Decimal
    money: Decimal | None

    @property
    def per_hand(self) -> Decimal | None:
        return ratio(self.total, self.hands)


@dataclass(frozen=True)
class GameTable:
    variant: Variant
    rows: tuple[TableRow, ...]  # by total, highest first
    by_average: tuple[TableRow, ...]  # at least the group's minimum of hands, by average per hand


@dataclass(frozen=True)
class EveningWinners:
    played_on: date
    session_id: int
    name: str
    variant: Variant
    winners: tuple[str, ...]
    total: Decimal


@dataclass(frozen=True)
class SeasonTable:
    group: Group
    season: SeasonRange
    games: tuple[GameTable, ...]
    winners: tuple[EveningWinners, ...]  # every evening of the season, in the order played
    min_hands: int

    @property
    def recent_winners(self) -> tuple[EveningWinners, ...]:
        """The latest evenings' winners, newest first (the page; the PDF lists them all)."""
        return tuple(reversed(self.winners[-RECENT:]))


def season_table(group: Group, season: SeasonRange) -> SeasonTable:
    """The group table of a season: per game, players ranked by total (and by
    average per hand above the group's minimum of hands), and each evening's winners
    (two queries)."""
    by_game: dict[str, list[TableRow]] = {}
    for (variant, player_id, name), found in _season_rows(group, season).items():
        by_game.setdefault(variant, []).append(
            TableRow(
                player_id=player_id,
                name=name,
                evenings=found.evenings,
                evenings_won=found.evenings_won,
                hands=found.hands,
                total=found.total,
                money=found.money,
            )
        )
    games = tuple(
        GameTable(
            variant=registry()[key],
            rows=tuple(sorted(found, key=lambda r: (-r.total, r.name))),
            by_average=tuple(
                sorted(
                    (r for r in found if r.hands >= group.min_hands),
                    key=lambda r: (-(r.per_hand or 0), r.name),
                )
            ),
        )
        for key, found in sorted(by_game.items())
        if key in registry()
    )
    return SeasonTable(group, season, games, _winners(group, season), group.min_hands)


@dataclass
class _Sums:
    evenings: int = 0
    evenings_won: int = 0
    hands: int = 0
    total: Decimal = Decimal(0)
    money: Decimal | None = None


def _season_rows(group: Group, season: SeasonRange) -> dict[tuple[str, int, str], _Sums]:
    """Each player's evenings of the season summed per game (one query). Summed
    here as ``Decimal``: a database sum of a decimal column is a float on SQLite."""
    found: dict[tuple[str, int, str], _Sums] = {}
    rows = EveningResult.objects.filter(
        group=group, played_on__range=(season.starts_on, season.ends_on)
    ).values_list("variant", "player_id", "player__name", "won", "hands", "total", "money")
    for variant, player_id, name, won, hands, total, money in rows.order_by():
        sums = found.setdefault((variant, player_id, name), _Sums())
        sums.evenings += 1
        sums.evenings_won += 1 if won else 0
        sums.hands += hands
        sums.total += total
        if money is not None:
            sums.money = money if sums.money is None else sums.money + money
    return found


def _winners(group: Group, season: SeasonRange) -> tuple[EveningWinners, ...]:
    won = (
        EveningResult.objects.filter(
            group=group, won=True, played_on__range=(season.starts_on, season.ends_on)
        )
        .order_by("played_on", "session_id", "player__name")
        .values_list("played_on", "session_id", "session__name", "variant", "player__name", "total")
    )
    evenings: dict[int, EveningWinners] = {}
    for played_on, session_id, name, variant, player, total in won:
        if variant not in registry():
            continue
        found = evenings.get(session_id)
        winners = (*found.winners, player) if found else (player,)
        evenings[session_id] = EveningWinners(
            played_on, session_id, name, registry()[variant], winners, total
        )
    return tuple(evenings.values())
