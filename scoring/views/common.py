"""What every view of the evenings shares: access, the outbox's answers, and
the request type and parameters (``plumbing.requests``, shared by every app)."""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _

from plumbing.requests import FORM_TOKEN as FORM_TOKEN  # the evenings' views read these from here
from plumbing.requests import Request as Request
from plumbing.requests import posted_token as posted_token
from plumbing.requests import whole as whole
from scoring import services
from scoring.hand_links import signed_in
from scoring.hand_pages import Gone, Place
from scoring.models import Hand, Session


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
