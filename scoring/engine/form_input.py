"""The posted hand form, read into the session file's shape: the one reading the
server (``scoring/schema_forms.py``, ``scoring/forms.py``) and the phone
(``scoring/engine/offline.py``, run by Pyodide) both run, so a hand typed on the
phone is the hand the server will store.

An input's name is the engine's field path (``bouts``, ``poignees[2].size``,
``points.Anna``); ``read_fields`` turns posted data into values, ``read_hand``
reads a whole hand form (the dealer, the game's own fields, the note). It
converts; the engine validates. Pure Python: ``data`` is any mapping of names to
a value or, for a repeated name, a list (``getlist`` is used where it has one).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from .schema import Field, Kind, parse_points, parse_thirds, thirds_json
from .tarock54 import THIRDS
from .types import HandType, InvalidInput, Line, Table, gettext_noop
from .variant import Variant, shown

MISSING = object()
# The posted value of the other side in a points field with a side toggle.
OTHER_SIDE = "other"


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction | float | Decimal):
        number = Fraction(str(value)) if isinstance(value, float) else Fraction(value)
        if number.denominator == 1:
            return str(number.numerator)
        return str(float(number))
    return str(value)


def _filled(fields: Sequence[Field], values: Mapping[str, Any]) -> bool:
    """Whether a row or record was filled in: one of its required inputs has a
    value (inputs with a default, such as "announced: silent", do not count)."""
    deciding = [f for f in fields if f.required] or [f for f in fields if f.kind is not Kind.BOOL]
    return any(not _empty(values.get(f.name, MISSING)) for f in deciding)


def _empty(value: Any) -> bool:
    return value is MISSING or value is None or value == "" or value == [] or value == {}


def parse_fields(
    fields: Sequence[Field],
    players: Sequence[str],
    data: Mapping[str, Any],
    prefix: str,
    typed: dict[str, str] | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in fields:
        if f.shown_when is not None and any(o is not f and o.name == f.name for o in fields):
            # Two shapes of one value (the Kontra on the game or each opponent's):
            # only the one the chosen game asks for is read.
            controller, choices = f.shown_when
            if _text(out.get(controller)) not in choices:
                continue
        value = _parse(f, players, data, prefix + f.name)
        if f.joined is not None:
            value = _read_joined(f, f.joined, value, players, data, prefix, out)
        if (
            f.complement is not None
            and typed is not None
            and _get(data, f"{prefix}{f.name}.side") == OTHER_SIDE
        ):
            value = _other_side(f, value, typed)
        if value is not MISSING:
            out[f.name] = value
    return out


def joined_value(joined: Field, choice: Any) -> str:
    """The posted value of a joined field's choice in the group it is drawn in
    (``king_in_talon:played`` among the partners)."""
    return f"{joined.name}:{_text(choice)}"


def _read_joined(
    f: Field,
    joined: Field,
    value: Any,
    players: Sequence[str],
    data: Mapping[str, Any],
    prefix: str,
    out: dict[str, Any],
) -> Any:
    """A group that also answers a joined field (the king in the talon among the
    partners): its choice is that field's value and this one's null. A player's
    name is always the player. A form that sent the joined field under its own
    name (a copy kept on a phone from before) is read as it was sent."""
    if isinstance(value, str) and value not in players:
        for choice in joined.choices:
            if value == joined_value(joined, choice):
                out[joined.name] = _text(choice)
                return None
    own = _parse(joined, players, data, prefix + joined.name)
    if own is not MISSING and own is not None:
        out[joined.name] = own
    return value


def _other_side(f: Field, value: Any, typed: dict[str, str]) -> Any:
    """Points counted for the other side, turned into the recorded side's: the
    table counts the smaller pile. Anything that is not such a number goes to
    the engine as typed, to be refused there in the players' words."""
    if f.thirds:
        thirds = parse_thirds(value) if isinstance(value, str) else None
        if thirds is None or not 0 <= thirds <= THIRDS:
            return value
        typed[f.name] = value
        return str(thirds_json(THIRDS - thirds))
    number = parse_points(value) if isinstance(value, str) else None
    if number is None or f.complement is None or not 0 <= number <= f.complement:
        return value
    typed[f.name] = value
    return _text(f.complement - number)


def _answered(fields: Sequence[Field], initial: Mapping[str, Any]) -> dict[str, Any]:
    """A stored hand's values for its form: an asked choice a stored hand left
    out was answered with its null (a stored five-player hand without a partner
    was played alone)."""
    raw = dict(initial)
    for f in fields:
        if f.ask and f.null_label and f.name not in raw and shown(f, raw):
            raw[f.name] = None
    return raw


