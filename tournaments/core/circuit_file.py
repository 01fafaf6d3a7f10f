"""The circuit file ``tarockscore-circuit/1`` and what ``score_circuit`` prints
(TOURNAMENTS.md §14.10, docs/circuit.md).

Pure, as the tournament file (``tournament_file``): text in, a validated
``CircuitFile`` out (``read_circuit``), the scored document out
(``score_circuit``), and the file written back in one canonical form
(``write_circuit``, ``dumps``), so read → write → read is identical and
write → read → write byte-identical. It reads with the tournament file's reader:
the same JSON parsing (a key given twice refused, naming it; nesting too deep
refused), the same name, date and choice checks, and one-line refusals naming
the cup, the tournament and the field.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from scoring.engine import InvalidInput
from scoring.engine.schema import check_name
from scoring.engine.session_file import MAX_NAME, check_document, parse_document, read_date, read_session_name
from scoring.engine.types import (
    NumberFormat,
    Translate,
    allowed_list,
    format_number,
    gettext_noop,
    invalid,
    points_to_json,
)

from . import circuit as rules
from . import names
from .cup import BEST_N_WORDS, FACTORS, FINAL_MODES, SCHEMES
from .tournament_file import MAX_ENTRANTS, MIN_ENTRANTS, _choice, _whole
from .tournament_file import dumps as dumps

FORMAT = "tarockscore-circuit/1"
TOP_KEYS = ("format", "name", "season", "categories", "register", "cups", "final")
ENTRY_KEYS = ("number", "family", "given", "place", "categories", "public_name", "aliases")
CUP_KEYS = (
    "name",
    "tier",
    "tier_table",
    "scheme",
    "points_table",
    "best_n",
    "final",
    "min_events",
    "side_rankings",
    "tournaments",
)
TOURNAMENT_KEYS = ("name", "date", "region", "factor", "final", "side_rankings", "ranking")
FINAL_KEYS = ("name", "date", "open_final", "ranking")
ROW_KEYS = ("number", "total")
CUP_SIDE_KINDS = ("category", "region", "region_not")
TOURNAMENT_SIDE_KINDS = ("category", "home")
MAX_SEASON = 20
MAX_CATEGORIES = 20
MAX_TABLE = 400
MAX_TABLE_POINTS = 10_000
MAX_TOTAL = 1_000_000
# A side ranking's name and a venue region as long as the app keeps them
# (``SideRanking.name``, ``Tournament.region``), so its export reads back.
MAX_SIDE_NAME = 60
MAX_REGION = 60
# The largest circuit file: a register of 100,000 players takes about 11 MB; a
# season of 7 cups × 25 tournaments × 150 players about 1 MB of rankings.
MAX_BYTES = 16_000_000
PATH = re.compile(r"cups\[(\d+)\](?:\.tournaments\[(\d+)\])?(?:\.(.*))?")


class InvalidCircuit(ValueError):
    """A circuit file the rules refuse: one problem (an ``InvalidInput`` naming
    the field) and where, the cup and the tournament by name (by position when
    the name itself is the problem). ``describe`` (and ``str``) is the line
    ``score_circuit`` prints: ``cup RTC, tournament Schlierbach: ranking[3].number: …``."""

    def __init__(self, problem: InvalidInput, cup: str | None = None, tournament: str | None = None) -> None:
        self.problem = problem
        self.cup = cup
        self.tournament = tournament
        super().__init__(self.describe())

    @property
    def field(self) -> str:
        return self.problem.field

    def describe(self, translate: Translate = lambda text: text, number: NumberFormat = format_number) -> str:
        what = self.problem.describe(translate, number)
        if self.cup is None:
            return what
        if self.tournament is None:
            where = translate(gettext_noop("cup {cup}")).format(cup=self.cup)
        else:
            where = translate(gettext_noop("cup {cup}, tournament {tournament}")).format(
                cup=self.cup, tournament=self.tournament
            )
        return f"{where}: {what}"


# --------------------------------------------------------------------------
# The validated file


@dataclass(frozen=True)
class TournamentEntry:
    """A tournament of a cup's season: ``ranking`` is (number kept, total)
    in place order; ``final``: the cup's own final."""

    name: str
    date: datetime.date
    region: str
    factor: int
    final: bool
    side_rankings: tuple[rules.SideRanking, ...]
    ranking: tuple[tuple[int, Fraction], ...]


