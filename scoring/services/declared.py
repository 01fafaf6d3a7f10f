"""The hands one player declared, with what each wrote for him (read): what the
apps built on the evenings ask of hands without reading their rows themselves,
such as a tournament's Spiel des Tages (``TOURNAMENTS.md`` §14.8).

Who declared is what the engine stored with the hand's statistics (``HandStats``:
each seat's part, in playing order); what he scored is the hand's stored deltas
(a tournament's tables write the Kontra-free Schrift). Nothing is judged again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from scoring.engine.types import Line, line_from_json, points_from_json
from scoring.models import Hand, Seat

# The parts a single player declares in: Königrufen's and Tarock's declarer, the
# French taker, a soloist.
DECLARING = frozenset({"declarer", "taker", "soloist"})


@dataclass(frozen=True)
class DeclaredHand:
    """A live hand one player declared: its session, its number on the sheet (1, 2,
    … among the live hands), the declarer, his points and the hand in short."""

    session_id: int
    number: int
    declarer: str
    points: Fraction
    description: Line | None


def declared_hands(session_ids: Sequence[int]) -> list[DeclaredHand]:
    """Every live hand of these sessions that one player declared, with his points,
    in two statements however many hands."""
    ids = list(session_ids)
    if not ids:
        return []
    seats: dict[int, list[str]] = {}
    for session_id, name in (
        Seat.objects.filter(session_id__in=ids)
        .order_by("session_id", "position")
        .values_list("session_id", "name")
    ):
        seats.setdefault(session_id, []).append(name)
    found: list[DeclaredHand] = []
    counted: dict[int, int] = {}
    for session_id, stats, deltas, description in (
        Hand.objects.filter(session_id__in=ids, deleted_at__isnull=True)
        .order_by("session_id", "number")
        .values_list("session_id", "stats", "deltas", "description")
    ):
        counted[session_id] = number = counted.get(session_id, 0) + 1
        roles = (stats or {}).get("roles") or []
        names = seats.get(session_id, [])
        declaring = [names[i] for i, role in enumerate(roles) if role in DECLARING and i < len(names)]
        if len(declaring) != 1 or declaring[0] not in (deltas or {}):
            continue
        found.append(
            DeclaredHand(
                session_id,
                number,
                declaring[0],
                points_from_json(deltas[declaring[0]]),
                line_from_json(description) if description else None,
            )
        )
    return found
