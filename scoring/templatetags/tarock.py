from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django import template
from django.contrib.messages.storage.base import Message
from django.contrib.staticfiles import finders
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from scoring import presentation, sheet_html
from scoring.engine import Line
from scoring.schema_forms import SIGNED_PATTERN

register = template.Library()


@register.filter
def points(value: Fraction | int) -> str:
    return presentation.number(value)


@register.filter
def plural_count(value: Fraction | Decimal | int | str) -> int:
    """The count a plural form is chosen by: a whole number as it is; a part of a
    point (1,5) or points and Blatt (1/1) as many ("1 Punkt", "1,5 Punkte")."""
    if isinstance(value, str):
        return int(value) if value.isdecimal() else 2
    number = Fraction(value)
    return abs(int(number)) if number.denominator == 1 else 2


@register.simple_tag
def signed_pattern() -> str:
    """What a signed number field takes (its ``pattern``), as the hand form's fields say it."""
    return SIGNED_PATTERN


@register.filter
def money(value: Decimal | None, currency: str = "") -> str:
    """An amount of money in the reader's format (``presentation.money``), followed
    by the currency's sign when one is given (``12,50 €``); nothing for None."""
    if value is None:
        return ""
    return presentation.money(value) + (f"\u00a0{currency}" if currency else "")


@register.filter
def signed(value: Fraction | int) -> str:
    return presentation.signed(value)


@register.filter
def line(value: Line | None) -> str:
    return presentation.render_line(value) if value is not None else ""


@register.filter
def deltas(values: Mapping[str, Fraction | int]) -> str:
    """Each player's points in a row: "Anna +80, Bert −80"."""
    return ", ".join(f"{name} {presentation.signed(value)}" for name, value in values.items())


@register.filter
def sign_class(value: Fraction | int) -> str:
    """A CSS class for a number's sign, so gains and losses read at a glance."""
    return "pos" if value > 0 else "neg" if value < 0 else "zero"


@register.filter
def at(sequence: Any, index: int) -> Any:
    return sequence[index]


@register.filter
def tagged(messages: Iterable[Message], tag: str) -> list[Message]:
    """The messages carrying this tag (``extra_tags``): what a notice on the page says itself."""
    return [message for message in messages if tag in message.extra_tags.split()]


@register.filter
def untagged(messages: Iterable[Message], tag: str) -> list[Message]:
    """The other messages, shown above the page."""
    return [message for message in messages if tag not in message.extra_tags.split()]


@register.simple_tag
def static_inline(path: str) -> SafeString:
    """A static file's text, for the PDF: WeasyPrint is given nothing to fetch."""
    found = finders.find(path)
    if not isinstance(found, str):
        raise template.TemplateSyntaxError(f"no static file {path}")
    with open(found, encoding="utf-8") as handle:
        return mark_safe(handle.read())  # our own stylesheet, no user input


@register.simple_tag(takes_context=True)
def once(context: template.Context, token: str = "") -> SafeString:
    """A form's one-time token (``token``, kept where the form comes back with a
    refusal; a new one otherwise, put in by ``pages.render_kept`` on a kept page):
    the form sent twice is done once."""
    value = token or context.get("one_time_token") or uuid.uuid4().hex
    return format_html('<input type="hidden" name="token" value="{}">', value)


@register.simple_tag
def colon() -> str:
    """A colon after a label, as the reader's language sets it: French puts a
    no-break space before it ("Total : 12")."""
    return "\u00a0:" if (get_language() or "").startswith("fr") else ":"


@register.simple_tag(takes_context=True)
def hand_rows(context: template.Context, rows: Any, share_token: str | None = None) -> str:
    """The sheet's rows of these hands, the deleted hands among them in their
    places (``scoring.sheet_html.hand_rows``), with a restore button for a reader who
    may record on an evening still open."""
    shown, session, right = context["sheet"], context["session"], context.get("right")
    restorable = bool(right is not None and right.records and not session.is_closed)
    return sheet_html.hand_rows(
        shown.lines(rows),
        shown.players,
        session.pk,
        share_token or "",
        restorable=restorable,
        links=context.get("links"),
    )
