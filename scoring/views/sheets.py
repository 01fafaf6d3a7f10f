"""The sheet of a session, its settlement, the print view and the downloads."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_GET

from plumbing.compression import quick_gzip_page
from scoring import exports, kept_pages
from scoring.models import Session
from scoring.services import Right
from scoring.sheet_html import sheet_context
from scoring.views.common import Request, own_session, session_and_right, whole


@quick_gzip_page
@login_required
@require_GET
def scoreboard(request: Request, pk: int) -> HttpResponse:
    session, right = session_and_right(request, pk, need=Right.READ)
    undo = whole(request.GET.get("undo"))
    undone = session.hands.filter(pk=undo, deleted_at__isnull=False).first() if undo is not None else None
    template = "scoring/scoreboard.html#board" if request.htmx else "scoring/scoreboard.html"
    context = {
        "session": session,
        "right": right,
        "undone": undone,
        **sheet_context(session, show_all="all" in request.GET),
    }
    return kept_pages.sheet_page(request, template, context, session, right)


@quick_gzip_page
@login_required
@require_GET
def settlement(request: Request, pk: int) -> HttpResponse:
    session = own_session(request, pk, need=Right.READ)
    return render(request, "scoring/settlement.html", {"session": session, **sheet_context(session)})


@quick_gzip_page
@login_required
@require_GET
def session_print(request: Request, pk: int) -> HttpResponse:
    """The score sheet as a page to print; the PDF is drawn from the same context."""
    session = own_session(request, pk, need=Right.READ)
    series, appendix = whole(request.GET.get("series")), "appendix" in request.GET
    try:
        page = exports.print_page(session, series=series, appendix=appendix)
    except LookupError:
        raise Http404("no such series") from None
    except exports.ExportRefused as refused:
        return _refused(request, session, refused)
    return HttpResponse(page)


@login_required
@require_GET
def session_export(request: Request, pk: int, kind: str) -> HttpResponse:
    session = own_session(request, pk, need=Right.READ)
    csv_format = request.GET.get("format")
    if kind not in exports.KINDS:
        raise Http404("no such format")
    if csv_format is not None and csv_format not in exports.CSV_FORMATS:
        allowed = ", ".join(exports.CSV_FORMATS)
        return HttpResponseBadRequest(f"format: must be one of {allowed}", content_type="text/plain")
    series, appendix = whole(request.GET.get("series")), "appendix" in request.GET
    try:
        export = exports.session_export(
            session, kind, series=series, appendix=appendix, csv_format=csv_format
        )
    except LookupError:
        raise Http404("no such series") from None
    except exports.ExportRefused as refused:
        return _refused(request, session, refused)
    disposition = content_disposition_header(True, export.filename) or "attachment"
    return HttpResponse(
        export.data, content_type=export.content_type, headers={"Content-Disposition": disposition}
    )


def _refused(request: Request, session: Session, refused: exports.ExportRefused) -> HttpResponse:
    """Back to the sheet, saying why the file or page was not made."""
    messages.error(request, refused.message)
    return redirect("scoreboard", pk=session.pk)
