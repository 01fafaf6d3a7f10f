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

from django import forms
from django.http import QueryDict
from django.utils.formats import number_format
from django.utils.translation import gettext

from scoring.engine import InvalidInput, Line
from scoring.engine.form_input import (  # the posted form's reading, shared with the phone
    MISSING,
    OTHER_SIDE,
    _announced,
    _answered,
    _empty,
    _grid_fields,
    _grid_states,
    _state,
    _text,
    applies,
    drop_unchosen,
    joined_value,
    parse_fields,
    placed,
    reworded,
    with_fills,
)
from scoring.engine.schema import Field, Kind, parse_decimal, parse_points
from scoring.engine.types import gettext_noop
from scoring.presentation import render_words

# The choice a player did not make yet: no radio of an asked field is checked.
UNANSWERED = None


class DecimalTextField(forms.DecimalField):
    """A decimal input read as points are (``parse_decimal``): a decimal comma or
    point in every language, so 0,05 and 0.05 are both taken, and a value the form
    was filled in with comes back as it was shown (0,05 in German and French).
    Drawn as text with the decimal keypad, localized."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("localize", True)
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal", "class": "num"}))
        super().__init__(**kwargs)

    # The stubs give DecimalField IntegerField's return type; Django returns a Decimal.
    def prepare_value(self, value: Any) -> Any:
        """A stored value as the reader writes it, without trailing zeros: 0,05 (0.05 in English)."""
        if isinstance(value, Decimal) and value.is_finite():
            return number_format(Decimal(format(value.normalize(), "f")))
        return value

    def to_python(self, value: Any) -> Decimal | None:  # type: ignore[override]
        if value in self.empty_values:
            return None
        number = parse_decimal(str(value))
        if number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return number


def widget_id(name: str) -> str:
    """The HTML id of the input drawn for a field path."""
    return "f-" + re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-")


@dataclass(frozen=True)
class Choice:
    """One option of a radio group or list, as drawn."""

    value: str
    label: str
    checked: bool
    seat: int | None = None  # the player's place at the table, for player choices
    number: int = 0  # its place among the choices, counted from 1
    fills: str = ""  # what choosing it fills in elsewhere: "name=value name=value" (Field.fills)


@dataclass
class Widget:
    """One input (or group of inputs) as the templates draw it."""

    name: str
    kind: str  # radio, select, number, points, checkbox, text, record, list, player_points, checkboxes
    label: str
    help: str = ""
    required: bool = False
    value: str | None = ""  # None: an asked choice not made yet
    values: list[str] = field(default_factory=list)
    choices: list[tuple[str, str]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    children: list[Widget] = field(default_factory=list)
    rows: list[list[Widget]] = field(default_factory=list)
    most_rows: int = 0  # a list's limit of rows (the phone draws another offline up to it)
    # A list's row as "Another row" adds it, empty, drawn for a phone without a connection
    # (a <template>): its number is ROW_SLOT, which the page fills in (static/js/phone/kept-form.js).
    blank_row: list[Widget] = field(default_factory=list)
    attrs: dict[str, str] = field(default_factory=dict)
    refresh: bool = False  # other inputs depend on this one: redraw the form when it changes
    rare: bool = False  # folded away unless it holds a value or an error
    seats: Mapping[str, int] = field(default_factory=dict)  # player choices: name → place at the table
    seat_source: bool = False  # another field never offers the player chosen here
    other_than: str = ""  # the field whose chosen player this one never offers
    shown_when: tuple[str, str] | None = None  # (field, its values, space-separated) this applies to
    # A field shown only for some choices of another: hidden while none of them is
    # chosen; ``when`` names them for the page's CSS (``for-1-2``: the second
    # choice of the first such field), so a tap shows it without script.
    hidden: bool = False
    when: list[str] = field(default_factory=list)
    controls: int = 0  # other inputs show for some of this one's choices: its number among such fields
    sides: list[Choice] = field(default_factory=list)  # whose points: the recorded side or the other
    # The choice that tells nothing in the line a phone writes of a hand it cannot score
    # (a premium row's "—", a Kontra level of 0): None where every choice tells something.
    unsaid: str | None = None
    # The second shape of a value drawn under the same name (each player's points
    # beside the side's): its own HTML id, so every id on the page is one element's.
    id_suffix: str = ""
    fills: dict[str, str] = field(default_factory=dict)  # per choice: what it fills in (Choice.fills)
    # A key the phone's number keypad lacks, drawn beside the field (templates/_keys.html):
    # "sign" (a number that may be negative), "thirds" (points and Blatt, "41/2").
    keys: str = ""

    @property
    def row_slot(self) -> str:
        """What stands for the row's number in a list's blank row (``blank_row``)."""
        return ROW_SLOT

    @property
    def id(self) -> str:
        return widget_id(self.name) + self.id_suffix

    @property
    def options(self) -> list[Choice]:
        return [
            Choice(
                value, label, value == self.value, self.seats.get(value), number, self.fills.get(value, "")
            )
            for number, (value, label) in enumerate(self.choices, 1)
        ]


class SchemaForm:
    """A form over engine fields; ``raw`` is the session-file shape of its values.

    ``seats`` gives each player's place at the table (player choices carry it, so
    a field can leave out the player chosen in another, as the partner list
    leaves out the taker); ``context`` holds values chosen outside these fields
    (the dealer) that such a field may refer to."""

    def __init__(
        self,
        fields: Sequence[Field],
        players: Sequence[str],
        *,
        prefix: str = "",
        data: QueryDict | Mapping[str, Any] | None = None,
        initial: Mapping[str, Any] | None = None,
        seats: Mapping[str, int] | None = None,
        context: Mapping[str, Any] | None = None,
    ) -> None:
        self.fields = tuple(fields)
        self.players = tuple(players)
        self.prefix = prefix
        self.seats = dict(seats) if seats is not None else {p: i for i, p in enumerate(self.players, 1)}
        self.context = dict(context or {})
        # Points typed for the other side, as typed: shown again as they were.
        self.typed: dict[str, str] = {}
        self.raw: dict[str, Any] = (
            parse_fields(
                self.fields,
                self.players,
                with_fills(self.fields, self.players, data, prefix),
                prefix,
                self.typed,
            )
            if data is not None
            else _answered(self.fields, initial)
            if initial is not None
            else {}
        )
        # An input that applies only to some choice of another is dropped unless that choice is made.
        drop_unchosen(self.fields, self.raw)
        self.errors: dict[str, list[str]] = {}
        self.other_errors: list[str] = []

    def applies(self, f: Field) -> bool:
        """Whether a field applies to what is chosen: one shown only for some
        choices of another applies once one of them is chosen."""
        return applies(self.fields, self.raw, f)

    def names(self) -> set[str]:
        return {w.name for w in walk_widgets(self.widgets(with_errors=False))}

    def add_error(self, error: InvalidInput) -> None:
        """Each problem of a refusal beside the input it names, in the players' words."""
        known = self.names()
        for problem in map(self.reworded, error.problems):
            name = self.place(problem, known)
            if name is None:
                self.other_errors.append(render_words(problem))
            else:
                self.errors.setdefault(name, []).append(render_words(problem))

    def place(self, problem: InvalidInput, known: set[str] | None = None) -> str | None:
        """The drawn input a problem belongs to, or None when nothing drawn is it."""
        known = self.names() if known is None else known
        return placed(self.fields, self.raw, problem.field, known, self.prefix)

    def reworded(self, problem: InvalidInput) -> InvalidInput:
        """A premium of the grid given a side but not how it went, in the grid's words."""
        return reworded(self.fields, self.raw, problem, self.prefix)

    def conversions(self) -> list[Line]:
        """Points typed for the other side, and what the recorded side has."""
        lines = []
        for f in self.fields:
            if f.name in self.typed and f.complement is not None:
                own, other = f.side_labels
                typed: Any = parse_points(self.typed[f.name]) or Fraction(0)
                points: Any = parse_points(self.raw.get(f.name)) or Fraction(0)
                if f.thirds:
                    typed, points = self.typed[f.name], str(self.raw.get(f.name))
                lines.append(
                    Line(
                        gettext_noop("{other} {typed} → {own} {points}"),
                        {
                            "other": Line(other),
                            "typed": typed,
                            "own": Line(own),
                            "points": points,
                        },
                    )
                )
        return lines

    def widgets(self, with_errors: bool = True) -> list[Widget]:
        """The inputs to draw. One that applies only to some choice of another is
        drawn hidden until that choice is made (a solo's cards while the game is
        a call), so choosing shows it at once."""
        controllers = {f.shown_when[0] for f in self.fields if f.shown_when}
        sources = {f.other_than for f in self.fields if f.other_than}
        widgets: list[Widget] = []
        for f in self.fields:
            shared = any(o is not f and o.name == f.name for o in self.fields)
            # A field sharing its name with another (each player's points in a
            # Trischaken, the side's otherwise) holds the value only where it applies.
            raw = (
                {k: v for k, v in self.raw.items() if k != f.name}
                if shared and not self.applies(f)
                else self.raw
            )
            widget = _widget(f, self.players, raw, self.prefix, self.errors if with_errors else {})
            if any(w.name == widget.name for w in widgets):
                widget.id_suffix = "-each"
            widget.refresh = f.name in controllers
            widget.rare = f.rare and _empty(self.raw.get(f.name, MISSING)) and not widget.errors
            widget.seat_source = f.name in sources
            if f.shown_when is not None:
                widget.shown_when = (self.prefix + f.shown_when[0], " ".join(f.shown_when[1]))
                widget.hidden = not self.applies(f)
            if f.kind is Kind.PLAYER:
                self._seat(widget, f)
            if f.joined is not None:
                _join(widget, f.joined, self.raw)
            widget.fills = {
                choice: " ".join(f"{self.prefix}{name}={value}" for name, value in inputs.items())
                for choice, inputs in f.fills.items()
                if inputs
            }
            if f.kind is Kind.PLAYER_LEVELS:
                # Each player's row carries the seat: the page hides the declarer's.
                for child in widget.children:
                    child.attrs = {"seat": str(self.seats.get(child.label, ""))}
            if f.complement is not None:
                self._sides(widget, f)
            widgets.append(widget)
        _number_controllers(widgets)
        return widgets

    def _seat(self, widget: Widget, f: Field) -> None:
        """Player choices carry their seats; a field never offering the player
        chosen in another starts unanswered when that player was chosen for it."""
        widget.seats = self.seats
        if f.other_than:
            widget.other_than = f.other_than
            chosen = self.raw.get(f.other_than, self.context.get(f.other_than))
            if chosen and widget.value == chosen:
                widget.value = UNANSWERED

    def _sides(self, widget: Widget, f: Field) -> None:
        """The side toggle of a points field; points typed for the other side are
        shown as typed."""
        other = f.name in self.typed
        if other:
            widget.value = self.typed[f.name]
        own_label, other_label = (gettext(label) for label in f.side_labels)
        widget.sides = [Choice("", own_label, not other), Choice(OTHER_SIDE, other_label, other)]