@dataclass(frozen=True)
class CupFile:
    name: str
    tier: str
    tier_table: tuple[int, ...]  # custom only; the tier's own table otherwise (``table``)
    cup_rules: rules.CupRules
    min_events: int
    side_rankings: tuple[rules.SideRanking, ...]
    tournaments: tuple[TournamentEntry, ...]

    @property
    def table(self) -> tuple[int, ...]:
        """The Vorrundenpunkte by season place; its length is the quota."""
        return rules.tier_table(self.tier, self.tier_table)


@dataclass(frozen=True)
class FinalFile:
    name: str
    date: datetime.date | None
    open_final: bool
    ranking: tuple[tuple[int, Fraction], ...]


@dataclass(frozen=True)
class CircuitFile:
    name: str
    season: str
    categories: tuple[str, ...]
    register: tuple[rules.RegisterEntry, ...]
    cups: tuple[CupFile, ...]
    final: FinalFile | None


# --------------------------------------------------------------------------
# Reading


def too_large() -> InvalidCircuit:
    return InvalidCircuit(
        invalid(
            "file",
            gettext_noop("a circuit file has at most 16 MB ({most} bytes): this one is larger"),
            most=str(MAX_BYTES),
        )
    )


def read_circuit(text: str | bytes) -> CircuitFile:
    """A validated circuit season from the file's text (UTF-8). Everything
    ``score_circuit`` needs is checked here, so scoring the result cannot fail."""
    if len(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text) > MAX_BYTES:
        raise too_large()
    try:
        document = parse_document(text)
    except InvalidInput as error:
        raise InvalidCircuit(error) from None
    try:
        check_document(document)
    except InvalidInput as error:
        raise _placed(error, document) from None
    return read_document(document)


def _placed(error: InvalidInput, document: Any) -> InvalidCircuit:
    """An error ``check_document`` found at a path, placed in its cup and tournament."""
    found = PATH.fullmatch(error.field)
    if found is None:
        return InvalidCircuit(error)
    cups = document.get("cups") if isinstance(document, Mapping) else None
    cup_raw = cups[int(found[1]) - 1] if isinstance(cups, list) else None
    cup = _label(cup_raw, int(found[1]))
    tournament = None
    if found[2]:
        raw_tournaments = cup_raw.get("tournaments") if isinstance(cup_raw, Mapping) else None
        raw = raw_tournaments[int(found[2]) - 1] if isinstance(raw_tournaments, list) else None
        tournament = _label(raw, int(found[2]))
    field = found[3] or ("tournament" if found[2] else "cup")
    return InvalidCircuit(InvalidInput(field, error.line, label=error.label), cup, tournament)


def _label(raw: Any, index: int) -> str:
    """A cup or tournament by its name, or by its position when the name is unusable."""
    name = raw.get("name") if isinstance(raw, Mapping) else None
    try:
        return read_session_name(name) if isinstance(name, str) else str(index)
    except InvalidInput:
        return str(index)


