"""The circuit: one register, many cups, a final of finals (TOURNAMENTS.md §14).

Pure rules over plain values: the register's matching key (§14.1), each cup's
season from its tournaments' places (§5 via ``cup.season``), side rankings
(§14.4), rank changes (§14.5), teams (§14.6), the final's qualification,
Vorrundenpunkte, Finalpunkte and Gesamtwertung (§14.7), honours (§14.8) and the
limits (§14.9). Players are keyed by their register number (or any int the
caller keeps, such as a register entry's id); points are ``Fraction``s.
"""

from __future__ import annotations

import csv
import datetime
import functools
import io
import math
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from . import cup
from .draw import TEAM_MATE_MEETINGS as TEAM_MATE_MEETINGS
from .names import name_key
from .ranking import lots_key

# --------------------------------------------------------------------------
# Limits (§14.9)

MAX_REGISTER = 100_000
MAX_CUPS = 20
MAX_TOURNAMENTS = 40  # per cup and season
MAX_SIDE_RANKINGS = 10  # per cup (and per tournament)
MAX_TEAMS = 100  # per tournament
MAX_IMPORT_BYTES = 2_000_000  # a register's CSV
MAX_NUMBER = 999_999
MAX_REGISTER_NAME = 40  # family, given name, place: as a player's name
PIN_TRIES = 3  # wrong PINs …
PIN_WINDOW_MINUTES = 15  # … within this many minutes, then the desk only

# --------------------------------------------------------------------------
# The register (§14.1)

DEFAULT_CATEGORIES = ("Damen", "Senioren", "Jugend")
PUBLIC_NAMES = ("full", "short")


def register_key(family: str, given: str, place: str) -> tuple[str, str, str]:
    """The matching key: family, given name and place, each NFKC-normalised,
    case-folded, invisible format characters removed and inner spaces collapsed
    (``names.name_key``, which also reads Cyrillic and Greek look-alikes as
    Latin: what looks the same on a slip is the same)."""
    return (name_key(family), name_key(given), name_key(place))


@dataclass(frozen=True)
class RegisterEntry:
    """A player of the circuit's register. ``aliases``: numbers merged into this
    one, which still find the player (§14.1: never reused)."""

    number: int
    family: str
    given: str
    place: str = ""
    categories: tuple[str, ...] = ()
    public_name: str = "full"
    aliases: tuple[int, ...] = ()

    @property
    def key(self) -> tuple[str, str, str]:
        return register_key(self.family, self.given, self.place)

    def public(self) -> str:
        """The name on public pages: "Huber Maria", or "Huber M." with ``short``."""
        if self.public_name == "short" and self.given:
            return f"{self.family} {self.given[0]}."
        return f"{self.family} {self.given}".strip()

    def label(self) -> str:
        """ "Huber Maria, Linz · Nr. 4711"."""
        where = f", {self.place}" if self.place else ""
        return f"{self.public()}{where} · Nr. {self.number}"


def matches(register: Iterable[RegisterEntry], family: str, given: str, place: str) -> list[RegisterEntry]:
    """The entries with the same key as the typed name, lowest number first: the
    ones offered at the door ("Bist du Nr. 4711 Huber Maria, Linz?")."""
    key = register_key(family, given, place)
    return sorted((entry for entry in register if entry.key == key), key=lambda entry: entry.number)


def told_apart(register: Iterable[RegisterEntry]) -> dict[int, int]:
    """For entries the organiser keeps apart although their keys match, the
    suffix each is shown with ("Huber Maria, Linz (2)"): 2, 3, … by number; the
    lowest number has none and is not listed."""
    by_key: dict[tuple[str, str, str], list[int]] = {}
    for entry in register:
        by_key.setdefault(entry.key, []).append(entry.number)
    return {
        number: index
        for numbers in by_key.values()
        for index, number in enumerate(sorted(numbers), 1)
        if index > 1
    }


def by_number(register: Iterable[RegisterEntry]) -> dict[int, RegisterEntry]:
    """Each number and alias with the entry it finds."""
    found: dict[int, RegisterEntry] = {}
    for entry in register:
        found[entry.number] = entry
        for alias in entry.aliases:
            found[alias] = entry
    return found


@dataclass(frozen=True)
class ImportRow:
    """A row of a register import as read: its number if it has one."""

    number: int | None
    family: str
    given: str
    place: str
    categories: tuple[str, ...] = ()


@dataclass(frozen=True)
class ImportPreview:
    """What an import would do, before anything is written (§14.1): ``new``
    rows get a number, ``matched`` rows are an entry already there (same number
    and key, or no number and one entry with the key), ``conflicts`` are never
    written silently: a number held by another key, or a key several entries
    share; each with the entries it conflicts with."""

    new: tuple[ImportRow, ...]
    matched: tuple[tuple[ImportRow, RegisterEntry], ...]
    conflicts: tuple[tuple[ImportRow, tuple[RegisterEntry, ...]], ...]


