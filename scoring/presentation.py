"""Showing engine results to a reader: translated lines, numbers in the reader's format."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from django.utils.formats import get_format
from django.utils.translation import gettext

from scoring.engine import Line, Variant
from scoring.engine.schema import Field, Kind
from scoring.engine.types import format_number, format_signed


def number(value: Fraction | int) -> str:
    """240, −80, 1.5 (1,5 in German and French): no trailing .0."""
    return _number(value, str(get_format("DECIMAL_SEPARATOR")))


def signed(value: Fraction | int) -> str:
    return _signed(value, str(get_format("DECIMAL_SEPARATOR")))


# A sheet shows the same few hundred numbers over and over: each is formatted once.
@lru_cache(maxsize=8192)
def _number(value: Fraction | int, separator: str) -> str:
    return format_number(Fraction(value), separator)


@lru_cache(maxsize=8192)
def _signed(value: Fraction | int, separator: str) -> str:
    return format_signed(Fraction(value), lambda exact: _number(exact, separator))


def render_line(line: Line) -> str:
    """A breakdown line in the reader's language; English if a translation is broken."""
    try:
        return line.render(gettext, number)
    except (KeyError, IndexError, ValueError):
        return line.render(number=number)


def option_text(field: Field, value: Any) -> str:
    """A house rule's value as a player reads it."""
    if field.kind is Kind.BOOL:
        return gettext("yes") if value else gettext("no")
    if field.kind is Kind.RECORD and isinstance(value, dict):
        return ", ".join(
            f"{gettext(sub.label)} {option_text(sub, value.get(sub.name))}" for sub in field.fields
        )
    if field.choice_labels and value in field.choice_labels:
        return gettext(field.choice_labels[value])
    return str(value)


@dataclass(frozen=True)
class Rule:
    label: str
    value: str
    is_default: bool
    help: str


def house_rules(variant: Variant, options: Any) -> list[Rule]:
    """Every house rule of a session, marking those that differ from the default."""
    values = dataclasses.asdict(options)
    defaults = dataclasses.asdict(variant.options_type())
    return [
        Rule(
            label=gettext(f.label),
            value=option_text(f, values[f.name]),
            is_default=values[f.name] == defaults.get(f.name),
            help=gettext(f.help) if f.help else "",
        )
        for f in variant.option_fields
        if f.name in values
    ]
