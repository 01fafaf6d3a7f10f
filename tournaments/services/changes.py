"""Rank changes as the pages show them (``TOURNAMENTS.md`` §14.5): "▲ 2", "▼ 1",
"neu" beside a place, and the same in words for screen readers, never colour
alone. The change itself is the pure rule's (``core.circuit.Change``), worked out
from stored results: a tournament's with its standings (``results``), a season's
with its table (``cups.season_ranking``)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from tournaments.core.circuit import Change


@dataclass(frozen=True)
class Shown:
    """A change as a page shows it: ``symbol`` for the eye (hidden from screen
    readers), ``words`` for screen readers (visually hidden), ``kind`` for the
    stylesheet (``up``, ``down``, ``same``, ``new``)."""

    symbol: str
    words: str
    kind: str


def shown(change: Change | None) -> Shown | None:
    """The change in the page's language; ``None`` where there is nothing to compare with."""
    if change is None:
        return None
    if change.new:
        return Shown(pgettext("rank change", "new"), _("new in the ranking"), "new")
    n = abs(change.by)
    if change.by > 0:
        words = ngettext("up %(n)s place", "up %(n)s places", n) % {"n": n}
        return Shown(f"▲ {n}", words, "up")
    if change.by < 0:
        words = ngettext("down %(n)s place", "down %(n)s places", n) % {"n": n}
        return Shown(f"▼ {n}", words, "down")
    return Shown("–", _("place kept"), "same")
