"""The sheet of a session: what every page, print, PDF and CSV shows of it.

Built from what was stored when each hand was scored (dealer, kind of hand,
deltas, description, note, the few facts the game's sections need), never by
reading or checking the hands' inputs again: an old evening shows exactly what
was recorded, whatever today's rules would say of it (re-scoring is the
explicit ``session_rescore``). The running totals, the sections (series,
Parties) and the chart's lines come from one pass over the hands.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from functools import cached_property
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.chart import running_total_svg
from scoring.engine import HandType, Line, Section, SectionKind, Settlement, StoredHand, Summary, settle
from scoring.engine.types import gettext_noop, line_from_json, points_from_json
from scoring.models import Hand, Session
from scoring.presentation import house_rules
from scoring.services.games import Game, game_of
from scoring.services.hands import proposed_dealer_after

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
    index: int  # 1-based position on the sheet
    number: int  # the hand's number as recorded (never reused)
    version: int
    type: HandType
    dealer: str
    sitting_out: str
    description: Line | None
    note: str
    deltas: tuple[Fraction, ...]  # in seat order
    totals: tuple[Fraction, ...]  # running totals (per series where the game restarts them)
    overall: tuple[Fraction, ...]  # running totals of the whole evening, bonuses included
    section_end: SheetSection | None  # the series or Partie this hand closes
    # What the settlement would pay after this hand: the running totals where
    # they settle as they stand, else what the game's sections settle so far.
    balance: tuple[Fraction, ...] = ()

    @property
    def redeal(self) -> bool:
        return self.type is HandType.REDEAL

    @property
    def cells(self) -> list[tuple[Fraction, Fraction]]:
        return list(zip(self.deltas, self.totals, strict=True))


@dataclass(frozen=True)
class HeadRow:
    """A row of numbers the board keeps in sight above the hands."""

    key: str  # "totals", or "series" and "balance" where each series is settled on its own
    label: Line
    values: tuple[Fraction, ...]  # in seat order
    help: Line | None = None  # what the numbers mean, where that is not plain


@dataclass(frozen=True)
class Sheet:
    session: Session
    game: Game
    rows: tuple[SheetRow, ...]
    summary: Summary
    settlement: Settlement
    next_dealer: str
    sections: tuple[SheetSection, ...]

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
    def legend(self) -> bool:
        """Whether a column head is not the whole name, so the names are spelt out."""
        return any(name != head for name, head in self.heads)

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
    """The sheet from three queries whatever its length: seats, hands, nothing else."""
    seats = list(session.seats.all())
    game = game_of(session, seats)
    hands = list(
        Hand.objects.filter(session=session, deleted_at__isnull=True).order_by("number").only(*ROW_FIELDS)
    )
    stored = [StoredHand(hand.dealer or None, _deltas(hand), frozenset(hand.facts)) for hand in hands]
    variant, players = game.variant, game.players
    summary = variant.summarize(players, stored, game.options)
    deltas = [hand.deltas for hand in stored]
    kind = variant.section_kind
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
    running = [Fraction(0)] * len(players)
    overall = [Fraction(0)] * len(players)
    settled = dict.fromkeys(players, Fraction(0))  # what the finished series settle
    for index, (hand, facts) in enumerate(zip(hands, stored, strict=True)):
        row_deltas = tuple(facts.deltas.get(name, Fraction(0)) for name in players)
        running = [total + delta for total, delta in zip(running, row_deltas, strict=True)]
        overall = [total + delta for total, delta in zip(overall, row_deltas, strict=True)]
        end = ends.get(index)
        if end is not None:
            overall = [total + end.bonus.get(name, 0) for total, name in zip(overall, players, strict=True)]
        balance = tuple(overall)
        if settled_each and kind is not None:
            standing = end.totals if end is not None else dict(zip(players, running, strict=True))
            net = variant.section_net(Section(kind.key, index, index, standing, {}, end is not None)) or {}
            balance = tuple(settled[name] + net.get(name, 0) for name in players)
            if end is not None:
                settled = dict(zip(players, balance, strict=True))
        rows.append(
            SheetRow(
                hand_id=hand.pk,
                index=index + 1,
                number=hand.number,
                version=hand.version,
                type=HandType(hand.type),
                dealer=hand.dealer,
                sitting_out=hand.sitting_out,
                description=line_from_json(hand.description) if hand.description else None,
                note=hand.note,
                deltas=row_deltas,
                totals=tuple(running),
                overall=tuple(overall),
                section_end=end,
                balance=balance,
            )
        )
        if restarts and end is not None:
            running = [Fraction(0)] * len(players)

    last_dealer = next((hand.dealer for hand in reversed(hands) if hand.dealer), None)
    return Sheet(
        session=session,
        game=game,
        rows=tuple(rows),
        summary=summary,
        settlement=settle(summary.net, session.money_rate),
        next_dealer=proposed_dealer_after(game, last_dealer, first=session.first_dealer),
        sections=sections,
    )


def _deltas(hand: Hand) -> dict[str, Fraction]:
    return {name: points_from_json(value) for name, value in hand.deltas.items()}


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
        lines = [list(row.balance) for row in rows]
    else:
        start = [total - delta for total, delta in zip(first.overall, first.deltas, strict=True)]
        lines = [[total - base for total, base in zip(row.overall, start, strict=True)] for row in rows]
    breaks = [row.index - first.index + 1 for row in rows if row.section_end is not None]
    return running_total_svg(players, lines, breaks, title=title, monochrome=monochrome)


@dataclass(frozen=True)
class DeletedHand:
    """A hand taken off the sheet, as stored, and the place it comes back to."""

    hand_id: int
    place: int  # 1-based: where it stood on the sheet, and stands again when restored
    description: Line | None
    deltas: dict[str, Fraction]
    deleted_at: datetime


def deleted_hands(sheet: Sheet) -> list[DeletedHand]:
    """The session's deleted hands in recording order (one query)."""
    numbers = [row.number for row in sheet.rows]
    hands = (
        Hand.objects.filter(session=sheet.session, deleted_at__isnull=False)
        .order_by("number")
        .only("id", "number", "description", "deltas", "deleted_at")
    )
    return [
        DeletedHand(
            hand_id=hand.pk,
            place=bisect_left(numbers, hand.number) + 1,
            description=line_from_json(hand.description) if hand.description else None,
            deltas={name: _deltas(hand).get(name, Fraction(0)) for name in sheet.players},
            deleted_at=hand.deleted_at or timezone.now(),
        )
        for hand in hands
    ]


