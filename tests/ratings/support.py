"""A group's evenings closed one after another, for the ratings' tests."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from club.models import Group
from scoring import services
from scoring.models import Session
from tests.club.regular_table import evening

PLAYERS = ("Anna", "Bert", "Carl", "Dora")


def hands(winner: str, loser: str) -> list[dict[str, Any]]:
    """Two French hands: ``winner`` takes a garde and wins (+240, the others −80),
    ``loser`` a prise and loses with the Petit au bout to the defence (−138, the
    others +46). Totals: winner +286, loser −218, the two others −34 each (a tie)."""
    return [
        {"dealer": "Dora", "taker": winner, "contract": "garde", "bouts": 2, "points": 56},
        {"taker": loser, "contract": "prise", "bouts": 1, "points": 40, "petit_au_bout": "defence"},
    ]


def ranks_of_evening(winner: str, loser: str, players: tuple[str, ...] = PLAYERS) -> dict[str, int]:
    """The ranks worked out by hand from ``hands``: winner 1, the tied two 2, loser 4."""
    return {name: 1 if name == winner else 4 if name == loser else 2 for name in players}


def order(index: int) -> tuple[str, str]:
    """Evening ``index``'s winner and loser, changing from evening to evening."""
    return PLAYERS[index % 4], PLAYERS[(index + 1 + index // 4) % 4] if PLAYERS[
        (index + 1 + index // 4) % 4
    ] != PLAYERS[index % 4] else PLAYERS[(index + 2) % 4]


def closed_evening(group: Group, owner: User, index: int, **kwargs: Any) -> Session:
    """Evening ``index`` of the group, played and closed, its closing a minute after the previous one's."""
    winner, loser = order(index)
    session, _ = evening(group, owner, hands(winner, loser), name=f"Abend {index + 1}", **kwargs)
    services.session_close(session=session, user=owner)
    at = timezone.now().replace(microsecond=0) - timedelta(days=1) + timedelta(minutes=index)
    Session.objects.filter(pk=session.pk).update(closed_at=at)
    session.refresh_from_db()
    return session
