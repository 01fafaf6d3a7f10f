"""Sharing a session: the owner's page, and the read-only board behind a link."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.http import HttpResponseStopPolling

from plumbing import caching
from plumbing.compression import quick_gzip_page
from plumbing.qr import qr_svg
from scoring import services
from scoring.hand_pages import hand_page_context, managed
from scoring.models import Hand, Session
from scoring.services import Right
from scoring.sheet_html import sheet_context
from scoring.views.common import Request, own_session, shared_session, whole


@login_required
@require_http_methods(["GET", "POST"])
def sharing(request: Request, pk: int) -> HttpResponse:
    """The owner shares a read-only link and chooses who else may record hands."""
    session = own_session(request, pk, need=Right.OWN)
    if session.managed:
        return managed(request, session)
    error = _act(session, request.POST) if request.method == "POST" else None
    if request.method == "POST" and error is None:
        return redirect("sharing", pk=session.pk)
    link = None
    if session.share_token:
        link = request.build_absolute_uri(reverse("shared_board", args=[session.share_token]))
    editors = session.editors.order_by("username")
    context = {"session": session, "link": link, "editors": editors, "error": error}
    context["qr"] = qr_svg(link, label=_("QR code of the link")) if link else ""
    return render(request, "scoring/sharing.html", context, status=400 if error else 200)


def _act(session: Session, posted: QueryDict) -> str | None:
    """Carry out one action of the sharing page; what went wrong, if anything."""
    action = posted.get("action", "")
    if action == "share":
        services.session_share(session=session)
    elif action == "unshare":
        services.session_unshare(session=session)
    elif action == "add_editor":
        try:
            services.session_add_editor(session=session, username=posted.get("username", ""))
        except services.EditorRefused as refused:
            if refused.reason == "unknown":
                return _("There is no registered user of that name.")
            return _("The owner can record hands already.")
    elif action == "remove_editor" and (editor := whole(posted.get("user"))) is not None:
        services.session_remove_editor(session=session, user_id=editor)
    return None


# Requests one share link may make in a minute: forty phones watching, each asking
# every four seconds whether anything changed; a stranger gets no further.
SHARED_BOARD_PER_MINUTE = 600


@quick_gzip_page
@require_GET
def shared_board(request: Request, token: str) -> HttpResponse:
    """The live sheet, read-only, for anyone with the link. The page asks every few
    seconds whether anything changed (htmx); only then is the board sent again, so a
    reader's place stays put. A revoked link's poll gets a notice that stops polling."""
    try:
        row = services.shared_row(token)  # one narrow read; no login session, no seats, no hands
    except Session.DoesNotExist:
        if not request.htmx:
            return revoked(request)
        return HttpResponseStopPolling(render(request, "scoring/shared.html#revoked").content)
    if not caching.within_rate(f"shared-board:{token}", SHARED_BOARD_PER_MINUTE):
        refused = _("Too many requests for this link; try again in a minute.")
        return HttpResponse(refused, status=429, headers={"Retry-After": "60"})
    if request.htmx and request.GET.get("since") == services.row_version(row):
        return HttpResponse(status=204)  # nothing changed: answered before anything else is made
    session: Session = row.session()
    board = services.BoardState.of(session)
    template = "scoring/shared.html#board" if request.htmx else "scoring/shared.html"
    context = {
        "session": session,
        "share_token": token,
        **sheet_context(session, show_all="all" in request.GET),
    }
    context.update(version=board.version, last_change=board.last_change)
    return render(request, template, context)


def revoked(request: HttpRequest) -> HttpResponse:
    """A link that no longer works, opened afresh: the notice a watching phone gets."""
    return render(request, "scoring/shared_revoked.html", status=410)


@require_GET
def shared_hand(request: Request, token: str, hand_id: int) -> HttpResponse:
    try:
        session = shared_session(token)
    except Http404:
        return revoked(request)
    hand = get_object_or_404(Hand, pk=hand_id, session=session, deleted_at__isnull=True)
    return render(request, "scoring/hand_detail.html", hand_page_context(hand, share_token=token))
