"""Field descriptions shared by the session file, the scoring and the forms.

A variant describes each input of a hand and each house rule once, as a
``Field``: its kind, its allowed values, its default. ``clean`` checks raw
values (from a session file or a submitted form) against those descriptions and
returns plain Python values; every refusal names the field and what is allowed.
The web forms are built from the same descriptions, so the allowed values are
stated in one place.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from fractions import Fraction
from typing import Any

from .types import InvalidInput, Line, allowed_list, gettext_noop


class Kind(StrEnum):
    PLAYER = "player"  # one of the players in this hand
    CHOICE = "choice"  # one of a few words
    INT = "int"  # a whole JSON number, in a range or from a list
    POINTS = "points"  # card points: 56, 56.5 or "56.5", in steps
    BOOL = "bool"
    TEXT = "text"
    RECORD = "record"  # an object with fields of its own
    LIST = "list"  # a list of records
    PLAYER_POINTS = "player_points"  # {player: points} for every player in the hand
    PLAYER_LIST = "player_list"  # distinct player names
    PLAYER_LEVELS = "player_levels"  # {player: whole number in range}, players left out have 0


@dataclass(frozen=True)
class Field:
    name: str
    kind: Kind
    label: str
    help: str = ""
    choices: tuple[Any, ...] = ()
    choice_labels: Mapping[Any, str] = field(default_factory=dict)
    aliases: Mapping[str, str] = field(default_factory=dict)
    minimum: Fraction | None = None
    maximum: Fraction | None = None
    step: Fraction = Fraction(1)
    required: bool = False
    nullable: bool = False
    null_label: str = ""  # how a form names the empty choice ("alone", "none")
    null_choice: bool = True  # forms offer the empty choice of a nullable field
    default: Any = None
    # Written to a session file even at its default: a field whose default the
    # format does not state (Chambéry's ``mode``) is never left for a reader to guess.
    written: bool = False
    fields: tuple[Field, ...] = ()
    max_items: int | None = None
    max_length: int = 500
    tabs: bool = False  # TEXT: a tab is kept (a note pasted from a spreadsheet); other controls never
    rare: bool = False  # seldom used at the table: forms may fold it away
    # A hint for forms: show this field only while another field has one of these values.
    shown_when: tuple[str, tuple[str, ...]] | None = None
    # A choice that changes the score and that a hand form must have made, never
    # preset: its null (``null_label``, e.g. "alone") is an answer of its own.
    # A session file may still leave it out (null). Not asked while the field
    # named by ``asked_unless`` holds a value (points in a renonce hand).
    ask: bool = False
    asked_unless: str | None = None
    # Points of one side whose other side holds ``complement − points``: a form
    # may take either side's points (the table counts the smaller pile).
    complement: Fraction | None = None
    side_labels: tuple[str, str] = ("", "")  # the recorded side, the other side
    # A player field that never offers the player chosen in this other field
    # (the partner is never the taker).
    other_than: str | None = None
    # A CHOICE field a form offers as further answers of this one, in its group
    # ("the king lay in the talon: played on" beside the partners): one tap says
    # either, so the two can never contradict each other. Drawn only here.
    joined: Field | None = None
    # CHOICE: what a choice answers for the player elsewhere on the form, by
    # posted input (the bid's bird its premium row: the declarer's side,
    # announced), unless the player answered it: entered once, changed there.
    fills: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # POINTS counted in thirds (Königrufen): whole points (41) or points and Blatt
    # ("41/2"); the cleaned value is a Fraction of thirds.
    thirds: bool = False
    # CHOICE: drawn as buttons however many choices (the game, tapped once).
    buttons: bool = False
    # LIST of premiums: a form may draw it as a grid, one row per choice of its
    # ``type`` field, a row's side (or player) and how it went tapped; ``states``
    # gives per type the allowed (announced, made) pairs (empty: every pair).
    grid: bool = False
    states: Mapping[Any, tuple[tuple[Any, bool], ...]] = field(default_factory=dict)

    def label_of(self, choice: Any) -> str:
        return self.choice_labels.get(choice, str(choice))


def _fail(path: str, label: Line, text: str, **args: Any) -> InvalidInput:
    return InvalidInput(path, Line(text, args), label=label)


def _missing(path: str, label: Line) -> InvalidInput:
    return InvalidInput(path, Line(gettext_noop("{field} missing"), {"field": label}), label=label)


# Text is what can be stored, printed and shown, and reads the same everywhere:
# - no control characters (C0, DEL, C1: NUL, escape, line breaks …; a tab only
#   where a field allows it, a note pasted from a spreadsheet);
# - no line or paragraph separators (U+2028, U+2029): every text field is one
#   line in the app, and a line break would be lost when the form is sent again;
# - no bidirectional embeddings, overrides or isolates (U+202A–U+202E,
#   U+2066–U+2069): they turn the text after them around, so a name or a note
#   would read otherwise on the sheet than typed, and could make another name
#   or a number beside it look different. The direction marks (U+200E, U+200F)
#   stay: they only steer the characters next to them and are typed in
#   right-to-left text;
# - no unpaired surrogates (half a character, which no file, page or database can hold).
_CONTROL = "\x00-\x08\x0a-\x1f\x7f-\x9f"
_LINE_SEPARATOR = "\u2028\u2029"
_DIRECTION = "\u202a-\u202e\u2066-\u2069"
_SURROGATE = "\ud800-\udfff"
NOT_TEXT = re.compile(f"[\t{_CONTROL}{_LINE_SEPARATOR}{_DIRECTION}{_SURROGATE}]")
NOT_TEXT_BUT_TABS = re.compile(f"[{_CONTROL}{_LINE_SEPARATOR}{_DIRECTION}{_SURROGATE}]")
HALF_A_CHARACTER = re.compile(f"[{_SURROGATE}]")


def text_problem(value: str, *, tabs: bool = False, controls: bool = True) -> Line | None:
    """Why ``value`` is not text the app keeps, or None: the first control
    character, line separator or direction control (unless ``controls`` is off;
    a tab only unless ``tabs``) or unpaired surrogate, by code point and
    position (1-based)."""
    pattern = HALF_A_CHARACTER if not controls else NOT_TEXT_BUT_TABS if tabs else NOT_TEXT
    found = pattern.search(value)
    if found is None:
        return None
    char = found.group()
    args: dict[str, Any] = {"code": f"U+{ord(char):04X}", "at": Fraction(found.start() + 1)}
    if "\ud800" <= char <= "\udfff":
        return Line(
            gettext_noop(
                "must be text: found {code} at character {at}, half a character (an unpaired surrogate)"
            ),
            args,
        )
    if char in _LINE_SEPARATOR:
        return Line(gettext_noop("must be one line: found {code} at character {at}, a line break"), args)
    if re.fullmatch(f"[{_DIRECTION}]", char):
        return Line(
            gettext_noop(
                "must be text without direction controls, which turn the text after them around "
                "(found {code} at character {at})"
            ),
            args,
        )
    return Line(
        gettext_noop("must be text without control characters (found {code} at character {at})"), args
    )


# A name (of a player, a session, a group, a season) is text that shows: at
# least one letter, digit, symbol or punctuation mark. Spaces, format characters
# (zero-width spaces and joiners, U+FEFF, direction marks), combining marks
# alone and the letters drawn blank (the Hangul fillers, the blank Braille
# pattern) show nothing, so a name of only those would be an empty column on
# the sheet. Among visible characters they stay: a joiner in an emoji, a mark
# on its letter.
_SHOWS = frozenset("LNSP")  # the first letter of the Unicode general categories that do
_DRAWN_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def shows(char: str) -> bool:
    """Whether ``char`` is seen where it is written."""
    return unicodedata.category(char)[0] in _SHOWS and char not in _DRAWN_BLANK


def name_problem(value: str) -> Line | None:
    """Why ``value`` is not a name the app keeps, or None: text (``text_problem``)
    with at least one character that shows."""
    problem = text_problem(value)
    if problem is None and not any(shows(char) for char in value):
        return Line(
            gettext_noop(
                "must contain a letter, digit, symbol or punctuation mark "
                "(spaces, invisible characters and accents alone show nothing)"
            )
        )
    return problem


def check_name(path: str, value: str) -> str:
    """``value`` if it is a name the app keeps (``name_problem``); else ``InvalidInput`` naming ``path``."""
    problem = name_problem(value)
    if problem is not None:
        raise InvalidInput(path, problem)
    return value


def check_text(path: str, value: str, *, tabs: bool = False) -> str:
    """``value`` if it is text the app keeps; else ``InvalidInput`` naming ``path``."""
    problem = text_problem(value, tabs=tabs)
    if problem is not None:
        raise InvalidInput(path, problem)
    return value


def _show(value: Any) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    return type(value).__name__


def label_of(f: Field, within: Line | None = None) -> Line:
    """How players call a field; inside a record or a list row, with its place."""
    own = Line(f.label)
    if within is None:
        return own
    return Line(gettext_noop("{outer}, {inner}"), {"outer": within, "inner": own})


def _row(label: Line, index: int) -> Line:
    return Line(gettext_noop("{field} {n}"), {"field": label, "n": index})


def label_at(fields: Sequence[Field], path: str) -> Line | None:
    """The label of the field a path names (``poignees[2].size``: Poignées 2,
    Size), or None when no field of these has that path."""
    by_name = {f.name: f for f in fields}
    head = re.match(r"([^.\[]+)(?:\[(\d+)\])?(?:\.(.*))?$", path)
    if head is None or head.group(1) not in by_name:
        return None
    f = by_name[head.group(1)]
    label = Line(f.label)
    index, rest = head.group(2), head.group(3)
    if index is not None:
        label = _row(label, int(index))
    if not rest:
        return label
    if f.kind is Kind.PLAYER_POINTS:
        return Line(gettext_noop("{outer}, {inner}"), {"outer": label, "inner": rest})
    inner = label_at(f.fields, rest)
    return None if inner is None else Line(gettext_noop("{outer}, {inner}"), {"outer": label, "inner": inner})


def _blank(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def asked(f: Field, raw: Mapping[str, Any]) -> bool:
    """Whether a hand form must have this field answered, given the other answers.
    A field shown only for some choice of another is asked once that choice is made."""
    if not f.ask:
        return False
    if f.shown_when is not None:
        controller, choices = f.shown_when
        if raw.get(controller) not in choices:
            return False
    return f.asked_unless is None or _blank(raw.get(f.asked_unless))


def clean(
    fields: Sequence[Field],
    raw: Any,
    players: Sequence[str],
    path: str = "",
    *,
    from_form: bool = False,
    within: Line | None = None,
) -> dict[str, Any]:
    """Check an object against ``fields``; return the cleaned values by name.

    Unknown keys are refused (a misspelled field silently dropped would change
    a score). Missing optional fields take their default. Every problem is
    found in one pass and raised together (``InvalidInput.problems``), the
    first one first. ``from_form``: the values come from a hand form, which must
    have every ``ask`` field answered (its null given explicitly).
    """
    where = path.rstrip(".") or "input"
    if not isinstance(raw, Mapping):
        raise _fail(
            where, within or Line(where), gettext_noop("must be an object (got {got})"), got=_show(raw)
        )
    known = {f.name for f in fields}
    problems: list[InvalidInput] = [
        InvalidInput(
            f"{path}{key}",
            Line(
                gettext_noop("unknown field; allowed here: {allowed}"),
                {"allowed": allowed_list(sorted(known)) or "none"},
            ),
        )
        for key in raw
        if key not in known
    ]
    cleaned: dict[str, Any] = {}
    for f in fields:
        label = label_of(f, within)
        here = f"{path}{f.name}"
        unanswered = f.name not in raw or (raw[f.name] is None and not f.null_label)
        if from_form and unanswered and asked(f, raw):
            problems.append(_missing(here, label))
            continue
        try:
            cleaned[f.name] = clean_value(f, raw.get(f.name), f.name in raw, players, path, label=label)
        except InvalidInput as error:
            problems.append(error)
    if problems:
        raise InvalidInput.several(problems)
    return cleaned


def clean_value(
    f: Field, value: Any, present: bool, players: Sequence[str], path: str = "", *, label: Line | None = None
) -> Any:
    here = f"{path}{f.name}"
    label = label or Line(f.label)
    if not present or (value is None and f.nullable):
        if f.required and not present:
            raise _missing(here, label)
        return f.default
    if value is None:
        raise _fail(here, label, gettext_noop("cannot be null"))
    match f.kind:
        case Kind.PLAYER:
            return _player(here, label, value, players)
        case Kind.CHOICE:
            return _choice(f, here, label, value)
        case Kind.INT:
            return _int(f, here, label, value)
        case Kind.POINTS:
            return _points(f, here, label, value)
        case Kind.BOOL:
            return _bool(here, label, value)
        case Kind.TEXT:
            return _text(f, here, label, value)
        case Kind.RECORD:
            return clean(f.fields, value, players, f"{here}.", within=label)
        case Kind.LIST:
            return _list(f, here, label, value, players)
        case Kind.PLAYER_POINTS:
            return _player_points(f, here, label, value, players)
        case Kind.PLAYER_LEVELS:
            return _player_levels(f, here, label, value, players)
        case Kind.PLAYER_LIST:
            return _player_list(here, label, value, players)
    raise AssertionError(f.kind)  # pragma: no cover


def _choice(f: Field, here: str, label: Line, value: Any) -> Any:
    value = f.aliases.get(value, value) if isinstance(value, str) else value
    if isinstance(value, str) and value in f.choices:
        # The declared choice (an enum member where the field lists one),
        # so typed options and hands hold what their annotations say.
        return f.choices[f.choices.index(value)]
    raise _fail(
        here,
        label,
        gettext_noop("one of {allowed} (got {got})"),
        allowed=allowed_list(f.choices),
        got=_show(value),
    )


def _bool(here: str, label: Line, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise _fail(here, label, gettext_noop("must be true or false (got {got})"), got=_show(value))


def _text(f: Field, here: str, label: Line, value: Any) -> str:
    if not isinstance(value, str):
        raise _fail(here, label, gettext_noop("must be text (got {got})"), got=_show(value))
    if len(value) > f.max_length:
        raise _fail(here, label, gettext_noop("at most {n} characters"), n=Fraction(f.max_length))
    problem = text_problem(value, tabs=f.tabs)
    if problem is not None:
        raise InvalidInput(here, problem, label=label)
    return value


def _list(f: Field, here: str, label: Line, value: Any, players: Sequence[str]) -> tuple[Any, ...]:
    if not isinstance(value, list):
        raise _fail(here, label, gettext_noop("must be a list (got {got})"), got=_show(value))
    if f.max_items is not None and len(value) > f.max_items:
        raise _fail(here, label, gettext_noop("at most {n} entries"), n=Fraction(f.max_items))
    return _items(f, here, label, value, players)


def _player_levels(f: Field, here: str, label: Line, value: Any, players: Sequence[str]) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise _fail(here, label, gettext_noop("must be an object (got {got})"), got=_show(value))
    return {
        _player(f"{here}.{name}", label, name, players): _int(f, f"{here}.{name}", label, level)
        for name, level in value.items()
    }


def _player_list(here: str, label: Line, value: Any, players: Sequence[str]) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise _fail(here, label, gettext_noop("must be a list (got {got})"), got=_show(value))
    names = [_player(f"{here}[{i}]", label, v, players) for i, v in enumerate(value, 1)]
    if len(set(names)) != len(names):
        raise _fail(here, label, gettext_noop("names a player twice"))
    return tuple(names)


def _items(f: Field, here: str, label: Line, value: list[Any], players: Sequence[str]) -> tuple[Any, ...]:
    """Each row of a list, every row's problems together."""
    rows: list[Any] = []
    problems: list[InvalidInput] = []
    for i, item in enumerate(value, 1):
        try:
            rows.append(clean(f.fields, item, players, f"{here}[{i}].", within=_row(label, i)))
        except InvalidInput as error:
            problems.append(error)
    if problems:
        raise InvalidInput.several(problems)
    return tuple(rows)


