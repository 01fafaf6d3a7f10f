"""The scoring engine: pure Python, standard library only.

Public API::

    session = read_session(text)            # validated tarockscore/1 file
    result = score_session(session)         # every hand, totals, series, settlement
    score_hand(variant, record, options)    # one hand
    settle(net, rate)                       # who pays whom
    VARIANTS                                # the games, by key
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from .registry import VARIANT_KEYS, VARIANTS
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
from .variant import HandRecord, Section, Summary, Variant

__all__ = [
    "FORMAT",
    "VARIANTS",
    "VARIANT_KEYS",
    "HandRecord",
    "HandScore",
    "HandType",
    "InvalidInput",
    "Line",
    "Section",
    "Session",
    "SessionResult",
    "Settlement",
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
            with_series=self.session.variant.section_kind == "series",
        )


def score_hand(variant: Variant, record: HandRecord, options: Any) -> HandScore:
    """One hand's deltas (every player of the session) and breakdown."""
    return variant.score_record(record, options)


def summarize(
    variant: Variant,
    players: Sequence[str],
    hands: Sequence[HandRecord],
    deltas: Sequence[Mapping[str, Fraction]],
    options: Any,
) -> Summary:
    """Totals, series or rounds, and zero-sum net balances of scored hands."""
    return variant.summarize(players, hands, deltas, options)


def score_session(session: Session, rate: Decimal | None = None) -> SessionResult:
    """Score every hand of a session and settle it."""
    scores = tuple(score_hand(session.variant, hand, session.options) for hand in session.hands)
    summary = summarize(
        session.variant, session.players, session.hands, [s.deltas for s in scores], session.options
    )
    return SessionResult(session, scores, summary, settle(summary.net, rate))
