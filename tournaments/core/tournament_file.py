"""The tournament file ``tarockscore-tournament/1`` and what ``score_tournament``
prints (TOURNAMENTS.md §13, docs/tournament-file.md).

Pure: text in, a validated ``TournamentFile`` out (``read_tournament``), a scored
document out (``score_tournament``), and the file written back in one canonical
form (``tournament_document``, ``write_tournament``, ``dumps``), so export →
import → export is byte-identical. A table's hands are read and scored as a
session file of its players (``scoring.engine``), so their refusals read as
``score_session``'s after the round and table.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from scoring.engine import HandRecord, HandType, InvalidInput, Variant, read_session, score_session
from scoring.engine.registry import terms_of, tournament_games
from scoring.engine.schema import check_name
from scoring.engine.session_file import (
    MAX_NAME,
    check_document,
    money_rate_text,
    parse_document,
    read_date,
    read_money_rate,
    read_session_name,
    variant_for,
    write_hand,
)
from scoring.engine.types import (
    Line,
    NumberFormat,
    Signed,
    Translate,
    allowed_list,
    format_number,
    gettext_noop,
    invalid,
    points_to_json,
)

from . import names
from .cup import BY_PLACE, FACTORS, points, schemes_for
from .draw import AVOID_REPEATS, CannotSeat, draw_round, first_dealer
from .ranking import CRITERIA, TIE_BREAKS, Entry, Place, chain_of, rank, shares_places, table_ranks

FORMAT = "tarockscore-tournament/1"
TOP_KEYS = ("format", "name", "date", "variant", "options", "seed", "entrants", "settings", "rounds")
SETTING_KEYS = (
    "rounds",
    "hands",
    "hands_at_five",
    "avoid_repeats",
    "tie_break",
    "scheme",
    "points_table",
    "factor",
    "money_rate",
)
ROUND_KEYS = ("tables",)
TABLE_KEYS = ("players", "dealer", "hands", "sums")
MIN_ENTRANTS, MAX_ENTRANTS = 4, 400
MAX_ROUNDS = 10
MAX_HANDS = 60
MAX_POINTS_TABLE = 400
MAX_CUP_POINTS = 10_000
MAX_SUM = 100_000
# The largest file read (the import and ``score_tournament`` alike): 400 entrants and
# 10 rounds of sums take about 100 kB; a day of 16-hand tables about 1 MB.
MAX_BYTES = 2_000_000
TABLE_SIZES = (4, 5)
SEED_TEXT = re.compile(r"[0-9]{6}")


class InvalidTournament(ValueError):
    """A tournament file the rules refuse: one problem (an ``InvalidInput``
    naming the field) and where it is, the round and the table (1-based).
    ``describe`` (and ``str``) is the one line ``score_tournament`` prints:
    ``round 2, table 3: players: Erika sits at table 1 of this round too``."""

    def __init__(
        self, problem: InvalidInput, round_number: int | None = None, table: int | None = None
    ) -> None:
        self.problem = problem
        self.round = round_number
        self.table = table
        super().__init__(self.describe())

    @property
    def field(self) -> str:
        return self.problem.field

    def describe(self, translate: Translate = lambda text: text, number: NumberFormat = format_number) -> str:
        """The refusal with its round, table and field, in the reader's language."""
        what = self.problem.describe(translate, number)
        if self.round is None:
            return what
        if self.table is None:
            where = translate(gettext_noop("round {round}")).format(round=number(Fraction(self.round)))
        else:
            where = translate(gettext_noop("round {round}, table {table}")).format(
                round=number(Fraction(self.round)), table=number(Fraction(self.table))
            )
        return f"{where}: {what}"


# --------------------------------------------------------------------------
# The validated file