def read_document(document: Any) -> CircuitFile:
    """A validated circuit season from the parsed JSON of a circuit file."""
    try:
        if not isinstance(document, Mapping):
            raise invalid("document", gettext_noop("must be a JSON object"))
        _known(document, TOP_KEYS, "")
        if document.get("format") != FORMAT:
            raise invalid("format", gettext_noop("must be {allowed}"), allowed=FORMAT)
        name = read_session_name(document.get("name"))
        season = _text(document.get("season"), "season", MAX_SEASON, empty=False)
        categories = _categories(document.get("categories", list(rules.DEFAULT_CATEGORIES)))
        register = _register(document.get("register"), categories)
    except InvalidInput as error:
        raise InvalidCircuit(error) from None
    numbers = rules.by_number(register)
    raw_cups = document.get("cups")
    if not isinstance(raw_cups, list) or not 1 <= len(raw_cups) <= rules.MAX_CUPS:
        raise InvalidCircuit(
            invalid(
                "cups",
                gettext_noop("must be a list of 1 to {most} cups"),
                most=rules.MAX_CUPS,
            )
        )
    cups: list[CupFile] = []
    seen: dict[str, str] = {}
    for index, raw in enumerate(raw_cups, 1):
        cup = _cup(raw, index, categories, numbers)
        key = names.name_key(cup.name)
        if key in seen:
            raise InvalidCircuit(
                invalid("name", gettext_noop("{name} is a second cup of this name"), name=seen[key]), cup.name
            )
        seen[key] = cup.name
        cups.append(cup)
    final = None
    if "final" in document:
        if not isinstance(document["final"], Mapping):
            raise InvalidCircuit(
                invalid("final", gettext_noop("must be an object with its name and ranking"))
            )
        try:
            final = _final(document["final"], numbers)
        except InvalidInput as error:
            raise InvalidCircuit(error.under("final.")) from None
    circuit = CircuitFile(name, season, categories, register, tuple(cups), final)
    if final is not None:
        try:
            final_rows(circuit)
        except rules.NotQualified as error:
            raise InvalidCircuit(
                invalid(
                    f"final.ranking[{error.position}].number",
                    gettext_noop(
                        "{number} did not qualify: only qualified players play the final unless open_final is true"
                    ),
                    number=str(error.player),
                )
            ) from None
    return circuit


def _known(raw: Mapping[str, Any], allowed: Sequence[str], prefix: str) -> None:
    for key in raw:
        if key not in allowed:
            raise invalid(
                f"{prefix}{key}",
                gettext_noop("unknown field; allowed here: {allowed}"),
                allowed=allowed_list(allowed),
            )


def _got(raw: Any) -> str:
    return json.dumps(raw, ensure_ascii=False) if isinstance(raw, str | int | float) else type(raw).__name__


def _text(raw: Any, field: str, most: int = MAX_NAME, *, empty: bool = True) -> str:
    """A short text (a place, a region, a category): at most ``most`` characters,
    no spaces at either end, one space between words; empty only if ``empty``."""
    if not isinstance(raw, str) or len(raw) > most or (not raw and not empty) or raw != " ".join(raw.split()):
        raise invalid(
            field,
            gettext_noop(
                "must be a text of {least} to {most} characters, one space between words (got {got})"
            ),
            least="0" if empty else "1",
            most=str(most),
            got=_got(raw),
        )
    if raw:
        check_name(field, raw)
        problem = names.name_problem(raw)
        if problem is not None:
            raise InvalidInput(field, problem)
    return raw


def _categories(raw: Any) -> tuple[str, ...]:
    if not isinstance(raw, list) or len(raw) > MAX_CATEGORIES:
        raise invalid(
            "categories",
            gettext_noop("must be a list of at most {most} categories"),
            most=str(MAX_CATEGORIES),
        )
    seen: set[str] = set()
    for index, item in enumerate(raw, 1):
        _text(item, f"categories[{index}]", empty=False)
        if names.name_key(item) in seen:
            raise invalid(f"categories[{index}]", gettext_noop("{name} is listed twice"), name=item)
        seen.add(names.name_key(item))
    return tuple(raw)


def _number(raw: Any, field: str) -> int:
    return _whole(raw, field, 1, rules.MAX_NUMBER)