def _get(data: Mapping[str, Any], name: str) -> str:
    value = data.get(name, "")
    return value.strip() if isinstance(value, str) else ""


Parser = Callable[[Field, Sequence[str], Mapping[str, Any], str], Any]


def _parse(f: Field, players: Sequence[str], data: Mapping[str, Any], name: str) -> Any:
    """The session-file value of one field from posted data, or ``MISSING``."""
    return PARSERS[f.kind](f, players, data, name)


def _parse_text(f: Field, players: Sequence[str], data: Mapping[str, Any], name: str) -> Any:
    text = _get(data, name)
    if text == "":
        if f.ask and name not in data:
            return MISSING  # not answered: no choice of the group was made
        return None if f.nullable else MISSING
    return text


def _parse_int(f: Field, players: Sequence[str], data: Mapping[str, Any], name: str) -> Any:
    text = _parse_text(f, players, data, name)
    if isinstance(text, str) and re.fullmatch(r"-?\d{1,9}", text):
        return int(text)
    return text  # anything else goes to the engine as it was typed, to be refused there


def _parse_bool(f: Field, players: Sequence[str], data: Mapping[str, Any], name: str) -> Any:
    if f.ask:  # two buttons, neither preset: not answered is no answer
        text = _get(data, name)
        return MISSING if text not in ("true", "false") else text == "true"
    return _get(data, name) in ("on", "true", "1")


def _parse_record(f: Field, players: Sequence[str], data: Mapping[str, Any], name: str) -> Any:
    values = parse_fields(f.fields, players, data, name + ".")
    if f.nullable and not _filled(f.fields, values):
        return None
    return values


def _parse_grid(f: Field, players: Sequence[str], data: Mapping[str, Any], name: str) -> Any:
    """The rows of a premium grid: one per type given a side (or player), in the
    types' order; how it went (announced, made) as tapped, left out unanswered
    (the engine then names it: nothing is preset)."""
    kind, who, announced, made, kontra = _grid_fields(f)
    rows = []
    for choice in kind.choices:
        row = f"{name}.{choice}"
        chosen = _get(data, f"{row}.who")
        if not chosen:
            continue
        values: dict[str, Any] = {kind.name: _text(choice), who.name: chosen}
        state = _get(data, f"{row}.how")
        states = {_state(a, m): (a, m) for a, m in _grid_states(f, choice, announced)}
        if state in states:
            values[announced.name], values[made.name] = states[state]
        else:
            values[announced.name] = None
        level = _get(data, f"{row}.kontra")
        if kontra is not None and level.isdecimal() and int(level) and _announced(announced, values):
            values[kontra.name] = int(level)
        rows.append(values)
    return rows


def _grid_fields(f: Field) -> tuple[Field, Field, Field, Field, Field | None]:
    """A premium list's type, side (or player), announcement, made and Kontra fields."""
    by_name = {s.name: s for s in f.fields}
    who = next(s for s in f.fields if s.name in ("side", "player"))
    return by_name["type"], who, by_name["announced"], by_name["made"], by_name.get("kontra")


def _grid_states(f: Field, choice: Any, announced: Field) -> tuple[tuple[Any, bool], ...]:
    levels = announced.choices if announced.kind is Kind.CHOICE else (False, True)
    every = tuple((a, m) for m in (True, False) for a in levels)
    return tuple(f.states.get(choice, every))


def _announced(announced: Field, values: Mapping[str, Any]) -> bool:
    return values.get(announced.name) not in (None, False, announced.default)


def _state(announced: Any, made: bool) -> str:
    return f"{_text(announced)}{'' if made else '-failed'}"


def _parse_list(f: Field, players: Sequence[str], data: Mapping[str, Any], name: str) -> Any:
    """The filled rows of a list; the form says how many rows it drew (``name.rows``)."""
    if f.grid:
        return _parse_grid(f, players, data, name)
    drawn = _get(data, name + ".rows")
    count = min(int(drawn), f.max_items or 10) if drawn.isdecimal() else 0
    rows = []
    for index in range(1, count + 1):
        values = parse_fields(f.fields, players, data, f"{name}[{index}].")
        if _filled(f.fields, values):
            rows.append(_row_shown(f.fields, values))
    return rows


def _row_shown(fields: Sequence[Field], values: dict[str, Any]) -> dict[str, Any]:
    """A row without the inputs that apply only to another choice of the row (an
    announcement that only an ultimo may make), as the page hides them; a choice
    left out counts as its default."""
    for f in fields:
        if f.shown_when is not None and f.name in values:
            controller = f.shown_when[0]
            known = {controller: next((o.default for o in fields if o.name == controller), None), **values}
            if not shown(f, known):
                values.pop(f.name)
    return values