def preview_import(register: Sequence[RegisterEntry], rows: Iterable[ImportRow]) -> ImportPreview:
    """Sort import rows into new, matched and conflicting (§14.1)."""
    numbers = by_number(register)
    keys: dict[tuple[str, str, str], list[RegisterEntry]] = {}
    for entry in register:
        keys.setdefault(entry.key, []).append(entry)
    new: list[ImportRow] = []
    matched: list[tuple[ImportRow, RegisterEntry]] = []
    conflicts: list[tuple[ImportRow, tuple[RegisterEntry, ...]]] = []
    for row in rows:
        key = register_key(row.family, row.given, row.place)
        if row.number is not None:
            held = numbers.get(row.number)
            if held is None:
                new.append(row)
            elif held.key == key:
                matched.append((row, held))
            else:
                conflicts.append((row, (held,)))
            continue
        same = keys.get(key, [])
        if not same:
            new.append(row)
        elif len(same) == 1:
            matched.append((row, same[0]))
        else:
            conflicts.append((row, tuple(sorted(same, key=lambda entry: entry.number))))
    return ImportPreview(tuple(new), tuple(matched), tuple(conflicts))


SENIOR_AGE = 65  # in the season's first year
YOUTH_AGE = 25  # under this age in the season's first year [decision: as Senioren]


def age_categories(birth_year: int, season_first_year: int) -> tuple[str, ...]:
    """The default categories a birth year gives (§14.1): ``Senioren`` at 65 and
    older in the season's first year, ``Jugend`` under 25 then."""
    age = season_first_year - birth_year
    if age >= SENIOR_AGE:
        return ("Senioren",)
    if age < YOUTH_AGE:
        return ("Jugend",)
    return ()


def pin_blocked(wrong_tries: Iterable[datetime.datetime], now: datetime.datetime) -> bool:
    """Whether a number registers only at the desk (§14.2): ``PIN_TRIES`` wrong
    PINs within the last ``PIN_WINDOW_MINUTES`` minutes."""
    since = now - datetime.timedelta(minutes=PIN_WINDOW_MINUTES)
    return sum(1 for at in wrong_tries if since < at <= now) >= PIN_TRIES


def pin_free_at(wrong_tries: Iterable[datetime.datetime], now: datetime.datetime) -> datetime.datetime | None:
    """When a blocked number takes a PIN again: once the oldest of its last
    ``PIN_TRIES`` wrong tries is ``PIN_WINDOW_MINUTES`` minutes old; ``None``
    while it is not blocked."""
    if not pin_blocked(wrong_tries, now):
        return None
    since = now - datetime.timedelta(minutes=PIN_WINDOW_MINUTES)
    recent = sorted((at for at in wrong_tries if since < at <= now), reverse=True)
    return recent[PIN_TRIES - 1] + datetime.timedelta(minutes=PIN_WINDOW_MINUTES)


def next_number(register: Iterable[RegisterEntry]) -> int:
    """The number a new player gets: one above every number and alias ever given
    (numbers go in order and are never reused, §14.1)."""
    return 1 + max((n for entry in register for n in (entry.number, *entry.aliases)), default=0)


def merge(one: RegisterEntry, other: RegisterEntry) -> RegisterEntry:
    """Two entries of one person made one (§14.1): the lower number stays with its
    names and place, the higher becomes an alias (with its own aliases), the
    categories of both are kept. Results and the account follow the kept number
    where they are stored."""
    if one.number == other.number:
        raise ValueError(f"merge: Nr. {one.number} is the same entry")
    kept, gone = (one, other) if one.number < other.number else (other, one)
    categories = kept.categories + tuple(c for c in gone.categories if c not in kept.categories)
    aliases = tuple(sorted({*kept.aliases, gone.number, *gone.aliases}))
    return RegisterEntry(
        kept.number, kept.family, kept.given, kept.place, categories, kept.public_name, aliases
    )


# The register as CSV (§14.1): ";", UTF-8 with BOM, this header, categories joined by ",".
CSV_HEADER = ("Nr", "Familienname", "Vorname", "Ort", "Kategorien")