def _register(raw: Any, categories: tuple[str, ...]) -> tuple[rules.RegisterEntry, ...]:
    if not isinstance(raw, list) or len(raw) > rules.MAX_REGISTER:
        raise invalid(
            "register",
            gettext_noop("must be a list of at most {most} players"),
            most=str(rules.MAX_REGISTER),
        )
    entries: list[rules.RegisterEntry] = []
    taken: dict[int, int] = {}
    for index, item in enumerate(raw, 1):
        at = f"register[{index}]"
        if not isinstance(item, Mapping):
            raise invalid(at, gettext_noop("must be an object: number, family, given, place, categories"))
        _known(item, ENTRY_KEYS, f"{at}.")
        number = _number(item.get("number"), f"{at}.number")
        family = _text(item.get("family"), f"{at}.family", empty=False)
        given = _text(item.get("given", ""), f"{at}.given")
        place = _text(item.get("place", ""), f"{at}.place")
        held = item.get("categories", [])
        if not isinstance(held, list) or not all(isinstance(c, str) for c in held):
            raise invalid(f"{at}.categories", gettext_noop("must be a list of the circuit's categories"))
        for category in held:
            if category not in categories:
                raise invalid(
                    f"{at}.categories",
                    gettext_noop("{name} is not one of the circuit's categories: {allowed}"),
                    name=category,
                    allowed=allowed_list(categories),
                )
        if len(set(held)) != len(held):
            raise invalid(f"{at}.categories", gettext_noop("a category is listed twice"))
        public = _choice(item.get("public_name", "full"), f"{at}.public_name", rules.PUBLIC_NAMES)
        aliases_raw = item.get("aliases", [])
        if not isinstance(aliases_raw, list):
            raise invalid(f"{at}.aliases", gettext_noop("must be a list of numbers merged into this one"))
        aliases = tuple(_number(alias, f"{at}.aliases[{n}]") for n, alias in enumerate(aliases_raw, 1))
        for field, value in ((f"{at}.number", number), *((f"{at}.aliases", alias) for alias in aliases)):
            if value in taken:
                raise invalid(
                    field,
                    gettext_noop(
                        "number {number} is given to register[{other}] already: a number is never reused"
                    ),
                    number=str(value),
                    other=str(taken[value]),
                )
            taken[value] = index
        entries.append(rules.RegisterEntry(number, family, given, place, tuple(held), public, aliases))
    return tuple(entries)


def _table(raw: Any, field: str) -> tuple[int, ...]:
    if (
        not isinstance(raw, list)
        or not 1 <= len(raw) <= MAX_TABLE
        or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_TABLE_POINTS for v in raw)
    ):
        raise invalid(
            field,
            gettext_noop("must be a list of 1 to {n} whole numbers from 0 to {most}: places 1, 2, …"),
            n=str(MAX_TABLE),
            most=str(MAX_TABLE_POINTS),
        )
    return tuple(raw)


