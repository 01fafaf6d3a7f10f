"""The sheet of a session: what every page, print, PDF and CSV shows of it.

Built from what was stored when each hand was scored (dealer, kind of hand,
deltas, description, note, the few facts the game's sections need), never by
reading or checking the hands' inputs again: an old evening shows exactly what
was recorded, whatever today's rules would say of it (re-scoring is the
explicit ``session_rescore``). The running totals, the sections (series,
Parties) and the chart's lines come from one pass over the hands.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from functools import cached_property, lru_cache
from operator import add
from typing import Any

from django.db import connections
from django.template.loader import get_template
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from plumbing import caching
from plumbing.pages import TOKEN_MARK
from scoring.chart import running_total_svg
from scoring.engine import (
    VARIANTS,
    HandType,
    Line,
    Section,
    SectionKind,
    Settlement,
    StoredHand,
    Summary,
    settle,
)
from scoring.engine.types import gettext_noop, line_from_json, points_from_json
from scoring.models import Hand, HandChange, Session
from scoring.presentation import house_rules, signed
from scoring.services.games import Game, game_of
from scoring.services.hands import proposed_dealer_after

# A number on the sheet: whole points stay ``int`` (summing a long evening in
# ``Fraction`` costs more than all the rest of the sheet), half points ``Fraction``.
Points = Fraction | int

# The hands a sheet page shows at first: the latest, the rest one tap away.
SHOWN_HANDS = 30

# What the sheet reads of a hand: never the inputs, the breakdown only for the appendix.
ROW_FIELDS = (
    "id",
    "number",
    "version",
    "type",
    "dealer",
    "sitting_out",
    "note",
    "deltas",
    "description",
    "facts",
    "deleted_at",
)


@dataclass(frozen=True)
class SheetSection:
    """A series or Partie as the sheet shows it."""

    number: int  # 1-based
    kind: SectionKind
    first: int  # 0-based index of its first hand on the sheet
    last: int
    totals: dict[str, Fraction]  # bonus included
    bonus: dict[str, Fraction]  # only the players who got one
    complete: bool
    notation: dict[str, Line] | None  # the paper block's notation, where the game has one
    settlement: Settlement | None  # what this section alone settles, where the game does that

    @property
    def title(self) -> Line:
        return Line(self.kind.title, {"n": self.number})

    @property
    def end_title(self) -> Line:
        return Line(self.kind.end, {"n": self.number})


@dataclass(frozen=True)
class SheetRow:
    hand_id: int
    index: int  # 1-based position among the hands that count (the chart's x)
    number: int  # the hand's number as recorded, never reused: what the sheet shows
    version: int
    type: HandType
    dealer: str
    sitting_out: str
    stored_description: str  # the hand in short as stored: a Line as JSON text
    note: str
    deltas: tuple[Points, ...]  # in seat order
    totals: tuple[Points, ...]  # running totals (per series where the game restarts them)
    overall: tuple[Points, ...]  # running totals of the whole evening, bonuses included
    section_end: SheetSection | None  # the series or Partie this hand closes
    # What the settlement would pay after this hand: the running totals where
    # they settle as they stand, else what the game's sections settle so far.
    balance: tuple[Points, ...] = ()
    corrected: bool = False  # corrected after it was recorded (its history has an edit)

    deleted = False

    @property
    def description(self) -> Line | None:
        """Read only for the rows a page shows, not for every hand summed."""
        data = json.loads(self.stored_description) if self.stored_description else None
        return line_from_json(data) if data else None

    @property
    def redeal(self) -> bool:
        return self.type is HandType.REDEAL

    @property
    def cells(self) -> list[tuple[Points, Points]]:
        return list(zip(self.deltas, self.totals, strict=True))


@dataclass(frozen=True)
class DeletedRow:
    """A deleted hand, kept on the sheet in its place, struck through: its number,
    what it was; it counts in no total."""

    hand_id: int
    number: int
    version: int
    stored_description: str
    deleted_at: datetime
    corrected: bool = False

    deleted = True
    redeal = False
    section_end = None

    @property
    def description(self) -> Line | None:
        data = json.loads(self.stored_description) if self.stored_description else None
        return line_from_json(data) if data else None


@dataclass(frozen=True)
class HeadRow:
    """A row of numbers the board keeps in sight above the hands."""

    key: str  # "totals", or "series" and "balance" where each series is settled on its own
    label: Line
    values: tuple[Points, ...]  # in seat order
    help: Line | None = None  # what the numbers mean, where that is not plain


@dataclass(frozen=True)
class Sheet:
    session: Session
    game: Game
    rows: tuple[SheetRow, ...]
    summary: Summary
    next_dealer: str
    sections: tuple[SheetSection, ...]
    # The deleted hands in number order: shown in their place, counted nowhere.
    deleted: tuple[DeletedRow, ...] = ()

    def lines(self, rows: Sequence[SheetRow]) -> list[SheetRow | DeletedRow]:
        """These rows (consecutive hands that count: the latest, a series, all) as
        the sheet shows them, with the deleted hands in their places among them:
        those after the hand before the first of them, up to the last of them
        (to the end when the last is the evening's last)."""
        if not self.deleted:
            return list(rows)
        if not rows:
            return list(self.deleted) if not self.rows else []
        before = rows[0].index - 1  # the hands that count before the first of them
        low = self.rows[before - 1].number if before > 0 else 0
        high = rows[-1].number if rows[-1].index < len(self.rows) else None
        shown = [d for d in self.deleted if d.number > low and (high is None or d.number < high)]
        merged: list[SheetRow | DeletedRow] = [*rows, *shown]
        merged.sort(key=lambda line: line.number)
        return merged

    @cached_property
    def settlement(self) -> Settlement:
        """Who pays whom: drawn by the settlement, the shared board and the print,
        not by the board a phone loads after each save."""
        return settle(self.summary.net, self.session.money_rate, self.summary.parts)

    @property
    def players(self) -> tuple[str, ...]:
        return self.game.players

    @property
    def totals(self) -> list[Fraction]:
        """Each player's total in seat order (series bonuses included)."""
        return [self.summary.totals[name] for name in self.players]

    @cached_property
    def heads(self) -> list[tuple[str, str]]:
        """Each player's full name and column head, in seat order."""
        heads = column_heads(self.players)
        return [(name, heads[name]) for name in self.players]

    @property
    def legend(self) -> list[tuple[str, str]]:
        """The names spelt out under their shortened heads, each once; none when
        every head is the whole name."""
        return [(name, head) for name, head in self.heads if name != head]

    @cached_property
    def head_rows(self) -> list[HeadRow]:
        """The numbers kept in sight: the totals; where each series is settled on
        its own, the current series instead and each player's balance, which is
        what the settlement pays (a sum of series totals would not be)."""
        kind = self.game.variant.section_kind
        if kind is None or not kind.settled_each:
            return [HeadRow("totals", Line(gettext_noop("Total")), tuple(self.totals))]
        current = self.sections[-1] if self.sections else None
        if current is not None and not current.complete:
            number, running = current.number, tuple(current.totals[name] for name in self.players)
        else:
            number, running = len(self.sections) + 1, tuple(Fraction(0) for _ in self.players)
        return [
            HeadRow("series", Line(kind.title, {"n": number}), running),
            HeadRow(
                "balance",
                Line(gettext_noop("Balance")),
                tuple(self.summary.net[name] for name in self.players),
                Line(kind.settlement_help) if kind.settlement_help else None,
            ),
        ]

    def closing_rows(self, section: SheetSection | None = None) -> list[HeadRow]:
        """The numbers a printed sheet or a CSV ends with, never contradicting the
        settlement printed beside them: the totals; where each series is settled on
        its own, each player's balance (what the settlement pays) — and for one
        series, its totals (bonus included) and what that series alone settles."""
        kind = self.game.variant.section_kind
        if kind is None or not kind.settled_each:
            return [HeadRow("totals", Line(gettext_noop("Total")), tuple(self.totals))]
        if section is None:
            return [self.head_rows[-1]]
        settled = section.settlement.net if section.settlement is not None else section.totals
        return [
            HeadRow(
                "series",
                Line(kind.title, {"n": section.number}),
                tuple(section.totals[n] for n in self.players),
            ),
            HeadRow("balance", Line(gettext_noop("Balance")), tuple(settled[name] for name in self.players)),
        ]

    @cached_property
    def chart(self) -> str:
        """The running-total chart of the whole evening (empty before the first hand);
        where series are settled on their own, each player's balance after each hand."""
        kind = self.game.variant.section_kind
        if kind is not None and kind.settled_each:
            return chart_of(self.players, self.rows, title=_("Balance after each hand"), balance=True)
        return chart_of(self.players, self.rows, title=_("Running totals"))

    def section(self, number: int) -> SheetSection:
        """A series that is settled on its own, by its number (``LookupError`` if none)."""
        for section in self.sections:
            if section.number == number and section.settlement is not None:
                return section
        raise LookupError(f"no series {number}")


def build_sheet(session: Session) -> Sheet:
    """The sheet from two queries whatever its length: seats, hands, nothing else."""
    game = game_of(session)
    everything = stored_rows(session.pk)
    hands = [hand for hand in everything if hand[10] is None]
    stored = [
        StoredHand(dealer or None, {name: _points(value) for name, value in deltas.items()}, frozenset(facts))
        for (_, _, _, _, dealer, _, _, deltas, _, facts, _, _) in hands
    ]
    variant, players = game.variant, game.players
    summary = variant.summarize(players, stored, game.options)
    kind = variant.section_kind
    deltas = [hand.deltas for hand in stored]
    sections = (
        ()
        if kind is None
        else tuple(
            SheetSection(
                number=number,
                kind=kind,
                first=section.first,
                last=section.last,
                totals=dict(section.totals),
                bonus=dict(section.bonus),
                complete=section.complete,
                notation=variant.section_notation(players, deltas, section),
                settlement=_settled(variant.section_net(section), session),
            )
            for number, section in enumerate(summary.sections, 1)
        )
    )
    ends = {section.last: section for section in sections if section.complete}
    restarts = kind is not None and kind.restarts_totals
    settled_each = kind is not None and kind.settled_each

    rows: list[SheetRow] = []
    zero: tuple[Points, ...] = (0,) * len(players)
    running, overall = zero, zero
    settled: dict[str, Points] = dict.fromkeys(players, 0)  # what the finished series settle
    for index, (hand, facts) in enumerate(zip(hands, stored, strict=True)):
        hand_id, number, version, hand_type, dealer, sitting_out, note, _, description, _, _, corrected = hand
        row_deltas = tuple(_exact(facts.deltas.get(name, 0)) for name in players)
        running = _plus(running, row_deltas)
        overall = _plus(overall, row_deltas)
        end = ends.get(index)
        if end is not None:
            overall = _plus(overall, tuple(end.bonus.get(name, 0) for name in players))
        balance = overall
        if settled_each and kind is not None:
            standing = (
                end.totals if end is not None else dict(zip(players, map(Fraction, running), strict=True))
            )
            net = variant.section_net(Section(kind.key, index, index, standing, {}, end is not None)) or {}
            balance = tuple(_exact(settled[name] + net.get(name, 0)) for name in players)
            if end is not None:
                settled = dict(zip(players, balance, strict=True))
        rows.append(
            SheetRow(
                hand_id=hand_id,
                index=index + 1,
                number=number,
                version=version,
                type=HandType(hand_type),
                dealer=dealer,
                sitting_out=sitting_out,
                stored_description=description,
                note=note,
                deltas=row_deltas,
                totals=running,
                overall=overall,
                section_end=end,
                balance=balance,
                corrected=corrected,
            )
        )
        if restarts and end is not None:
            running = zero

    last_dealer = next((hand.dealer for hand in reversed(stored) if hand.dealer), None)
    return Sheet(
        session=session,
        game=game,
        rows=tuple(rows),
        summary=summary,
        next_dealer=proposed_dealer_after(game, last_dealer, first=session.first_dealer),
        sections=sections,
        deleted=tuple(
            DeletedRow(hand[0], hand[1], hand[2], hand[8], _moment(hand[10]), bool(hand[11]))
            for hand in everything
            if hand[10] is not None
        ),
    )


def _moment(value: Any) -> datetime:
    """A timestamp as the database driver gave it (text on SQLite), aware."""
    moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return moment if timezone.is_aware(moment) else moment.replace(tzinfo=UTC)


# The stored hands as the sheet reads them, in one statement written out once
# (what the ORM spent building it and converting each row was most of the sheet's time).
_COLUMNS = ", ".join(f'h."{name}"' for name in ROW_FIELDS)
_HANDS = (
    f"SELECT {_COLUMNS},"
    f' EXISTS (SELECT 1 FROM "{HandChange._meta.db_table}" c'
    f""" WHERE c."hand_id" = h."id" AND c."action" = '{HandChange.Action.EDITED.value}')"""
    f' FROM "{Hand._meta.db_table}" h WHERE h."session_id" = %s ORDER BY h."number"'
)


def stored_rows(session_id: int) -> list[tuple[Any, ...]]:
    """Every hand's ``ROW_FIELDS`` in order, deleted ones too, and whether it was
    corrected: the deltas and facts decoded, the description left as JSON text
    (read only for the rows a page shows)."""
    with connections["default"].cursor() as cursor:
        cursor.execute(_HANDS, [session_id])
        rows = cursor.fetchall()
    deltas, facts = _json_column([row[7] for row in rows]), _json_column([row[9] for row in rows])
    return [
        (*row[:7], hand_deltas, _json_text(row[8]), hand_facts, row[10], bool(row[11]))
        for row, hand_deltas, hand_facts in zip(rows, deltas, facts, strict=True)
    ]


def _json_column(values: list[Any]) -> list[Any]:
    """A JSON column's values as the database driver gave them: text (SQLite),
    decoded in one go as one array, or decoded already (PostgreSQL)."""
    if any(isinstance(value, str) for value in values):
        decoded: list[Any] = json.loads("[" + ",".join(map(_json_text, values)) + "]")
        return decoded
    return values


def _json_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


# The same few values (0, ±40, ±80, …) recur on every hand of every sheet.
_points = lru_cache(maxsize=4096)(points_from_json)


def _exact(value: Points) -> Points:
    """Whole numbers as ``int``, so that summing them stays cheap."""
    if type(value) is int or value.denominator != 1:
        return value
    return value.numerator


def _plus(totals: tuple[Points, ...], deltas: tuple[Points, ...]) -> tuple[Points, ...]:
    """Totals after adding these deltas, whole sums as ``int`` (two halves make one)."""
    summed = tuple(map(add, totals, deltas))
    if all(type(value) is int for value in summed):
        return summed
    return tuple(map(_exact, summed))


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
        "cache_seconds": caching.SECONDS,
    }


