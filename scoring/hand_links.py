"""Where a session's hand pages are: behind a login (``/sessions/7/hands/…``), or
behind a link that is itself the right to record (another app's address for the
same pages). The hand views, the sheet's rows and the hand's pages draw every
address they link to from one ``HandLinks``, so one code path serves both."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from django.urls import reverse

# The login pages' names, by what they are.
SIGNED_IN: Mapping[str, str] = MappingProxyType(
    {
        "sheet": "scoreboard",
        "new": "hand_new",
        "preview": "hand_preview",
        "hand": "hand_detail",
        "edit": "hand_edit",
        "edit_preview": "hand_edit_preview",
        "delete": "hand_delete",
        "restore": "hand_restore",
    }
)


@dataclass(frozen=True)
class HandLinks:
    """The URL names of the hand pages (``names``: each of ``SIGNED_IN``'s keys)
    and the arguments every one of them takes first (the session's id, or a link's token)."""

    names: Mapping[str, str] = field(default_factory=lambda: SIGNED_IN)
    args: tuple[object, ...] = ()

    def url(self, kind: str, hand_id: int | None = None) -> str:
        extra = () if hand_id is None else (hand_id,)
        return reverse(self.names[kind], args=[*self.args, *extra])

    @property
    def key(self) -> str:
        """What sets these addresses apart, for the keys of rows drawn with them."""
        return "" if self.names is SIGNED_IN else f"{self.names['sheet']}:{self.args}"

    def of(self, hand_id: int) -> dict[str, str]:
        """Every address of one hand, as templates read them."""
        return {kind: self.url(kind, hand_id) for kind in ("hand", "edit", "delete", "restore")}


def signed_in(session_id: int) -> HandLinks:
    """The login pages of a session's hands."""
    return HandLinks(SIGNED_IN, (session_id,))