@dataclass(frozen=True)
class Settings:
    """The settings of §13 with the value in force (defaults filled in)."""

    rounds: int
    hands: int
    hands_at_five: int
    avoid_repeats: str
    tie_break: str | tuple[str, ...]
    scheme: str
    points_table: tuple[int, ...]
    factor: int
    money_rate: Decimal | None

    def target(self, size: int) -> int:
        """The hand target of a table of ``size``."""
        return self.hands_at_five if size == 5 else self.hands

    def to_json(self) -> dict[str, Any]:
        """Every setting in the file's order; ``points_table`` only with ``custom``."""
        out: dict[str, Any] = {
            "rounds": self.rounds,
            "hands": self.hands,
            "hands_at_five": self.hands_at_five,
            "avoid_repeats": self.avoid_repeats,
            "tie_break": self.tie_break if isinstance(self.tie_break, str) else list(self.tie_break),
            "scheme": self.scheme,
        }
        if self.scheme == "custom":
            out["points_table"] = list(self.points_table)
        out["factor"] = self.factor
        out["money_rate"] = None if self.money_rate is None else money_rate_text(self.money_rate)
        return out


@dataclass(frozen=True)
class GivenTable:
    """A table of a given round: players in seat order, the first dealer, and
    either its ``hands`` (scored; ``sums`` are the session's totals) or the
    ``sums`` typed at the desk (``hands`` is ``None``)."""

    players: tuple[str, ...]
    dealer: str
    sums: Mapping[str, Fraction]
    hands: tuple[HandRecord, ...] | None = None


@dataclass(frozen=True)
class SeatedTable:
    """A table of the plan: given (with sums) or drawn (``sums`` is ``None``)."""

    players: tuple[str, ...]
    dealer: str
    sums: Mapping[str, Fraction] | None


@dataclass(frozen=True)
class TournamentFile:
    """A validated tournament file. ``rounds`` are the rounds the file lists:
    a round's tables, or ``None`` for one given as ``{}`` (drawn); rounds after
    the last one listed are drawn too (``seating``)."""

    variant: Variant
    options: Any
    settings: Settings
    seed: str
    entrants: tuple[str, ...]
    rounds: tuple[tuple[GivenTable, ...] | None, ...]
    name: str | None = None
    date: datetime.date | None = None

    def number(self, name: str) -> int:
        """An entrant's start number."""
        return self.entrants.index(name) + 1


# --------------------------------------------------------------------------
# Reading


def too_large() -> InvalidTournament:
    """The refusal of a file over ``MAX_BYTES`` (the import says it of an upload it
    stopped reading there)."""
    return InvalidTournament(
        invalid(
            "file",
            gettext_noop("a tournament file has at most 2 MB ({most} bytes): this one is larger"),
            most=str(MAX_BYTES),
        )
    )


def read_tournament(text: str | bytes, games: Mapping[str, Variant] | None = None) -> TournamentFile:
    """A validated tournament from the file's text (UTF-8). Every round is
    checked, every table's hands scored and every round to draw drawn, so
    ``score_tournament`` of the result cannot fail. Raises ``InvalidTournament``:
    the import and ``score_tournament`` read a file through this one function.
    ``games``: the games offered for tournaments (the registry's built-in ones
    unless a deployment's list is given)."""
    if len(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text) > MAX_BYTES:
        raise too_large()
    try:
        document = parse_document(text)
    except InvalidInput as error:
        raise InvalidTournament(error) from None
    try:
        check_document(document)
    except InvalidInput as error:
        raise _placed(error) from None
    return read_document(document, games)


def read_document(document: Any, games: Mapping[str, Variant] | None = None) -> TournamentFile:
    """A validated tournament from the parsed JSON of a tournament file."""
    try:
        head = _read_head(document, games)
    except InvalidInput as error:
        raise InvalidTournament(error) from None
    variant, options, settings, seed, entrants, name, date = head
    raw_rounds = document.get("rounds", [])
    if not isinstance(raw_rounds, list):
        raise InvalidTournament(invalid("rounds", gettext_noop("must be a list of rounds")))
    if len(raw_rounds) > settings.rounds:
        raise InvalidTournament(
            invalid(
                "rounds",
                gettext_noop("at most {n} rounds, as settings.rounds says (got {got})"),
                n=Fraction(settings.rounds),
                got=Fraction(len(raw_rounds)),
            )
        )
    rounds = tuple(
        _read_round(variant, options, settings, entrants, raw, number)
        for number, raw in enumerate(raw_rounds, 1)
    )
    tournament = TournamentFile(variant, options, settings, seed, entrants, rounds, name, date)
    seating(tournament)  # a round that cannot be drawn is refused here
    return tournament


