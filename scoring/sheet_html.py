"""The sheet as HTML, and what of it is kept: the board's context, the keys a kept
sheet page is found by (``plumbing.pages``), the hands' rows drawn once per
version and place and kept (``plumbing.caching``), and the chart drawn as SVG.
The numbers all come from the read model (``scoring.sheet``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.template.loader import get_template
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from plumbing import caching
from plumbing.pages import TOKEN_MARK
from scoring.chart import running_total_svg
from scoring.hand_links import HandLinks, signed_in
from scoring.models import Session
from scoring.presentation import house_rules
from scoring.services.circles import currency_of
from scoring.sheet import SHOWN_HANDS, DeletedRow, Sheet, SheetRow, build_sheet, chart_series_of


def sheet_context(session: Session, *, show_all: bool = False) -> dict[str, Any]:
    """What the sheet's pages read. The sheet is built only when a fragment the
    templates cache per version (``{% cache %}``) is missing, so a page seen
    before costs the session's row and a few cache lookups."""
    sheet: Any = SimpleLazyObject(lambda: build_sheet(session))
    return {
        "sheet": sheet,
        "rules": SimpleLazyObject(lambda: house_rules(sheet.game.variant, sheet.game.options)),
        "shown_rows": SimpleLazyObject(lambda: sheet.rows if show_all else sheet.rows[-SHOWN_HANDS:]),
        "show_all": show_all,
        "chart": SimpleLazyObject(lambda: board_chart(sheet)),
        # The sign of the evening's money (its circle's, ``services.circles``), read if shown.
        "currency": SimpleLazyObject(lambda: currency_of(session)),
        "cache_seconds": caching.SECONDS,
    }


ROW_TEMPLATE = "scoring/_hand_row.html"
DELETED_ROW_TEMPLATE = "scoring/_deleted_row.html"


def hand_rows(
    rows: Sequence[SheetRow | DeletedRow],
    players: Sequence[str],
    session_id: int,
    share_token: str,
    *,
    restorable: bool = False,
    links: HandLinks | None = None,
) -> str:
    """The sheet's rows of these hands as HTML: each drawn once per version and
    place (``caching.row_key``), all of them read from the cache in one round trip,
    the missing ones drawn from a template of their own and stored in one more.
    A deleted hand's row offers to restore it where ``restorable``: to a reader who
    may record on an evening still open, never behind a share link. ``links``:
    where the hands' pages are (the login's, unless a link records)."""
    language = get_language() or ""
    links = links or signed_in(session_id)
    where = share_token or links.key
    keys = [
        caching.row_key(
            row.hand_id, row.version, row.index, (row.totals, row.overall, players), where, language
        )
        if isinstance(row, SheetRow)
        else caching.row_key(row.hand_id, row.version, 0, ("deleted", restorable, players), where, language)
        for row in rows
    ]
    found = caching.get_many(keys)
    drawn: dict[str, object] = {}
    template, deleted_template = get_template(ROW_TEMPLATE), get_template(DELETED_ROW_TEMPLATE)
    context = {
        "players": players,
        "colspan": len(players) + 1,
        "session_id": session_id,
        "share_token": share_token,
        "restorable": restorable and not share_token,
        # A deleted row's restore form: the row is kept for every reader of the sheet,
        # so each page puts its reader's own token in (``plumbing.pages``).
        "csrf_mark": TOKEN_MARK,
    }
    parts = []
    for key, row in zip(keys, rows, strict=True):
        html = found.get(key)
        if html is None:
            drawing = template if isinstance(row, SheetRow) else deleted_template
            urls = links.of(row.hand_id)
            html = drawn[key] = drawing.render({**context, "row": row, "hand_urls": urls})
        parts.append(str(html))
    if drawn:
        caching.set_many(drawn)
    return mark_safe("\n".join(parts))  # drawn by the template, which escapes


def board_chart(sheet: Sheet) -> str:
    """The running-total chart of the whole evening (empty before the first hand);
    where series are settled on their own, each player's balance after each hand."""
    if not sheet.rows:
        return ""
    title = _("Balance after each hand") if sheet.settled_each else _("Running totals")
    series = sheet.chart_series
    return running_total_svg(sheet.players, series.lines, series.breaks, title=title)


def chart_of(
    players: Sequence[str],
    rows: Sequence[SheetRow],
    title: str,
    *,
    balance: bool = False,
    monochrome: bool = False,
) -> str:
    """The chart of these rows as SVG (``scoring.sheet.chart_series_of``), empty
    without rows; ``monochrome`` for paper."""
    if not rows:
        return ""
    series = chart_series_of(rows, balance=balance)
    return running_total_svg(players, series.lines, series.breaks, title=title, monochrome=monochrome)
