"""Forms: turn what was posted into the session file's shape, and show it back.

Hand entry and house rules are built from the engine's field descriptions
(``scoring.engine.schema``), so each game's form comes from its module. An
input's HTML name is the engine's field path (``bouts``, ``poignees[2].size``,
``points.Anna``, ``options.round_to``), so a refusal from the engine lands
next to the input it names. Forms convert; the engine validates and scores.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.engine import HandType, InvalidInput, Table, Variant
from scoring.engine.schema import Field, Kind, clean, text_problem
from scoring.engine.session_file import MAX_NAME
from scoring.engine.variant import shown
from scoring.presentation import render_line

MAX_SEATS = 6
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
    shown_when: str = ""  # "field=value1,value2": shown only while that field has one of these values
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


def _parse(f: Field, players: Sequence[str], data: Mapping[str, Any], name: str) -> Any:
    match f.kind:
        case Kind.PLAYER | Kind.CHOICE | Kind.TEXT | Kind.POINTS:
            text = _get(data, name)
            if text == "":
                return None if f.nullable else MISSING
            return text
        case Kind.INT:
            text = _get(data, name)
            if text == "":
                return None if f.nullable else MISSING
            return int(text) if re.fullmatch(r"-?\d{1,9}", text) else text
        case Kind.BOOL:
            return _get(data, name) in ("on", "true", "1")
        case Kind.RECORD:
            values = _parse_fields(f.fields, players, data, name + ".")
            if f.nullable and not _filled(f.fields, values):
                return None
            return values
        case Kind.LIST:
            limit = f.max_items or 10
            try:
                count = min(int(_get(data, name + ".rows") or 0), limit)
            except ValueError:
                count = 0
            rows = []
            for index in range(1, count + 1):
                values = _parse_fields(f.fields, players, data, f"{name}[{index}].")
                if _filled(f.fields, values):
                    rows.append(values)
            return rows
        case Kind.PLAYER_POINTS:
            given = {p: _get(data, f"{name}.{p}") for p in players}
            if not any(given.values()):
                return MISSING
            return {p: v for p, v in given.items() if v}
        case Kind.PLAYER_LIST:
            getlist = getattr(data, "getlist", None)
            chosen = getlist(name) if getlist else data.get(name, [])
            return [p for p in players if p in chosen]
    raise AssertionError(f.kind)  # pragma: no cover


# -- values → widgets ------------------------------------------------------------------


def _choices(f: Field, values: Sequence[Any]) -> list[tuple[str, str]]:
    choices = [(_text(v), gettext(f.label_of(v))) for v in values]
    if f.nullable:
        choices.insert(0, ("", gettext(f.null_label or "none")))
    return choices


def _widget(
    f: Field, players: Sequence[str], raw: Mapping[str, Any], prefix: str, errors: Mapping[str, list[str]]
) -> Widget:
    name = prefix + f.name
    value = raw.get(f.name, f.default)
    w = Widget(
        name=name,
        kind="text",
        label=gettext(f.label),
        help=gettext(f.help) if f.help else "",
        required=f.required,
        errors=list(errors.get(name, [])),
    )
    if f.shown_when:
        w.shown_when = f"{f.shown_when[0]}={','.join(f.shown_when[1])}"
    match f.kind:
        case Kind.PLAYER:
            w.kind, w.value, w.choices = "radio", _text(value), _choices(f, players)
        case Kind.CHOICE:
            w.choices = _choices(f, f.choices)
            # Short labels sit side by side as buttons; long ones read better in a list.
            fits = len(w.choices) <= 6 and sum(len(label) for _, label in w.choices) <= 48
            w.kind, w.value = ("radio" if fits else "select"), _text(value)
            if w.kind == "select" and not f.nullable and w.value == "":
                # A list must not pre-select its first choice for the player.
                w.choices.insert(0, ("", "—"))
        case Kind.INT:
            w.value = _text(value)
            values = f.choices or (
                range(int(f.minimum), int(f.maximum) + 1)
                if f.minimum is not None and f.maximum is not None and f.maximum - f.minimum <= 6
                else ()
            )
            if values:
                w.kind, w.choices = "radio", _choices(f, list(values))
            else:
                w.kind = "number"
                w.attrs = {"inputmode": "numeric"}
                if f.minimum is not None:
                    w.attrs["min"] = _text(f.minimum)
                if f.maximum is not None:
                    w.attrs["max"] = _text(f.maximum)
        case Kind.POINTS:
            w.kind, w.value = "points", _text(value)
            w.attrs = {"inputmode": "decimal", "autocomplete": "off"}
            if f.maximum is not None:
                w.attrs["max"] = _text(f.maximum)
            w.attrs["step"] = _text(f.step)
        case Kind.BOOL:
            w.kind, w.value = "checkbox", "true" if value else ""
        case Kind.TEXT:
            w.kind, w.value = "text", _text(value)
            w.attrs = {"maxlength": str(f.max_length)}
        case Kind.RECORD:
            w.kind = "record"
            w.children = [
                _widget(s, players, value if isinstance(value, Mapping) else {}, name + ".", errors)
                for s in f.fields
            ]
        case Kind.LIST:
            w.kind = "list"
            items = list(value) if isinstance(value, list | tuple) else []
            count = min(len(items) + 1, f.max_items or 10)
            w.rows = [
                [
                    _widget(s, players, items[i] if i < len(items) else {}, f"{name}[{i + 1}].", errors)
                    for s in f.fields
                ]
                for i in range(count)
            ]
            w.value = str(count)
        case Kind.PLAYER_POINTS:
            w.kind = "player_points"
            given = value if isinstance(value, Mapping) else {}
            w.children = [
                Widget(
                    name=f"{name}.{p}",
                    kind="points",
                    label=p,
                    value=_text(given.get(p)),
                    errors=list(errors.get(f"{name}.{p}", [])),
                    attrs={"inputmode": "numeric", "autocomplete": "off"},
                )
                for p in players
            ]
        case Kind.PLAYER_LIST:
            w.kind = "checkboxes"
            w.values = [_text(v) for v in (value or ())]
            w.choices = [(p, p) for p in players]
    return w


# -- hands -------------------------------------------------------------------------------


class HandForm:
    """Hand entry for one game: the dealer, the game's own fields, a note."""

    def __init__(
        self,
        *,
        variant: Variant,
        players: Sequence[str],
        options: Any,
        hand_type: HandType,
        data: QueryDict | None = None,
        initial: Mapping[str, Any] | None = None,
        dealer: str | None = None,
    ) -> None:
        self.variant = variant
        self.players = tuple(players)
        self.options = options
        self.hand_type = hand_type
        source: Mapping[str, Any] = data if data is not None else (initial or {})
        chosen = source.get("dealer") or dealer
        self.dealer = chosen if chosen in self.players else (dealer or self.players[-1])
        table = Table(self.players, self.dealer, variant.sitting_out(self.players, self.dealer))
        self.sitting_out = table.sitting_out
        fields = () if hand_type is HandType.REDEAL else variant.form_fields(hand_type, table, options)
        self.game = SchemaForm(fields, table.active, data=data, initial=initial)
        self.counter = (
            None
            if hand_type is HandType.REDEAL
            else variant.card_counter(hand_type, table, options, self.game.raw)
        )
        self.counter_form = (
            SchemaForm(self.counter.fields, table.active, prefix="count.", data=data)
            if self.counter is not None
            else None
        )
        self.counted: int | None = None
        self.note = (source.get("note") or "") if isinstance(source.get("note", ""), str) else ""
        self.errors: dict[str, list[str]] = {}
        self.other_errors: list[str] = []

    def raw(self) -> dict[str, Any]:
        """The hand in the session file's shape, ready for the services."""
        out: dict[str, Any] = {"dealer": self.dealer}
        if self.hand_type is not HandType.PLAYED:
            out["type"] = self.hand_type.value
        out.update(self.game.raw)
        if self.note.strip():
            out["note"] = self.note.strip()
        return out

    def count_cards(self) -> None:
        """The card counter: count the cards by kind, put the points in the hand."""
        if self.counter is None or self.counter_form is None:
            return
        try:
            values = clean(self.counter.fields, self.counter_form.raw, self.game.players, "count.")
            points = self.counter.count(values)
        except InvalidInput as error:
            field = error.field.replace("cards.", "", 1)
            self.counter_form.add_error(InvalidInput("count." + field.removeprefix("count."), error.line))
            return
        self.counted = points
        target = self.counter.target_for(values)
        if "." in target:
            field, player = target.split(".", 1)
            existing = self.game.raw.get(field)
            per_player = dict(existing) if isinstance(existing, Mapping) else {}
            per_player[player] = str(points)
            self.game.raw[field] = per_player
        else:
            self.game.raw[target] = str(points)

    @property
    def counter_help(self) -> str:
        """What to count, where the game says (the declarer's discard in an opponents' valat)."""
        return render_line(self.counter.help) if self.counter is not None and self.counter.help else ""

    def counter_widgets(self) -> list[Widget]:
        return self.counter_form.widgets() if self.counter_form is not None else []

    def add_error(self, error: InvalidInput) -> None:
        if error.field in ("dealer", "note", "sitting_out", "type"):
            self.errors.setdefault(error.field, []).append(render_line(error.line))
        else:
            self.game.add_error(error)

    @property
    def has_errors(self) -> bool:
        return bool(self.errors or self.game.errors or self.game.other_errors or self.other_errors)

    def dealer_widget(self) -> Widget:
        return Widget(
            name="dealer",
            kind="select",
            label=gettext("Dealer"),
            value=self.dealer,
            choices=[(p, p) for p in self.players],
            errors=self.errors.get("dealer", []),
            required=True,
        )

    def note_widget(self) -> Widget:
        return Widget(
            name="note",
            kind="text",
            label=gettext("Note"),
            value=self.note,
            errors=self.errors.get("note", []),
            attrs={"maxlength": "500"},
        )

    def widgets(self) -> list[Widget]:
        return [w for w in self.game.widgets() if not w.rare]

    def rare_widgets(self) -> list[Widget]:
        """Inputs seldom needed (poignées, chelem …), folded away while empty."""
        return [w for w in self.game.widgets() if w.rare]


