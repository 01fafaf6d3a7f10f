"""The read model of an evening: its sheet, from the stored snapshots of its hands.

A pure function (``read_sheet``) from what was stored when each hand was
scored (dealer, kind of hand, deltas, description, note, the few facts the
game's sections need) to frozen values: the rows with their running totals and
balances, the sections (series, Parties), the numbers kept in sight and the
chart's lines. It never reads or checks the hands' inputs again: an old evening
shows exactly what was recorded, whatever today's rules would say of it
(re-scoring is the explicit ``session_rescore``). No database, no cache, no
HTML, no print layout: reading the snapshots is ``scoring.sheet.build_sheet``,
drawing the sheet ``scoring.sheet_html``, printing it ``scoring.printing``.

Balances come from the engine's one computation (``Variant.balance_moves``):
where each series is settled on its own, the sheet adds up the moves the engine
gives; where the evening settles as it stands, a hand's move is its deltas with
a section's bonus counted with the hand that ends it, which is the evening's
running total this pass keeps anyway (``SheetRow.overall``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from functools import cached_property, lru_cache
from operator import add
from typing import TYPE_CHECKING, Any

from scoring.engine import HandType, Line, SectionKind, Settlement, StoredHand, Summary, settle
from scoring.engine.types import gettext_noop, line_from_json, points_from_json
from scoring.engine.variant import in_sight, money_in_sight

if TYPE_CHECKING:
    from plumbing.queries import StoredRow
    from scoring.models import Session
    from scoring.services.games import Game

# A number on the sheet: whole points stay ``int`` (summing a long evening in
# ``Fraction`` costs more than all the rest of the sheet), half points ``Fraction``.
Points = Fraction | int

# The hands a sheet page shows at first: the latest, the rest one tap away.
SHOWN_HANDS = 30


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
    # What the hand pays (in seat order), only where that differs from what it
    # writes: Königrufen's Kontras paid beside the Kontra-free Schrift.
    money: tuple[Points, ...] | None = None

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
class ChartSeries:
    """The chart's lines: each player's number after each hand (in seat order),
    and the hands (1-based among these rows) that end a series or Partie."""

    lines: list[list[Points]]
    breaks: list[int]


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
    # The hands that count as the engine sums them (what the phone's engine starts from).
    snapshots: tuple[StoredHand, ...] = ()

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
        heads = column_heads(self.players, labelled=len(self.head_rows) > 1)
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
        rows = in_sight(kind, self.summary, self.players)
        if kind is None or not kind.settled_each:
            return [HeadRow("totals", Line(gettext_noop("Total")), rows[0][2]), *self.money_rows]
        (_, number, running), (_, _, balance) = rows
        return [
            HeadRow("series", Line(kind.title, {"n": number or 1}), running),
            HeadRow(
                "balance",
                Line(gettext_noop("Balance")),
                balance,
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
            return [HeadRow("totals", Line(gettext_noop("Total")), tuple(self.totals)), *self.money_rows]
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

    @property
    def money_totals(self) -> tuple[Fraction, ...] | None:
        """What each player is paid in all (seat order), where hands pay money
        beside their Schrift and some hand's money differs from it (even where
        the totals happen to agree: the hand's money line is explained); else None."""
        differs = any(row.money is not None for row in self.rows)
        return money_in_sight(self.summary, self.players, a_hand_differs=differs)

    @property
    def money_rows(self) -> list[HeadRow]:
        """The money's totals under the Schrift's, where they differ: what the settlement pays."""
        money = self.money_totals
        if money is None:
            return []
        return [
            HeadRow(
                "money",
                Line(gettext_noop("Money")),
                money,
                Line(
                    gettext_noop(
                        "The totals above are the Schrift, without Kontra; each Kontra is paid in money."
                    )
                ),
            )
        ]

    @property
    def settled_each(self) -> bool:
        """Whether each series is settled on its own (the balance is what is paid)."""
        kind = self.game.variant.section_kind
        return kind is not None and kind.settled_each

    @cached_property
    def chart_series(self) -> ChartSeries:
        """The lines of the evening's chart (none before the first hand): the
        running totals; where series are settled on their own, each player's
        balance after each hand."""
        return chart_series_of(self.rows, balance=self.settled_each)

    def section(self, number: int) -> SheetSection:
        """A series that is settled on its own, by its number (``LookupError`` if none)."""
        for section in self.sections:
            if section.number == number and section.settlement is not None:
                return section
        raise LookupError(f"no series {number}")