def register_csv(register: Iterable[RegisterEntry]) -> str:
    """The register's export: a BOM, the header, one line per entry by number."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(CSV_HEADER)
    for entry in sorted(register, key=lambda e: e.number):
        writer.writerow((entry.number, entry.family, entry.given, entry.place, ",".join(entry.categories)))
    return "\ufeff" + out.getvalue()


class InvalidRegisterCsv(ValueError):
    """A register import the rules refuse, by line (1 is the header) and column."""

    def __init__(self, line: int, column: str, message: str) -> None:
        self.line = line
        self.column = column
        super().__init__(f"line {line}, {column}: {message}" if column else f"line {line}: {message}")


def read_register_csv(data: bytes, categories: Sequence[str] = DEFAULT_CATEGORIES) -> list[ImportRow]:
    """The rows of a register import (§14.1), not yet written anywhere: at most
    ``MAX_IMPORT_BYTES``, UTF-8 (a BOM is fine), ``;``-separated, the header of
    ``CSV_HEADER``; a row's number may be empty (a new player), names are trimmed
    with one space between words, categories are the circuit's. A number twice in
    the file is refused; what matches the register is ``preview_import``'s to say."""
    if len(data) > MAX_IMPORT_BYTES:
        raise InvalidRegisterCsv(0, "", f"a register import has at most 2 MB ({MAX_IMPORT_BYTES} bytes)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InvalidRegisterCsv(text_line(data, error.start), "", "must be UTF-8 text") from None
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=";"))
    if not rows or tuple(cell.strip() for cell in rows[0]) != CSV_HEADER:
        raise InvalidRegisterCsv(1, "", f"the header must be {';'.join(CSV_HEADER)}")
    if len(rows) - 1 > MAX_REGISTER:
        raise InvalidRegisterCsv(len(rows), "", f"a register has at most {MAX_REGISTER} players")
    known = {name_key(c): c for c in categories}
    found: list[ImportRow] = []
    numbers: dict[int, int] = {}
    for line, cells in enumerate(rows[1:], 2):
        if not any(cell.strip() for cell in cells):
            continue
        if len(cells) != len(CSV_HEADER):
            raise InvalidRegisterCsv(line, "", f"needs {len(CSV_HEADER)} columns (got {len(cells)})")
        raw_number, family, given, place, held = (" ".join(cell.split()) for cell in cells)
        number: int | None = None
        if raw_number:
            if not raw_number.isdigit() or not 1 <= int(raw_number) <= MAX_NUMBER:
                raise InvalidRegisterCsv(
                    line, "Nr", f"must be empty or a whole number from 1 to {MAX_NUMBER}"
                )
            number = int(raw_number)
            if number in numbers:
                raise InvalidRegisterCsv(line, "Nr", f"{number} is on line {numbers[number]} already")
            numbers[number] = line
        if not family:
            raise InvalidRegisterCsv(line, "Familienname", "must not be empty")
        for column, value in (("Familienname", family), ("Vorname", given), ("Ort", place)):
            if len(value) > MAX_REGISTER_NAME:
                raise InvalidRegisterCsv(line, column, f"at most {MAX_REGISTER_NAME} characters")
            if any(unicodedata.category(char) in ("Cc", "Cf") for char in value):
                raise InvalidRegisterCsv(line, column, "must be text without invisible characters")
        chosen: list[str] = []
        for category in (c.strip() for c in held.split(",") if c.strip()):
            if name_key(category) not in known:
                raise InvalidRegisterCsv(
                    line, "Kategorien", f"{category} is not one of {', '.join(categories)}"
                )
            if known[name_key(category)] not in chosen:
                chosen.append(known[name_key(category)])
        found.append(ImportRow(number, family, given, place, tuple(chosen)))
    return found


def text_line(data: bytes, at: int) -> int:
    """The line (1-based) of byte ``at``."""
    return data[:at].count(b"\n") + 1


# --------------------------------------------------------------------------
# A cup's season from its tournaments' places (§5, §14.10)


@dataclass(frozen=True)
class CupTournament:
    """A tournament of a cup as the season sees it: ``ranking`` is (player,
    total) in place order (places 1, 2, … from §4.2); ``final``: the cup's own
    final; ``region``: the venue region (§14.4 ``venue``)."""

    name: str
    ranking: tuple[tuple[int, Fraction], ...]
    factor: int = 1
    region: str = ""
    final: bool = False


@dataclass(frozen=True)
class CupRules:
    """How a cup counts (§5.2, §5.3)."""

    scheme: str = "fixed"
    points_table: tuple[int, ...] = ()
    best_n: str | int = 6
    final_mode: str = "extra"


@functools.lru_cache(maxsize=1024)
def tournament_points(tournament: CupTournament, rules: CupRules) -> Mapping[int, cup.Result]:
    """Each player's cup result in ``tournament``: points by the cup's scheme
    from his place (or total under ``heine``), times the tournament's factor.
    Kept per tournament and rules: a season and its side rankings ask again."""
    ranked = len(tournament.ranking)
    return {
        player: cup.Result(
            0,
            cup.points(
                rules.scheme,
                place=place,
                total=total,
                ranked=ranked,
                points_table=rules.points_table,
                factor=tournament.factor,
            ),
            place,
            tournament.final,
        )
        for place, (player, total) in enumerate(tournament.ranking, 1)
    }


