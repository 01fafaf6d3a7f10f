"""Types shared by every variant: points, breakdown lines, errors, results.

Points are ``Fraction``s whose denominator is 1 or 2 (a few rules create half
points); never floats. A breakdown line is a ``Line``: an English template plus
typed arguments, so the web layer can translate the template and format the
numbers for the reader's language while ``score_session`` prints plain English.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any, Union

MINUS = "\u2212"  # the typographic minus used in every line shown to players


def gettext_noop(text: str) -> str:
    """Mark a template for translation catalogs; the engine itself never translates."""
    return text


class HandType(StrEnum):
    PLAYED = "played"
    REDEAL = "redeal"
    TRISCHAKEN = "trischaken"

    @property
    def label(self) -> str:
        """The kind of hand as players name it (an English template, translated at the edge)."""
        return HAND_TYPE_LABELS[self]


HAND_TYPE_LABELS = {
    HandType.PLAYED: gettext_noop("Played"),
    HandType.REDEAL: gettext_noop("Redeal"),
    HandType.TRISCHAKEN: gettext_noop("Trischaken"),
}


def to_points(value: int | Fraction) -> Fraction:
    return Fraction(value)


def points_to_json(value: Fraction | int) -> int | float:
    """A JSON number: an integer, or a number ending in .5 (exact in binary)."""
    value = Fraction(value)
    if value.denominator == 1:
        return int(value)
    return float(value)


def points_from_json(value: int | float | str) -> Fraction:
    return Fraction(str(value))


# --------------------------------------------------------------------------
# Breakdown lines


@dataclass(frozen=True)
class Signed:
    """A number always shown with its sign: +240, −80, 0."""

    value: Fraction


@dataclass(frozen=True)
class Formula:
    """Arithmetic shown to the players, e.g. ``(25 + 15) × 2``.

    Tokens are strings (operators, brackets, spaces) and numbers; numbers are
    formatted for the reader's language when the line is rendered.
    """

    tokens: tuple[str | int | Fraction, ...]


@dataclass(frozen=True)
class Join:
    """Several pieces shown as one list, e.g. ``Garde, petit au bout attack``."""

    items: tuple[Arg, ...]
    separator: str = ", "


Arg = Union[str, int, Fraction, Signed, Formula, Join, "Line"]
Translate = Callable[[str], str]
NumberFormat = Callable[[Fraction], str]


def format_number(value: Fraction | int, decimal_separator: str = ".") -> str:
    """``240``, ``−1.5``: no trailing ``.0``, the typographic minus."""
    value = Fraction(value)
    sign = MINUS if value < 0 else ""
    value = abs(value)
    whole, rest = divmod(value.numerator, value.denominator)
    if rest == 0:
        return f"{sign}{whole}"
    if value.denominator == 2:
        return f"{sign}{whole}{decimal_separator}5"
    raise ValueError(f"not a whole or half point: {value}")


def format_signed(value: Fraction | int, number: NumberFormat = format_number) -> str:
    value = Fraction(value)
    return f"+{number(value)}" if value > 0 else number(value)


def _identity(text: str) -> str:
    return text


@dataclass(frozen=True)
class Line:
    """One line of a breakdown: an English template with typed arguments."""

    text: str
    args: Mapping[str, Arg] = field(default_factory=dict)

    def render(self, translate: Translate = _identity, number: NumberFormat = format_number) -> str:
        values = {name: _render_arg(arg, translate, number) for name, arg in self.args.items()}
        return translate(self.text).format(**values)

    def __str__(self) -> str:
        return self.render()


def _render_arg(arg: Arg, translate: Translate, number: NumberFormat) -> str:
    if isinstance(arg, Line):
        return arg.render(translate, number)
    if isinstance(arg, Signed):
        return format_signed(arg.value, number)
    if isinstance(arg, Formula):
        return "".join(token if isinstance(token, str) else number(Fraction(token)) for token in arg.tokens)
    if isinstance(arg, Join):
        return arg.separator.join(_render_arg(item, translate, number) for item in arg.items)
    if isinstance(arg, bool):
        raise TypeError("a breakdown argument cannot be a bool")
    if isinstance(arg, int | Fraction):
        return number(Fraction(arg))
    return arg


def line_to_json(line: Line) -> dict[str, Any]:
    """A JSON-safe form of a line, for storing a hand's breakdown snapshot."""
    return {"text": line.text, "args": {k: _arg_to_json(v) for k, v in line.args.items()}}


