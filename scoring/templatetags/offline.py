"""What the offline script needs from the server: the worker's address and the
words it shows, given to it as data (a JSON block is never executed)."""

from __future__ import annotations

import time
from typing import Any

from django import template
from django.conf import settings
from django.urls import reverse
from django.utils.html import format_html, json_script
from django.utils.safestring import SafeString

from plumbing import caching, offline
from scoring import phone, phone_contract, services
from scoring.hand_links import HandLinks, signed_in
from scoring.models import Session
from scoring.sheet.model import HeadRow

register = template.Library()


@register.simple_tag(takes_context=True)
def offline_config(context: template.Context) -> SafeString:
    config = {
        "worker": reverse("service_worker"),
        # The cookie the forms' CSRF token is read from (a form sent from the outbox).
        "csrfCookie": settings.CSRF_COOKIE_NAME,
        "texts": offline.texts(),
        # A hand form's fields that are not the hand (scoring/phone_contract.py).
        "notTheHand": list(phone_contract.NOT_THE_HAND),
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


@register.filter
def row_id(hand_id: int) -> str:
    """A hand's row id on the sheet (``scoring.phone_contract.row_id``)."""
    return phone_contract.row_id(hand_id)


@register.simple_tag
def outbox_field(links: HandLinks, kind: str, hand: Any = None) -> SafeString:
    """A hand form's ``outbox`` field (``scoring.phone_contract``): what the phone
    files the form as when it cannot send it."""
    value = phone_contract.form_outbox(links, kind, hand.pk if hand is not None else None)
    return format_html('<input type="hidden" name="{}" value="{}">', phone_contract.FIELD, value)


@register.simple_tag(takes_context=True)
def phone_sheet(context: template.Context, session: Session, sheet: Any) -> SafeString:
    """The sheet's part of the phone's contract (a JSON block, ``phone-sheet``): which
    evening the outbox's waiting hands shown here belong to. None on a shared sheet."""
    if context.get("share_token"):
        return SafeString("")
    links = context.get("links") or signed_in(session.pk)
    last = sheet.rows[-1].hand_id if sheet.rows else None
    kinds = [kind.value for kind in sheet.game.variant.allowed_hand_types(sheet.game.options)]
    return json_script(phone_contract.sheet_contract(links, last, kinds), "phone-sheet")


@register.simple_tag
def phone_heads(sheet: Any) -> list[HeadRow]:
    """The rows kept in sight that a hand waiting on the phone may bring before the
    server draws them: the money under the totals, once a hand pays money beside its
    Schrift (the phone draws it from a <template>, static/js/phone/sheet.js). None
    where no hand can (the game's ``pays_apart``: a Schrift with its Kontra in it)."""
    if not sheet.game.variant.pays_apart(sheet.game.options) or [row.key for row in sheet.head_rows] != [
        "totals"
    ]:
        return []
    return [HeadRow("money", phone_contract.MONEY, tuple(0 for _ in sheet.players))]
