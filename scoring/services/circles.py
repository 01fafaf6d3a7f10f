"""A circle of people around the evenings, kept by another app (the regular
table's group): who besides the people named on an evening has a right on it,
and the sign the evening's money is shown with.

The evenings name nothing of that app, in their models or their SQL: the app
registers its circle when it is ready (``ClubConfig.ready``), and the access rule
(``access``) and the sheet's pages ask for it here. Without one, an evening's
rights are those of the people named on it, and its money has no sign.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from plumbing import queries
from scoring.models import Session


@dataclass(frozen=True)
class Circle:
    # Its members' rights on its evenings and an evening's key in it, in SQL
    # (``queries.right_sql``, ``queries.session_columns``).
    rights: queries.Circle
    currency: Callable[[Session], str]  # the sign an evening's money is shown with ("": none)


_registered: list[Circle] = []


def circle_register(circle: Circle) -> None:
    """The circle around the evenings from now on (registered again: replaced; the
    rule knows one circle, so that it never has to say which of two wins)."""
    _registered[:] = [circle]


def rights() -> queries.Circle | None:
    """The circle's rights for the access rule, if a circle is registered."""
    return _registered[0].rights if _registered else None


def known_key(session: Session) -> tuple[bool, Any]:
    """The key of the circle the evening belongs to (None: none), where the statement
    that read the session asked for it (the access rule's, a watcher's, the save's):
    ``(True, key)``; ``(False, None)`` where it did not (the circle's app reads it itself)."""
    if queries.CIRCLE_KEY in session.__dict__:
        return True, session.__dict__[queries.CIRCLE_KEY]
    return False, None


def currency_of(session: Session) -> str:
    """The sign the evening's money is shown with: its circle's, or none."""
    return _registered[0].currency(session) if _registered else ""
