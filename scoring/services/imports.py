"""Creating a session from a ``tarockscore/1`` file."""

from __future__ import annotations

import re
import unicodedata

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext

from scoring.engine import StoredHand, read_session
from scoring.engine.session_file import MAX_SESSION_NAME, read_session_name
from scoring.games import registry
from scoring.models import Hand, HandChange, Session
from scoring.services.games import Game
from scoring.services.hands import snapshot, store
from scoring.services.sessions import session_create


def name_from_filename(filename: str) -> str:
    """A session name from a file's name, its letters intact:
    ``tarot-zu-fünft.json`` → ``tarot zu fünft``, ``freitag_bei_carl.json`` → ``freitag bei carl``."""
    stem = re.split(r"[/\\]", unicodedata.normalize("NFC", filename))[-1]
    stem = stem.rsplit(".", 1)[0] if "." in stem.lstrip(".") else stem
    words = "".join(" " if c in "_-" or not c.isprintable() else c for c in stem).split()
    return " ".join(words)[:MAX_SESSION_NAME].strip() or gettext("Imported session")


@transaction.atomic
def session_import(*, owner: User, text: str | bytes, name: str = "", filename: str = "") -> Session:
    """Create a session from a ``tarockscore/1`` file. A file with any error is
    refused as a whole (``InvalidInput`` naming hand and field); nothing is created.

    The session is called ``name`` when one is given (typed in the form,
    ``--name``), else what the file calls it, else after ``filename``."""
    document = read_session(text, registry())
    explicit = name.strip()
    if explicit:
        explicit = read_session_name(explicit)
    session = session_create(
        owner=owner,
        name=explicit or document.name or name_from_filename(filename),
        variant=document.variant.key,
        players=list(document.players),
        options=document.variant.dump_options(document.options),
        money_rate=document.money_rate,
        played_on=document.date,
    )
    game = Game(document.variant, document.players, document.options)
    hands = []
    earlier: list[
        StoredHand
    ] = []  # each hand is scored in its place, as ``score_session`` does (doubled Radl)
    for number, record in enumerate(document.hands, 1):
        hand = Hand(session=session, number=number, created_by=owner)
        scored = game.variant.scored_hand(record, game.options, earlier)
        store(hand, scored)
        earlier.append(scored.stored())
        hands.append(hand)
    Hand.objects.bulk_create(hands)
    stored = Hand.objects.filter(session=session).order_by("number")
    HandChange.objects.bulk_create(
        HandChange(hand=hand, user=owner, action=HandChange.Action.IMPORTED, after=snapshot(hand))
        for hand in stored
    )
    return session