def _cup(
    raw: Any, index: int, categories: tuple[str, ...], numbers: Mapping[int, rules.RegisterEntry]
) -> CupFile:
    label = _label(raw, index)
    try:
        if not isinstance(raw, Mapping):
            raise invalid("cup", gettext_noop("must be an object with its name, settings and tournaments"))
        _known(raw, CUP_KEYS, "")
        name = read_session_name(raw.get("name"))
        tier = _choice(raw.get("tier", rules.DEFAULT_TIER), "tier", rules.TIER_NAMES)
        tier_table: tuple[int, ...] = ()
        if tier == "custom":
            tier_table = _table(raw.get("tier_table"), "tier_table")
        elif "tier_table" in raw:
            raise invalid("tier_table", gettext_noop("only with the tier custom"))
        scheme = _choice(raw.get("scheme", "fixed"), "scheme", SCHEMES)
        points_table: tuple[int, ...] = ()
        if scheme == "custom":
            points_table = _table(raw.get("points_table"), "points_table")
        elif "points_table" in raw:
            raise invalid("points_table", gettext_noop("only with the scheme custom"))
        best_n = _best_n(raw.get("best_n", 6))
        final_mode = _choice(raw.get("final", "extra"), "final", FINAL_MODES)
        min_events = _whole(
            raw.get("min_events", rules.DEFAULT_MIN_EVENTS), "min_events", 1, rules.MAX_TOURNAMENTS
        )
        sides = _sides(raw.get("side_rankings", []), CUP_SIDE_KINDS, categories)
        raw_tournaments = raw.get("tournaments")
        if not isinstance(raw_tournaments, list) or len(raw_tournaments) > rules.MAX_TOURNAMENTS:
            raise invalid(
                "tournaments",
                gettext_noop("must be a list of at most {most} tournaments, in the order played"),
                most=str(rules.MAX_TOURNAMENTS),
            )
    except InvalidInput as error:
        raise InvalidCircuit(error, label) from None
    tournaments: list[TournamentEntry] = []
    seen: set[str] = set()
    for number, item in enumerate(raw_tournaments, 1):
        where = _label(item, number)
        try:
            tournament = _tournament(item, categories, numbers)
            if names.name_key(tournament.name) in seen:
                raise invalid(
                    "name",
                    gettext_noop(
                        "a second tournament of this name in the cup; tell them apart (Schlierbach I, Schlierbach II)"
                    ),
                )
            seen.add(names.name_key(tournament.name))
            if tournaments and tournament.date < tournaments[-1].date:
                raise invalid(
                    "date",
                    gettext_noop(
                        "is before the previous tournament's ({date}): tournaments go in the order played"
                    ),
                    date=tournaments[-1].date.isoformat(),
                )
            if tournaments and tournaments[-1].final:
                raise invalid(
                    "final", gettext_noop("the cup's final is its last tournament: none comes after it")
                )
        except InvalidInput as error:
            raise InvalidCircuit(error, label, where) from None
        tournaments.append(tournament)
    return CupFile(
        name,
        tier,
        tier_table,
        rules.CupRules(scheme, points_table, best_n, final_mode),
        min_events,
        sides,
        tuple(tournaments),
    )


def _best_n(raw: Any) -> str | int:
    """How many results count: a number from 1, ``all`` or ``half`` (§5.3)."""
    if isinstance(raw, str) and raw in BEST_N_WORDS:
        return raw
    if isinstance(raw, int) and not isinstance(raw, bool) and 1 <= raw <= rules.MAX_TOURNAMENTS:
        return raw
    raise invalid(
        "best_n",
        gettext_noop("must be a whole number from 1 to {most}, all or half (got {got})"),
        most=str(rules.MAX_TOURNAMENTS),
        got=_got(raw),
    )


def _sides(raw: Any, kinds: Sequence[str], categories: tuple[str, ...]) -> tuple[rules.SideRanking, ...]:
    if not isinstance(raw, list) or len(raw) > rules.MAX_SIDE_RANKINGS:
        raise invalid(
            "side_rankings",
            gettext_noop("must be a list of at most {most} side rankings"),
            most=str(rules.MAX_SIDE_RANKINGS),
        )
    sides: list[rules.SideRanking] = []
    seen: set[str] = set()
    for index, item in enumerate(raw, 1):
        at = f"side_rankings[{index}]"
        if not isinstance(item, Mapping):
            raise invalid(
                at,
                gettext_noop("must be an object: its name and one of {allowed}"),
                allowed=allowed_list(kinds),
            )
        _known(item, ("name", *kinds), f"{at}.")
        name = _text(item.get("name"), f"{at}.name", MAX_SIDE_NAME, empty=False)
        if names.name_key(name) in seen:
            raise invalid(
                f"{at}.name", gettext_noop("{name} is a second side ranking of this name"), name=name
            )
        seen.add(names.name_key(name))
        given = [kind for kind in kinds if kind in item]
        if len(given) != 1:
            raise invalid(at, gettext_noop("give exactly one of {allowed}"), allowed=allowed_list(kinds))
        kind = given[0]
        value = _text(item[kind], f"{at}.{kind}", empty=False)
        if kind == "category" and value not in categories:
            raise invalid(
                f"{at}.category",
                gettext_noop("{name} is not one of the circuit's categories: {allowed}"),
                name=value,
                allowed=allowed_list(categories),
            )
        sides.append(rules.SideRanking(name, kind, value))
    return tuple(sides)