def _read_head(
    document: Any,
    games: Mapping[str, Variant] | None,
) -> tuple[Variant, Any, Settings, str, tuple[str, ...], str | None, datetime.date | None]:
    if not isinstance(document, Mapping):
        raise invalid("document", gettext_noop("must be a JSON object"))
    for key in document:
        if key not in TOP_KEYS:
            raise invalid(
                str(key),
                gettext_noop("unknown field; allowed here: {allowed}"),
                allowed=allowed_list(TOP_KEYS),
            )
    if document.get("format") != FORMAT:
        raise invalid("format", gettext_noop("must be {allowed}"), allowed=FORMAT)
    name = read_session_name(document["name"]) if "name" in document else None
    date = read_date(document["date"]) if "date" in document else None
    variant = variant_for(document.get("variant"), tournament_games() if games is None else games)
    entrants = read_entrants(document.get("entrants"))
    options = read_options(variant, document.get("options"), entrants)
    settings = read_settings(variant, document.get("settings"))
    seed = read_seed(document.get("seed"))
    return variant, options, settings, seed, entrants, name, date


def read_entrants(raw: Any) -> tuple[str, ...]:
    """4 to 400 unique names, start number 1 first, each a name a player may have."""
    if not isinstance(raw, list) or not all(isinstance(name, str) for name in raw):
        raise invalid("entrants", gettext_noop("must be a list of names, start number 1 first"))
    if not MIN_ENTRANTS <= len(raw) <= MAX_ENTRANTS:
        raise invalid(
            "entrants",
            gettext_noop("a tournament has {least} to {most} entrants (got {got})"),
            least=Fraction(MIN_ENTRANTS),
            most=Fraction(MAX_ENTRANTS),
            got=Fraction(len(raw)),
        )
    seen: dict[str, str] = {}
    for index, name in enumerate(raw, 1):
        field = f"entrants[{index}]"
        if not name.strip() or name != name.strip() or len(name) > MAX_NAME:
            raise invalid(
                field,
                gettext_noop("a name has 1 to {n} characters, without leading or trailing spaces"),
                n=MAX_NAME,
            )
        if name != " ".join(name.split()):  # as the desk keeps a typed name: one space between words
            raise invalid(field, gettext_noop("a name has one plain space between its words"))
        check_name(field, name)
        problem = names.name_problem(name)
        if problem is not None:
            raise InvalidInput(field, problem)
        key = names.name_key(name)
        if key in seen:
            raise invalid(
                field,
                gettext_noop('{name} is entered twice; tell them apart ("{name} J.", "{name}, Linz")'),
                name=seen[key],
            )
        seen[key] = name
    return tuple(raw)


def read_options(variant: Variant, raw: Any, entrants: Sequence[str]) -> Any:
    """The house rules as in a session file; Königrufen's Kontra stays out of the
    Schrift and rounds are never doubled (only ``false`` is accepted)."""
    fixed = terms_of(variant).fixed
    if isinstance(raw, Mapping):
        for option in fixed:
            given = raw.get(option.name, option.value)
            if type(given) is not type(option.value) or given != option.value:
                raise invalid(f"options.{option.name}", option.why)
        raw = {**raw, **{option.name: option.value for option in fixed}}
    elif raw is None:
        raw = {option.name: option.value for option in fixed}
    return variant.parse_options(raw, tuple(entrants[:4]))


def _whole(raw: Any, field: str, least: int, most: int) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not least <= raw <= most:
        raise invalid(
            field,
            gettext_noop("must be a whole number from {least} to {most} (got {got})"),
            least=Fraction(least),
            most=Fraction(most),
            got=json.dumps(raw, ensure_ascii=False)
            if isinstance(raw, str | int | float)
            else type(raw).__name__,
        )
    return raw


