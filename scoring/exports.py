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

from django.template.loader import render_to_string
from django.utils.text import slugify

from scoring import caching
from scoring.engine.session_file import FORMAT
from scoring.engine.types import points_to_json
from scoring.models import Hand, Session
from scoring.pdf import html_to_pdf
from scoring.presentation import render_line
from scoring.services.games import game_of
from scoring.sheet import Sheet, build_sheet, print_context

KINDS = ("json", "csv", "pdf")


@dataclass(frozen=True)
class Export:
    data: bytes
    content_type: str
    filename: str


def session_export(
    session: Session, kind: str, *, series: int | None = None, appendix: bool = False
) -> Export:
    """The session as a ``kind`` file (one of ``KINDS``); ``series`` and ``appendix``
    apply to the PDF. ``LookupError`` for a series the session does not have."""
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
    """The print view of this version of the session (``LookupError`` for a series it does not have)."""
    return caching.cached(
        caching.session_key(session, "print", series, appendix),
        lambda: print_html(print_context(build_sheet(session), series=series, appendix=appendix)),
    )


def session_pdf(sheet: Sheet, *, series: int | None = None, appendix: bool = False) -> bytes:
    """The PDF score sheet (A4, black and white), from the print view's template and context."""
    context = print_context(sheet, series=series, appendix=appendix)
    return html_to_pdf(print_html({**context, "for_pdf": True}))