def _player_points(
    f: Field, here: str, label: Line, value: Any, players: Sequence[str]
) -> dict[str, Fraction]:
    """Every player's points, every missing or wrong one reported together."""
    if not isinstance(value, Mapping):
        raise _fail(
            here,
            label,
            gettext_noop("must give the points of each player: {allowed}"),
            allowed=allowed_list(players),
        )
    problems: list[InvalidInput] = [
        _fail(
            f"{here}.{name}",
            label,
            gettext_noop("not a player in this hand; players: {allowed}"),
            allowed=allowed_list(players),
        )
        for name in value
        if name not in players
    ]
    result: dict[str, Fraction] = {}
    for name in players:
        own = Line(gettext_noop("{outer}, {inner}"), {"outer": label, "inner": name})
        try:
            if name not in value:
                raise _missing(f"{here}.{name}", own)
            result[name] = _points(f, f"{here}.{name}", own, value[name])
        except InvalidInput as error:
            problems.append(error)
    if problems:
        raise InvalidInput.several(problems)
    return result


def _player(here: str, label: Line, value: Any, players: Sequence[str]) -> str:
    if isinstance(value, str) and value in players:
        return value
    raise _fail(
        here,
        label,
        gettext_noop("one of the players {allowed} (got {got})"),
        allowed=allowed_list(players),
        got=_show(value),
    )


