"""The regular table's files: the season table and a player's statement, as PDF
through the same pipeline as the score sheets (``plumbing.pdf``), and the Kasse's
bookings as CSV, written as the sheet's CSV is (``scoring.exports``)."""

from __future__ import annotations

from decimal import Decimal

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from club.models import Booking, BookingLine, Group
from club.services.stats import PlayerStats, SeasonTable
from plumbing.pdf import html_to_pdf
from scoring.public import Export, csv_bytes, csv_dialect, csv_text


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


def kasse_csv(group: Group, *, csv_format: str | None = None) -> Export:
    """Every booking of the group's Kasse, oldest first, one row per line: the
    booking's number, date, kind, evening, note, the player (or the box) and the
    amount, a plain number in the format's decimals. A booking's amounts sum to zero."""
    separator, decimal = csv_dialect(csv_format)
    lines = (
        BookingLine.objects.filter(group=group)
        .select_related("booking", "booking__session", "player")
        .order_by("booking__created_at", "booking_id", "id")
    )
    rows = [
        [
            _("Booking"),
            _("Date"),
            _("Kind"),
            _("Evening"),
            _("Note"),
            _("Player"),
            csv_text(_("Amount (%(currency)s)") % {"currency": group.currency}),
        ]
    ]
    for line in lines:
        booking = line.booking
        rows.append(
            [
                str(booking.pk),
                timezone.localtime(booking.created_at).date().isoformat(),
                str(booking.get_kind_display()),
                csv_text(booking.session.name) if booking.session is not None else "",
                csv_text(booking.note),
                csv_text(line.player.name) if line.player is not None else _("the box"),
                format(line.amount, "f").replace(".", decimal),
            ]
        )
    stem = slugify(f"{group.name}-{_('Kasse')}") or "kasse"
    return Export(csv_bytes(rows, separator=separator), "text/csv; charset=utf-8", f"{stem}.csv")
