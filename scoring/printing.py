"""The printed sheet (HTML print view and PDF alike): its layout in millimetres
and monospaced columns, its footnotes of corrected and deleted hands, the
breakdowns of its appendix and its chart in black and white. The numbers all
come from the read model (``scoring.sheet``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.engine import Line, settle
from scoring.engine.types import line_from_json
from scoring.models import Hand, HandChange
from scoring.presentation import house_rules, signed
from scoring.sheet import DeletedRow, Points, Sheet, SheetRow, SheetSection, column_heads
from scoring.sheet_html import chart_of


@dataclass(frozen=True)
class Breakdown:
    number: int  # the hand's, as on the sheet
    description: Line | None
    lines: list[Line]


@dataclass(frozen=True)
class PrintedRow:
    """A hand on the printed sheet. Its numbers are one block of text in columns
    of equal width (the deltas over the running totals): a few boxes per hand
    instead of one per player and number is what lets a long evening's PDF lay
    out in about a second. A deleted hand has no numbers; it and a corrected
    hand carry the mark of their footnote."""

    row: SheetRow | DeletedRow
    figures: str
    section_figures: str  # under a series or Partie it closes: its totals, over its bonuses
    note: int | None = None


@dataclass(frozen=True)
class Footnote:
    """What the printed sheet says under the table of a corrected or deleted hand:
    each correction (when, by whom, what it was), deletion and restoration."""

    mark: int
    hand_id: int
    number: int  # the hand's
    changes: list[HandChange]
    deleted_at: datetime | None  # a deleted hand whose deletion left no history line


# Characters of the monospaced figures per player, and at most this much of a name above them.
FIGURE_WIDTH = 7
NAME_WIDTH = 10
MONO_MM = 1.6  # one character of the figures' font at its size on the sheet


SITS_OUT = "—"  # a hand's figure of the seat that sits it out (the print's key says so)


def _columns(texts: Sequence[str], width: int) -> str:
    return "".join(text.rjust(width) for text in texts)


def _figure_width(players: Sequence[str], rows: Sequence[SheetRow], totals: Sequence[Points]) -> int:
    widest = max(
        (len(signed(value)) for row in rows for value in (*row.deltas, *row.totals, *(row.money or ()))),
        default=1,
    )
    widest = max(widest, *(len(signed(value)) for value in totals))
    longest = min(max(len(name) for name in players), NAME_WIDTH)
    return max(FIGURE_WIDTH, widest + 1, longest + 1)


def _printed(
    players: Sequence[str], rows: Sequence[SheetRow | DeletedRow], width: int, notes: dict[int, int]
) -> list[PrintedRow]:
    printed = []
    for row in rows:
        if isinstance(row, DeletedRow):
            printed.append(PrintedRow(row, "", "", notes.get(row.hand_id)))
            continue
        # The seat that sits the hand out shows a dash, not a 0 it scored.
        out = [bool(row.sitting_out) and name == row.sitting_out for name in players]
        figures = _columns(
            [SITS_OUT if o else signed(v) for v, o in zip(row.deltas, out, strict=True)], width
        )
        figures += "\n" + _columns([signed(v) for v in row.totals], width)
        if row.money is not None:  # what the hand pays with its Kontras, under its Schrift
            paid = [SITS_OUT if o else signed(v) for v, o in zip(row.money, out, strict=True)]
            figures += "\n" + _columns(paid, width)
        section_figures = ""
        if row.section_end is not None:
            section = row.section_end
            section_figures = _columns([signed(section.totals[name]) for name in players], width)
            if section.bonus:
                bonus = [signed(section.bonus[name]) if name in section.bonus else "" for name in players]
                section_figures += "\n" + _columns(bonus, width)
        printed.append(PrintedRow(row, figures, section_figures, notes.get(row.hand_id)))
    return printed


# What a footnote tells of a hand's history.
NOTED_CHANGES = (HandChange.Action.EDITED, HandChange.Action.DELETED, HandChange.Action.RESTORED)


def footnotes(lines: Sequence[SheetRow | DeletedRow]) -> list[Footnote]:
    """The footnotes of these lines, in their order: one per corrected or deleted
    hand, with its corrections, deletions and restorations (one query, none
    without such a hand)."""
    noted = [line for line in lines if line.deleted or line.corrected]
    if not noted:
        return []
    changes: dict[int, list[HandChange]] = {}
    for change in (
        HandChange.objects.filter(hand_id__in=[line.hand_id for line in noted], action__in=NOTED_CHANGES)
        .select_related("user")
        .order_by("at", "id")
    ):
        changes.setdefault(change.hand_id, []).append(change)
    notes = []
    for mark, line in enumerate(noted, 1):
        kept = changes.get(line.hand_id, [])
        unrecorded = None  # the deletion of a hand whose history does not have it
        if isinstance(line, DeletedRow) and not any(c.action == HandChange.Action.DELETED for c in kept):
            unrecorded = line.deleted_at
        notes.append(Footnote(mark, line.hand_id, line.number, kept, unrecorded))
    return notes


def print_context(sheet: Sheet, *, series: int | None = None, appendix: bool = False) -> dict[str, Any]:
    """Everything the printed score sheet shows (HTML print view and PDF alike);
    ``series`` limits it to one Illustriertes series (``LookupError`` if none)."""
    session, players = sheet.session, sheet.players
    rows: Sequence[SheetRow] = sheet.rows
    sections: Sequence[SheetSection] = sheet.sections
    settlement, title, section = sheet.settlement, session.name, None
    if series is not None:
        section = sheet.section(series)
        rows = rows[section.first : section.last + 1]
        sections = [section]
        settlement = section.settlement or settle(section.totals, session.money_rate)
        title = _("%(name)s, series %(n)s") % {"name": session.name, "n": series}
    closing = sheet.closing_rows(section)
    if section is not None or not sheet.settled_each:
        chart = chart_of(players, rows, title=_("Running totals"), monochrome=True)
    else:  # the whole evening of a game settled series by series: the balance, as on the board
        chart = chart_of(players, rows, title=_("Balance after each hand"), balance=True, monochrome=True)
    width = _figure_width(players, rows, [value for row in closing for value in row.values])
    heads = column_heads(players, room=width - 1)
    lines = sheet.lines(rows)
    notes = footnotes(lines)
    marks = {note.hand_id: note.mark for note in notes}
    return {
        "session": session,
        "title": title,
        "game": sheet.game,
        "players": players,
        "rules": [
            rule for rule in house_rules(sheet.game.variant, sheet.game.options) if not rule.is_default
        ],
        "rows": rows,
        "sections": sections,
        "settlement": settlement,
        "net": [settlement.net[name] for name in players],
        "money": [settlement.money[name] for name in players] if settlement.money else None,
        # Printed in black and white: greys and dashes rather than colours.
        "chart": chart,
        "appendix": _breakdowns(rows) if appendix else [],
        "printed_rows": _printed(players, lines, width, marks),
        "notes": notes,
        "heads": _columns([heads[name] for name in players], width),
        "closing": [(row.label, _columns([signed(v) for v in row.values], width)) for row in closing],
        "figures_mm": round(len(players) * width * MONO_MM + 3),
        "series": series,
        "printed_at": timezone.localtime(),
        "wide": len(players) >= 5,
    }


def _breakdowns(rows: Sequence[SheetRow]) -> list[Breakdown]:
    stored = dict(Hand.objects.filter(pk__in=[row.hand_id for row in rows]).values_list("pk", "breakdown"))
    return [
        Breakdown(row.number, row.description, [line_from_json(line) for line in stored.get(row.hand_id, [])])
        for row in rows
    ]