def _int(f: Field, here: str, label: Line, value: Any) -> int:
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    if f.choices:
        if number is not None and number in f.choices:
            return number
        raise _fail(
            here,
            label,
            gettext_noop("one of {allowed} (got {got})"),
            allowed=allowed_list(f.choices),
            got=_show(value),
        )
    if number is None or not _in_range(f, Fraction(number)):
        raise _range(f, here, label, value)
    return number


def _range(f: Field, here: str, label: Line, value: Any) -> InvalidInput:
    """What a number field allows, in words: whole numbers, or halves."""
    low = f.minimum or Fraction(0)
    if f.maximum is None:
        return _fail(
            here, label, gettext_noop("a number from {low} up (got {got})"), low=low, got=_show(value)
        )
    if f.step == 1:
        text = gettext_noop("a whole number from {low} to {high} (got {got})")
    elif f.step == Fraction(1, 2):
        text = gettext_noop("{low} to {high}, half points allowed (got {got})")
    else:
        text = gettext_noop("a number from {low} to {high} in steps of {step} (got {got})")
    return _fail(here, label, text, low=low, high=f.maximum, step=f.step, got=_show(value))


def parse_points(value: Any) -> Fraction | None:
    """Card points written as 56, 56.5 or "56.5"; None when not a finite number."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return None
        return Fraction(str(value))
    if isinstance(value, str):
        decimal = parse_decimal(value)
        return None if decimal is None else Fraction(decimal)
    return None


def parse_decimal(text: str) -> Decimal | None:
    """A number as people write it, with a decimal comma or point in any language
    (56,5 or 56.5; 0,05 or 0.05); None when it is not a finite number of sensible size."""
    text = text.strip().replace(",", ".")
    if not text or len(text) > 20:
        return None
    try:
        decimal = Decimal(text)
    except InvalidOperation:
        return None
    # "1e99999999" is short text but an enormous number: refuse it before
    # building the exact fraction, which would not finish.
    if not decimal.is_finite() or not -20 <= decimal.adjusted() <= 20:
        return None
    return decimal


def _points(f: Field, here: str, label: Line, value: Any) -> Fraction:
    if f.thirds:
        return _thirds(f, here, label, value)
    number = parse_points(value)
    if number is None or not _in_range(f, number) or (number / f.step).denominator != 1:
        raise _range(f, here, label, value)
    return number


def _thirds(f: Field, here: str, label: Line, value: Any) -> Fraction:
    thirds = parse_thirds(value)
    if thirds is None or not _in_range(f, Fraction(thirds, 3)):
        raise _fail(
            here,
            label,
            gettext_noop(
                "whole points from {low} to {high} or points and Blatt such as 41/2, "
                "at most {high}/0 (got {got})"
            ),
            low=f.minimum or Fraction(0),
            high=f.maximum or Fraction(0),
            got=_show(value),
        )
    return Fraction(thirds, 3)


def _point_json(f: Field, value: Fraction) -> int | float | str:
    if f.thirds:
        return thirds_json(int(value * 3))
    return int(value) if value.denominator == 1 else float(value)


def _in_range(f: Field, number: Fraction) -> bool:
    if f.minimum is not None and number < f.minimum:
        return False
    return f.maximum is None or number <= f.maximum


def dump_value(f: Field, value: Any, *, defaults: bool = False) -> Any:
    """The JSON form of a cleaned value (the inverse of ``clean_value``)."""
    if value is None:
        return None
    match f.kind:
        case Kind.POINTS:
            return _point_json(f, value)
        case Kind.PLAYER_POINTS:
            return {k: _point_json(f, v) for k, v in value.items()}
        case Kind.RECORD:
            return dump(f.fields, value, defaults=defaults)
        case Kind.LIST:
            return [dump(f.fields, item, defaults=defaults) for item in value]
        case Kind.PLAYER_LIST:
            return list(value)
    return value


def dump(fields: Sequence[Field], values: Mapping[str, Any], *, defaults: bool = False) -> dict[str, Any]:
    """Cleaned values back to JSON, in field order, leaving out defaults unless
    ``defaults`` asks for every value (house rules are written in full)."""
    out: dict[str, Any] = {}
    for f in fields:
        if f.name not in values:
            continue
        value = values[f.name]
        if value == f.default and not f.required and not f.written and not defaults:
            continue
        out[f.name] = dump_value(f, value, defaults=defaults)
    return out


def in_field_order(
    fields: Sequence[Field], values: Mapping[str, Any], players: Sequence[str]
) -> dict[str, Any]:
    """Stored JSON values with their keys in field order (records and lists of
    records too, per-player points in playing order), so a file is written the
    same whatever order a database kept them in. Nothing is checked or dropped:
    a key no field names (an older hand's) follows at the end, as it was. A
    field always ``written`` that an older hand left out gets its default."""
    by_name = {f.name: f for f in fields}
    values = {
        **{f.name: dump_value(f, f.default) for f in fields if f.written and f.default is not None},
        **values,
    }
    order = [f.name for f in fields if f.name in values] + [key for key in values if key not in by_name]
    return {key: _ordered_value(by_name.get(key), values[key], players) for key in order}


def _ordered_value(f: Field | None, value: Any, players: Sequence[str]) -> Any:
    if f is None:
        return value
    if f.kind is Kind.RECORD and isinstance(value, Mapping):
        return in_field_order(f.fields, value, players)
    if f.kind is Kind.LIST and isinstance(value, list):
        return [
            in_field_order(f.fields, item, players) if isinstance(item, Mapping) else item for item in value
        ]
    if f.kind is Kind.PLAYER_POINTS and isinstance(value, Mapping):
        ranked = {name: index for index, name in enumerate(players)}
        return dict(sorted(value.items(), key=lambda item: ranked.get(item[0], len(ranked))))
    return value


def renamed(fields: Sequence[Field], values: Mapping[str, Any], old: str, new: str) -> dict[str, Any]:
    """Stored JSON values with the player ``old`` called ``new`` wherever a field
    names a player: a player field, a list of players, the keys of per-player
    points, inside records and lists of records. Other values are left alone,
    even where they happen to read like the name; keys no field names too."""
    by_name = {f.name: f for f in fields}
    return {key: _renamed_value(by_name.get(key), value, old, new) for key, value in values.items()}


def _renamed_value(f: Field | None, value: Any, old: str, new: str) -> Any:
    if f is None:
        return value
    if f.kind is Kind.PLAYER:
        return new if value == old else value
    if f.kind is Kind.PLAYER_LIST and isinstance(value, list):
        return [new if item == old else item for item in value]
    if f.kind is Kind.PLAYER_POINTS and isinstance(value, Mapping):
        return {(new if name == old else name): points for name, points in value.items()}
    if f.kind is Kind.RECORD and isinstance(value, Mapping):
        return renamed(f.fields, value, old, new)
    if f.kind is Kind.LIST and isinstance(value, list):
        return [renamed(f.fields, item, old, new) if isinstance(item, Mapping) else item for item in value]
    return value


# Card points counted in thirds (the Austrian games' Blatt): how they are written.
POINTS_BLATT = re.compile(r"\s*([0-9]{1,2})\s*(?:/\s*([0-2]))?\s*")


def parse_thirds(value: Any) -> int | None:
    """Card points written as whole points (``41``, ``"41"``) or points and Blatt
    (``"41/2"``), as thirds; None when it is neither: decimals (``41.5``, ``41.0``) are not
    card points here, a third is a Blatt."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return 3 * value if 0 <= value <= 1000 else None
    if isinstance(value, str):
        found = POINTS_BLATT.fullmatch(value)
        if found is None:
            return None
        return 3 * int(found.group(1)) + int(found.group(2) or 0)
    return None


def thirds_text(thirds: int) -> str:
    """``41/2``; whole points without a Blatt as ``41/0``."""
    return f"{thirds // 3}/{thirds % 3}"


def thirds_json(thirds: int) -> int | str:
    """How a session file writes card points: whole points as a number, else ``"P/B"``."""
    return thirds // 3 if thirds % 3 == 0 else thirds_text(thirds)
