"""Reading and writing the ``tarockscore/1`` session file (SESSION_FORMAT.md).

Pure: text or parsed JSON in, a validated ``Session`` out, and back. Every
refusal is an ``InvalidInput`` naming the hand (1-based) and the field.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from .registry import VARIANTS
from .schema import Field, Kind, check_name, clean, text_problem
from .settlement import Settlement
from .types import (
    HandScore,
    HandType,
    InvalidInput,
    Line,
    Table,
    allowed_list,
    gettext_noop,
    invalid,
    points_to_json,
)
from .variant import HandRecord, Summary, Variant

FORMAT = "tarockscore/1"
MAX_NAME = 40
MAX_SESSION_NAME = 80
# More than any evening (a long one is under 150): what one session may hold,
# on import and when recording, so every page and PDF of it has bounded work.
MAX_HANDS = 2000
TOP_KEYS = ("format", "name", "date", "variant", "players", "money_rate", "options", "hands")
NOTE = Field("note", Kind.TEXT, gettext_noop("Note"), default="", max_length=500, tabs=True)
# Money per point: what the app stores (4 decimals, below 10 000).
MONEY_RATE_PLACES = 4
MONEY_RATE_LIMIT = Decimal(10000)
MONEY_RATE_TEXT = re.compile(r"[0-9]{1,5}(\.[0-9]{1,10})?")
DATE_TEXT = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


@dataclass(frozen=True)
class Session:
    variant: Variant
    players: tuple[str, ...]
    options: Any
    hands: tuple[HandRecord, ...]
    name: str | None = None  # what the session is called
    date: datetime.date | None = None  # the day it was played
    money_rate: Decimal | None = None  # money per point


def variant_for(key: Any) -> Variant:
    """The game module for a session file's ``variant``."""
    if not isinstance(key, str) or key not in VARIANTS:
        raise invalid(
            "variant",
            gettext_noop("must be one of {allowed} (got {got})"),
            allowed=allowed_list(VARIANTS),
            got=json.dumps(key),
        )
    return VARIANTS[key]


def read_players(raw: Any, variant: Variant) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(name, str) for name in raw):
        raise invalid("players", gettext_noop("must be a list of names in playing order"))
    names = tuple(raw)
    for index, name in enumerate(names, 1):
        if not name.strip() or name != name.strip() or len(name) > MAX_NAME:
            raise invalid(
                f"players[{index}]",
                gettext_noop("a name has 1 to {n} characters, without leading or trailing spaces"),
                n=MAX_NAME,
            )
        check_name(f"players[{index}]", name)
    if len(set(names)) != len(names):
        raise invalid("players", gettext_noop("names must be unique"))
    variant.check_table(names)
    return names


def read_session_name(raw: Any, field: str = "name") -> str:
    """A session's name: 1 to 80 characters, not only spaces, none at either end."""
    if not isinstance(raw, str) or not raw.strip() or raw != raw.strip() or len(raw) > MAX_SESSION_NAME:
        raise invalid(
            field,
            gettext_noop("a name has 1 to {n} characters, without leading or trailing spaces"),
            n=MAX_SESSION_NAME,
        )
    return check_name(field, raw)


def read_date(raw: Any) -> datetime.date:
    """The day a session was played, written ``YYYY-MM-DD``."""
    try:
        if isinstance(raw, str) and DATE_TEXT.fullmatch(raw):
            return datetime.date.fromisoformat(raw)
    except ValueError:
        pass
    raise invalid(
        "date",
        gettext_noop("must be a day written YYYY-MM-DD, for example 2026-11-22 (got {got})"),
        got=json.dumps(raw, ensure_ascii=False) if isinstance(raw, str | int | float) else type(raw).__name__,
    )


