"""What the other apps may use of the evenings' web layer, deliberately and only
from here: the pages of a hand for any ``Place`` (a tournament table's link), the
sheet's context, how a number, an amount and an engine ``Line`` are written, the
forms built from the engine's field schema, the files leaving the app and the
evening's chart. Everything else of ``scoring`` that another app touches is its
services (``scoring.services``), its games (``scoring.games``), the engine and,
to read, its models; ``tests/project/test_structure.py`` keeps it so.

Each name is defined where the evenings keep it (the views call the same code);
this module is the list of what is promised to the other apps, so a change of
the evenings' pages that breaks another app shows here first."""

from __future__ import annotations

from scoring.chart import COLOURS as CHART_COLOURS
from scoring.chart import HEIGHT as CHART_HEIGHT
from scoring.chart import MARKER_SHAPES as CHART_MARKER_SHAPES
from scoring.chart import WIDTH as CHART_WIDTH
from scoring.chart import running_total_svg
from scoring.exports import Export, ExportRefused, csv_bytes, csv_dialect, csv_text, session_json
from scoring.forms import SessionForm
from scoring.hand_links import HandLinks
from scoring.hand_pages import (
    Gone,
    Place,
    delete_hand,
    edit_hand,
    from_outbox,
    new_hand,
    preview_hand,
    refused,
    restore_hand,
    show_hand,
    tells_the_outbox,
)
from scoring.presentation import money, number, render_line, signed
from scoring.schema_forms import DecimalTextField, SchemaForm
from scoring.sheet_html import sheet_context

__all__ = [
    "CHART_COLOURS",
    "CHART_HEIGHT",
    "CHART_MARKER_SHAPES",
    "CHART_WIDTH",
    "DecimalTextField",
    "Export",
    "ExportRefused",
    "Gone",
    "HandLinks",
    "Place",
    "SchemaForm",
    "SessionForm",
    "csv_bytes",
    "csv_dialect",
    "csv_text",
    "delete_hand",
    "edit_hand",
    "from_outbox",
    "money",
    "new_hand",
    "number",
    "preview_hand",
    "refused",
    "render_line",
    "restore_hand",
    "running_total_svg",
    "session_json",
    "sheet_context",
    "show_hand",
    "signed",
    "tells_the_outbox",
]
