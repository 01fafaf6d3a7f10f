"""The regular table's chart: a player's running total across evenings, one line
per game, drawn with the sheet's chart (``scoring.chart``) from the values the
statistics return (``stats.RunningTotals``). Drawn by the page and the printed
statement, never by the statistics."""

from __future__ import annotations

from django.utils.translation import gettext

from club.services.stats import RunningTotals
from scoring.public import running_total_svg


def running_totals_svg(running: RunningTotals | None, title: str) -> str:
    """The chart as SVG ("" for a player of no evening). Each game by its name in
    the reader's language, whole: a few lines, room for each label."""
    if running is None:
        return ""
    names = [gettext(variant.name) for variant in running.games]
    return running_total_svg(names, running.totals, title=title, whole_labels=True)