def _parse_player_points(f: Field, players: Sequence[str], data: Mapping[str, Any], name: str) -> Any:
    given = {p: _get(data, f"{name}.{p}") for p in players}
    if not any(given.values()):
        return MISSING
    return {p: v for p, v in given.items() if v}


def _parse_player_list(f: Field, players: Sequence[str], data: Mapping[str, Any], name: str) -> Any:
    getlist = getattr(data, "getlist", None)
    chosen = getlist(name) if getlist else data.get(name, [])
    picked = [p for p in players if p in chosen]
    return None if f.nullable and not picked else picked


def _parse_player_levels(f: Field, players: Sequence[str], data: Mapping[str, Any], name: str) -> Any:
    """Each player's level; 0 (none) left out, nothing at all when nobody has one."""
    given = {p: _get(data, f"{name}.{p}") for p in players}
    levels = {p: int(v) if v.isdecimal() else v for p, v in given.items() if v and v != "0"}
    return levels or MISSING


PARSERS: dict[Kind, Parser] = {
    Kind.PLAYER: _parse_text,
    Kind.CHOICE: _parse_text,
    Kind.TEXT: _parse_text,
    Kind.POINTS: _parse_text,
    Kind.INT: _parse_int,
    Kind.BOOL: _parse_bool,
    Kind.RECORD: _parse_record,
    Kind.LIST: _parse_list,
    Kind.PLAYER_POINTS: _parse_player_points,
    Kind.PLAYER_LIST: _parse_player_list,
    Kind.PLAYER_LEVELS: _parse_player_levels,
}


