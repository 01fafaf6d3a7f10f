"""Creating a session from a ``tarockscore/1`` file."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext

from scoring.engine import read_session, score_hand
from scoring.models import Hand, HandChange, Session
from scoring.services.games import Game
from scoring.services.hands import snapshot, store
from scoring.services.sessions import session_create


def name_from_filename(filename: str) -> str:
    """A session name from an uploaded file's name: ``freitag_bei_carl.json`` → ``freitag bei carl``."""
    stem = filename.rsplit("/", 1)[-1].split(".")[0]
    return stem.replace("_", " ").replace("-", " ").strip()[:80] or gettext("Imported session")


@transaction.atomic
def session_import(*, owner: User, text: str | bytes, name: str) -> Session:
    """Create a session from a ``tarockscore/1`` file. A file with any error is
    refused as a whole (``InvalidInput`` naming hand and field); nothing is created."""
    document = read_session(text)
    session = session_create(
        owner=owner,
        name=name,
        variant=document.variant.key,
        players=list(document.players),
        options=document.variant.dump_options(document.options),
    )
    game = Game(document.variant, document.players, document.options)
    hands = []
    for number, record in enumerate(document.hands, 1):
        hand = Hand(session=session, number=number, created_by=owner)
        store(hand, game, record, score_hand(game.variant, record, game.options))
        hands.append(hand)
    Hand.objects.bulk_create(hands)
    stored = Hand.objects.filter(session=session).order_by("number")
    HandChange.objects.bulk_create(
        HandChange(hand=hand, user=owner, action=HandChange.Action.IMPORTED, after=snapshot(hand))
        for hand in stored
    )
    return session