def side_rankings_written(
    sides: Sequence[rules.SideRanking], kinds: Sequence[str], categories: tuple[str, ...]
) -> tuple[rules.SideRanking, ...]:
    """Those of ``sides`` the reader takes back, in their order: one of ``kinds``,
    a name and a value it reads (no invisible characters), a category of the
    register's, a name not given before; at most ten. What the app keeps beyond
    (a category side ranking of a cup that joined with another category) is left out."""
    taken: list[rules.SideRanking] = []
    for side in sides:
        if side.kind not in kinds or len(taken) == rules.MAX_SIDE_RANKINGS:
            continue
        try:
            _sides([_side_json(s) for s in (*taken, side)], kinds, categories)
        except InvalidInput:
            continue
        taken.append(side)
    return tuple(taken)


def region_written(region: str) -> str:
    """A tournament's venue region as the reader takes it back, else ``""``."""
    try:
        return _text(region, "region", MAX_REGION)
    except InvalidInput:
        return ""


def _tournament(
    raw: Any, categories: tuple[str, ...], numbers: Mapping[int, rules.RegisterEntry]
) -> TournamentEntry:
    if not isinstance(raw, Mapping):
        raise invalid("tournament", gettext_noop("must be an object with its name, date and ranking"))
    _known(raw, TOURNAMENT_KEYS, "")
    name = read_session_name(raw.get("name"))
    date = read_date(raw.get("date"))
    region = _text(raw.get("region", ""), "region", MAX_REGION)
    factor = raw.get("factor", 1)
    if isinstance(factor, bool) or factor not in FACTORS:
        raise invalid(
            "factor", gettext_noop("must be 1, or 2 for double points (got {got})"), got=_got(factor)
        )
    final = raw.get("final", False)
    if not isinstance(final, bool):
        raise invalid(
            "final", gettext_noop("must be true for the cup's final, else false (got {got})"), got=_got(final)
        )
    sides = _sides(raw.get("side_rankings", []), TOURNAMENT_SIDE_KINDS, categories)
    ranking = _ranking(raw.get("ranking"), numbers)
    return TournamentEntry(name, date, region, int(factor), final, sides, ranking)


def _ranking(raw: Any, numbers: Mapping[int, rules.RegisterEntry]) -> tuple[tuple[int, Fraction], ...]:
    """Players and totals in place order: register numbers (an alias finds its
    player, and is read as the number kept, so the canonical form writes that one,
    as the app's export does), each player once, totals never rising."""
    if not isinstance(raw, list) or not MIN_ENTRANTS <= len(raw) <= MAX_ENTRANTS:
        raise invalid(
            "ranking",
            gettext_noop("must be a list of {least} to {most} players in place order: number and total"),
            least=str(MIN_ENTRANTS),
            most=str(MAX_ENTRANTS),
        )
    rows: list[tuple[int, Fraction]] = []
    placed: dict[int, int] = {}
    for place, item in enumerate(raw, 1):
        at = f"ranking[{place}]"
        if not isinstance(item, Mapping):
            raise invalid(at, gettext_noop("must be an object: number and total"))
        _known(item, ROW_KEYS, f"{at}.")
        number = _number(item.get("number"), f"{at}.number")
        entry = numbers.get(number)
        if entry is None:
            raise invalid(f"{at}.number", gettext_noop("{number} is not in the register"), number=str(number))
        if entry.number in placed:
            raise invalid(
                f"{at}.number",
                gettext_noop("{number} is Nr. {kept}, at place {other} already")
                if number != entry.number
                else gettext_noop("Nr. {kept} is at place {other} already"),
                number=str(number),
                kept=str(entry.number),
                other=str(placed[entry.number]),
            )
        placed[entry.number] = place
        value = item.get("total")
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or value != value
            or abs(value) > MAX_TOTAL
            or (Fraction(value) * 2).denominator != 1
        ):
            raise invalid(
                f"{at}.total",
                gettext_noop("must be a whole number (or x.5) from −{most} to {most} (got {got})"),
                most=str(MAX_TOTAL),
                got=_got(value),
            )
        total = Fraction(value)
        if rows and total > rows[-1][1]:
            raise invalid(
                f"{at}.total",
                gettext_noop("{total} is more than place {place}'s {before}: the ranking is in place order"),
                total=total,
                place=str(place - 1),
                before=rows[-1][1],
            )
        rows.append((entry.number, total))
    return tuple(rows)


