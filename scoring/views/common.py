"""What every view of the evenings shares: access, the outbox's answers, and
the request type and parameters (``plumbing.requests``, shared by every app)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from plumbing.requests import FORM_TOKEN as FORM_TOKEN  # the evenings' views read these from here
from plumbing.requests import Request as Request
from plumbing.requests import posted_token as posted_token
from plumbing.requests import whole as whole
from scoring import services
from scoring.hand_links import HandLinks, signed_in
from scoring.models import Hand, Session
from scoring.services.hand_page import hand_page

# A phone sending what it kept offline (static/js/outbox.js) says so, and is told
# what was stored, or why nothing was: the reason as data, never a page to read it from.
OUTBOX_HEADER, STORED_HEADER, REFUSED_HEADER = "X-Tarock-Outbox", "X-Tarock-Stored", "X-Tarock-Refused"


class Gone(Http404):
    """What a request was for is not there for this account; ``reason`` says so
    in the player's words (any other page answers with the usual 404)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def from_outbox(request: HttpRequest) -> bool:
    return request.headers.get(OUTBOX_HEADER) == "1"


def refused(reason: str, *, status: int) -> HttpResponse:
    """Nothing was stored, and why, for a phone sending its outbox to keep beside the hand."""
    response = JsonResponse({"reason": reason}, status=status)
    response[REFUSED_HEADER] = "1"
    return response


def tells_the_outbox(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A form sent from a phone's outbox to an evening, hand or kind of hand that is
    gone is refused with the reason, not with the "Not Found" page."""

    @wraps(view)
    def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except Gone as gone:
            if not from_outbox(request):
                raise
            return refused(gone.reason, status=404)

    return answer


def own_session(request: Request, pk: int, *, need: services.Right) -> Session:
    """The session if the user has at least the right ``need`` on it
    (``services.access``); a 404 otherwise."""
    return session_and_right(request, pk, need=need)[0]


def session_and_right(request: Request, pk: int, *, need: services.Right) -> tuple[Session, services.Right]:
    """The session and the user's right on it, if at least ``need``; a 404 otherwise."""
    try:
        return services.session_and_right(request.user, pk, need=need)
    except Session.DoesNotExist:
        raise Gone(_("This evening was deleted or is no longer open to this account.")) from None


def own_hand(request: Request, pk: int, hand_id: int, *, need: services.Right) -> Hand:
    """The hand, with its session, if the user has at least the right ``need`` on
    that session; a 404 otherwise."""
    return hand_and_right(request, pk, hand_id, need=need)[0]


def hand_and_right(
    request: Request, pk: int, hand_id: int, *, need: services.Right
) -> tuple[Hand, services.Right]:
    """The hand, with its session, and the user's right on it; a 404 otherwise."""
    try:
        return services.hand_of(request.user, pk, hand_id, need=need)
    except Hand.DoesNotExist:
        own_session(request, pk, need=need)  # the evening gone, or only the hand
        raise Gone(_("This hand is no longer on this evening's sheet.")) from None


@dataclass(frozen=True)
class Place:
    """Where a hand page works: the session, the reader's right on it, where its
    pages are (``links``), who records (an account, or none) and, where a link
    lets a phone record, the phone's label and what the page's header says."""

    session: Session
    right: services.Right
    links: HandLinks
    user: User | None
    device: str = ""
    title: str = ""


def signed_in_place(request: Request, pk: int, *, need: services.Right) -> Place:
    """The session's place for a signed-in reader with at least the right ``need``; a 404 otherwise."""
    session, right = session_and_right(request, pk, need=need)
    return Place(session, right, signed_in(pk), request.user)


def signed_in_hand(request: Request, pk: int, hand_id: int, *, need: services.Right) -> tuple[Hand, Place]:
    """A hand and its session's place for a signed-in reader; a 404 otherwise."""
    hand, right = hand_and_right(request, pk, hand_id, need=need)
    return hand, Place(hand.session, right, signed_in(pk), request.user)


def shared_session(token: str) -> Session:
    try:
        return services.session_shared(token)
    except Session.DoesNotExist:
        raise Http404("this link is not shared (any more)") from None


def closed(request: HttpRequest, session: Session, sheet: str = "") -> HttpResponse:
    """Back to the sheet of a closed evening (``sheet``: its address, if not the
    login's), saying why nothing was changed (to a phone sending its outbox, the
    reason alone: 423, the evening is locked)."""
    if from_outbox(request):
        why = _("This evening is closed: reopen it to record or change hands and house rules.")
        return refused(why, status=423)
    # Said inside the sheet's closed notice, not a second time above it.
    messages.error(
        request,
        _("Nothing was changed: reopen the evening to record or change hands and house rules."),
        extra_tags="closed",
    )
    return redirect(sheet or reverse("scoreboard", args=[session.pk]))


MANAGED = gettext_noop(
    "Nothing was changed: the settings, players and names of this evening are fixed by the event it belongs to."
)


def managed(request: HttpRequest, session: Session) -> HttpResponse:
    """Back to the sheet of a managed evening (``Session.managed``), saying why
    nothing was changed (to a phone sending its outbox, the reason alone: 423)."""
    if from_outbox(request):
        return refused(_(MANAGED), status=423)
    messages.error(request, _(MANAGED))
    return redirect("scoreboard", pk=session.pk)


def on_sheet(hand: Hand, links: HandLinks | None = None) -> str:
    """The sheet scrolled to this hand's row. A hand changed since it was recorded
    (corrected, restored) may be older than the latest hands a sheet shows at
    first, so the whole sheet is shown."""
    every = "?all=1" if hand.version > 1 else ""
    return (links or signed_in(hand.session_id)).url("sheet") + f"{every}#hand-{hand.pk}"


def hand_page_context(
    hand: Hand,
    *,
    share_token: str | None = None,
    right: services.Right = services.Right.READ,
    links: HandLinks | None = None,
) -> dict[str, Any]:
    """A hand's own page: what it scored, how, and (for those who may see the
    sheet) its history; its buttons for those who may change it."""
    page = hand_page(hand, history=not share_token)
    links = links or signed_in(hand.session_id)
    return {
        "links": links,
        "sheet_url": links.url("sheet"),
        "hand_urls": links.of(hand.pk),
        "session": hand.session,
        "hand": hand,
        "number": hand.number,  # as on the sheet, for good: a deletion renumbers nothing
        "deltas": page.deltas,
        "share_token": share_token,
        "right": right,
        "changes": page.changes,
    }