# How many letters a column head may have, by the number of players: what fits
# a 390 px wide phone with every number whole.
HEAD_ROOM = {3: 12, 4: 9, 5: 7, 6: 6}


def column_heads(players: Sequence[str]) -> dict[str, str]:
    """Short column heads, unique per table: a name that fits its column stays
    whole; a longer one is cut to its first letters, as few as tell it from
    every other name (``Annabella``, ``Annemarie``: ``Annab``, ``Annem``)."""
    room = HEAD_ROOM.get(len(players), min(HEAD_ROOM.values()))
    heads: dict[str, str] = {}
    for seat, name in enumerate(players, 1):
        others = [other for other in players if other != name]
        if len(name) <= room:
            heads[name] = name
            continue
        prefix = next(
            (
                name[:size]
                for size in range(1, len(name))
                if not name[:size].endswith(" ") and not any(o.startswith(name[:size]) for o in others)
            ),
            name,
        )
        heads[name] = prefix if len(prefix) <= room else f"{name[0]}{seat}"
    if len(set(heads.values())) < len(heads):  # only a head like "A3" can meet a name
        heads = {name: str(seat) for seat, name in enumerate(players, 1)}
    return heads


# -- the printed sheet ---------------------------------------------------------------------


@dataclass(frozen=True)
class Breakdown:
    index: int
    description: Line | None
    lines: list[Line]


def print_context(sheet: Sheet, *, series: int | None = None, appendix: bool = False) -> dict[str, Any]:
    """Everything the printed score sheet shows (HTML print view and PDF alike);
    ``series`` limits it to one Illustriertes series (``LookupError`` if none)."""
    session, players = sheet.session, sheet.players
    rows: Sequence[SheetRow] = sheet.rows
    sections: Sequence[SheetSection] = sheet.sections
    settlement, totals, title = sheet.settlement, sheet.totals, session.name
    if series is not None:
        section = sheet.section(series)
        rows = rows[section.first : section.last + 1]
        sections = [section]
        settlement = section.settlement or settle(section.totals, session.money_rate)
        totals = [section.totals[name] for name in players]
        title = _("%(name)s, series %(n)s") % {"name": session.name, "n": series}
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
        "totals": totals,
        "settlement": settlement,
        "net": [settlement.net[name] for name in players],
        "money": [settlement.money[name] for name in players] if settlement.money else None,
        # Printed in black and white: greys and dashes rather than colours.
        "chart": chart_of(players, rows, title=_("Running totals"), monochrome=True),
        "appendix": _breakdowns(rows) if appendix else [],
        "series": series,
        "printed_at": timezone.localtime(),
        "wide": len(players) >= 5,
    }


def _breakdowns(rows: Sequence[SheetRow]) -> list[Breakdown]:
    stored = dict(Hand.objects.filter(pk__in=[row.hand_id for row in rows]).values_list("pk", "breakdown"))
    return [
        Breakdown(row.index, row.description, [line_from_json(line) for line in stored.get(row.hand_id, [])])
        for row in rows
    ]
