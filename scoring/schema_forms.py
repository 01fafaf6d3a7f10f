"""The schema-form layer: inputs drawn from the engine's field descriptions.

Hand entry and house rules are built from ``scoring.engine.schema`` fields, so
each game's form comes from its module. An input's HTML name is the engine's
field path (``bouts``, ``poignees[2].size``, ``points.Anna``,
``options.round_to``), so a refusal from the engine lands next to the input it
names. ``SchemaForm`` turns posted data into the session file's shape
(``raw``) and draws ``Widget``s back; it converts, the engine validates.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext

from scoring.engine import InvalidInput
from scoring.engine.schema import Field, Kind
from scoring.engine.variant import shown
from scoring.presentation import render_line

MISSING = object()


@dataclass
class Widget:
    """One input (or group of inputs) as the templates draw it."""

    name: str
    kind: str  # radio, select, number, points, checkbox, text, record, list, player_points, checkboxes
    label: str
    help: str = ""
    required: bool = False
    value: str = ""
    values: list[str] = field(default_factory=list)
    choices: list[tuple[str, str]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    children: list[Widget] = field(default_factory=list)
    rows: list[list[Widget]] = field(default_factory=list)
    attrs: dict[str, str] = field(default_factory=dict)
    refresh: bool = False  # other inputs depend on this one: redraw the form when it changes
    rare: bool = False  # folded away unless it holds a value or an error

    @property
    def id(self) -> str:
        return "f-" + re.sub(r"[^A-Za-z0-9_-]+", "-", self.name).strip("-")


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


class SchemaForm:
    """A form over engine fields; ``raw`` is the session-file shape of its values."""

    def __init__(
        self,
        fields: Sequence[Field],
        players: Sequence[str],
        *,
        prefix: str = "",
        data: QueryDict | Mapping[str, Any] | None = None,
        initial: Mapping[str, Any] | None = None,
    ) -> None:
        self.fields = tuple(fields)
        self.players = tuple(players)
        self.prefix = prefix
        self.raw: dict[str, Any] = (
            _parse_fields(self.fields, self.players, data, prefix)
            if data is not None
            else dict(initial or {})
        )
        # An input that applies only to another choice is dropped once that choice
        # is made otherwise (a solo's cards in a call), as the page no longer shows it.
        for f in self.fields:
            if not shown(f, self.raw):
                self.raw.pop(f.name, None)
        self.errors: dict[str, list[str]] = {}
        self.other_errors: list[str] = []

    def names(self) -> set[str]:
        return {w.name for w in _walk(self.widgets(with_errors=False))}

    def add_error(self, error: InvalidInput) -> None:
        message = render_line(error.line)
        name = error.field if error.field.startswith(self.prefix) else self.prefix + error.field
        known = self.names()
        while name and name not in known:
            # "premiums[2].player" may be shown as a whole row: fall back to its parent.
            trimmed = re.sub(r"(\.[^.\[\]]+|\[\d+\])$", "", name)
            if trimmed == name:
                break
            name = trimmed
        if name in known:
            self.errors.setdefault(name, []).append(message)
        else:
            self.other_errors.append(f"{error.field}: {message}")

    def widgets(self, with_errors: bool = True) -> list[Widget]:
        """The inputs to draw; one that applies only to another choice is left out
        once that choice is made (a solo's cards while the mode is ``call``)."""
        controllers = {f.shown_when[0] for f in self.fields if f.shown_when}
        widgets = []
        for f in self.fields:
            if not shown(f, self.raw):
                continue
            widget = _widget(f, self.players, self.raw, self.prefix, self.errors if with_errors else {})
            widget.refresh = f.name in controllers
            widget.rare = f.rare and _empty(self.raw.get(f.name, MISSING)) and not widget.errors
            widgets.append(widget)
        return widgets


def _walk(widgets: Sequence[Widget]) -> list[Widget]:
    found: list[Widget] = []
    for widget in widgets:
        found.append(widget)
        found += _walk(widget.children)
        for row in widget.rows:
            found += _walk(row)
    return found


# -- posted data → session-file values ---------------------------------------------


def _parse_fields(
    fields: Sequence[Field], players: Sequence[str], data: Mapping[str, Any], prefix: str
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in fields:
        value = _parse(f, players, data, prefix + f.name)
        if value is not MISSING:
            out[f.name] = value
    return out


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
        return None if f.nullable else MISSING
    return text


def _parse_int(f: Field, players: Sequence[str], data: Mapping[str, Any], name: str) -> Any:
    text = _parse_text(f, players, data, name)
    if isinstance(text, str) and re.fullmatch(r"-?\d{1,9}", text):
        return int(text)
    return text  # anything else goes to the engine as it was typed, to be refused there


def _parse_bool(f: Field, players: Sequence[str], data: Mapping[str, Any], name: str) -> Any:
    return _get(data, name) in ("on", "true", "1")


def _parse_record(f: Field, players: Sequence[str], data: Mapping[str, Any], name: str) -> Any:
    values = _parse_fields(f.fields, players, data, name + ".")
    if f.nullable and not _filled(f.fields, values):
        return None
    return values


def _parse_list(f: Field, players: Sequence[str], data: Mapping[str, Any], name: str) -> Any:
    """The filled rows of a list; the form says how many rows it drew (``name.rows``)."""
    drawn = _get(data, name + ".rows")
    count = min(int(drawn), f.max_items or 10) if drawn.isdecimal() else 0
    rows = []
    for index in range(1, count + 1):
        values = _parse_fields(f.fields, players, data, f"{name}[{index}].")
        if _filled(f.fields, values):
            rows.append(values)
    return rows


def _parse_player_points(f: Field, players: Sequence[str], data: Mapping[str, Any], name: str) -> Any:
    given = {p: _get(data, f"{name}.{p}") for p in players}
    if not any(given.values()):
        return MISSING
    return {p: v for p, v in given.items() if v}


def _parse_player_list(f: Field, players: Sequence[str], data: Mapping[str, Any], name: str) -> Any:
    getlist = getattr(data, "getlist", None)
    chosen = getlist(name) if getlist else data.get(name, [])
    return [p for p in players if p in chosen]


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
}


# -- values → widgets ------------------------------------------------------------------


def _choices(f: Field, values: Sequence[Any]) -> list[tuple[str, str]]:
    choices = [(_text(v), gettext(f.label_of(v))) for v in values]
    if f.nullable and f.null_choice:
        choices.insert(0, ("", gettext(f.null_label or "none")))
    return choices


Errors = Mapping[str, list[str]]
Drawer = Callable[[Widget, Field, Any, Sequence[str], Errors], None]


def _widget(f: Field, players: Sequence[str], raw: Mapping[str, Any], prefix: str, errors: Errors) -> Widget:
    """The input (or group of inputs) for one field, holding its value and errors."""
    name = prefix + f.name
    w = Widget(
        name=name,
        kind="text",
        label=gettext(f.label),
        help=gettext(f.help) if f.help else "",
        required=f.required,
        errors=list(errors.get(name, [])),
    )
    DRAWERS[f.kind](w, f, raw.get(f.name, f.default), players, errors)
    return w


def _draw_player(w: Widget, f: Field, value: Any, players: Sequence[str], errors: Errors) -> None:
    w.kind, w.value, w.choices = "radio", _text(value), _choices(f, players)


def _draw_choice(w: Widget, f: Field, value: Any, players: Sequence[str], errors: Errors) -> None:
    w.choices = _choices(f, f.choices)
    # Short labels sit side by side as buttons; long ones read better in a list.
    fits = len(w.choices) <= 6 and sum(len(label) for _, label in w.choices) <= 48
    w.kind, w.value = ("radio" if fits else "select"), _text(value)
    if w.kind == "select" and not (f.nullable and f.null_choice) and w.value == "":
        # A list must not pre-select its first choice for the player.
        w.choices.insert(0, ("", "—"))


def _draw_int(w: Widget, f: Field, value: Any, players: Sequence[str], errors: Errors) -> None:
    w.value = _text(value)
    small = f.minimum is not None and f.maximum is not None and f.maximum - f.minimum <= 6
    values = f.choices or (range(int(f.minimum or 0), int(f.maximum or 0) + 1) if small else ())
    if values:
        w.kind, w.choices = "radio", _choices(f, list(values))
        return
    w.kind, w.attrs = "number", {"inputmode": "numeric"}
    if f.minimum is not None:
        w.attrs["min"] = _text(f.minimum)
    if f.maximum is not None:
        w.attrs["max"] = _text(f.maximum)


def _draw_points(w: Widget, f: Field, value: Any, players: Sequence[str], errors: Errors) -> None:
    w.kind, w.value = "points", _text(value)
    w.attrs = {"inputmode": "decimal", "autocomplete": "off"}
    if f.maximum is not None:
        w.attrs["max"] = _text(f.maximum)
    w.attrs["step"] = _text(f.step)


def _draw_bool(w: Widget, f: Field, value: Any, players: Sequence[str], errors: Errors) -> None:
    w.kind, w.value = "checkbox", "true" if value else ""


def _draw_text(w: Widget, f: Field, value: Any, players: Sequence[str], errors: Errors) -> None:
    w.kind, w.value, w.attrs = "text", _text(value), {"maxlength": str(f.max_length)}


def _draw_record(w: Widget, f: Field, value: Any, players: Sequence[str], errors: Errors) -> None:
    given = value if isinstance(value, Mapping) else {}
    w.kind = "record"
    w.children = [_widget(s, players, given, w.name + ".", errors) for s in f.fields]


def _draw_list(w: Widget, f: Field, value: Any, players: Sequence[str], errors: Errors) -> None:
    """The rows given so far and one empty row to fill in, up to the field's limit."""
    items = list(value) if isinstance(value, list | tuple) else []
    count = min(len(items) + 1, f.max_items or 10)
    w.kind, w.value = "list", str(count)
    w.rows = [
        [
            _widget(s, players, items[i] if i < len(items) else {}, f"{w.name}[{i + 1}].", errors)
            for s in f.fields
        ]
        for i in range(count)
    ]


def _draw_player_points(w: Widget, f: Field, value: Any, players: Sequence[str], errors: Errors) -> None:
    given = value if isinstance(value, Mapping) else {}
    w.kind = "player_points"
    w.children = [
        Widget(
            name=f"{w.name}.{p}",
            kind="points",
            label=p,
            value=_text(given.get(p)),
            errors=list(errors.get(f"{w.name}.{p}", [])),
            attrs={"inputmode": "numeric", "autocomplete": "off"},
        )
        for p in players
    ]


def _draw_player_list(w: Widget, f: Field, value: Any, players: Sequence[str], errors: Errors) -> None:
    w.kind, w.values, w.choices = "checkboxes", [_text(v) for v in (value or ())], [(p, p) for p in players]


DRAWERS: dict[Kind, Drawer] = {
    Kind.PLAYER: _draw_player,
    Kind.CHOICE: _draw_choice,
    Kind.INT: _draw_int,
    Kind.POINTS: _draw_points,
    Kind.BOOL: _draw_bool,
    Kind.TEXT: _draw_text,
    Kind.RECORD: _draw_record,
    Kind.LIST: _draw_list,
    Kind.PLAYER_POINTS: _draw_player_points,
    Kind.PLAYER_LIST: _draw_player_list,
}