def read_money_rate(raw: Any) -> Decimal:
    """Money per point: a decimal string such as ``"0.10"`` or a JSON number,
    greater than 0 and below 10 000, with at most 4 decimals."""
    rate: Decimal | None = None
    if isinstance(raw, str) and MONEY_RATE_TEXT.fullmatch(raw):
        rate = Decimal(raw)
    elif isinstance(raw, int | float) and not isinstance(raw, bool):
        try:
            rate = Decimal(str(raw))
        except InvalidOperation:  # pragma: no cover - str() of a JSON number is always a decimal
            rate = None
    if (
        rate is None
        or not rate.is_finite()
        or not 0 < rate < MONEY_RATE_LIMIT
        or rate != rate.quantize(Decimal(1).scaleb(-MONEY_RATE_PLACES))
    ):
        raise invalid(
            "money_rate",
            gettext_noop(
                "must be money per point greater than 0 and below {limit} with at most {places} decimals, "
                'for example "0.10" (got {got})'
            ),
            limit=str(MONEY_RATE_LIMIT),
            places=str(MONEY_RATE_PLACES),
            got=json.dumps(raw, ensure_ascii=False)
            if isinstance(raw, str | int | float)
            else type(raw).__name__,
        )
    return rate


def money_rate_text(rate: Decimal) -> str:
    """``"0.10"``, ``"0.0125"``, ``"2.00"``: at least the cents, no trailing zeros beyond them."""
    value = rate.normalize()
    exponent = value.as_tuple().exponent
    if isinstance(exponent, int) and exponent > -2:
        value = rate.quantize(Decimal("0.01"))
    return f"{value:f}"


# What a file that is not UTF-8 starts with: its byte order mark.
OTHER_ENCODINGS = (
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\xfe\xff", "UTF-16"),
    (b"\xff\xfe", "UTF-16"),
)


def decode_document(data: bytes) -> str:
    """A session file's text: UTF-8, with or without a byte order mark; nothing else."""
    for mark, encoding in OTHER_ENCODINGS:
        if data.startswith(mark):
            raise invalid(
                "document",
                gettext_noop("must be UTF-8 text; this file is {encoding}: save it as UTF-8"),
                encoding=encoding,
            )
    if b"\x00" in data[:4]:
        # JSON text starts with an ASCII character: NUL bytes around it are UTF-16 or UTF-32.
        raise invalid(
            "document",
            gettext_noop("must be UTF-8 text; this file is {encoding}: save it as UTF-8"),
            encoding="UTF-16 / UTF-32",
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise invalid(
            "document",
            gettext_noop("must be UTF-8 text (byte {at} is not)"),
            at=str(error.start + 1),
        ) from None


class _Twice(dict[str, Any]):
    """A JSON object that named a key more than once (the first such key)."""

    twice: str


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) == len(pairs):
        return found
    twice = _Twice(found)
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            twice.twice = key
            break
        seen.add(key)
    return twice


def parse_document(text: str | bytes) -> Any:
    """The parsed JSON of a session file; a key given twice is refused, naming it."""
    if isinstance(text, bytes):
        text = decode_document(text)
    try:
        return json.loads(text.removeprefix("\ufeff"), object_pairs_hook=_object)
    except (ValueError, RecursionError) as error:
        raise invalid("document", gettext_noop("not valid JSON: {error}"), error=str(error)) from None