def _final(raw: Any, numbers: Mapping[int, rules.RegisterEntry]) -> FinalFile:
    _known(raw, FINAL_KEYS, "")
    name = read_session_name(raw.get("name"))
    date = read_date(raw["date"]) if "date" in raw else None
    open_final = raw.get("open_final", False)
    if not isinstance(open_final, bool):
        raise invalid("open_final", gettext_noop("must be true or false (got {got})"), got=_got(open_final))
    return FinalFile(name, date, open_final, _ranking(raw.get("ranking"), numbers))


# --------------------------------------------------------------------------
# Scoring


def _resolved(circuit: CircuitFile) -> dict[int, rules.RegisterEntry]:
    return rules.by_number(circuit.register)


def cup_tournaments(circuit: CircuitFile, cup: CupFile) -> list[rules.CupTournament]:
    """The cup's tournaments as the season sees them, players by their kept number."""
    numbers = _resolved(circuit)
    return [
        rules.CupTournament(
            t.name,
            tuple((numbers[n].number, total) for n, total in t.ranking),
            t.factor,
            t.region,
            t.final,
        )
        for t in cup.tournaments
    ]


def cup_qualification(circuit: CircuitFile, cup: CupFile) -> list[rules.QualificationRow]:
    rows = rules.cup_season(cup_tournaments(circuit, cup), cup.cup_rules)
    return rules.qualification(rows, cup.table, min_events=cup.min_events)


def qualified_list(circuit: CircuitFile) -> list[rules.Qualified]:
    """The circuit's qualified players, each once (§14.7)."""
    return rules.circuit_qualified([(cup.name, cup_qualification(circuit, cup)) for cup in circuit.cups])


def final_rows(
    circuit: CircuitFile, qualified: Sequence[rules.Qualified] | None = None
) -> list[rules.FinalPlace]:
    """The final's Gesamtwertung, or ``[]`` before the final."""
    if circuit.final is None:
        return []
    numbers = _resolved(circuit)
    ranking = [(numbers[n].number, total) for n, total in circuit.final.ranking]
    found = qualified_list(circuit) if qualified is None else qualified
    return rules.gesamtwertung(ranking, found, open_final=circuit.final.open_final)


def attendance(cup: CupFile) -> str | None:
    """The cup's average attendance (ranked players per tournament), one decimal,
    shown beside its tier (§14.7); ``None`` before its first tournament."""
    return rules.attendance([len(t.ranking) for t in cup.tournaments])


def _season_row(row: Any, changes: Mapping[int, rules.Change]) -> dict[str, Any]:
    return {
        "place": row.place,
        "number": row.key,
        "points": points_to_json(row.total),
        "counted": [points_to_json(value) for value in row.counted],
        "final": None if row.final_points is None else points_to_json(row.final_points),
        "participations": row.participations,
        "podiums": list(row.podiums),
        "best_place": row.best_place,
        "change": changes[row.key].to_json(),
    }