def read_sheet(session: Session, game: Game, stored: Sequence[StoredRow], *, next_dealer: str) -> Sheet:
    """The sheet of ``session`` from its hands as stored (``stored``: every hand in
    number order, deleted ones too), with the dealer proposed for the next hand."""
    hands = [hand for hand in stored if hand.deleted_at is None]
    snapshots = [_snapshot(hand) for hand in hands]
    variant, players = game.variant, game.players
    summary = variant.summarize(players, snapshots, game.options)
    kind = variant.section_kind
    sections = _sections(session, game, summary, snapshots)
    ends = {section.last: section for section in sections if section.complete}
    restarts = kind is not None and kind.restarts_totals
    # Where each series is settled on its own, what each hand moved each balance (the engine's).
    moves = (
        variant.balance_moves(players, snapshots, summary) if kind is not None and kind.settled_each else None
    )

    rows: list[SheetRow] = []
    zero: tuple[Points, ...] = (0,) * len(players)
    running, overall, balance = zero, zero, zero
    for index, (hand, snapshot) in enumerate(zip(hands, snapshots, strict=True)):
        row_deltas = tuple(_exact(snapshot.deltas.get(name, 0)) for name in players)
        running = _plus(running, row_deltas)
        overall = _plus(overall, row_deltas)
        end = ends.get(index)
        if end is not None:
            overall = _plus(overall, tuple(end.bonus.get(name, 0) for name in players))
        if moves is None:
            balance = overall
        else:
            balance = _plus(balance, tuple(_exact(moves[index][name]) for name in players))
        rows.append(
            SheetRow(
                hand_id=hand.id,
                index=index + 1,
                number=hand.number,
                version=hand.version,
                type=variant.hand_type(hand.type),
                dealer=hand.dealer,
                sitting_out=hand.sitting_out,
                stored_description=hand.description,
                note=hand.note,
                deltas=row_deltas,
                totals=running,
                overall=overall,
                section_end=end,
                balance=balance,
                corrected=hand.corrected,
                money=_money_row(snapshot, players, row_deltas),
            )
        )
        if restarts and end is not None:
            running = zero

    return Sheet(
        session=session,
        game=game,
        rows=tuple(rows),
        summary=summary,
        next_dealer=next_dealer,
        sections=sections,
        snapshots=tuple(snapshots),
        deleted=tuple(
            DeletedRow(hand.id, hand.number, hand.version, hand.description, hand.deleted_at, hand.corrected)
            for hand in stored
            if hand.deleted_at is not None
        ),
    )


def _snapshot(hand: StoredRow) -> StoredHand:
    """What the engine sums of a stored hand."""
    return StoredHand(
        hand.dealer or None,
        {name: _points(value) for name, value in hand.deltas.items()},
        frozenset(hand.facts),
        None if hand.money is None else {name: _points(value) for name, value in hand.money.items()},
    )