def _choice(raw: Any, field: str, allowed: Sequence[str]) -> str:
    if not isinstance(raw, str) or raw not in allowed:
        raise invalid(
            field,
            gettext_noop("must be one of {allowed} (got {got})"),
            allowed=allowed_list(allowed),
            got=json.dumps(raw, ensure_ascii=False)
            if isinstance(raw, str | int | float)
            else type(raw).__name__,
        )
    return raw


def read_settings(variant: Variant, raw: Any) -> Settings:
    """The settings of §13, each key optional with its default (French: 5 rounds
    of 4 hands, no money, no ``heine``)."""
    raw = {} if raw is None else raw
    if not isinstance(raw, Mapping):
        raise invalid("settings", gettext_noop("must be an object"))
    for key in raw:
        if key not in SETTING_KEYS:
            raise invalid(
                f"settings.{key}",
                gettext_noop("unknown field; allowed here: {allowed}"),
                allowed=allowed_list(SETTING_KEYS),
            )
    terms = terms_of(variant)
    rounds = _whole(raw.get("rounds", terms.rounds), "settings.rounds", 1, MAX_ROUNDS)
    hands = _whole(raw.get("hands", terms.hands), "settings.hands", 1, MAX_HANDS)
    at_five = _whole(raw.get("hands_at_five", -(-hands * 5 // 4)), "settings.hands_at_five", 1, MAX_HANDS)
    avoid = _choice(raw.get("avoid_repeats", "minimise"), "settings.avoid_repeats", AVOID_REPEATS)
    tie_break = read_tie_break(raw.get("tie_break", "better_rounds"))
    scheme = raw.get("scheme", "fixed")
    if not terms.heine and scheme == "heine":
        raise invalid(
            "settings.scheme",
            gettext_noop(
                "heine is not offered for {game}: its bends fit Königrufen's Schrift; one of {allowed}"
            ),
            game=Line(variant.name),
            allowed=allowed_list(schemes_for(terms.heine)),
        )
    scheme = _choice(scheme, "settings.scheme", schemes_for(terms.heine))
    points_table = read_points_table(scheme, raw)
    if shares_places(tie_break) and scheme in BY_PLACE:
        raise invalid(
            "settings.tie_break",
            gettext_noop(
                "shared is refused with the scheme {scheme}: its cup points go by place, so every place "
                "is given once; shared places only with heine"
            ),
            scheme=scheme,
        )
    factor = raw.get("factor", 1)
    if factor not in FACTORS or isinstance(factor, bool) or not isinstance(factor, int):
        raise invalid(
            "settings.factor",
            gettext_noop("must be 1, or 2 for double points (got {got})"),
            got=json.dumps(factor) if isinstance(factor, str | int | float) else type(factor).__name__,
        )
    rate: Decimal | None = terms.money_rate
    if "money_rate" in raw:
        try:
            rate = None if raw["money_rate"] is None else read_money_rate(raw["money_rate"])
        except InvalidInput as error:
            raise error.under("settings.") from None
    return Settings(rounds, hands, at_five, avoid, tie_break, scheme, points_table, factor, rate)


def read_tie_break(raw: Any) -> str | tuple[str, ...]:
    """A preset, or a list of criteria (``lots`` added at the end when missing)."""
    try:
        if isinstance(raw, str):
            chain_of(raw)
            return raw
        if isinstance(raw, list) and all(isinstance(item, str) for item in raw):
            return chain_of(raw)
    except ValueError:
        pass
    raise invalid(
        "settings.tie_break",
        gettext_noop(
            "must be {presets} or a list of {criteria}, each once, lots or shared only last (got {got})"
        ),
        presets=allowed_list(TIE_BREAKS),
        criteria=allowed_list(CRITERIA),
        got=json.dumps(raw, ensure_ascii=False),
    )


def read_points_table(scheme: str, raw: Mapping[str, Any]) -> tuple[int, ...]:
    """``custom``'s points of places 1, 2, … (0 beyond); no table for another scheme."""
    if scheme != "custom":
        if "points_table" in raw:
            raise invalid("settings.points_table", gettext_noop("only with the scheme custom"))
        return ()
    table = raw.get("points_table")
    if (
        not isinstance(table, list)
        or not 1 <= len(table) <= MAX_POINTS_TABLE
        or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_CUP_POINTS for v in table)
    ):
        raise invalid(
            "settings.points_table",
            gettext_noop(
                "the scheme custom needs a list of 1 to {n} whole numbers from 0 to {most}: places 1, 2, …"
            ),
            n=Fraction(MAX_POINTS_TABLE),
            most=Fraction(MAX_CUP_POINTS),
        )
    return tuple(table)


def read_seed(raw: Any) -> str:
    """The draw number: six digits, written as a string."""
    if not isinstance(raw, str) or not SEED_TEXT.fullmatch(raw):
        raise invalid(
            "seed",
            gettext_noop(
                'must be the draw number, six digits written as a string, for example "482915" (got {got})'
            ),
            got=json.dumps(raw, ensure_ascii=False)
            if isinstance(raw, str | int | float)
            else type(raw).__name__,
        )
    return raw


def _read_round(
    variant: Variant,
    options: Any,
    settings: Settings,
    entrants: tuple[str, ...],
    raw: Any,
    number: int,
) -> tuple[GivenTable, ...] | None:
    if not isinstance(raw, Mapping):
        raise InvalidTournament(
            invalid("round", gettext_noop("must be an object: {{}} to draw it, or its tables")), number
        )
    for key in raw:
        if key not in ROUND_KEYS:
            raise InvalidTournament(
                invalid(str(key), gettext_noop("unknown field; allowed here: {allowed}"), allowed="tables"),
                number,
            )
    if "tables" not in raw:
        return None
    tables = raw["tables"]
    if not isinstance(tables, list) or not tables:
        raise InvalidTournament(
            invalid("tables", gettext_noop("must be a list of at least one table")), number
        )
    seated: dict[str, int] = {}
    given: list[GivenTable] = []
    for index, table in enumerate(tables, 1):
        try:
            given.append(_read_table(variant, options, settings, entrants, table, seated, index))
        except InvalidInput as error:
            raise InvalidTournament(error, number, index) from None
    return tuple(given)


def _read_table(
    variant: Variant,
    options: Any,
    settings: Settings,
    entrants: tuple[str, ...],
    raw: Any,
    seated: dict[str, int],
    index: int,
) -> GivenTable:
    if not isinstance(raw, Mapping):
        raise invalid("table", gettext_noop("must be an object with players, dealer and hands or sums"))
    for key in raw:
        if key not in TABLE_KEYS:
            raise invalid(
                str(key),
                gettext_noop("unknown field; allowed here: {allowed}"),
                allowed=allowed_list(TABLE_KEYS),
            )
    players = _read_seats(raw.get("players"), entrants, seated, index)
    dealer = raw.get("dealer")
    if dealer not in players:
        raise invalid(
            "dealer",
            gettext_noop("must be one of the players {allowed} (got {got})"),
            allowed=allowed_list(players),
            got=json.dumps(dealer, ensure_ascii=False)
            if isinstance(dealer, str | int | float)
            else "nothing",
        )
    if ("hands" in raw) == ("sums" in raw):
        raise invalid("table", gettext_noop("give exactly one of hands (as played) and sums (a paper sheet)"))
    if "sums" in raw:
        return GivenTable(players, dealer, _read_sums(variant, raw["sums"], players))
    return _read_hands(variant, options, settings, players, dealer, raw["hands"])


def _read_seats(raw: Any, entrants: tuple[str, ...], seated: dict[str, int], index: int) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(name, str) for name in raw):
        raise invalid("players", gettext_noop("must be a list of entrants in seat order"))
    if len(raw) not in TABLE_SIZES:
        raise invalid(
            "players", gettext_noop("a table seats 4 or 5 players (got {got})"), got=Fraction(len(raw))
        )
    for name in raw:
        if name not in entrants:
            raise invalid("players", gettext_noop("{name} is not an entrant"), name=name)
        if name in seated:
            where = (
                gettext_noop("{name} sits at table {table} of this round too")
                if seated[name] != index
                else gettext_noop("{name} has two seats at this table")
            )
            raise invalid("players", where, name=name, table=Fraction(seated[name]))
        seated[name] = index
    return tuple(raw)


def _read_sums(variant: Variant, raw: Any, players: tuple[str, ...]) -> dict[str, Fraction]:
    if not isinstance(raw, Mapping):
        raise invalid("sums", gettext_noop("must be an object: each player's round result"))
    for name in raw:
        if name not in players:
            raise invalid("sums", gettext_noop("{name} does not sit at this table"), name=str(name))
    sums: dict[str, Fraction] = {}
    for name in players:
        if name not in raw:
            raise invalid("sums", gettext_noop("{name}'s round result is missing"), name=name)
        value = raw[name]
        halves = terms_of(variant).halves
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or value != value  # NaN
            or abs(value) > MAX_SUM
            or (Fraction(value) * 2).denominator != 1
            or (not halves and Fraction(value).denominator != 1)
        ):
            raise invalid(
                f"sums.{name}",
                gettext_noop("must be a whole number{halves} from −{most} to {most} (got {got})"),
                halves=Line(gettext_noop(" (or x.5)")) if halves else "",
                most=Fraction(MAX_SUM),
                got=json.dumps(value, ensure_ascii=False)
                if isinstance(value, str | int | float)
                else "nothing",
            )
        sums[name] = Fraction(value)
    total = sum(sums.values(), Fraction(0))
    if total:
        raise invalid(
            "sums",
            gettext_noop("must add up to 0, not {sum}: check the sheet"),
            sum=Signed(total),
        )
    return sums


