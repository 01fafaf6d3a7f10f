"""The hand pages (new, preview, correct, delete, restore, a hand's own page) for
any ``Place``: what another app calls to show them behind an address of its own
(a tournament table's link), so that one code path serves the login's pages and
a link's. The pages themselves are the evenings' views (``scoring.views.hands``);
this is the one door to them from outside the evenings, with what an outside
view needs to answer a phone's outbox the way the evenings do."""

from __future__ import annotations

from scoring.views.common import (
    OUTBOX_HEADER,
    REFUSED_HEADER,
    STORED_HEADER,
    Gone,
    Place,
    from_outbox,
    refused,
    tells_the_outbox,
)
from scoring.views.hands import delete_hand, edit_hand, new_hand, preview_hand, restore_hand, show_hand

__all__ = [
    "OUTBOX_HEADER",
    "REFUSED_HEADER",
    "STORED_HEADER",
    "Gone",
    "Place",
    "delete_hand",
    "edit_hand",
    "from_outbox",
    "new_hand",
    "preview_hand",
    "refused",
    "restore_hand",
    "show_hand",
    "tells_the_outbox",
]