def line_from_json(data: Mapping[str, Any]) -> Line:
    return Line(data["text"], {k: _arg_from_json(v) for k, v in data.get("args", {}).items()})


def _arg_to_json(arg: Arg) -> Any:
    if isinstance(arg, Line):
        return {"line": line_to_json(arg)}
    if isinstance(arg, Signed):
        return {"signed": str(arg.value)}
    if isinstance(arg, Formula):
        return {"formula": [t if isinstance(t, str) else {"n": str(t)} for t in arg.tokens]}
    if isinstance(arg, Join):
        return {"join": [_arg_to_json(item) for item in arg.items], "sep": arg.separator}
    if isinstance(arg, int | Fraction):
        return {"n": str(arg)}
    return arg


def _arg_from_json(data: Any) -> Arg:
    if isinstance(data, str):
        return data
    if "line" in data:
        return line_from_json(data["line"])
    if "signed" in data:
        return Signed(Fraction(data["signed"]))
    if "formula" in data:
        return Formula(tuple(t if isinstance(t, str) else Fraction(t["n"]) for t in data["formula"]))
    if "join" in data:
        return Join(tuple(_arg_from_json(item) for item in data["join"]), data["sep"])
    return Fraction(data["n"])


def line_json_renamed(data: Mapping[str, Any], old: str, new: str) -> dict[str, Any]:
    """A stored line (``line_to_json``) with the player ``old`` called ``new``: every
    text argument that is exactly the name, at any depth. Templates, numbers and
    formulas are left alone."""
    return {
        "text": data["text"],
        "args": {k: _arg_renamed(v, old, new) for k, v in data.get("args", {}).items()},
    }


def _arg_renamed(data: Any, old: str, new: str) -> Any:
    if isinstance(data, str):
        return new if data == old else data
    if isinstance(data, Mapping) and "line" in data:
        return {"line": line_json_renamed(data["line"], old, new)}
    if isinstance(data, Mapping) and "join" in data:
        return {**data, "join": [_arg_renamed(item, old, new) for item in data["join"]]}
    return data


def deltas_line(deltas: Mapping[str, Fraction], explain: Mapping[str, Arg] | None = None) -> Line:
    """``Anna +240 (3 × 80), Bert −80, …`` for the players who score.

    ``explain`` optionally gives a formula per player, shown in brackets.
    """
    explain = explain or {}
    items: list[Arg] = []
    for name, delta in deltas.items():
        if name in explain:
            items.append(
                Line(
                    gettext_noop("{player} {delta} ({why})"),
                    {"player": name, "delta": Signed(delta), "why": explain[name]},
                )
            )
        else:
            items.append(Line(gettext_noop("{player} {delta}"), {"player": name, "delta": Signed(delta)}))
    return Line("{items}", {"items": Join(tuple(items))})


# --------------------------------------------------------------------------
# Errors


