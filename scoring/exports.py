"""What leaves the app as a file: the session file, the CSV sheet, the PDF sheet.

Each comes as bytes with its content type and a file name that says what it is
(``2026-11-22-dienstagsrunde-serie-3.pdf``, in the language asked in); the
download view and ``export_session`` both call ``session_export``.

The CSV is written for the spreadsheet that opens it: UTF-8 with a byte order
mark, headers in the reader's language, and either ``;`` between cells with a
decimal comma (``semicolon``: German and French spreadsheets) or ``,`` with a
decimal point (``comma``: English ones). It follows the language unless a
format is asked for.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.template.loader import render_to_string
from django.utils.formats import get_format
from django.utils.text import slugify
from django.utils.translation import gettext as _

from plumbing import caching
from plumbing.pdf import PdfFailed, html_to_pdf
from scoring.engine import Table
from scoring.engine.session_file import dumps_document, hand_document, session_document
from scoring.engine.types import points_to_json
from scoring.models import Hand, Session
from scoring.presentation import number, render_line
from scoring.printing import print_context
from scoring.services.games import Game, game_of
from scoring.sheet import Sheet, build_sheet

KINDS = ("json", "csv", "pdf")
# How a CSV separates cells and writes decimals: {format: (cell separator, decimal separator)}.
CSV_FORMATS = {"semicolon": (";", ","), "comma": (",", ".")}
# What one PDF or print view shows at most (a long evening is under 150 hands):
# drawing a sheet takes time and memory in proportion to its hands.
PDF_MAX_HANDS = 500
APPENDIX_MAX_HANDS = 300


class ExportRefused(Exception):
    """A file or page that is not made, with the reason for the reader (translated)."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


@dataclass(frozen=True)
class Export:
    data: bytes
    content_type: str
    filename: str


def session_export(
    session: Session,
    kind: str,
    *,
    series: int | None = None,
    appendix: bool = False,
    csv_format: str | None = None,
) -> Export:
    """The session as a ``kind`` file (one of ``KINDS``); ``series`` and ``appendix``
    apply to the PDF, ``csv_format`` (one of ``CSV_FORMATS``, else the language's)
    to the CSV. ``LookupError`` for a series the session does not have;
    ``ExportRefused`` for a PDF over its limits or one that could not be drawn."""
    stem = file_stem(session)
    if kind == "json":
        return Export(session_json(session).encode(), "application/json", f"{stem}.tarock.json")
    if kind == "csv":
        data = session_csv(build_sheet(session), csv_format=csv_format)
        return Export(data, "text/csv; charset=utf-8", f"{stem}.csv")
    if kind == "pdf":
        pdf = caching.cached(
            caching.session_key(session, "pdf", series, appendix),
            lambda: session_pdf(build_sheet(session), series=series, appendix=appendix),
        )
        return Export(pdf, "application/pdf", pdf_filename(session, series=series, appendix=appendix))
    raise LookupError(f"no export kind {kind!r}")


def file_stem(session: Session) -> str:
    """The day it was played, then its name, letters intact: ``2026-11-22-tarot-zu-fünft``."""
    return f"{session.played_on:%Y-%m-%d}-{slugify(session.name, allow_unicode=True) or 'tarock'}"


def pdf_filename(session: Session, *, series: int | None = None, appendix: bool = False) -> str:
    """``…-serie-3.pdf`` for one series, ``…-mit-rechnungen.pdf`` with every breakdown."""
    parts = [file_stem(session)]
    if series is not None:
        parts += [slugify(_("series"), allow_unicode=True), str(series)]
    if appendix:
        parts.append(slugify(_("with breakdowns"), allow_unicode=True))
    return "-".join(parts) + ".pdf"


def session_json(session: Session, hands: Iterable[Hand] | None = None) -> str:
    """The ``tarockscore/1`` file of a session, written from what each hand stored,
    with the session's name, day and money rate: export → import → export is identical.
    ``hands``: its live hands in order, when they were loaded already."""
    game = game_of(session)
    if hands is None:
        hands = Hand.objects.filter(session=session, deleted_at__isnull=True).order_by("number")
    return dumps_document(
        session_document(
            variant=game.variant,
            players=game.players,
            options=game.variant.dump_options(game.options),
            hands=[_as_written(game, hand) for hand in hands],
            name=session.name,
            date=session.played_on,
            money_rate=session.money_rate,
        )
    )


def _as_written(game: Game, hand: Hand) -> dict[str, Any]:
    """A stored hand as the session file writes it, its inputs in field order
    (PostgreSQL keeps JSON keys in an order of its own)."""
    hand_type = game.variant.hand_type(hand.type)
    table = Table(game.players, hand.dealer or None, hand.sitting_out or None)
    inputs = game.variant.stored_in_order(hand_type, table, game.options, hand.inputs)
    return hand_document(hand.type, hand.dealer, hand.sitting_out, inputs, hand.note)


# A spreadsheet runs a cell that starts with one of these as a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _text(value: str) -> str:
    """A text cell a spreadsheet shows as text, never runs as a formula."""
    return f"'{value}" if value.startswith(FORMULA_START) else value


def csv_format_for_language() -> str:
    """The CSV format a spreadsheet in the reader's language expects."""
    return "semicolon" if get_format("DECIMAL_SEPARATOR") == "," else "comma"