def cup_season(
    tournaments: Sequence[CupTournament],
    rules: CupRules,
    *,
    players: Callable[[int], bool] | None = None,
    counts: Callable[[CupTournament], bool] | None = None,
) -> list[cup.SeasonRow[int]]:
    """The season table (§5.4) of the tournaments that ``counts`` keeps (all),
    for the players that ``players`` keeps (all). A side ranking is this with a
    filter: the places are counted again among those it keeps."""
    results: dict[int, list[cup.Result]] = {}
    held = 0
    for order, tournament in enumerate(tournaments, 1):
        if counts is not None and not counts(tournament):
            continue
        held += 0 if tournament.final else 1
        for player, result in tournament_points(tournament, rules).items():
            if players is None or players(player):
                results.setdefault(player, []).append(
                    cup.Result(order, result.points, result.place, result.final)
                )
    return cup.season(results, best_n=rules.best_n, final_mode=rules.final_mode, held=held)


# --------------------------------------------------------------------------
# Side rankings (§14.4)

SIDE_KINDS = ("category", "region", "region_not", "home")


@dataclass(frozen=True)
class SideRanking:
    """A side ranking: ``category`` (entrants with that register category),
    ``region`` / ``region_not`` (tournaments whose venue region is / is not the
    value: "Out-of-Vienna" is ``region_not`` "Wien"), ``home`` (inside one
    tournament: entrants whose place is the venue's town, the value)."""

    name: str
    kind: str
    value: str


def cup_side_ranking(
    side: SideRanking,
    tournaments: Sequence[CupTournament],
    rules: CupRules,
    register: Mapping[int, RegisterEntry],
) -> list[cup.SeasonRow[int]]:
    """A cup's side ranking: its season table over the players or tournaments
    the filter keeps; the main ranking is untouched."""
    if side.kind == "category":
        return cup_season(
            tournaments,
            rules,
            players=lambda player: player in register and side.value in register[player].categories,
        )
    if side.kind in ("region", "region_not"):
        wanted = name_key(side.value)
        inside = side.kind == "region"
        return cup_season(
            tournaments, rules, counts=lambda tournament: (name_key(tournament.region) == wanted) == inside
        )
    raise ValueError(f"side ranking {side.name}: {side.kind} is a tournament's side ranking, not a cup's")


@dataclass(frozen=True)
class SidePlace:
    """A place in a tournament's side ranking: the player's place there and in the main ranking."""

    place: int
    player: int
    total: Fraction
    main_place: int


def tournament_side_ranking(
    side: SideRanking, tournament: CupTournament, register: Mapping[int, RegisterEntry]
) -> list[SidePlace]:
    """A tournament's side ranking: the main ranking's order among the players
    the filter keeps (``home``: whose place is the town; ``category``)."""

    def kept(player: int) -> bool:
        entry = register.get(player)
        if entry is None:
            return False
        if side.kind == "home":
            return name_key(entry.place) == name_key(side.value)
        if side.kind == "category":
            return side.value in entry.categories
        raise ValueError(f"side ranking {side.name}: {side.kind} is a cup's side ranking, not a tournament's")

    rows = [
        (main, player, total) for main, (player, total) in enumerate(tournament.ranking, 1) if kept(player)
    ]
    return [SidePlace(index, player, total, main) for index, (main, player, total) in enumerate(rows, 1)]


def side_prize_winners(
    side_order: Sequence[int], prizes: int, main_winners: Iterable[int], *, one_prize_per_player: bool = True
) -> tuple[int, ...]:
    """Who takes a side ranking's ``prizes`` prizes, in its order: with
    ``one_prize_per_player`` (default) a main ranking's prize winner keeps that
    prize and the side prize passes down to the next."""
    skip = set(main_winners) if one_prize_per_player else set()
    return tuple(player for player in side_order if player not in skip)[:prizes]


# --------------------------------------------------------------------------
# Rank changes (§14.5)


@dataclass(frozen=True)
class Change:
    """A place's change since the previous round or tournament: ``by`` places
    better (positive) or worse (negative); ``new`` without a previous place."""

    by: int = 0
    new: bool = False

    def symbol(self) -> str:
        """ "▲ 2", "▼ 1", "neu", or "–" for no change."""
        if self.new:
            return "neu"
        if self.by > 0:
            return f"▲ {self.by}"
        if self.by < 0:
            return f"▼ {-self.by}"
        return "–"

    def words(self) -> str:
        """The change in words for screen readers (never the arrow alone)."""
        if self.new:
            return "neu in der Wertung"
        if self.by == 0:
            return "Platz gehalten"
        n = abs(self.by)
        places = "Platz" if n == 1 else "Plätze"
        return f"{n} {places} {'gewonnen' if self.by > 0 else 'verloren'}"

    def to_json(self) -> int | str:
        """A number (positive: better) or ``"new"``."""
        return "new" if self.new else self.by