class InvalidInput(ValueError):
    """Input the rules do not allow. Names the field and what is allowed.

    ``field`` is a path within a hand (``bouts``, ``poignees[2].size``) or
    within the session file (``options.round_to``, ``players``); ``hand`` is the
    1-based hand number when the error belongs to a hand. ``label`` is how
    players call the field (``Points``, ``Poignées 2, Size``), so ``words``
    can say what is wrong without a field path.

    One pass over a hand may find several problems: ``problems`` lists them all,
    this error first; ``field``, ``line`` and ``describe`` are those of the first,
    so a reader that reports one error at a time reports the first.
    """

    def __init__(
        self,
        field: str,
        line: Line,
        hand: int | None = None,
        *,
        label: Line | None = None,
        others: Sequence[InvalidInput] = (),
    ) -> None:
        self.field = field
        self.line = line
        self.hand = hand
        self.label = label
        first = InvalidInput(field, line, hand, label=label) if others else self
        self.problems: tuple[InvalidInput, ...] = (first, *others)
        super().__init__(self.describe())

    @classmethod
    def several(cls, problems: Sequence[InvalidInput]) -> InvalidInput:
        """One error carrying every problem found (each error's own ones too), in order."""
        found = [problem for error in problems for problem in error.problems]
        first, *others = found
        return cls(first.field, first.line, first.hand, label=first.label, others=others)

    def words(self, translate: Translate = _identity, number: NumberFormat = format_number) -> str:
        """The refusal in the players' words, without a field path: ``Contract
        missing``, ``Points: 0 to 91, half points allowed``."""
        if self.label is None or "field" in self.line.args:
            return self.line.render(translate, number)
        return Line(gettext_noop("{field}: {what}"), {"field": self.label, "what": self.line}).render(
            translate, number
        )

    def describe(self, translate: Translate = _identity, number: NumberFormat = format_number) -> str:
        """The refusal with its field path (and hand), as files and commands report it."""
        what = self.words(translate, number)
        if self.hand is None:
            return f"{self.field}: {what}"
        return translate(gettext_noop("hand {hand}, {field}: {what}")).format(
            hand=number(Fraction(self.hand)), field=self.field, what=what
        )

    def _each(self, change: Callable[[InvalidInput], InvalidInput]) -> InvalidInput:
        return InvalidInput.several([change(problem) for problem in self.problems])

    def in_hand(self, hand: int, prefix: str = "") -> InvalidInput:
        return self._each(lambda p: InvalidInput(prefix + p.field, p.line, hand, label=p.label))

    def under(self, prefix: str) -> InvalidInput:
        return self._each(lambda p: InvalidInput(prefix + p.field, p.line, p.hand, label=p.label))

    def labelled(self, label_of: Callable[[str], Line | None]) -> InvalidInput:
        """Each problem that has no label yet gets the one its field path names."""
        return self._each(
            lambda p: (
                p if p.label is not None else InvalidInput(p.field, p.line, p.hand, label=label_of(p.field))
            )
        )


def invalid(field: str, text: str, **args: Arg) -> InvalidInput:
    return InvalidInput(field, Line(text, args))


def allowed_list(values: Iterable[object]) -> str:
    """Keys as a session file writes them (``silent, after_talon``): for refusals
    of a file's shape only; a refusal of the rules names choices by ``labels``."""
    return ", ".join(str(v) for v in values)


def labels(texts: Iterable[str]) -> Join:
    """Choices as players call them, each translated: ``silent, after the talon``."""
    return Join(tuple(Line(text) for text in texts))


def names(players: Iterable[str]) -> Join:
    """Players' names as they are written, never translated: ``Anna, Bert``."""
    return Join(tuple(players))


# --------------------------------------------------------------------------
# Tables and results


@dataclass(frozen=True)
class Table:
    """Who sits where for one hand: every player in playing order, the dealer,
    the one sitting out (with six at a French or Chambéry table)."""

    players: tuple[str, ...]
    dealer: str | None = None
    sitting_out: str | None = None

    @property
    def active(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p != self.sitting_out)

    def after(self, player: str, steps: int = 1) -> str:
        """The player ``steps`` places later in playing order."""
        index = self.players.index(player)
        return self.players[(index + steps) % len(self.players)]

    def active_after(self, player: str, steps: int = 1) -> str:
        active = self.active
        index = active.index(player)
        return active[(index + steps) % len(active)]


@dataclass(frozen=True)
class HandScore:
    """What one hand writes: a delta per player of the session, and why."""

    deltas: Mapping[str, Fraction]
    breakdown: tuple[Line, ...]

    def rendered(self, translate: Translate = _identity, number: NumberFormat = format_number) -> list[str]:
        return [line.render(translate, number) for line in self.breakdown]


def zero_deltas(players: Sequence[str]) -> dict[str, Fraction]:
    return {p: Fraction(0) for p in players}
