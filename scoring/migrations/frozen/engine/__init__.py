"""The scoring engine: pure Python, standard library only.

Public API::

    session = read_session(text)            # validated tarockscore/1 file
    result = score_session(session)         # every hand, totals, series, settlement
    score_hand(variant, record, options)    # one hand
    settle(net, rate)                       # who pays whom
    VARIANTS                                # the games, by key
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from .registry import VARIANTS
from .session_file import (
    FORMAT,
    Session,
    dumps_session,
    next_dealer,
    read_hand,
    read_session,
    result_to_json,
    variant_for,
    write_session,
)
from .settlement import Settlement, settle
from .types import HandScore, HandType, InvalidInput, Line, Table
from .variant import PARTIE, SERIES, HandRecord, Section, SectionKind, StoredHand, Summary, Variant

__all__ = [
    "FORMAT",
    "PARTIE",
    "SERIES",
    "VARIANTS",
    "HandRecord",
    "HandScore",
    "HandType",
    "InvalidInput",
    "Line",
    "Section",
    "SectionKind",
    "Session",
    "SessionResult",
    "Settlement",
    "StoredHand",
    "Summary",
    "Table",
    "Variant",
    "dumps_session",
    "next_dealer",
    "read_hand",
    "read_session",
    "score_hand",
    "score_session",
    "settle",
    "summarize",
    "variant_for",
    "write_session",
]


@dataclass(frozen=True)
class SessionResult:
    session: Session
    hands: tuple[HandScore, ...]
    summary: Summary
    settlement: Settlement

    def to_json(self) -> dict[str, Any]:
        """The document ``score_session`` prints (SESSION_FORMAT.md)."""
        return result_to_json(
            self.session.players,
            self.hands,
            self.summary,
            self.settlement,
            with_series=self.session.variant.section_kind is SERIES,
        )


def score_hand(variant: Variant, record: HandRecord, options: Any) -> HandScore:
    """One hand's deltas (every player of the session) and breakdown."""
    return variant.score_record(record, options)


def summarize(variant: Variant, players: Sequence[str], hands: Sequence[StoredHand], options: Any) -> Summary:
    """Totals, series or rounds, and zero-sum net balances of scored hands."""
    return variant.summarize(players, hands, options)


def score_session(session: Session, rate: Decimal | None = None) -> SessionResult:
    """Score every hand of a session and settle it."""
    variant = session.variant
    scores = tuple(score_hand(variant, hand, session.options) for hand in session.hands)
    stored = [variant.stored(hand, score) for hand, score in zip(session.hands, scores, strict=True)]
    summary = summarize(variant, session.players, stored, session.options)
    return SessionResult(session, scores, summary, settle(summary.net, rate, summary.parts))