def _read_hands(
    variant: Variant, options: Any, settings: Settings, players: tuple[str, ...], dealer: str, raw: Any
) -> GivenTable:
    if isinstance(raw, list) and raw and isinstance(raw[0], Mapping):
        first = raw[0]
        if "dealer" not in first:
            raw = [{"dealer": dealer, **first}, *raw[1:]]
        elif first["dealer"] != dealer:
            raise InvalidInput(
                "dealer",
                Line(
                    gettext_noop("must be {dealer}, the table's first dealer (got {got})"),
                    {"dealer": dealer, "got": json.dumps(first["dealer"], ensure_ascii=False)},
                ),
                1,
            )
    document = {
        "variant": variant.key,
        "players": list(players),
        "options": variant.dump_options(options),
        "hands": raw,
    }
    session = read_session(document, {variant.key: variant})
    target = settings.target(len(players))
    played = 0
    for number, hand in enumerate(session.hands, 1):
        if hand.type is HandType.REDEAL:
            continue
        played += 1
        if played > target:
            raise InvalidInput(
                "hands",
                Line(
                    gettext_noop(
                        "the round is complete: {target} of {target} hands played; hand {hand} is one too many"
                    ),
                    {"target": Fraction(target), "hand": Fraction(number)},
                ),
            )
    result = score_session(session)
    totals = {name: Fraction(result.summary.totals.get(name, 0)) for name in players}
    return GivenTable(players, dealer, totals, session.hands)


