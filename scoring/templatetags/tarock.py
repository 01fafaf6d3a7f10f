from __future__ import annotations

from fractions import Fraction
from typing import Any

from django import template

from scoring import presentation
from scoring.engine import Line

register = template.Library()


@register.filter
def points(value: Fraction | int) -> str:
    return presentation.number(value)


@register.filter
def signed(value: Fraction | int) -> str:
    return presentation.signed(value)


@register.filter
def line(value: Line | None) -> str:
    return presentation.render_line(value) if value is not None else ""


@register.filter
def sign_class(value: Fraction | int) -> str:
    """A CSS class for a number's sign, so gains and losses read at a glance."""
    return "pos" if value > 0 else "neg" if value < 0 else "zero"


@register.filter
def at(sequence: Any, index: int) -> Any:
    return sequence[index]
