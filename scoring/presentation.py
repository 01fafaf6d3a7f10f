"""Showing engine results to a reader: translated lines, numbers in the reader's format."""

from __future__ import annotations

import dataclasses
import datetime
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any

from django.utils.formats import date_format, get_format, number_format
from django.utils.translation import gettext

from scoring.engine import InvalidInput, Line, Variant
from scoring.engine.schema import Field, Kind
from scoring.engine.types import MINUS, format_number, format_signed, points_from_json
from scoring.models import SessionChange


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


def money(value: Decimal) -> str:
    """An amount of money in the reader's format: 8.60 (8,60 in German and French);
    more decimals only where the amount has them (a rate of 0.0025 per point).
    A debt carries the same minus as every other number shown (−8,60), and
    nothing is "−0,00"."""
    amount = Decimal(value)
    exponent = amount.normalize().as_tuple().exponent
    places = max(2, -exponent) if isinstance(exponent, int) else 2
    text = number_format(abs(amount) if amount.is_zero() else amount, places)
    return MINUS + text[1:] if text.startswith("-") else text


def render_line(line: Line) -> str:
    """A breakdown line in the reader's language; English if a translation is broken."""
    try:
        return line.render(gettext, number)
    except (KeyError, IndexError, ValueError):
        return line.render(number=number)


def render_words(error: InvalidInput) -> str:
    """A refusal in the reader's language and words ("Kontrakt: nicht angegeben"); English
    if a translation is broken."""
    try:
        return error.words(gettext, number)
    except (KeyError, IndexError, ValueError):
        return error.words(number=number)


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
    # A rule whose default follows another (Königrufen's Trischaken scheme follows the
    # tariff) is at its default when the other rules alone give the same value.
    follows = [f.name for f in variant.option_fields if f.nullable and f.default is None]
    if follows:
        rest = {key: value for key, value in variant.dump_options(options).items() if key not in follows}
        followed = dataclasses.asdict(variant.parse_options(rest, ()))
        defaults |= {name: followed[name] for name in follows}
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


# -- a session's own history ---------------------------------------------------------------


@dataclass(frozen=True)
class TotalChange:
    player: str
    before: Fraction
    after: Fraction


@dataclass(frozen=True)
class SessionChangeView:
    """One line of a session's history as a reader sees it: what it was, what it is."""

    action: str
    label: str
    user: str
    at: datetime.datetime
    before: str
    after: str
    rules: list[tuple[str, str, str]]  # (house rule, before, after)
    totals: list[TotalChange]  # each player's total before and after new house rules


def session_change_view(change: SessionChange, variant: Variant) -> SessionChangeView:
    """A history line of a session: dates and money the reader's way, house rules by their labels."""
    before, after = change.before, change.after
    rules: list[tuple[str, str, str]] = []
    totals: list[TotalChange] = []
    if change.action == SessionChange.Action.RULES and isinstance(before, dict) and isinstance(after, dict):
        fields = {f.name: f for f in variant.option_fields}
        for name, value in after.get("options", {}).items():
            field = fields.get(name)
            old = before.get("options", {}).get(name)
            if field is not None:
                rules.append((gettext(field.label), option_text(field, old), option_text(field, value)))
        old_totals = before.get("totals", {})
        for player, value in after.get("totals", {}).items():
            totals.append(
                TotalChange(player, points_from_json(old_totals.get(player, 0)), points_from_json(value))
            )
        before, after = "", ""
    return SessionChangeView(
        action=change.action,
        label=str(change.get_action_display()),
        user=change.user.get_username() if change.user else "—",
        at=change.at,
        before=_state_text(change.action, before),
        after=_state_text(change.action, after),
        rules=rules,
        totals=totals,
    )


def _state_text(action: str, value: Any) -> str:
    if value in (None, ""):
        return gettext("none") if action == SessionChange.Action.MONEY_RATE and value is None else ""
    if action == SessionChange.Action.DATE:
        return date_format(datetime.date.fromisoformat(str(value)), "SHORT_DATE_FORMAT")
    if action == SessionChange.Action.MONEY_RATE:
        return money(Decimal(str(value)))
    if action == SessionChange.Action.RESEATED and isinstance(value, dict):
        order = ", ".join(str(name) for name in value.get("order", []))
        dealer = value.get("first_dealer")
        return f"{order} ({dealer} {gettext('deals first')})" if dealer else order
    return str(value)