def rank_changes(before: Mapping[int, int], now: Mapping[int, int]) -> dict[int, Change]:
    """Each player's change from his place ``before`` to his place ``now``."""
    return {
        player: Change(new=True) if player not in before else Change(by=before[player] - place)
        for player, place in now.items()
    }


def season_changes(
    tournaments: Sequence[CupTournament],
    rules: CupRules,
    now_rows: Sequence[cup.SeasonRow[int]] | None = None,
) -> dict[int, Change]:
    """Each season place's change since the previous tournament of the cup: the
    season without the last tournament against the season with it (``now_rows``
    when the caller has it; after the first tournament every player is new)."""
    rows = cup_season(tournaments, rules) if now_rows is None else now_rows
    now = {row.key: row.place for row in rows}
    before = {row.key: row.place for row in cup_season(tournaments[:-1], rules)} if tournaments else {}
    return rank_changes(before, now)


# --------------------------------------------------------------------------
# Teams (§14.6)

TEAM_KINDS = ("none", "pairs", "fours", "clubs")
TEAM_SIZES = {"pairs": 2, "fours": 4}
TEAM_BEST = 4


@dataclass(frozen=True)
class Team:
    name: str
    members: tuple[int, ...]  # start numbers (or register numbers)


@dataclass(frozen=True)
class TeamPlace:
    """A team's place: ``total`` of its ``counted`` members (best first),
    ``best``: its best member's total; ``lots``: the lot decided a tie."""

    place: int
    team: Team
    total: Fraction
    counted: tuple[int, ...]
    best: Fraction
    lots: bool = False


def check_teams(teams: Sequence[Team], kind: str, entrants: Iterable[int]) -> None:
    """Refuse teams §14.6 does not allow: the wrong size for ``pairs`` or
    ``fours``, a member who is no entrant or in two teams, two teams of one
    name, more than ``MAX_TEAMS``. Raises ``ValueError`` naming the team."""
    if kind not in TEAM_KINDS:
        raise ValueError(f"teams: must be one of {', '.join(TEAM_KINDS)} (got {kind!r})")
    if kind == "none" and teams:
        raise ValueError("teams: none are played in this tournament")
    if len(teams) > MAX_TEAMS:
        raise ValueError(f"teams: at most {MAX_TEAMS} teams in a tournament (got {len(teams)})")
    known = set(entrants)
    names: set[str] = set()
    seen: dict[int, str] = {}
    for team in teams:
        if name_key(team.name) in names:
            raise ValueError(f"team {team.name}: a second team of this name")
        names.add(name_key(team.name))
        size = TEAM_SIZES.get(kind)
        if size is not None and len(team.members) != size:
            raise ValueError(f"team {team.name}: a {kind} team has {size} members (got {len(team.members)})")
        if not team.members:
            raise ValueError(f"team {team.name}: has no members")
        for member in team.members:
            if member not in known:
                raise ValueError(f"team {team.name}: {member} is not an entrant")
            if member in seen:
                raise ValueError(f"team {team.name}: {member} plays for {seen[member]} already")
            seen[member] = team.name


def team_ranking(
    teams: Sequence[Team],
    totals: Mapping[int, Fraction],
    kind: str,
    *,
    seed: str,
    team_best: int = TEAM_BEST,
) -> list[TeamPlace]:
    """The team ranking (§14.6): the sum of the members' totals (``clubs``: of
    the best ``team_best``); ties by the best member's total, then lots as in
    §4.2, the lot of the team's best member (among equal best members, the
    better lot). Places are unique."""
    check_teams(teams, kind, totals)
    rows: list[tuple[tuple[Any, ...], TeamPlace]] = []
    for team in teams:

        def order(member: int) -> tuple[Fraction, str]:
            return (-Fraction(totals[member]), lots_key(seed, member))

        members = sorted(team.members, key=order)
        counted = tuple(members[:team_best] if kind == "clubs" else members)
        total = sum((Fraction(totals[member]) for member in counted), Fraction(0))
        best = Fraction(totals[members[0]])
        rows.append(((-total, -best, lots_key(seed, members[0])), TeamPlace(0, team, total, counted, best)))
    rows.sort(key=lambda row: row[0])
    placed: list[TeamPlace] = []
    for index, (key, row) in enumerate(rows):
        tied = any(
            other[0][:2] == key[:2] for other in rows[max(index - 1, 0) : index + 2] if other[1] is not row
        )
        placed.append(TeamPlace(index + 1, row.team, row.total, row.counted, row.best, lots=tied))
    return placed