def sheet_page_key(session: Session, right: int) -> tuple[object, ...]:
    """What a kept sheet page (``plumbing.pages``) shows that may change: this version
    of the sheet and its frame (``sheet_frame_key``)."""
    return (session.sheet_key, *sheet_frame_key(session, right))


def sheet_frame_key(session: Session, right: int) -> tuple[object, ...]:
    """What the sheet page shows around its board and exports (the
    parts drawn again for every version): the session's own lines, its house
    rules and the reader's right on it (``services.Right``: which buttons it has)."""
    return (
        session.pk,
        session.created_at,
        session.name,
        session.played_on,
        session.variant,
        session.options,
        session.closed_at,
        int(right),
    )


def sheet_holes(session: Session) -> tuple[str, ...]:
    """The parts of the sheet page drawn again for every version: the board (its
    deleted hands struck through in their places), and the exports where the game
    has series or rounds (a series settled on its own gets its PDF); elsewhere the
    exports are the same for every version."""
    kind = VARIANTS[session.variant].section_kind if session.variant in VARIANTS else None
    if kind is not None:
        return ("board", "exports")
    return ("board",)


ROW_TEMPLATE = "scoring/_hand_row.html"
DELETED_ROW_TEMPLATE = "scoring/_deleted_row.html"


def hand_rows(
    rows: Sequence[SheetRow | DeletedRow],
    players: Sequence[str],
    session_id: int,
    share_token: str,
    *,
    restorable: bool = False,
) -> str:
    """The sheet's rows of these hands as HTML: each drawn once per version and
    place (``caching.row_key``), all of them read from the cache in one round trip,
    the missing ones drawn from a template of their own and stored in one more.
    A deleted hand's row offers to restore it where ``restorable``: to a reader who
    may record on an evening still open, never behind a share link."""
    language = get_language() or ""
    keys = [
        caching.row_key(
            row.hand_id, row.version, row.index, (row.totals, row.overall, players), share_token, language
        )
        if isinstance(row, SheetRow)
        else caching.row_key(
            row.hand_id, row.version, 0, ("deleted", restorable, players), share_token, language
        )
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
            html = drawn[key] = drawing.render({**context, "row": row})
        parts.append(str(html))
    if drawn:
        caching.set_many(drawn)
    return mark_safe("\n".join(parts))  # drawn by the template, which escapes


def _settled(net: Any, session: Session) -> Settlement | None:
    return settle(net, session.money_rate) if net is not None else None


def chart_of(
    players: Sequence[str],
    rows: Sequence[SheetRow],
    title: str,
    *,
    balance: bool = False,
    monochrome: bool = False,
) -> str:
    """The running-total chart of these rows, starting from 0 before the first of
    them (a series' chart counts the series' own hands); with ``balance``, each
    player's balance after each hand (from the start); ``monochrome`` for paper."""
    if not rows:
        return ""
    first = rows[0]
    if balance:
        lines: list[list[Points]] = [list(row.balance) for row in rows]
    else:
        start = [total - delta for total, delta in zip(first.overall, first.deltas, strict=True)]
        lines = [[total - base for total, base in zip(row.overall, start, strict=True)] for row in rows]
    breaks = [row.index - first.index + 1 for row in rows if row.section_end is not None]
    return running_total_svg(players, lines, breaks, title=title, monochrome=monochrome)


# How many letters a column head may have, by the number of players: what fits
# a 390 px wide phone with every number whole.
HEAD_ROOM = {3: 12, 4: 9, 5: 7, 6: 6}
HEAD_LEAST = 3  # fewer letters than this tell a table too little


def column_heads(players: Sequence[str]) -> dict[str, str]:
    """Short column heads, unique per table: a name that fits its column stays
    whole; a longer one shows as many of its first letters as fit, never fewer
    than ``HEAD_LEAST`` (``Bernhardt``, ``Bernadette`` with six players:
    ``Bernha``, ``Bernad``). Names alike beyond what fits (``Wolfgang11``,
    ``Wolfgang12``) end their heads in the seat number instead (``Wolfg1``)."""
    room = max(HEAD_LEAST, HEAD_ROOM.get(len(players), min(HEAD_ROOM.values())))
    heads = {name: name if len(name) <= room else name[:room].rstrip() for name in players}
    taken = list(heads.values())
    for seat, name in enumerate(players, 1):
        if heads[name] != name and taken.count(heads[name]) > 1:
            number = str(seat)
            heads[name] = name[: max(HEAD_LEAST, room - len(number))].rstrip() + number
    if len(set(heads.values())) < len(heads):  # a head ending in a seat number met a name
        heads = {name: name[:HEAD_LEAST] + str(seat) for seat, name in enumerate(players, 1)}
    return heads


# -- the printed sheet ---------------------------------------------------------------------


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


def _columns(texts: Sequence[str], width: int) -> str:
    return "".join(text.rjust(width) for text in texts)


def _figure_width(players: Sequence[str], rows: Sequence[SheetRow], totals: Sequence[Points]) -> int:
    widest = max((len(signed(value)) for row in rows for value in (*row.deltas, *row.totals)), default=1)
    widest = max(widest, *(len(signed(value)) for value in totals))
    longest = min(max(len(name) for name in players), NAME_WIDTH)
    return max(FIGURE_WIDTH, widest + 1, longest + 1)


def _head(name: str, width: int) -> str:
    return name if len(name) < width else name[: width - 2] + "…"


def _printed(
    players: Sequence[str], rows: Sequence[SheetRow | DeletedRow], width: int, notes: dict[int, int]
) -> list[PrintedRow]:
    printed = []
    for row in rows:
        if isinstance(row, DeletedRow):
            printed.append(PrintedRow(row, "", "", notes.get(row.hand_id)))
            continue
        figures = _columns([signed(v) for v in row.deltas], width) + "\n"
        figures += _columns([signed(v) for v in row.totals], width)
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
    if section is not None or not (
        sheet.game.variant.section_kind and sheet.game.variant.section_kind.settled_each
    ):
        chart = chart_of(players, rows, title=_("Running totals"), monochrome=True)
    else:  # the whole evening of a game settled series by series: the balance, as on the board
        chart = chart_of(players, rows, title=_("Balance after each hand"), balance=True, monochrome=True)
    width = _figure_width(players, rows, [value for row in closing for value in row.values])
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
        "heads": _columns([_head(name, width) for name in players], width),
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
