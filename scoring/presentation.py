"""Showing engine results to a reader: translated lines, numbers in the reader's format."""

from __future__ import annotations

from fractions import Fraction

from django.utils.formats import get_format
from django.utils.translation import gettext

from scoring.engine import Line
from scoring.engine.types import format_number, format_signed


def number(value: Fraction | int) -> str:
    """240, −80, 1.5 (1,5 in German and French): no trailing .0."""
    return format_number(Fraction(value), str(get_format("DECIMAL_SEPARATOR")))


def signed(value: Fraction | int) -> str:
    return format_signed(Fraction(value), number)


def render_line(line: Line) -> str:
    """A breakdown line in the reader's language; English if a translation is broken."""
    try:
        return line.render(gettext, number)
    except (KeyError, IndexError, ValueError):
        return line.render(number=number)