def _join(widget: Widget, joined: Field, raw: Mapping[str, Any]) -> None:
    """A joined field's choices after the group's own, its value chosen there."""
    widget.choices += [(joined_value(joined, c), gettext(joined.label_of(c))) for c in joined.choices]
    if raw.get(joined.name) is not None:
        widget.value = joined_value(joined, raw[joined.name])


def _number_controllers(widgets: Sequence[Widget]) -> None:
    """Number each field that others depend on, and name on each dependent the
    choices it shows for (``for-1-2``), as the page's CSS knows them."""
    numbers: dict[str, int] = {}
    for widget in widgets:
        if widget.refresh:
            numbers[widget.name] = widget.controls = len(numbers) + 1
    by_name = {widget.name: widget for widget in widgets}
    for widget in widgets:
        if widget.shown_when is None or widget.shown_when[0] not in numbers:
            continue
        controller = by_name[widget.shown_when[0]]
        values = widget.shown_when[1].split(" ")
        widget.when = [
            f"for-{controller.controls}-{choice.number}"
            for choice in controller.options
            if choice.value in values
        ]


def walk_widgets(widgets: Sequence[Widget]) -> list[Widget]:
    """Every widget, each group's and row's inputs after the group, in drawing order."""
    found: list[Widget] = []
    for widget in widgets:
        found.append(widget)
        found += walk_widgets(widget.children)
        for row in widget.rows:
            found += walk_widgets(row)
    return found