def _placed(error: InvalidInput) -> InvalidTournament:
    """An error ``check_document`` found at a path, placed in its round, table and hand."""
    found = re.fullmatch(r"rounds\[(\d+)\](?:\.tables\[(\d+)\])?(?:\.(.*))?", error.field)
    if found is None:
        return InvalidTournament(error)
    round_number, table, rest = int(found[1]), found[2], found[3] or ""
    hand = re.fullmatch(r"hands\[(\d+)\](?:\.(.*))?", rest)
    if hand is not None:
        problem = InvalidInput(hand[2] or "hand", error.line, int(hand[1]), label=error.label)
    else:
        problem = InvalidInput(rest or ("table" if table else "round"), error.line, label=error.label)
    return InvalidTournament(problem, round_number, int(table) if table else None)


# --------------------------------------------------------------------------
# The plan: given rounds as they are, the others drawn


def seating(tournament: TournamentFile) -> list[list[SeatedTable]]:
    """Every round of ``settings.rounds``: a given round's tables, the others
    drawn by §2.1 from the seed and all entrants, with every earlier round (given
    or drawn) as history. Raises ``InvalidTournament`` for a round that cannot
    be drawn."""
    numbers = list(range(1, len(tournament.entrants) + 1))
    history: list[list[list[int]]] = []
    plan: list[list[SeatedTable]] = []
    for number in range(1, tournament.settings.rounds + 1):
        given = tournament.rounds[number - 1] if number <= len(tournament.rounds) else None
        if given is not None:
            plan.append([SeatedTable(table.players, table.dealer, table.sums) for table in given])
            history.append([[tournament.number(name) for name in table.players] for table in given])
            continue
        try:
            drawn = draw_round(
                tournament.seed, number, numbers, history, avoid_repeats=tournament.settings.avoid_repeats
            )
        except CannotSeat as error:
            raise InvalidTournament(
                invalid(
                    "tables",
                    gettext_noop(
                        "{n} entrants cannot be seated at tables of 4 and 5: give this round's tables"
                    ),
                    n=Fraction(error.players),
                ),
                number,
            ) from None
        history.append(drawn)
        plan.append(
            [
                SeatedTable(
                    tuple(tournament.entrants[n - 1] for n in table),
                    tournament.entrants[table[first_dealer(tournament.seed, number, t, len(table)) - 1] - 1],
                    None,
                )
                for t, table in enumerate(drawn, 1)
            ]
        )
    return plan