def read_fields(
    fields: Sequence[Field],
    players: Sequence[str],
    data: Mapping[str, Any],
    prefix: str = "",
    typed: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The session-file values of these fields from posted data. An input that
    applies only to some choice of another is dropped unless that choice is made
    (a solo's cards in a call, or before a game is chosen): the page hides it,
    and what it still holds was not chosen."""
    raw = parse_fields(fields, players, with_fills(fields, players, data, prefix), prefix, typed)
    return drop_unchosen(fields, raw)


def grid_row(grid: str, kind: str, who: str, announced: Any, made: bool = True) -> dict[str, str]:
    """The posted inputs of one premium grid row: its side (or player) and how it went."""
    return {**grid_side(grid, kind, who), f"{grid}.{kind}.how": _state(announced, made)}


def grid_side(grid: str, kind: str, who: str) -> dict[str, str]:
    """The posted input of a premium grid row's side (or player) alone."""
    return {f"{grid}.{kind}.who": who}


def with_fills(
    fields: Sequence[Field], players: Sequence[str], data: Mapping[str, Any], prefix: str = ""
) -> Mapping[str, Any]:
    """Posted data with what a chosen answer fills in (``Field.fills``: the bid's
    bird its premium row) where the player left that input empty; the page's
    script does the same as the choice is tapped. Only a field that applies to
    what is chosen fills anything."""
    filling = [f for f in fields if f.fills]
    if not filling:
        return data
    raw = drop_unchosen(fields, parse_fields(fields, players, data, prefix))
    added = {
        prefix + name: value
        for f in filling
        if f.name in raw
        for name, value in f.fills.get(_text(raw[f.name]), {}).items()
        if not _get(data, prefix + name)
    }
    if not added:
        return data
    copy = getattr(data, "copy", None)
    filled: dict[str, Any] = copy() if callable(copy) else dict(data)
    for name, value in added.items():
        filled[name] = value
    return filled


def drop_unchosen(fields: Sequence[Field], raw: dict[str, Any]) -> dict[str, Any]:
    for f in fields:
        if not applies(fields, raw, f) and not any(
            o.name == f.name and applies(fields, raw, o) for o in fields
        ):
            raw.pop(f.name, None)
            if f.joined is not None:
                raw.pop(f.joined.name, None)
    return raw


def applies(fields: Sequence[Field], raw: Mapping[str, Any], f: Field) -> bool:
    """Whether a field applies to what is chosen: one shown only for some
    choices of another applies once one of them is chosen."""
    if f.shown_when is None:
        return True
    controller, choices = f.shown_when
    default = next((c.default for c in fields if c.name == controller), None)
    chosen = raw.get(controller, default)
    return chosen is not None and _text(chosen) in choices


def chosen_dealer(players: Sequence[str], posted: Any, proposed: str | None) -> str:
    """The dealer a form names; else the one proposed; else the last in playing order."""
    return posted if isinstance(posted, str) and posted in players else (proposed or players[-1])


def note_of(source: Mapping[str, Any]) -> str:
    note = source.get("note") or ""
    return note if isinstance(note, str) else ""


def session_hand(dealer: str, hand_type: HandType, game_raw: Mapping[str, Any], note: str) -> dict[str, Any]:
    """A hand in the session file's shape: its dealer, its kind (unless played), its fields, its note."""
    out: dict[str, Any] = {"dealer": dealer}
    if hand_type is not HandType.PLAYED:
        out["type"] = hand_type.value
    out.update(game_raw)
    if note.strip():
        out["note"] = note.strip()
    return out


@dataclass(frozen=True)
class ReadHand:
    """A hand form read: the table it was dealt at, its fields and the hand."""

    table: Table
    fields: tuple[Field, ...]
    raw: dict[str, Any]
    typed: dict[str, str]


def read_hand(
    variant: Variant,
    options: Any,
    players: Sequence[str],
    hand_type: HandType,
    data: Mapping[str, Any],
    *,
    proposed: str | None = None,
) -> ReadHand:
    """A posted hand form of this game in the session file's shape, as the server reads it."""
    dealer = chosen_dealer(players, data.get("dealer"), proposed)
    table = Table(tuple(players), dealer, variant.sitting_out(players, dealer))
    fields = () if hand_type is HandType.REDEAL else variant.form_fields(hand_type, table, options)
    typed: dict[str, str] = {}
    game_raw = read_fields(fields, table.active, data, "", typed)
    return ReadHand(table, tuple(fields), session_hand(dealer, hand_type, game_raw, note_of(data)), typed)


def reworded(
    fields: Sequence[Field], raw: Mapping[str, Any], problem: InvalidInput, prefix: str = ""
) -> InvalidInput:
    """A premium of the grid given a side but not how it went: said so in the
    grid's words ("Uhu, how it went missing"), not as the row's empty value."""
    found = re.match(r"([^.\[]+)\[(\d+)\]\.announced$", problem.field.removeprefix(prefix))
    grid = next((f for f in fields if found and f.name == found.group(1) and f.grid), None)
    rows = raw.get(grid.name) if grid is not None else None
    if found is None or grid is None or not isinstance(rows, list) or int(found.group(2)) > len(rows):
        return problem
    row = rows[int(found.group(2)) - 1]
    if row.get("announced") is not None:
        return problem
    kind = _grid_fields(grid)[0]
    label = Line(
        gettext_noop("{outer}, {inner}"),
        {"outer": Line(kind.label_of(row.get(kind.name))), "inner": Line(gettext_noop("How it went"))},
    )
    return InvalidInput(problem.field, Line(gettext_noop("{field} missing"), {"field": label}), label=label)


def placed(
    fields: Sequence[Field], raw: Mapping[str, Any], field: str, drawn: Collection[str], prefix: str = ""
) -> str | None:
    """The drawn input (one of ``drawn``, the names the form was drawn with) a
    problem of ``field`` belongs to, or None where nothing drawn is it: a premium
    row's path as its grid row's input, a joined field in its host's group (the
    king in the talon among the partners), and a path drawn only as a whole row
    ("premiums[2].player") as that row. The server's form and the phone place a
    refusal's problems by this one rule."""
    name = field if field.startswith(prefix) else prefix + field
    name = in_grid(fields, raw, name, prefix)
    hosts = {prefix + f.joined.name: prefix + f.name for f in fields if f.joined}
    name = hosts.get(name, name)
    while name and name not in drawn:
        trimmed = re.sub(r"(\.[^.\[\]]+|\[\d+\])$", "", name)
        if trimmed == name:
            break
        name = trimmed
    return name if name in drawn else None


def in_grid(fields: Sequence[Field], raw: Mapping[str, Any], name: str, prefix: str = "") -> str:
    """A premium row's path (``premiums[2].kontra``) as its grid row's input
    (``premiums.pagat.kontra``), where the premiums are drawn as a grid."""
    found = re.match(r"([^.\[]+)\[(\d+)\](?:\.([^.]+))?$", name.removeprefix(prefix))
    grid = next((f for f in fields if found and f.name == found.group(1) and f.grid), None)
    rows = raw.get(grid.name) if grid is not None else None
    if found is None or grid is None or not isinstance(rows, list) or int(found.group(2)) > len(rows):
        return name
    row = rows[int(found.group(2)) - 1]
    inner = found.group(3) or ""
    part = {"announced": "how", "made": "how", "kontra": "kontra"}.get(inner, "who")
    return f"{prefix}{grid.name}.{row.get('type')}.{part}"
