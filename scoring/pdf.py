"""The printable score sheet: one context, drawn as HTML (print view) or as PDF.

The PDF comes from ``session_pdf``, which renders the very template and context
of the HTML print view, with its CSS inlined; WeasyPrint is given a URL fetcher
that refuses everything but ``data:`` URLs, so nothing a player typed can make
it fetch a file.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import services
from scoring.chart import running_total_svg
from scoring.engine import Settlement
from scoring.engine.settlement import settle
from scoring.models import Session
from scoring.presentation import house_rules, render_line


@dataclass(frozen=True)
class PrintRow:
    index: int
    dealer: str
    sitting_out: str
    what: str
    note: str
    redeal: bool
    cells: list[tuple[Fraction, Fraction]]  # (delta, running total) per player
    section_end: services.SectionView | None


@dataclass(frozen=True)
class Breakdown:
    index: int
    what: str
    lines: list[str]


def print_context(session: Session, *, series: int | None = None, appendix: bool = False) -> dict[str, Any]:
    """Everything the score sheet shows; ``series`` limits it to one Illustriertes series."""
    sheet = services.session_sheet(session)
    rows = list(sheet.rows)
    views = list(sheet.section_views)
    settlement: Settlement = sheet.settlement
    totals = dict(sheet.summary.totals)
    title = session.name
    if series is not None:
        view = next((v for v in views if v.number == series and v.settlement is not None), None)
        if view is None:
            raise LookupError(f"no series {series}")
        rows = [r for r in rows if view.section.first <= r.index - 1 <= view.section.last]
        views = [view]
        settlement = view.settlement or settle(dict(view.totals), session.money_rate)
        totals = dict(view.totals)
        title = _("%(name)s, series %(n)s") % {"name": session.name, "n": series}

    print_rows = [
        PrintRow(
            index=row.index,
            dealer=row.hand.dealer,
            sitting_out=row.hand.sitting_out,
            what=render_line(line) if (line := row.hand.description_line()) else "",
            note=row.hand.note,
            redeal=row.hand.type == "redeal",
            cells=list(zip(row.deltas, row.totals, strict=True)),
            section_end=row.section_end,
        )
        for row in rows
    ]
    chart = _chart(sheet, rows)
    return {
        "session": session,
        "title": title,
        "game": sheet.game,
        "players": sheet.players,
        "rules": [
            rule for rule in house_rules(sheet.game.variant, sheet.game.options) if not rule.is_default
        ],
        "rows": print_rows,
        "sections": views,
        "totals": [totals[name] for name in sheet.players],
        "settlement": settlement,
        "net": [settlement.net[name] for name in sheet.players],
        "money": [settlement.money[name] for name in sheet.players] if settlement.money else None,
        "chart": chart,
        "appendix": [
            Breakdown(
                row.index,
                render_line(d) if (d := row.hand.description_line()) else "",
                [render_line(line) for line in row.hand.breakdown_lines()],
            )
            for row in rows
        ]
        if appendix
        else [],
        "series": series,
        "printed_at": timezone.localtime(),
        "wide": len(sheet.players) >= 5,
    }


def _overall_totals(sheet: services.Sheet, rows: list[services.Row]) -> list[list[Fraction]]:
    """Each player's total after each hand over the whole evening, bonuses at series ends
    (the sheet's own running totals restart with each series)."""
    running = dict.fromkeys(sheet.players, Fraction(0))
    out: list[list[Fraction]] = []
    for row in rows:
        for name, delta in zip(sheet.players, row.deltas, strict=True):
            running[name] += delta
        if row.section_end is not None:
            for name, bonus in row.section_end.bonus.items():
                running[name] += bonus
        out.append([running[name] for name in sheet.players])
    return out


def sheet_chart(sheet: services.Sheet) -> str:
    """The running-total chart of a whole session (empty before the first hand)."""
    return _chart(sheet, list(sheet.rows))


def _chart(sheet: services.Sheet, rows: list[services.Row]) -> str:
    if not rows:
        return ""
    first = rows[0].index
    breaks = [row.index - first + 1 for row in rows if row.section_end is not None]
    return running_total_svg(sheet.players, _overall_totals(sheet, rows), breaks, title=_("Running totals"))


def session_print_html(context: dict[str, Any]) -> str:
    return render_to_string("scoring/print/sheet.html", context)


def url_fetcher() -> Any:
    """WeasyPrint's own fetcher, allowed only ``data:`` URLs: they carry their content
    and fetch nothing. Any other URL (``file:``, ``http:``, ...) is refused, so nothing
    a player typed can make the PDF read a file or reach the network; WeasyPrint
    leaves a refused image or stylesheet out and draws the rest."""
    from weasyprint.urls import URLFetcher

    return URLFetcher(allowed_protocols={"data"}, allow_redirects=False)


@contextmanager
def _without_cycle_collection() -> Iterator[None]:
    """Layout allocates hundreds of thousands of short-lived objects; letting the
    cycle collector run over them repeatedly costs a third of the render time.
    Reference counting still frees them; cycles wait for the next collection."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def session_pdf(session: Session, *, series: int | None = None, appendix: bool = False) -> bytes:
    """The PDF score sheet of a session (A4, black and white)."""
    from weasyprint import HTML  # imported here: loading it takes half a second

    html = session_print_html({**print_context(session, series=series, appendix=appendix), "for_pdf": True})
    with _without_cycle_collection():
        return bytes(HTML(string=html, url_fetcher=url_fetcher()).write_pdf())