# -- values → widgets ------------------------------------------------------------------


def _choices(f: Field, values: Sequence[Any]) -> list[tuple[str, str]]:
    choices = [(_text(v), gettext(f.label_of(v))) for v in values]
    if f.ask:
        # An answer of its own, after the others ("alone" after the partners).
        if f.null_label:
            choices.append(("", gettext(f.null_label)))
    elif f.nullable and f.null_choice:
        choices.insert(0, ("", gettext(f.null_label or "none")))
    return choices


def _value(f: Field, value: Any) -> str | None:
    """What is chosen; an asked choice nobody made is no choice at all, not its null."""
    if f.ask and value is MISSING:
        return UNANSWERED
    return _text(None if value is MISSING else value)


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
    if f.ask:
        w.required = True
        value = raw.get(f.name, MISSING)
    else:
        value = raw.get(f.name, f.default)
    DRAWERS[f.kind](w, f, value, players, errors)
    return w


def _draw_player(w: Widget, f: Field, value: Any, players: Sequence[str], errors: Errors) -> None:
    w.kind, w.value, w.choices = "radio", _value(f, value), _choices(f, players)


def _draw_choice(w: Widget, f: Field, value: Any, players: Sequence[str], errors: Errors) -> None:
    w.choices = _choices(f, f.choices)
    # A few choices are buttons, one tap each (long labels wrap); many read
    # better in a list.
    fits = (
        f.buttons
        or len(w.choices) <= 5
        or (len(w.choices) <= 6 and sum(len(label) for _, label in w.choices) <= 48)
    )
    w.kind, w.value = ("radio" if fits else "select"), _value(f, value)
    if w.kind == "select" and not (f.nullable and f.null_choice) and w.value == "":
        # A list must not pre-select its first choice for the player.
        w.choices.insert(0, ("", "—"))