def team_mates(teams: Sequence[Team], kind: str) -> list[tuple[int, int]]:
    """The pairs the draw keeps apart (``pairs``, ``fours``): each pair of
    team-mates, weighing ``TEAM_MATE_MEETINGS`` meetings in §2.1's cost
    (``draw_round(…, apart=team_mates(…))``)."""
    if kind not in ("pairs", "fours"):
        return []
    return [
        (a, b) for team in teams for index, a in enumerate(team.members) for b in team.members[index + 1 :]
    ]


# --------------------------------------------------------------------------
# The final of the circuit (§14.7)

# Vorrundenpunkte by season place, as published and used at the ÖF [ABAKUS-ÖF].
TIERS: dict[str, tuple[int, ...]] = {
    "A": (
        120, 112, 106, 101, 98, 96, 93, 90, 88, 85, 83, 80, 78, 76, 73, 71, 69, 67, 65, 63,
        61, 59, 57, 55, 53, 52, 50, 48, 47, 45, 44, 42, 41, 40, 38, 37, 36, 35, 33, 32,
        31, 30, 29, 28, 27, 26, 25, 24, 24, 23, 22, 21, 21, 20, 19, 19, 18, 18, 17, 17,
        16, 16, 15, 15, 14, 14, 14, 13, 13, 13, 13, 12, 12, 12, 12, 11, 11, 11, 11, 11,
    ),
    "B": (
        120, 111, 104, 98, 95, 91, 88, 84, 81, 78, 75, 72, 69, 66, 63, 61, 58, 56, 53, 51,
        49, 47, 45, 43, 41, 39, 37, 36, 34, 32, 31, 30, 28, 27, 26, 25, 24, 23, 22, 21,
        20, 19, 18, 17, 17, 16, 15, 15, 14, 14, 13, 13, 13, 12, 12, 12, 11, 11, 11, 11,
    ),
    "C": (
        120, 109, 100, 93, 87, 82, 78, 73, 69, 64, 60, 57, 53, 50, 46, 43, 41, 38, 35, 33,
        31, 29, 27, 25, 23, 22, 20, 19, 18, 17, 16, 15, 14, 13, 13, 12, 12, 11, 11, 11,
    ),
}  # fmt: skip
TIER_NAMES = ("A", "B", "C", "custom")
DEFAULT_TIER = "B"
DEFAULT_MIN_EVENTS = 4
MAX_TIER_TABLE = 400
MAX_VORRUNDENPUNKTE = 10_000
FINALPUNKTE_TOP = 60


def tier_table(tier: str, custom: Sequence[int] = ()) -> tuple[int, ...]:
    """The Vorrundenpunkte of season places 1, 2, … for a cup's ``tier``; its
    length is the cup's quota."""
    if tier == "custom":
        if not custom:
            raise ValueError("tier: custom needs its table of points")
        return tuple(custom)
    if tier not in TIERS:
        raise ValueError(f"tier: must be one of {', '.join(TIER_NAMES)} (got {tier!r})")
    return TIERS[tier]


def attendance(sizes: Sequence[int]) -> str | None:
    """A cup's average attendance, shown beside its tier (§14.7): the mean of its
    tournaments' ranked players, one decimal (half up); ``None`` before the first."""
    if not sizes:
        return None
    average = Decimal(sum(sizes)) / Decimal(len(sizes))
    return f"{average.quantize(Decimal('0.1'), rounding=ROUND_HALF_UP):f}"


def vorrundenpunkte(table: Sequence[int], place: int) -> int:
    """The points of a season place; 0 outside the quota. Tied places share the
    better place's points because the season shares the better place (§5.4)."""
    return table[place - 1] if 1 <= place <= len(table) else 0


@dataclass(frozen=True)
class QualificationRow:
    """A line of a cup's qualification list: a season place within the quota,
    its Vorrundenpunkte and how many tournaments are still ``missing`` for
    ``min_events`` (0: qualified)."""

    player: int
    place: int
    participations: int
    vorrundenpunkte: int
    missing: int

    @property
    def qualified(self) -> bool:
        return self.missing == 0


def qualification(
    season_rows: Sequence[cup.SeasonRow[int]], table: Sequence[int], *, min_events: int = DEFAULT_MIN_EVENTS
) -> list[QualificationRow]:
    """The qualification list of a cup (§14.7): every season place within the
    quota (the length of its ``table``), qualified with ``min_events``
    participations or with the number still missing. Places are the season's:
    a player short of ``min_events`` keeps his place and no one moves up."""
    return [
        QualificationRow(
            row.key,
            row.place,
            row.participations,
            vorrundenpunkte(table, row.place),
            max(0, min_events - row.participations),
        )
        for row in season_rows
        if row.place <= len(table)
    ]


