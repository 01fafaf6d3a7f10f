"""What leaves the app as a file: the session file, the CSV sheet, the PDF sheet.

Each comes as bytes with its content type and a file name; the download view
and ``export_session`` both call ``session_export``.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.template.loader import render_to_string
from django.utils.text import slugify
from django.utils.translation import gettext

from scoring import caching
from scoring.engine.session_file import FORMAT
from scoring.engine.types import points_to_json
from scoring.models import Hand, Session
from scoring.pdf import PdfFailed, html_to_pdf
from scoring.presentation import number, render_line
from scoring.services.games import game_of
from scoring.sheet import Sheet, build_sheet, print_context

KINDS = ("json", "csv", "pdf")
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
    session: Session, kind: str, *, series: int | None = None, appendix: bool = False
) -> Export:
    """The session as a ``kind`` file (one of ``KINDS``); ``series`` and ``appendix``
    apply to the PDF. ``LookupError`` for a series the session does not have;
    ``ExportRefused`` for a PDF over its limits or one that could not be drawn."""
    stem = file_stem(session)
    if kind == "json":
        return Export(session_json(session).encode(), "application/json", f"{stem}.tarock.json")
    if kind == "csv":
        return Export(session_csv(build_sheet(session)).encode(), "text/csv; charset=utf-8", f"{stem}.csv")
    if kind == "pdf":
        pdf = caching.cached(
            caching.session_key(session, "pdf", series, appendix),
            lambda: session_pdf(build_sheet(session), series=series, appendix=appendix),
        )
        return Export(pdf, "application/pdf", f"{stem}.pdf")
    raise LookupError(f"no export kind {kind!r}")


def file_stem(session: Session) -> str:
    return f"{slugify(session.name) or 'tarock'}-{session.created_at:%Y-%m-%d}"


def session_json(session: Session) -> str:
    """The ``tarockscore/1`` file of a session, written from what each hand stored:
    export → import → export is identical."""
    game = game_of(session)
    hands = Hand.objects.filter(session=session, deleted_at__isnull=True).order_by("number")
    document = {
        "format": FORMAT,
        "variant": session.variant,
        "players": list(game.players),
        "options": game.variant.dump_options(game.options),
        "hands": [hand.as_session_hand() for hand in hands],
    }
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


# A spreadsheet runs a cell that starts with one of these as a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _text(value: str) -> str:
    """A text cell a spreadsheet shows as text, never runs as a formula."""
    return f"'{value}" if value.startswith(FORMULA_START) else value


def _number(value: Fraction | int) -> str:
    return str(points_to_json(value))


def session_csv(sheet: Sheet) -> str:
    """One row per hand: who dealt, the hand in short, each player's delta and
    running total; a last row with the totals (series bonuses included)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    kind = sheet.game.variant.section_kind
    header = ["hand", "dealer", "sitting_out", "type"] + ([kind.key] if kind else []) + ["description"]
    for name in sheet.players:
        header += [_text(f"{name} delta"), _text(f"{name} total")]
    writer.writerow(header)
    section = 1
    for row in sheet.rows:
        cells = [str(row.index), _text(row.dealer), _text(row.sitting_out), row.type.value]
        if kind:
            cells.append(str(section))
        cells.append(_text(render_line(row.description)) if row.description else "")
        for delta, total in row.cells:
            cells += [_number(delta), _number(total)]
        writer.writerow(cells)
        if row.section_end is not None:
            section += 1
    last = ["total", "", "", ""] + ([""] if kind else []) + [""]
    for total in sheet.totals:
        last += ["", _number(total)]
    writer.writerow(last)
    return out.getvalue()


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
        raise ExportRefused(
            gettext("The PDF could not be drawn just now. Please try again in a moment.")
        ) from None


def printed(sheet: Sheet, *, series: int | None = None, appendix: bool = False) -> dict[str, Any]:
    """``print_context`` within the limits of a printed sheet (``ExportRefused`` past them)."""
    section = sheet.section(series) if series is not None else None
    hands = len(sheet.rows) if section is None else section.last - section.first + 1
    if hands > PDF_MAX_HANDS:
        raise ExportRefused(
            gettext(
                "A printed sheet shows at most %(n)s hands; this one has %(count)s. "
                "Download the session file or the CSV instead."
            )
            % {"n": number(PDF_MAX_HANDS), "count": number(hands)}
        )
    if appendix and hands > APPENDIX_MAX_HANDS:
        raise ExportRefused(
            gettext(
                "The breakdown of every hand is printed for at most %(n)s hands; this sheet has %(count)s. "
                "Print it without the breakdowns."
            )
            % {"n": number(APPENDIX_MAX_HANDS), "count": number(hands)}
        )
    return print_context(sheet, series=series, appendix=appendix)