def check_document(document: Any) -> None:
    """Refuse what no field may hold, wherever it is: a key given twice (the last
    one would silently win), half a character (an unpaired surrogate)."""
    # An explicit stack: a deeply nested document cannot exhaust Python's recursion.
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(document, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            problem = text_problem(value, controls=False)
            if problem is not None:
                raise _at(path, problem)
        elif isinstance(value, Mapping):
            if isinstance(value, _Twice):
                raise _at(
                    (*path, value.twice),
                    Line(gettext_noop("given twice; each field may appear once")),
                )
            for key, item in reversed(list(value.items())):
                problem = text_problem(key, controls=False)
                if problem is not None:
                    raise _at((*path, json.dumps(key)), problem)
                stack.append((item, (*path, key)))
        elif isinstance(value, list):
            stack.extend((item, (*path, index)) for index, item in reversed(list(enumerate(value, 1))))


def _at(path: tuple[str | int, ...], line: Line) -> InvalidInput:
    """An error at ``path`` in the document, naming the hand where it is in one."""
    hand: int | None = None
    if len(path) >= 2 and path[0] == "hands" and isinstance(path[1], int):
        hand, path = path[1], path[2:]
    field = ""
    for part in path:
        field += f"[{part}]" if isinstance(part, int) else (f".{part}" if field else str(part))
    return InvalidInput(field or ("hand" if hand else "document"), line, hand)


def read_session(document: str | bytes | Any) -> Session:
    """A validated session from the text (UTF-8) or the parsed JSON of a session file."""
    if isinstance(document, str | bytes):
        document = parse_document(document)
    check_document(document)
    if not isinstance(document, Mapping):
        raise invalid("document", gettext_noop("must be a JSON object"))
    for key in document:
        if key not in TOP_KEYS:
            raise invalid(
                str(key),
                gettext_noop("unknown field; allowed here: {allowed}"),
                allowed=allowed_list(TOP_KEYS),
            )
    if document.get("format", FORMAT) != FORMAT:
        raise invalid("format", gettext_noop("must be {allowed}"), allowed=FORMAT)
    variant = variant_for(document.get("variant"))
    players = read_players(document.get("players"), variant)
    options = variant.parse_options(document.get("options"), players)
    raw_hands = document.get("hands", [])
    if not isinstance(raw_hands, list):
        raise invalid("hands", gettext_noop("must be a list of hands"))
    if len(raw_hands) > MAX_HANDS:
        raise invalid("hands", gettext_noop("at most {n} hands"), n=MAX_HANDS)
    hands: list[HandRecord] = []
    previous: str | None = None
    for number, raw in enumerate(raw_hands, 1):
        try:
            record = read_hand(variant, players, options, raw, previous)
        except InvalidInput as error:
            raise error.in_hand(number) from None
        hands.append(record)
        previous = record.table.dealer
    return Session(
        variant,
        players,
        options,
        tuple(hands),
        name=read_session_name(document["name"]) if "name" in document else None,
        date=read_date(document["date"]) if "date" in document else None,
        money_rate=read_money_rate(document["money_rate"]) if "money_rate" in document else None,
    )


def next_dealer(players: Sequence[str], previous: str | None) -> str | None:
    """The deal passes to the next player in playing order."""
    if previous is None:
        return None
    return players[(players.index(previous) + 1) % len(players)]


# How players call the fields every hand has (the game's own fields label themselves).
COMMON_LABELS = {
    "dealer": gettext_noop("Dealer"),
    "type": gettext_noop("Kind of hand"),
    "sitting_out": gettext_noop("Sitting out"),
}


def read_hand(
    variant: Variant,
    players: tuple[str, ...],
    options: Any,
    raw: Any,
    previous_dealer: str | None,
    *,
    from_form: bool = False,
) -> HandRecord:
    """One hand of a session file, or of a form, checked in its place in the session.
    ``from_form``: entered in a hand form, which must have answered every choice
    that changes the score (``Field.ask``) rather than leave it to a default."""
    try:
        return _read_hand(variant, players, options, raw, previous_dealer, from_form)
    except InvalidInput as error:
        raise error.labelled(_common_label) from None


def _common_label(path: str) -> Line | None:
    return Line(COMMON_LABELS[path]) if path in COMMON_LABELS else None


def _read_hand(
    variant: Variant,
    players: tuple[str, ...],
    options: Any,
    raw: Any,
    previous_dealer: str | None,
    from_form: bool,
) -> HandRecord:
    if not isinstance(raw, Mapping):
        raise invalid("hand", gettext_noop("must be an object"))
    rest = dict(raw)
    hand_type = _hand_type(variant, options, rest.pop("type", HandType.PLAYED.value))
    dealer = rest.pop("dealer", None)
    if dealer is None:
        dealer = next_dealer(players, previous_dealer)
        if dealer is None and variant.needs_dealer(players, options):
            raise invalid(
                "dealer",
                gettext_noop("the first hand must name its dealer: one of {allowed}"),
                allowed=allowed_list(players),
            )
    elif dealer not in players:
        raise invalid(
            "dealer",
            gettext_noop("must be one of the players {allowed} (got {got})"),
            allowed=allowed_list(players),
            got=json.dumps(dealer),
        )
    expected = variant.sitting_out(players, dealer)
    if "sitting_out" in rest:
        given = rest.pop("sitting_out")
        if expected is None and given is not None:
            raise invalid("sitting_out", gettext_noop("nobody sits out at this table"))
        if given != expected:
            raise invalid(
                "sitting_out",
                gettext_noop("must be {expected}, who sits out when {dealer} deals"),
                expected=str(expected),
                dealer=str(dealer),
            )
    table = Table(players, dealer, expected)
    fields = () if hand_type is HandType.REDEAL else variant.hand_fields(hand_type, table, options)
    known = [f.name for f in fields]
    for key in rest:
        if key not in known and key != "note":
            raise invalid(
                str(key),
                gettext_noop("unknown field; allowed here: {allowed}"),
                allowed=allowed_list(["dealer", "type", "sitting_out", "note", *known]),
            )
    problems: list[InvalidInput] = []
    note, play = "", None
    try:
        note = clean((NOTE,), {"note": rest.pop("note")} if "note" in rest else {}, players)["note"]
    except InvalidInput as error:
        problems.append(error)
    try:
        play = variant.parse_play(hand_type, rest, table, options, from_form=from_form)
    except InvalidInput as error:
        problems.append(error)
    if problems:
        raise InvalidInput.several(problems)
    return HandRecord(hand_type, table, play, note)


def _hand_type(variant: Variant, options: Any, raw: Any) -> HandType:
    known = [t.value for t in variant.hand_types]
    if raw not in known:
        raise invalid(
            "type",
            gettext_noop("must be one of {allowed} (got {got})"),
            allowed=allowed_list(known),
            got=json.dumps(raw),
        )
    hand_type = HandType(raw)
    variant.check_hand_type(hand_type, options)
    return hand_type


def hand_document(
    hand_type: str, dealer: str | None, sitting_out: str | None, fields: Mapping[str, Any], note: str
) -> dict[str, Any]:
    """A hand as the session file writes it: common fields, then the game's, then the note."""
    out: dict[str, Any] = {}
    if dealer:
        out["dealer"] = dealer
    if hand_type != HandType.PLAYED:
        out["type"] = str(hand_type)
    if sitting_out:
        out["sitting_out"] = sitting_out
    out.update(fields)
    if note:
        out["note"] = note
    return out


def write_hand(variant: Variant, record: HandRecord, options: Any) -> dict[str, Any]:
    fields = variant.dump_play(record.type, record.play, record.table, options)
    return hand_document(record.type, record.table.dealer, record.table.sitting_out, fields, record.note)


def write_session(session: Session) -> dict[str, Any]:
    """The session as a ``tarockscore/1`` document (parsed JSON): its name, day
    and money rate where known, and every house rule in force."""
    return session_document(
        variant=session.variant,
        players=session.players,
        options=session.variant.dump_options(session.options),
        hands=[write_hand(session.variant, hand, session.options) for hand in session.hands],
        name=session.name,
        date=session.date,
        money_rate=session.money_rate,
    )


def session_document(
    *,
    variant: Variant,
    players: Sequence[str],
    options: dict[str, Any],
    hands: list[dict[str, Any]],
    name: str | None = None,
    date: datetime.date | None = None,
    money_rate: Decimal | None = None,
) -> dict[str, Any]:
    """A ``tarockscore/1`` document from its parts, its keys in the file's order."""
    out: dict[str, Any] = {"format": FORMAT}
    if name is not None:
        out["name"] = name
    if date is not None:
        out["date"] = date.isoformat()
    out["variant"] = variant.key
    out["players"] = list(players)
    if money_rate is not None:
        out["money_rate"] = money_rate_text(money_rate)
    out["options"] = options
    out["hands"] = hands
    return out


def dumps_document(document: Mapping[str, Any]) -> str:
    """A session file's text: stable, so export → import → export is identical."""
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def dumps_session(session: Session) -> str:
    """The session file's text: stable, so export → import → export is identical."""
    return dumps_document(write_session(session))


def result_to_json(
    players: Sequence[str],
    hands: Sequence[HandScore],
    summary: Summary,
    settlement: Settlement,
    with_series: bool = False,
) -> dict[str, Any]:
    """What ``score_session`` prints (SESSION_FORMAT.md)."""

    def numbers(values: Mapping[str, Any]) -> dict[str, int | float]:
        return {name: points_to_json(values[name]) for name in players if name in values}

    out: dict[str, Any] = {
        "hands": [{"deltas": numbers(hand.deltas), "breakdown": hand.rendered()} for hand in hands],
        "totals": numbers(summary.totals),
    }
    if with_series:
        out["series"] = [
            {
                "hands": [section.first, section.last],
                "totals": numbers(section.totals),
                "bonus": numbers(section.bonus),
            }
            for section in summary.sections
        ]
    out["settlement"] = {
        "net": numbers(settlement.net),
        "transfers": [
            {"from": t.payer, "to": t.payee, "points": points_to_json(t.points)} for t in settlement.transfers
        ],
    }
    return out