# -- sessions ------------------------------------------------------------------------------


class SessionForm(forms.Form):
    """Name, players in playing order, an optional money rate; house rules come
    from the game's own fields (``SchemaForm`` with prefix ``options.``)."""

    name = forms.CharField(label=_("Name"), max_length=80)
    money_rate = forms.DecimalField(
        label=_("Money per point (optional)"),
        required=False,
        min_value=Decimal("0.0001"),
        max_digits=8,
        decimal_places=4,
        help_text=_("For example 0.01 for one cent a point. Leave empty to settle in points."),
    )

    def __init__(self, *args: Any, seats: int = MAX_SEATS, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        for seat in range(1, seats + 1):
            self.fields[f"seat_{seat}"] = forms.CharField(
                label=_("Seat %(n)s") % {"n": seat}, max_length=MAX_NAME, required=False
            )

    def clean_name(self) -> str:
        """The session's name, held to the session file's rules for text (no control characters)."""
        name: str = self.cleaned_data["name"]
        problem = text_problem(name)
        if problem is not None:
            raise forms.ValidationError(render_line(problem))
        return name

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{seat}"] for seat in range(1, self.seats + 1)]

    def players(self) -> list[str]:
        return [
            self.cleaned_data[f"seat_{seat}"].strip()
            for seat in range(1, self.seats + 1)
            if self.cleaned_data.get(f"seat_{seat}", "").strip()
        ]
