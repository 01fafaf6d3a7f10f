"""The regular table's printouts: the season table and a player's statement, as
PDF through the same pipeline as the score sheets (``scoring.pdf``)."""

from __future__ import annotations

from decimal import Decimal

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.text import slugify

from scoring.exports import Export
from scoring.models import Booking
from scoring.pdf import html_to_pdf
from scoring.services.stats import PlayerStats, SeasonTable


def _pdf(template: str, context: dict[str, object], stem: str) -> Export:
    html = render_to_string(template, {**context, "printed_at": timezone.localtime()})
    return Export(html_to_pdf(html), "application/pdf", f"{slugify(stem) or 'tarock'}.pdf")


def season_pdf(table: SeasonTable) -> Export:
    """The group table of a season on A4."""
    return _pdf("groups/print/season.html", {"table": table}, f"{table.group.name}-{table.season.name}")


def statement_pdf(stats: PlayerStats, account: list[tuple[Booking, Decimal, Decimal]]) -> Export:
    """A player's statement: the statistics, the latest evenings and the Kasse account."""
    context = {"stats": stats, "account": account}
    return _pdf("groups/print/statement.html", context, f"{stats.player.group.name}-{stats.player.name}")
