"""What the offline script needs from the server: the worker's address and the
words it shows, given to it as data (a JSON block is never executed)."""

from __future__ import annotations

import time
from typing import Any

from django import template
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import json_script
from django.utils.safestring import SafeString

from plumbing import caching, offline
from scoring import phone, services
from scoring.models import Session

register = template.Library()


@register.simple_tag(takes_context=True)
def offline_config(context: template.Context) -> SafeString:
    config = {
        "worker": reverse("service_worker"),
        "outbox": static(offline.OUTBOX),
        "texts": offline.texts(),
        # When the page was drawn: a copy kept for offline says "the state of" this time.
        # A page kept for later views (``plumbing.pages``) is drawn with a mark here.
        "rendered": context.get("offline_rendered") or int(time.time()),
        # The engine on the phone (scoring/phone.py): none where it is not built.
        "engine": phone.engine_config(),
    }
    return json_script(config, "offline-config")


@register.simple_tag
def engine_game(session: Session, sheet: Any = None, game: Any = None) -> SafeString:
    """The evening as the phone's engine reads it (a JSON block), where it has the game;
    from the sheet's own snapshots where the page has the sheet (no query of its own);
    ``game``: the session's game where the page read it already (the hand form). Kept
    per version of the evening: the sheet a save leads to draws it, and the hand form
    opened from that sheet for the next hand reads it from there."""

    def draw() -> SafeString:
        if sheet:
            rows = [(row.hand_id, row.type.value, row.version) for row in sheet.rows]
            data = phone.evening(session, sheet.game, sheet.snapshots, rows)
        else:
            data = phone.evening(session, game or services.game_of(session))
        return json_script(data, "engine-game") if data is not None else SafeString("")

    return caching.cached(caching.session_key(session, "engine-game"), draw)