@dataclass(frozen=True)
class Qualified:
    """A player of the circuit's qualified list: the highest of his
    Vorrundenpunkte, the cup that gave them and his season place there."""

    player: int
    vorrundenpunkte: int
    cup: str
    place: int


def circuit_qualified(lists: Sequence[tuple[str, Sequence[QualificationRow]]]) -> list[Qualified]:
    """Every qualified player once (§14.7), with the highest Vorrundenpunkte of
    the cups he qualified through; equal points: the better season place, then
    the cup listed first. Ordered by Vorrundenpunkte, then number."""
    best: dict[int, tuple[tuple[int, int, int], Qualified]] = {}
    for order, (name, rows) in enumerate(lists):
        for row in rows:
            if not row.qualified:
                continue
            rank = (-row.vorrundenpunkte, row.place, order)
            if row.player not in best or rank < best[row.player][0]:
                best[row.player] = (rank, Qualified(row.player, row.vorrundenpunkte, name, row.place))
    return sorted((found for _, found in best.values()), key=lambda q: (-q.vorrundenpunkte, q.player))


@dataclass(frozen=True)
class FinalStatus:
    """Where a player stands for the circuit's final (§14.3, Meine Saison):
    ``qualified`` through ``cup`` with ``vorrundenpunkte``; else the cup where he
    is nearest, with the tournaments still ``missing`` for ``min_events`` (his place
    is within the quota), or ``None`` when no cup has him within its quota."""

    qualified: bool
    cup: str | None = None
    vorrundenpunkte: int = 0
    missing: int = 0

    def text(self) -> str:
        """ "qualifiziert über RTC, 104 Vorrundenpunkte", "noch 1 Turnier für die
        Mindestteilnahme (RTC)", or "nicht unter den Qualifikationsplätzen"."""
        if self.qualified:
            return f"qualifiziert über {self.cup}, {self.vorrundenpunkte} Vorrundenpunkte"
        if self.cup is not None:
            word = "Turnier" if self.missing == 1 else "Turniere"
            return f"noch {self.missing} {word} für die Mindestteilnahme ({self.cup})"
        return "nicht unter den Qualifikationsplätzen"


def final_status(player: int, lists: Sequence[tuple[str, Sequence[QualificationRow]]]) -> FinalStatus:
    """A player's status for the final from the cups' qualification lists: the
    highest Vorrundenpunkte where he qualifies (as ``circuit_qualified``); else the
    cup where he needs the fewest tournaments more (then the most points)."""
    carried = {q.player: q for q in circuit_qualified(lists)}
    if player in carried:
        found = carried[player]
        return FinalStatus(True, found.cup, found.vorrundenpunkte)
    near = [
        (row.missing, -row.vorrundenpunkte, order, name, row)
        for order, (name, rows) in enumerate(lists)
        for row in rows
        if row.player == player
    ]
    if not near:
        return FinalStatus(False)
    missing, _, _, name, row = min(near, key=lambda item: item[:3])
    return FinalStatus(False, name, row.vorrundenpunkte, missing)


def finalpunkte(place: int) -> int:
    """Finalpunkte of place p at the final: max(0, round-half-up(60 · (101 − p) / 100)):
    60 for the winner, 30 at place 51, 1 at place 100, 0 from place 101."""
    if place < 1:
        raise ValueError(f"place: from 1 (got {place})")
    return max(0, math.floor(Fraction(FINALPUNKTE_TOP * (101 - place), 100) + Fraction(1, 2)))


class NotQualified(ValueError):
    """An entrant of the final who did not qualify, with ``open_final`` off."""

    def __init__(self, player: int, position: int) -> None:
        self.player = player
        self.position = position
        super().__init__(f"{player} did not qualify; only qualified players play the final unless open_final")


@dataclass(frozen=True)
class FinalPlace:
    """A line of the Gesamtwertung. ``cup``: the cup the Vorrundenpunkte came
    through (``None`` for a guest of an open final)."""

    place: int
    player: int
    vorrundenpunkte: int
    finalpunkte: int
    total: int
    final_place: int
    final_total: Fraction
    cup: str | None