def _sections(
    session: Session, game: Game, summary: Summary, snapshots: Sequence[StoredHand]
) -> tuple[SheetSection, ...]:
    """The game's sections (series, Parties) as the sheet draws them; none where it has none."""
    variant, players = game.variant, game.players
    kind = variant.section_kind
    if kind is None:
        return ()
    deltas = [snapshot.deltas for snapshot in snapshots]
    return tuple(
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


def last_dealer(stored: Sequence[StoredRow]) -> str | None:
    """Who dealt the last hand that counts (a hand may name no dealer)."""
    return next((hand.dealer for hand in reversed(stored) if hand.deleted_at is None and hand.dealer), None)


def chart_series_of(rows: Sequence[SheetRow], *, balance: bool = False) -> ChartSeries:
    """The running totals of these rows, starting from 0 before the first of them
    (a series' chart counts the series' own hands); with ``balance``, each
    player's balance after each hand (from the start)."""
    if not rows:
        return ChartSeries([], [])
    first = rows[0]
    if balance:
        lines: list[list[Points]] = [list(row.balance) for row in rows]
    else:
        start = [total - delta for total, delta in zip(first.overall, first.deltas, strict=True)]
        lines = [[total - base for total, base in zip(row.overall, start, strict=True)] for row in rows]
    breaks = [row.index - first.index + 1 for row in rows if row.section_end is not None]
    return ChartSeries(lines, breaks)


def _money_row(
    hand: StoredHand, players: Sequence[str], deltas: tuple[Points, ...]
) -> tuple[Points, ...] | None:
    """The hand's money in seat order, where it differs from its deltas."""
    if hand.money is None:
        return None
    money = tuple(_exact(hand.money.get(name, 0)) for name in players)
    return None if money == deltas else money


def _settled(net: Any, session: Session) -> Settlement | None:
    return settle(net, session.money_rate) if net is not None else None


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


# How many letters a column head may have, by the number of players: what fits
# a 390 px wide phone with every number whole, wide letters too (DejaVu Sans,
# "Annemarie", "Gruber Anna": tests/browser/test_phone_heads.py).
HEAD_ROOM = {3: 10, 4: 7, 5: 7, 6: 6}
# Beside the sheet's wide first column, which names its two rows of sums (the
# Schrift and the money, or a series and the balance), the heads are set smaller.
HEAD_ROOM_LABELLED = {3: 10, 4: 7, 5: 6, 6: 5}
HEAD_LEAST = 3  # fewer letters than this tell a table too little


def column_heads(
    players: Sequence[str], *, labelled: bool = False, room: int | None = None
) -> dict[str, str]:
    """Short column heads, unique per table, never fewer than ``HEAD_LEAST``
    letters: a name that fits its column (``room`` letters; by default what a
    phone has for this many players) stays whole. A longer one is never cut
    inside a word where an initial form fits: ``Bernhard K.`` (or ``Bernhard K``),
    ``B. Kurz``, then its first letters marked as shortened (``Bernha.``), the
    first of these that fits and no other player's head takes. Names alike
    beyond all of them (``Wolfgang11``, ``Wolfgang12``) end their heads in the
    seat number instead (``Wolfg1``). ``labelled``: the columns share the phone
    with the sheet's column of labels, and have less room."""
    rooms = HEAD_ROOM_LABELLED if labelled else HEAD_ROOM
    room = max(HEAD_LEAST, room or rooms.get(len(players), min(rooms.values())))
    options = {name: [name] if len(name) <= room else _short_forms(name, room) for name in players}
    heads = {name: forms[0] for name, forms in options.items() if forms}
    for _ in range(max((len(forms) for forms in options.values()), default=0)):
        taken = list(heads.values())
        clashing = [name for name in heads if heads[name] != name and taken.count(heads[name]) > 1]
        if not clashing:
            break
        for name in clashing:
            later = options[name][options[name].index(heads[name]) + 1 :]
            if later:
                heads[name] = later[0]
            else:
                heads.pop(name)  # no short form of its own: numbered below
    taken = list(heads.values())
    for seat, name in enumerate(players, 1):
        if name not in heads or (heads[name] != name and taken.count(heads[name]) > 1):
            number = str(seat)
            heads[name] = name[: max(HEAD_LEAST, room - len(number))].rstrip() + number
    if len(set(heads.values())) < len(players):  # a head ending in a seat number met a name
        heads = {name: name[:HEAD_LEAST] + str(seat) for seat, name in enumerate(players, 1)}
    return {name: heads[name] for name in players}


def _short_forms(name: str, room: int) -> list[str]:
    """A long name's shortened heads that fit ``room``, best first: the first name
    and the last name's initial, the first initial and the last name (without
    the space where it does not fit), the first
    letters marked with a dot; each with at least ``HEAD_LEAST`` letters."""
    words = name.split()
    forms = []
    if len(words) > 1:
        first, last = words[0], words[-1]
        forms += [f"{first} {last[0]}.", f"{first} {last[0]}", f"{first[0]}. {last}", f"{first[0]}.{last}"]
    forms.append(name[: room - 1].rstrip() + ".")
    letters = [sum(char.isalnum() for char in form) for form in forms]
    return list(
        dict.fromkeys(
            form
            for form, count in zip(forms, letters, strict=True)
            if len(form) <= room and count >= HEAD_LEAST
        )
    )