# --------------------------------------------------------------------------
# Scoring


def ranking(tournament: TournamentFile) -> list[Place]:
    """Every entrant placed by total and ``tie_break`` over the given rounds."""
    given = [tables for tables in tournament.rounds if tables is not None]
    results: dict[str, list[Fraction | None]] = {name: [] for name in tournament.entrants}
    ranks: dict[str, list[int | None]] = {name: [] for name in tournament.entrants}
    for tables in given:
        for name in tournament.entrants:
            results[name].append(None)
            ranks[name].append(None)
        for table in tables:
            for name, place in table_ranks(table.sums).items():
                results[name][-1] = table.sums[name]
                ranks[name][-1] = place
    entries = [
        Entry(tournament.number(name), name, tuple(results[name]), tuple(ranks[name]))
        for name in tournament.entrants
    ]
    return rank(entries, tournament.settings.tie_break, tournament.seed)


def score_tournament(tournament: TournamentFile) -> dict[str, Any]:
    """The document ``score_tournament`` prints (§13): every round's tables (a
    drawn table with ``"sums": {}``), the ranking and each entrant's cup points."""
    settings = tournament.settings
    places = ranking(tournament)
    rounds = [
        {
            "tables": [
                {
                    "players": list(table.players),
                    "dealer": table.dealer,
                    "sums": {} if table.sums is None else _numbers(table.sums, table.players),
                }
                for table in tables
            ]
        }
        for tables in seating(tournament)
    ]
    ranked: list[dict[str, Any]] = []
    for place in places:
        row: dict[str, Any] = {
            "place": place.place,
            "name": place.entry.name,
            "rounds": [None if value is None else points_to_json(value) for value in place.entry.rounds],
            "total": points_to_json(place.total),
        }
        if place.tie_note:
            row["tie_note"] = place.tie_note
        ranked.append(row)
    cup_points = {
        place.entry.name: points_to_json(
            points(
                settings.scheme,
                place=place.place,
                total=place.total,
                ranked=len(places),
                points_table=settings.points_table,
                factor=settings.factor,
            )
        )
        for place in places
    }
    return {"rounds": rounds, "ranking": ranked, "cup_points": cup_points}