def gesamtwertung(
    final_ranking: Sequence[tuple[int, Fraction]],
    qualified: Iterable[Qualified],
    *,
    open_final: bool = False,
) -> list[FinalPlace]:
    """The Gesamtwertung (§14.7): Vorrundenpunkte + Finalpunkte of the final's
    place, for every entrant of the final (``final_ranking``: player and total in
    place order). Ties: the better Finalpunkte, then the better final total, then
    the final's place, where §4.2's lots already decided between equal totals.
    A guest (not qualified) gets 0 Vorrundenpunkte with ``open_final``, else
    ``NotQualified``."""
    carried = {q.player: q for q in qualified}
    rows: list[FinalPlace] = []
    for position, (player, total) in enumerate(final_ranking, 1):
        found = carried.get(player)
        if found is None and not open_final:
            raise NotQualified(player, position)
        vp = found.vorrundenpunkte if found is not None else 0
        fp = finalpunkte(position)
        rows.append(
            FinalPlace(0, player, vp, fp, vp + fp, position, Fraction(total), found.cup if found else None)
        )
    rows.sort(key=lambda row: (-row.total, -row.finalpunkte, -row.final_total, row.final_place))
    return [
        FinalPlace(
            index, r.player, r.vorrundenpunkte, r.finalpunkte, r.total, r.final_place, r.final_total, r.cup
        )
        for index, r in enumerate(rows, 1)
    ]


# --------------------------------------------------------------------------
# Honours (§14.8)


@dataclass(frozen=True)
class Performance:
    """One player's tournament, as stored: where, his place, his total and his round results."""

    player: int
    season: str
    cup: str
    tournament: str
    place: int
    total: Fraction
    rounds: tuple[Fraction, ...] = ()


@dataclass(frozen=True)
class Leader:
    place: int
    player: int
    value: Fraction


BESTENLISTE = ("wins", "podiums", "best_total", "best_round", "participations")


@dataclass(frozen=True)
class Bestenliste:
    """The honours' tables, each best first with shared places, at most ``top``
    places deep (and all who share the last one)."""

    wins: tuple[Leader, ...] = field(default=())
    podiums: tuple[Leader, ...] = field(default=())
    best_total: tuple[Leader, ...] = field(default=())
    best_round: tuple[Leader, ...] = field(default=())
    participations: tuple[Leader, ...] = field(default=())


def _leaders(values: Mapping[int, Fraction], top: int, *, counts: bool = False) -> tuple[Leader, ...]:
    """Best first with shared places; a count of 0 (no win) is no record."""
    ordered = sorted((-value, player) for player, value in values.items() if value > 0 or not counts)
    out: list[Leader] = []
    for index, (negated, player) in enumerate(ordered):
        place = out[-1].place if out and out[-1].value == -negated else index + 1
        if place > top:
            break
        out.append(Leader(place, player, -negated))
    return tuple(out)


def bestenliste(
    performances: Iterable[Performance], *, season: str | None = None, top: int = 10
) -> Bestenliste:
    """The Bestenliste (§14.8) of one ``season`` or all-time (``None``): most
    tournament wins, most podiums, highest tournament total, highest round
    result, most participations; a record counts its player once, at his best."""
    wins: dict[int, Fraction] = {}
    podiums: dict[int, Fraction] = {}
    best_total: dict[int, Fraction] = {}
    best_round: dict[int, Fraction] = {}
    played: dict[int, Fraction] = {}
    for p in performances:
        if season is not None and p.season != season:
            continue
        one = Fraction(1)
        played[p.player] = played.get(p.player, Fraction(0)) + one
        wins[p.player] = wins.get(p.player, Fraction(0)) + (one if p.place == 1 else 0)
        podiums[p.player] = podiums.get(p.player, Fraction(0)) + (one if p.place <= 3 else 0)
        best_total[p.player] = max(best_total.get(p.player, p.total), p.total)
        if p.rounds:
            top_round = max(p.rounds)
            best_round[p.player] = max(best_round.get(p.player, top_round), top_round)
    return Bestenliste(
        _leaders(wins, top, counts=True),
        _leaders(podiums, top, counts=True),
        _leaders(best_total, top),
        _leaders(best_round, top),
        _leaders(played, top, counts=True),
    )


def cupsieger(season_rows: Sequence[cup.SeasonRow[int]]) -> tuple[int, ...]:
    """The season's Cupsieger: place 1 of the season table (more than one when
    they share it)."""
    return tuple(row.key for row in season_rows if row.place == 1)


@dataclass(frozen=True)
class DayHand:
    """A hand of a tournament: where it was played and its Schrift for the declarer."""

    round: int
    table: int
    hand: int
    declarer: str
    schrift: Fraction


def spiel_des_tages(hands: Iterable[DayHand]) -> DayHand | None:
    """The Spiel des Tages (§14.8): the hand with the highest Schrift for its
    declarer; ties: the earlier round, then the lower table, then the earlier hand."""
    return min(hands, key=lambda h: (-h.schrift, h.round, h.table, h.hand), default=None)