def _draw_int(w: Widget, f: Field, value: Any, players: Sequence[str], errors: Errors) -> None:
    w.value = _value(f, value)
    small = f.minimum is not None and f.maximum is not None and f.maximum - f.minimum <= 6
    values = f.choices or (range(int(f.minimum or 0), int(f.maximum or 0) + 1) if small else ())
    if values:
        w.kind, w.choices = "radio", _choices(f, list(values))
        return
    w.kind, w.attrs = "number", {"inputmode": "numeric", "enterkeyhint": "next"}
    if f.minimum is not None and f.minimum < 0:
        _keypad(w, "numeric", "sign")
    w.value = w.value or ""  # typed, not chosen: nothing to tell apart from "not yet"
    if f.minimum is not None:
        w.attrs["min"] = _text(f.minimum)
    if f.maximum is not None:
        w.attrs["max"] = _text(f.maximum)


def _draw_points(w: Widget, f: Field, value: Any, players: Sequence[str], errors: Errors) -> None:
    w.kind, w.value = "points", _text(None if value is MISSING else value)
    # Whole points get the digits-only keypad; half points need the decimal one.
    # Points and Blatt ("41/2") need the slash, a negative number the minus: a key beside.
    keypad = "numeric" if f.thirds or f.step.denominator == 1 else "decimal"
    w.attrs = {"inputmode": keypad, "autocomplete": "off", "enterkeyhint": "next"}
    if f.thirds:
        _keypad(w, keypad, "thirds")
    elif f.minimum is not None and f.minimum < 0:
        _keypad(w, keypad, "sign")
    if f.maximum is not None:
        w.attrs["max"] = _text(f.maximum)
    w.attrs["step"] = _text(f.step)