def _numbers(values: Mapping[str, Fraction], players: Sequence[str]) -> dict[str, int | float]:
    return {name: points_to_json(values[name]) for name in players}


# --------------------------------------------------------------------------
# Writing


def tournament_document(
    *,
    variant: str,
    options: Mapping[str, Any],
    settings: Mapping[str, Any],
    seed: str,
    entrants: Sequence[str],
    rounds: Sequence[Sequence[Mapping[str, Any]] | None],
    name: str | None = None,
    date: datetime.date | str | None = None,
    games: Mapping[str, Variant] | None = None,
) -> dict[str, Any]:
    """A ``tarockscore-tournament/1`` document in its one canonical form, as the
    app's export writes it and ``write_tournament`` does.

    - ``variant``: the game's key; ``options``: its house rules as stored (a
      session file's ``options``; every rule is written with the value in force);
    - ``settings``: the settings of §13 as a session file would write them
      (``money_rate`` a ``Decimal``, a decimal string or ``None``); missing keys
      take their defaults, and each is written with the value in force;
    - ``seed``: the draw number; ``entrants``: names, start number 1 first;
    - ``rounds``: each round drawn so far, a list of tables in table order, or
      ``None`` for a round to be drawn (written ``{}``). A table is a mapping
      with ``players`` (seat order), ``dealer`` (the first dealer) and either
      ``hands`` (session-file hands as recorded; ``[]`` for a table not yet
      opened) or ``sums`` (a desk table, ``{name: number}``).

    Raises ``InvalidTournament`` for options or settings the file would refuse;
    tables and hands are written as given (``read_tournament`` checks them)."""
    game = variant_for(variant, tournament_games() if games is None else games)
    try:
        parsed = read_options(game, dict(options), list(entrants))
        rate = settings.get("money_rate")
        written = {**settings, "money_rate": money_rate_text(rate) if isinstance(rate, Decimal) else rate}
        in_force = read_settings(game, written)
    except InvalidInput as error:
        raise InvalidTournament(error) from None
    out: dict[str, Any] = {"format": FORMAT}
    if name is not None:
        out["name"] = name
    if date is not None:
        out["date"] = date if isinstance(date, str) else date.isoformat()
    out["variant"] = game.key
    out["options"] = game.dump_options(parsed)
    out["seed"] = seed
    out["entrants"] = list(entrants)
    out["settings"] = in_force.to_json()
    out["rounds"] = [{} if tables is None else {"tables": [_table(t) for t in tables]} for tables in rounds]
    return out


def _table(table: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"players": list(table["players"]), "dealer": table["dealer"]}
    if "sums" in table:
        out["sums"] = {
            name: points_to_json(Fraction(value))
            if isinstance(value, int | float | Fraction | Decimal)
            else value
            for name, value in table["sums"].items()
        }
    else:
        out["hands"] = list(table.get("hands", []))
    return out


def write_tournament(tournament: TournamentFile) -> dict[str, Any]:
    """The file of a validated tournament, in the canonical form."""
    variant, options = tournament.variant, tournament.options
    rounds: list[list[dict[str, Any]] | None] = []
    for tables in tournament.rounds:
        if tables is None:
            rounds.append(None)
            continue
        rounds.append(
            [
                {"players": table.players, "dealer": table.dealer, "sums": table.sums}
                if table.hands is None
                else {
                    "players": table.players,
                    "dealer": table.dealer,
                    "hands": [write_hand(variant, hand, options) for hand in table.hands],
                }
                for table in tables
            ]
        )
    return tournament_document(
        variant=variant.key,
        options=variant.dump_options(options),
        settings=tournament.settings.to_json(),
        seed=tournament.seed,
        entrants=tournament.entrants,
        rounds=rounds,
        name=tournament.name,
        date=tournament.date,
    )


def dumps(document: Mapping[str, Any]) -> str:
    """A tournament file's or a result's text, in one stable form (as a session
    file's): UTF-8 JSON, one space of indent, a final newline."""
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"