def score_circuit(circuit: CircuitFile) -> dict[str, Any]:
    """The document ``score_circuit`` prints (§14.10)."""
    kept = {entry.number: entry for entry in circuit.register}
    cups: list[dict[str, Any]] = []
    lists: list[tuple[str, list[rules.QualificationRow]]] = []
    for cup in circuit.cups:
        tournaments = cup_tournaments(circuit, cup)
        season = rules.cup_season(tournaments, cup.cup_rules)
        changes = rules.season_changes(tournaments, cup.cup_rules, season)
        qualification = rules.qualification(season, cup.table, min_events=cup.min_events)
        lists.append((cup.name, qualification))
        out: dict[str, Any] = {
            "name": cup.name,
            "tier": cup.tier,
            "attendance": attendance(cup),
            "season": [_season_row(row, changes) for row in season],
            "side_rankings": {
                side.name: [
                    {"place": row.place, "number": row.key, "points": points_to_json(row.total)}
                    for row in rules.cup_side_ranking(side, tournaments, cup.cup_rules, kept)
                ]
                for side in cup.side_rankings
            },
            "tournaments": [
                {
                    "name": t.name,
                    "side_rankings": {
                        side.name: [
                            {
                                "place": row.place,
                                "number": row.player,
                                "total": points_to_json(row.total),
                                "main_place": row.main_place,
                            }
                            for row in rules.tournament_side_ranking(side, resolved, kept)
                        ]
                        for side in t.side_rankings
                    },
                }
                for t, resolved in zip(cup.tournaments, tournaments, strict=True)
                if t.side_rankings
            ],
            "qualified": [
                {
                    "place": row.place,
                    "number": row.player,
                    "participations": row.participations,
                    "vorrundenpunkte": row.vorrundenpunkte,
                }
                for row in qualification
                if row.qualified
            ],
        }
        cups.append(out)
    qualified = rules.circuit_qualified(lists)
    final = final_rows(circuit, qualified)
    return {
        "name": circuit.name,
        "season": circuit.season,
        "cups": cups,
        "qualified": [
            {"number": q.player, "vorrundenpunkte": q.vorrundenpunkte, "cup": q.cup} for q in qualified
        ],
        "final": [
            {
                "place": row.place,
                "number": row.player,
                "vorrundenpunkte": row.vorrundenpunkte,
                "finalpunkte": row.finalpunkte,
                "total": row.total,
                "cup": row.cup,
            }
            for row in final
        ],
    }


# --------------------------------------------------------------------------
# Writing


def _side_json(side: rules.SideRanking) -> dict[str, Any]:
    return {"name": side.name, side.kind: side.value}


def _ranking_json(ranking: Sequence[tuple[int, Fraction]]) -> list[dict[str, Any]]:
    return [{"number": number, "total": points_to_json(total)} for number, total in ranking]


def write_circuit(circuit: CircuitFile) -> dict[str, Any]:
    """The file of a validated circuit season in its one canonical form: every
    key with the value in force, in the order of §14.10 and docs/circuit.md."""
    out: dict[str, Any] = {
        "format": FORMAT,
        "name": circuit.name,
        "season": circuit.season,
        "categories": list(circuit.categories),
        "register": [
            {
                "number": entry.number,
                "family": entry.family,
                "given": entry.given,
                "place": entry.place,
                "categories": list(entry.categories),
                "public_name": entry.public_name,
                "aliases": list(entry.aliases),
            }
            for entry in circuit.register
        ],
        "cups": [],
    }
    for cup in circuit.cups:
        written: dict[str, Any] = {"name": cup.name, "tier": cup.tier}
        if cup.tier == "custom":
            written["tier_table"] = list(cup.tier_table)
        written["scheme"] = cup.cup_rules.scheme
        if cup.cup_rules.scheme == "custom":
            written["points_table"] = list(cup.cup_rules.points_table)
        written["best_n"] = cup.cup_rules.best_n
        written["final"] = cup.cup_rules.final_mode
        written["min_events"] = cup.min_events
        written["side_rankings"] = [_side_json(side) for side in cup.side_rankings]
        written["tournaments"] = [
            {
                "name": t.name,
                "date": t.date.isoformat(),
                "region": t.region,
                "factor": t.factor,
                "final": t.final,
                "side_rankings": [_side_json(side) for side in t.side_rankings],
                "ranking": _ranking_json(t.ranking),
            }
            for t in cup.tournaments
        ]
        out["cups"].append(written)
    if circuit.final is not None:
        final: dict[str, Any] = {"name": circuit.final.name}
        if circuit.final.date is not None:
            final["date"] = circuit.final.date.isoformat()
        final["open_final"] = circuit.final.open_final
        final["ranking"] = _ranking_json(circuit.final.ranking)
        out["final"] = final
    return out
