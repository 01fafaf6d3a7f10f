"""The sheet of a session, its settlement, the print view and the downloads."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_GET

from scoring import exports
from scoring.presentation import house_rules
from scoring.sheet import build_sheet, deleted_hands, print_context
from scoring.views.common import Request, own_session, whole


@login_required
@require_GET
def scoreboard(request: Request, pk: int) -> HttpResponse:
    session = own_session(request, pk)
    sheet = build_sheet(session)
    undo = whole(request.GET.get("undo"))
    undone = session.hands.filter(pk=undo, deleted_at__isnull=False).first() if undo is not None else None
    template = "scoring/scoreboard.html#board" if request.htmx else "scoring/scoreboard.html"
    rules = house_rules(sheet.game.variant, sheet.game.options)
    context = {"session": session, "sheet": sheet, "undone": undone, "rules": rules}
    if not request.htmx:
        context["deleted"] = deleted_hands(sheet)
    return render(request, template, context)


@login_required
@require_GET
def settlement(request: Request, pk: int) -> HttpResponse:
    session = own_session(request, pk)
    return render(request, "scoring/settlement.html", {"session": session, "sheet": build_sheet(session)})


@login_required
@require_GET
def session_print(request: Request, pk: int) -> HttpResponse:
    """The score sheet as a page to print; the PDF is drawn from the same context."""
    sheet = build_sheet(own_session(request, pk))
    try:
        context = print_context(
            sheet, series=whole(request.GET.get("series")), appendix="appendix" in request.GET
        )
    except LookupError:
        raise Http404("no such series") from None
    return HttpResponse(exports.print_html(context))


@login_required
@require_GET
def session_export(request: Request, pk: int, kind: str) -> HttpResponse:
    session = own_session(request, pk)
    if kind not in exports.KINDS:
        raise Http404("no such format")
    csv_format = request.GET.get("format")
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
    disposition = content_disposition_header(True, export.filename) or "attachment"
    return HttpResponse(
        export.data, content_type=export.content_type, headers={"Content-Disposition": disposition}
    )
