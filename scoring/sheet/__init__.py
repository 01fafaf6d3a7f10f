"""The sheet of an evening: what every page, print, PDF and CSV shows of it.

``build_sheet`` reads the evening's stored hands (one written-out statement,
``plumbing.queries.stored_rows``) and its seats, and hands them to the read
model (``scoring.sheet.model``), a pure function from those snapshots to frozen
values. Drawing the sheet as HTML and keeping it is ``scoring.sheet_html``;
its print layout is ``scoring.printing``.
"""

from __future__ import annotations

from plumbing import queries
from scoring.models import Session
from scoring.services.games import game_of
from scoring.services.hands import proposed_dealer_after
from scoring.sheet.model import (
    HEAD_LEAST,
    HEAD_ROOM,
    HEAD_ROOM_LABELLED,
    SHOWN_HANDS,
    ChartSeries,
    DeletedRow,
    HeadRow,
    Points,
    Sheet,
    SheetRow,
    SheetSection,
    chart_series_of,
    column_heads,
    last_dealer,
    read_sheet,
)

__all__ = [
    "HEAD_LEAST",
    "HEAD_ROOM",
    "HEAD_ROOM_LABELLED",
    "SHOWN_HANDS",
    "ChartSeries",
    "DeletedRow",
    "HeadRow",
    "Points",
    "Sheet",
    "SheetRow",
    "SheetSection",
    "build_sheet",
    "chart_series_of",
    "column_heads",
    "read_sheet",
]


def build_sheet(session: Session) -> Sheet:
    """The sheet from two queries whatever its length: seats, hands, nothing else."""
    game = game_of(session)
    stored = queries.stored_rows(session.pk)
    next_dealer = proposed_dealer_after(game, last_dealer(stored), first=session.first_dealer)
    return read_sheet(session, game, stored, next_dealer=next_dealer)
