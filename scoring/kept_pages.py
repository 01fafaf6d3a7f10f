"""Which of an evening's pages are kept, and under which keys: the one place that
decides it (``plumbing.pages`` keeps them; docs/performance.md, "Each caching layer
on and off", says what each saves against the targets).

- **The sheet page** keeps its frame across versions; what changes with a hand
  (``sheet_holes``: the board, and the exports where the game has series) is drawn
  into it for every view, from the board kept per version (``{% cache %}`` in
  templates/scoring/scoreboard.html) and its rows kept per version and place
  (``sheet_html.hand_rows``).
- **The new hand's form** keeps its frame the same way; "hand n of T", the
  phone's evening (``NEW_HAND_HOLES``; the evening kept per version by the sheet a
  save leads to, ``templatetags.offline.engine_game``) and the dealer's choice are
  drawn into it per view. The dealer moves on with every hand; the rest of the
  form follows him only through who sits out, so a table's form is drawn once
  for the evening (once per player sitting out), not once per dealer.

A frame's key is derived from what it shows, never listed by hand: every column of
the session's row but those each hand changes (``session_lines``), and what the
reader or the request chose (right, players, kind of hand, dealer). A column added
to the session therefore changes every frame's key without anyone naming it here.
"""

from __future__ import annotations

import json
from typing import Any

from django.db.models import Field, JSONField
from django.http import HttpRequest, HttpResponse

from plumbing import pages
from plumbing.requests import Request
from scoring.engine import VARIANTS
from scoring.models import Session

# The session's columns every hand changes: its version and when it changed.
PER_HAND = frozenset({"version", "changed_at"})


def session_lines(session: Session) -> tuple[object, ...]:
    """Everything the session's row holds but what each hand changes: what a frame
    shows of the evening (its name, date, game, house rules, whether closed or
    managed …) and more, so that no column it shows can be left out of its key.
    The house rules as stored (JSON, keys in order): the row as created holds them
    as the engine's values, the row read back as text, and PostgreSQL reorders
    their keys; all three are the same evening."""
    return tuple(
        _as_stored(field, getattr(session, field.attname))
        for field in Session._meta.concrete_fields
        if field.attname not in PER_HAND
    )


def _as_stored(field: Field[Any, Any], value: object) -> object:
    if isinstance(field, JSONField):  # written as the field writes it, keys in order
        return json.dumps(value, sort_keys=True, cls=field.encoder)
    return value


def sheet_holes(session: Session) -> tuple[str, ...]:
    """The parts of the sheet page drawn again for every version: the board (its
    deleted hands struck through in their places), and the exports where the game
    has series or rounds (a series settled on its own gets its PDF); elsewhere the
    exports are the same for every version."""
    kind = VARIANTS[session.variant].section_kind if session.variant in VARIANTS else None
    return ("board", "exports") if kind is not None else ("board",)


def sheet_page(
    request: Request, template: str, context: dict[str, Any], session: Session, right: int
) -> HttpResponse:
    """The sheet page in the frame kept for the session's lines and the reader's right;
    the board alone (asked for by htmx) is the board kept per version."""
    if request.htmx:
        return pages.render_fresh(request, template, context)
    frame = (*session_lines(session), int(right))
    return pages.render_kept(request, template, context, frame, holes=sheet_holes(session))


# What the new hand's form shows of the evening's hands, drawn again for each view:
# "hand n of T", the phone's evening, and the dealer (the next in turn after each hand).
NEW_HAND_HOLES = ("count", "evening", "dealer")


def new_hand_form(
    request: HttpRequest, template: str, context: dict[str, Any], session: Session, chosen: tuple[object, ...]
) -> HttpResponse:
    """The new hand's form, opened before every hand, in the frame kept for the
    session's lines and what the page was opened with (``chosen``: the players, the
    kind of hand, who sits out, the table's title) and whether signed in; the
    one-time token is put in per view."""
    frame = (*session_lines(session), *chosen, request.user.is_authenticated)
    context = {**context, "token": pages.ONCE_MARK}
    return pages.render_kept(request, template, context, frame, holes=NEW_HAND_HOLES)
