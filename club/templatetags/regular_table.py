"""Template filters of the regular table's pages: statistics labels, averages,
and the chart of a player's running totals (drawn here, not by the statistics)."""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils.formats import number_format
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from club.chart import running_totals_svg
from club.services.stats import RunningTotals
from scoring.engine import Variant
from scoring.engine.types import MINUS

register = template.Library()


@register.filter
def stat_label(key: str, variant: Variant) -> str:
    """A statistics key ("kind.garde", "mark.pagat") in the reader's language."""
    return gettext(variant.stat_labels.get(key, key.split(".", 1)[-1]))


@register.filter
def average(value: Decimal | None) -> str:
    """An average to a tenth in the reader's format (12,3 in German); a dash for none."""
    return "–" if value is None else number_format(value, 1).replace("-", MINUS)


@register.filter
def rate(value: int | None) -> str:
    return "–" if value is None else f"{value} %"


@register.simple_tag
def running_chart(running: RunningTotals | None, title: str) -> SafeString:
    """A player's running totals across evenings as a chart ("" without evenings)."""
    return SafeString(running_totals_svg(running, title))  # drawn by our own code, labels escaped there
