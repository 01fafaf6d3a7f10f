"""The phone's contract: what the offline scripts (static/js/phone/) are told by
the server instead of guessing it from addresses or markup.

A hand form and a hand's delete form carry an ``outbox`` field: what the form
is (a new hand, a correction, a deletion), the evening it belongs to as the
outbox names it (the session's id, or a table link's token: the first argument
of its ``HandLinks``), the hand, and the sheet a waiting entry is shown on. The
page keeps it with the entry it queues and the service worker reads it from a
form it could not send, so neither parses a URL. The sheet says in one JSON
block (``phone-sheet``) which evening it shows and which pages to keep for the
next minutes at the table. The server ignores the field when the form arrives."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext_noop

from scoring.engine import Line
from scoring.hand_links import HandLinks

FIELD = "outbox"
# A hand form's fields that are not the hand: what the server leaves out of what was
# sent, and what a waiting entry's line on the sheet leaves out (``offline_config``).
NOT_THE_HAND = ("csrfmiddlewaretoken", "token", "action", FIELD)
# The label of the money's row kept in sight, as the sheet names it (scoring.sheet.model).
MONEY = Line(gettext_noop("Money"))


def row_id(hand_id: int) -> str:
    """The id of a hand's row on the sheet: where the sheet is scrolled to after a
    save and where the phone puts a waiting correction or deletion of that hand."""
    return f"hand-{hand_id}"


def form_outbox(links: HandLinks, kind: str, hand_id: int | None = None) -> str:
    """The ``outbox`` field's value of a hand form (``kind``: new, edit or delete)."""
    data: dict[str, Any] = {
        "kind": kind,
        "session": links.args[0],
        "hand": hand_id,
        "sheet": links.url("sheet"),
    }
    if hand_id is not None:
        data["page"] = links.url("hand", hand_id)  # where a refused correction or deletion is put right
        data["row"] = row_id(hand_id)  # where it waits on the sheet
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


def sheet_contract(links: HandLinks, last_hand: int | None, kinds: Sequence[str]) -> dict[str, Any]:
    """What the sheet tells the offline script: the evening as the outbox names it,
    its address, and the pages worth keeping on the phone for the next minutes at
    the table: the new hand's form with each of its kinds of hand (``kinds``, a tab
    each where there is more than one), kept where the page has its ``#new-hand``,
    and the last hand's page and correction form."""
    new = links.url("new")
    last = [links.url("hand", last_hand), links.url("edit", last_hand)] if last_hand is not None else []
    return {
        "session": links.args[0],
        "sheet": links.url("sheet"),
        "newHand": [new, *(f"{new}?type={kind}" for kind in kinds if len(kinds) > 1)],
        "lastHand": last,
    }
