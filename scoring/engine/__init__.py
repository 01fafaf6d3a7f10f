"""The scoring engine: pure Python, standard library only.

Public API::

    session = read_session(text)            # validated tarockscore/1 file
    result = score_session(session)         # every hand, totals, series, settlement
    score_hand(variant, record, options)    # one hand
    settle(net, rate)                       # who pays whom
    VARIANTS, get_variant(key)              # the games, by key (registry.py)
    variant.scored_hand(record, options)    # everything a hand's snapshot stores
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from .registry import VARIANTS, get_variant
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
from .variant import (
    PARTIE,
    SERIES,
    HandRecord,
    ScoredHand,
    Section,
    SectionKind,
    StoredHand,
    Summary,
    Variant,
    VariantOf,
)

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
    "ScoredHand",
    "Section",
    "SectionKind",
    "Session",
    "SessionResult",
    "Settlement",
    "StoredHand",
    "Summary",
    "Table",
    "Variant",
    "VariantOf",
    "dumps_session",
    "get_variant",
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
        """The document ``score_session`` prints (docs/session-file.md)."""
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
    scores: list[HandScore] = []
    stored: list[StoredHand] = []
    for hand in session.hands:
        score = variant.score_in_session(hand, session.options, stored)
        scores.append(score)
        stored.append(variant.stored(hand, score))
    summary = summarize(variant, session.players, stored, session.options)
    return SessionResult(session, tuple(scores), summary, settle(summary.net, rate, summary.parts))