def _keypad(w: Widget, keypad: str, keys: str) -> None:
    """A number field whose keypad lacks a key it needs: the full keyboard (which
    has it) until the page's script gives it ``keypad`` and the key beside it
    (static/js/keys.js); ``pattern`` says what it takes."""
    w.keys = keys
    w.attrs.update(
        {
            "inputmode": "text",
            "data-keypad": keypad,
            "pattern": THIRDS_PATTERN if keys == "thirds" else SIGNED_PATTERN,
        }
    )


# What the fields with a key beside them take (a hint for the phone; the engine checks).
THIRDS_PATTERN = "[0-9]{1,2}(/[0-2])?"
SIGNED_PATTERN = "[\\-\u2212]?[0-9]+([.,][0-9]+)?"


def _draw_bool(w: Widget, f: Field, value: Any, players: Sequence[str], errors: Errors) -> None:
    if f.ask:  # won or lost: two buttons, neither preset
        w.kind, w.value = "radio", _value(f, value)
        w.choices = [(_text(v), gettext(f.label_of(v))) for v in (True, False)]
        return
    w.kind, w.value = "checkbox", "true" if value else ""


def _draw_text(w: Widget, f: Field, value: Any, players: Sequence[str], errors: Errors) -> None:
    w.kind, w.value, w.attrs = "text", _text(value), {"maxlength": str(f.max_length)}


def _draw_record(w: Widget, f: Field, value: Any, players: Sequence[str], errors: Errors) -> None:
    given = value if isinstance(value, Mapping) else {}
    w.kind = "record"
    w.children = [_widget(s, players, given, w.name + ".", errors) for s in f.fields]


def _draw_grid(w: Widget, f: Field, value: Any, players: Sequence[str], errors: Errors) -> None:
    """A premium grid: a row per type with its side (or player) and how it went,
    and the Kontra on it once announced; a row is emptied by its "—"."""
    kind, who, announced, made, kontra = _grid_fields(f)
    given = {
        str(item.get(kind.name)): item
        for item in (value if isinstance(value, list | tuple) else ())
        if isinstance(item, Mapping)
    }
    w.kind, w.value = "grid", ""
    for choice in kind.choices:
        name = f"{w.name}.{_text(choice)}"
        item = given.get(_text(choice), {})
        who_widget = Widget(
            name=f"{name}.who",
            kind="radio",
            label=gettext(kind.label_of(choice)),
            value=_text(item.get(who.name)),
            choices=[("", "—"), *(_choices(who, players if who.kind is Kind.PLAYER else who.choices))],
            errors=list(errors.get(f"{name}.who", [])),
            unsaid="",
        )
        states = _grid_states(f, choice, announced)
        # A stored premium leaves out what is at its default (silent, made); one
        # posted without how it went holds None: not answered.
        level = item.get(announced.name, announced.default) if item else None
        state = None if level is None else _state(level, item.get(made.name, True))
        how_widget = Widget(
            name=f"{name}.how",
            kind="radio",
            label=gettext("How it went"),
            value=UNANSWERED if state is None else state,
            choices=[(_state(a, m), _state_label(announced, a, m)) for a, m in states],
            errors=list(errors.get(f"{name}.how", [])),
            unsaid="",
            shown_when=(f"{name}.who", " ".join(c for c, _ in who_widget.choices if c)),
            hidden=not item,
        )
        row = [who_widget, how_widget]
        announcing = [_state(a, m) for a, m in states if _announced(announced, {announced.name: a})]
        if kontra is not None and announcing:
            row.append(
                Widget(
                    name=f"{name}.kontra",
                    kind="radio",
                    label=gettext(kontra.label),
                    value=_text(item.get(kontra.name, 0)),
                    choices=_choices(kontra, list(range(0, int(kontra.maximum or 0) + 1))),
                    errors=list(errors.get(f"{name}.kontra", [])),
                    unsaid="",
                    shown_when=(f"{name}.how", " ".join(announcing)),
                    hidden=state not in announcing,
                )
            )
        w.rows.append(row)