def csv_dialect(csv_format: str | None = None) -> tuple[str, str]:
    """The cell separator and decimal separator of a CSV format (``CSV_FORMATS``),
    the reader's language's when none or an unknown one is asked for."""
    return CSV_FORMATS.get(csv_format or "", CSV_FORMATS[csv_format_for_language()])


def csv_text(value: str) -> str:
    """A text cell for any of the app's CSV files (never run as a formula)."""
    return _text(value)


def csv_bytes(rows: Iterable[Sequence[str]], *, separator: str) -> bytes:
    """The rows as a spreadsheet reads them: UTF-8 with a byte order mark, CRLF line ends."""
    out = io.StringIO()
    csv.writer(out, delimiter=separator, lineterminator="\r\n").writerows(rows)
    return out.getvalue().encode("utf-8-sig")


def session_csv(sheet: Sheet, *, csv_format: str | None = None) -> bytes:
    """One row per hand that counts, under its number on the sheet (a deleted
    hand leaves its number out, as a gap; the PDF shows it struck through): who
    dealt, the hand in short, each player's delta and running total; a last row
    with the totals (series bonuses included). UTF-8 with a byte order mark, so a
    spreadsheet reads the names' letters right.

    Numbers are plain numbers (``-80``, ``1,5`` with a decimal comma), never
    prefixed: a spreadsheet reads them as numbers. Text cells that a
    spreadsheet would run as a formula are prefixed with ``'``."""
    separator, decimal = csv_dialect(csv_format)

    def plain(value: Fraction | int) -> str:
        return str(points_to_json(value)).replace(".", decimal)

    rows: list[list[str]] = []
    kind = sheet.game.variant.section_kind
    header = [_("Hand"), _("Dealer"), _("Sits out"), _("Kind of hand")]
    header += ([_(kind.label)] if kind else []) + [_("What was played")]
    # Where hands pay money beside their Schrift (Königrufen's Kontras in cash): each
    # player's money too, after the Schrift's columns, and its total on the last line.
    paid = sheet.money_totals is not None
    for name in sheet.players:
        header += [
            _text(_("%(name)s: points") % {"name": name}),
            _text(_("%(name)s: total") % {"name": name}),
        ]
    if paid:
        header += [_text(_("%(name)s: money") % {"name": name}) for name in sheet.players]
    rows.append(header)
    section = 1
    for row in sheet.rows:
        cells = [str(row.number), _text(row.dealer), _text(row.sitting_out), _(row.type.label)]
        if kind:
            cells.append(str(section))
        cells.append(_text(render_line(row.description)) if row.description else "")
        # The hand that ends a series (whose totals start again after it) shows
        # the series' totals, its bonus included.
        ends = row.section_end if kind is not None and kind.restarts_totals else None
        totals = [ends.totals[name] for name in sheet.players] if ends is not None else row.totals
        for delta, total in zip(row.deltas, totals, strict=True):
            cells += [plain(delta), plain(total)]
        if paid:
            cells += [plain(value) for value in (row.money or row.deltas)]
        rows.append(cells)
        if row.section_end is not None:
            section += 1
    for closing in sheet.closing_rows():
        last = [render_line(closing.label), "", "", ""] + ([""] if kind else []) + [""]
        for value in closing.values:
            last += ["", plain(value)]
        if paid:
            last += [""] * len(sheet.players)
        rows.append(last)
    return csv_bytes(rows, separator=separator)


def print_html(context: dict[str, object]) -> str:
    """The printable score sheet as HTML (the print view; the PDF draws the same)."""
    return render_to_string("scoring/print/sheet.html", context)


def print_page(session: Session, *, series: int | None = None, appendix: bool = False) -> str:
    """The print view of this version of the session (``LookupError`` for a series
    it does not have, ``ExportRefused`` past the limits of a printed sheet)."""
    return caching.cached(
        caching.session_key(session, "print", series, appendix),
        lambda: print_html(printed(build_sheet(session), series=series, appendix=appendix)),
    )


def session_pdf(sheet: Sheet, *, series: int | None = None, appendix: bool = False) -> bytes:
    """The PDF score sheet (A4, black and white), from the print view's template and context."""
    context = printed(sheet, series=series, appendix=appendix)
    try:
        return html_to_pdf(print_html({**context, "for_pdf": True}))
    except PdfFailed:
        raise ExportRefused(_("The PDF could not be drawn just now. Please try again in a moment.")) from None


def printed(sheet: Sheet, *, series: int | None = None, appendix: bool = False) -> dict[str, Any]:
    """``print_context`` within the limits of a printed sheet (``ExportRefused`` past them)."""
    section = sheet.section(series) if series is not None else None
    hands = len(sheet.rows) if section is None else section.last - section.first + 1
    if hands > PDF_MAX_HANDS:
        raise ExportRefused(
            _(
                "A printed sheet shows at most %(n)s hands; this one has %(count)s. "
                "Download the session file or the CSV instead."
            )
            % {"n": number(PDF_MAX_HANDS), "count": number(hands)}
        )
    if appendix and hands > APPENDIX_MAX_HANDS:
        raise ExportRefused(
            _(
                "The breakdown of every hand is printed for at most %(n)s hands; this sheet has %(count)s. "
                "Print it without the breakdowns."
            )
            % {"n": number(APPENDIX_MAX_HANDS), "count": number(hands)}
        )
    return print_context(sheet, series=series, appendix=appendix)