def _state_label(announced: Field, value: Any, made: bool) -> str:
    """ "silent", "announced", "silent, failed" …: how a premium went, in a word or two."""
    if announced.kind is Kind.CHOICE:
        label = gettext(announced.label_of(value))
    else:
        label = gettext("announced") if value else gettext("silent")
    return label if made else gettext("%(how)s, failed") % {"how": label}


# The number of the row a phone adds offline, in the names and ids of a list's blank row.
ROW_SLOT = "__row__"


def _draw_list(w: Widget, f: Field, value: Any, players: Sequence[str], errors: Errors) -> None:
    """The rows given so far and one empty row to fill in, up to the field's limit."""
    if f.grid:
        _draw_grid(w, f, value, players, errors)
        return
    items = list(value) if isinstance(value, list | tuple) else []
    w.most_rows = f.max_items or 10
    count = min(len(items) + 1, w.most_rows)
    w.kind, w.value = "list", str(count)
    w.rows = [
        [
            _row_widget(s, players, items[i] if i < len(items) else {}, f"{w.name}[{i + 1}].", errors)
            for s in f.fields
        ]
        for i in range(count)
    ]
    w.blank_row = [_row_widget(s, players, {}, f"{w.name}[{ROW_SLOT}].", {}) for s in f.fields]
    givens = [items[i] if i < len(items) and isinstance(items[i], Mapping) else {} for i in range(count)]
    for row, given in [*zip(w.rows, givens, strict=True), (w.blank_row, {})]:
        for s, widget in zip(f.fields, row, strict=True):
            if s.shown_when is not None:
                # Drawn for the row's choice; the page's script follows later choices.
                controller, choices = s.shown_when
                prefix = widget.name[: -len(s.name)]
                widget.shown_when = (prefix + controller, " ".join(choices))
                widget.hidden = str(given.get(controller) or "") not in choices


def _row_widget(
    f: Field, players: Sequence[str], raw: Mapping[str, Any], prefix: str, errors: Errors
) -> Widget:
    """An input of a list row; a row of buttons there can be emptied again (a
    poignée tapped by mistake), as an unfilled row is no row at all."""
    w = _widget(f, players, raw, prefix, errors)
    if w.kind == "radio" and f.required:
        w.choices.insert(0, ("", gettext("none")))
    return w


def _draw_player_points(w: Widget, f: Field, value: Any, players: Sequence[str], errors: Errors) -> None:
    given = value if isinstance(value, Mapping) else {}
    w.kind = "player_points"
    keypad = "numeric" if f.thirds or f.step.denominator == 1 else "decimal"
    w.children = [
        Widget(
            name=f"{w.name}.{p}",
            kind="points",
            label=p,
            value=_text(given.get(p)),
            errors=list(errors.get(f"{w.name}.{p}", [])),
            attrs={"inputmode": keypad, "autocomplete": "off", "enterkeyhint": "next"},
        )
        for p in players
    ]
    for child in w.children:
        if f.thirds:  # each player's points and Blatt ("41/2") need the slash
            _keypad(child, keypad, "thirds")


def _draw_player_list(w: Widget, f: Field, value: Any, players: Sequence[str], errors: Errors) -> None:
    chosen = [value] if isinstance(value, str) else list(value or ())
    w.kind, w.values, w.choices = "checkboxes", [_text(v) for v in chosen], [(p, p) for p in players]


def _draw_player_levels(w: Widget, f: Field, value: Any, players: Sequence[str], errors: Errors) -> None:
    """A row of level buttons per player (the declarer's row is hidden by the page)."""
    given = value if isinstance(value, Mapping) else {}
    w.kind = "player_levels"
    levels = list(range(int(f.minimum or 0), int(f.maximum or 0) + 1))
    w.children = [
        Widget(
            name=f"{w.name}.{p}",
            kind="radio",
            label=p,
            value=_text(given.get(p, 0)),
            choices=_choices(f, levels),
            errors=list(errors.get(f"{w.name}.{p}", [])),
            unsaid="0",
        )
        for p in players
    ]


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
    Kind.PLAYER_LEVELS: _draw_player_levels,
}
