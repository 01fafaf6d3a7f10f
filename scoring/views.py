"""Views: fetch, bind, call a service, render or redirect.

One view serves a full page or, for htmx, a named fragment of it. Every page
works without JavaScript; htmx only spares the reload.
"""

from __future__ import annotations

import dataclasses
import re
import uuid
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST
from django_htmx.middleware import HtmxDetails

from scoring import busy, services
from scoring.engine import VARIANTS, HandType, InvalidInput
from scoring.forms import HandForm, SchemaForm, SessionForm
from scoring.models import Hand, Session, variant_choices
from scoring.pdf import print_context, session_pdf, session_print_html, sheet_chart
from scoring.presentation import house_rules, number, render_line
from scoring.uploads import upload_too_large


class Request(HttpRequest):
    """A request to a view behind ``login_required``, with django-htmx's details."""

    user: User
    htmx: HtmxDetails


FORM_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,40}")  # what a form sends back; anything else gets a new one


def _whole(raw: str | None) -> int | None:
    """A non-negative whole number from a request parameter, or None (never an error)."""
    if raw and len(raw) <= 12 and raw.isascii() and raw.isdecimal():
        return int(raw)
    return None


def _own_session(request: Request, pk: int, *, owner_only: bool = False) -> Session:
    """The session if the user owns it or was made an editor; a 404 otherwise."""
    try:
        return services.session_for(request.user, pk, owner_only=owner_only)
    except Session.DoesNotExist:
        raise Http404("no such session") from None


def _own_hand(request: Request, pk: int, hand_id: int) -> Hand:
    session = _own_session(request, pk)
    hand = get_object_or_404(Hand, pk=hand_id, session_id=session.pk)
    hand.session = session
    return hand


# -- sessions --------------------------------------------------------------------------


@login_required
def session_list(request: Request) -> HttpResponse:
    sessions = (
        Session.objects.filter(Q(owner=request.user) | Q(editors=request.user))
        .distinct()
        .annotate(hand_count=Count("hands", filter=Q(hands__deleted_at__isnull=True), distinct=True))
        .select_related("owner")
        .prefetch_related("seats")
    )
    return render(request, "scoring/session_list.html", {"sessions": sessions})


@login_required
def session_new(request: Request, variant: str | None = None) -> HttpResponse:
    if variant is None:
        games = [(key, label, key in VARIANTS) for key, label in variant_choices()]
        return render(request, "scoring/session_new_game.html", {"games": games})
    if variant not in VARIANTS:
        raise Http404("no such game")
    game = VARIANTS[variant]
    data = request.POST if request.method == "POST" else None
    form = SessionForm(
        data,
        seats=max(game.table_sizes),
        initial={"name": _("Tarock evening, %(date)s") % {"date": date_format(timezone.localdate())}},
    )

    options = SchemaForm(
        game.option_fields,
        (),
        prefix="options.",
        data=data,
        initial=dataclasses.asdict(game.options_type()),
    )
    if data is not None and data.get("action") != "refresh" and form.is_valid():
        try:
            session = services.session_create(
                owner=request.user,
                name=form.cleaned_data["name"],
                variant=variant,
                players=form.players(),
                options=options.raw,
                money_rate=form.cleaned_data["money_rate"],
            )
        except InvalidInput as error:
            if error.field.startswith("options."):
                options.add_error(error)
            else:
                form.add_error(None, _("Players: %(error)s") % {"error": render_line(error.line)})
        else:
            return redirect("scoreboard", pk=session.pk)
    known_players = request.user.players.values_list("name", flat=True)
    return render(
        request,
        "scoring/session_new.html",
        {
            "game": game,
            "form": form,
            "options": options,
            "option_widgets": options.widgets(),
            "known_players": known_players,
        },
    )


@login_required
def scoreboard(request: Request, pk: int) -> HttpResponse:
    session = _own_session(request, pk)
    sheet = services.session_sheet(session)
    undo = _whole(request.GET.get("undo"))
    undone = session.hands.filter(pk=undo, deleted_at__isnull=False).first() if undo is not None else None
    template = "scoring/scoreboard.html#board" if request.htmx else "scoring/scoreboard.html"
    rules = house_rules(sheet.game.variant, sheet.game.options)
    context = {
        "session": session,
        "sheet": sheet,
        "undone": undone,
        "rules": rules,
        "chart": sheet_chart(sheet),
    }
    return render(request, template, context)


# -- sharing ------------------------------------------------------------------------------


@login_required
def sharing(request: Request, pk: int) -> HttpResponse:
    """The owner shares a read-only link and chooses who else may record hands."""
    session = _own_session(request, pk, owner_only=True)
    error = None
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action == "share":
            services.session_share(session=session)
        elif action == "unshare":
            services.session_unshare(session=session)
        elif action == "add_editor":
            try:
                services.session_add_editor(session=session, username=request.POST.get("username", ""))
            except services.EditorRefused as refused:
                error = (
                    _("There is no registered user of that name.")
                    if refused.reason == "unknown"
                    else _("The owner can record hands already.")
                )
        elif action == "remove_editor" and (editor := _whole(request.POST.get("user"))) is not None:
            services.session_remove_editor(session=session, user_id=editor)
        if error is None:
            return redirect("sharing", pk=session.pk)
    link = (
        request.build_absolute_uri(reverse("shared_board", args=[session.share_token]))
        if session.share_token
        else None
    )
    context = {
        "session": session,
        "link": link,
        "editors": session.editors.order_by("username"),
        "error": error,
    }
    return render(request, "scoring/sharing.html", context, status=400 if error else 200)


def _shared_session(token: str) -> Session:
    try:
        return services.session_shared(token)
    except Session.DoesNotExist:
        raise Http404("this link is not shared (any more)") from None


@require_GET
def shared_board(request: Request, token: str) -> HttpResponse:
    """The live sheet, read-only, for anyone with the link. The page asks every
    few seconds whether anything changed (htmx); only then is the board sent
    again, so a reader's place and focus stay put while nothing happens. A
    revoked link answers the poll with a notice and status 286, which stops it."""
    try:
        session = _shared_session(token)
    except Http404:
        if not request.htmx:
            raise
        return render(request, "scoring/shared.html#revoked", {}, status=286)
    board = services.session_board_state(session)
    if request.htmx and request.GET.get("since") == board.version:
        return HttpResponse(status=204)
    sheet = services.session_sheet(session)
    template = "scoring/shared.html#board" if request.htmx else "scoring/shared.html"
    context = {
        "session": session,
        "sheet": sheet,
        "share_token": token,
        "chart": sheet_chart(sheet),
        "version": board.version,
        "last_change": board.last_change,
    }
    return render(request, template, context)


@require_GET
def shared_hand(request: Request, token: str, hand_id: int) -> HttpResponse:
    session = _shared_session(token)
    hand = get_object_or_404(Hand, pk=hand_id, session=session, deleted_at__isnull=True)
    return render(request, "scoring/hand_detail.html", _hand_page_context(hand, share_token=token))


@login_required
def settlement(request: Request, pk: int) -> HttpResponse:
    session = _own_session(request, pk)
    sheet = services.session_sheet(session)
    return render(request, "scoring/settlement.html", {"session": session, "sheet": sheet})


# -- hands ------------------------------------------------------------------------------


def _hand_type(game: services.Game, raw: str | None) -> HandType:
    allowed = {t.value: t for t in game.variant.allowed_hand_types(game.options)}
    if raw and raw not in allowed:
        raise Http404("no such kind of hand")
    return allowed.get(raw or "", HandType.PLAYED)


def _preview(game: services.Game, form: HandForm) -> dict[str, Any]:
    """The live preview: the deltas and the breakdown, or what is still missing."""
    try:
        record, score = services.hand_check(game=game, raw=form.raw())
    except InvalidInput as error:
        return {"error": error, "error_text": f"{error.field}: {render_line(error.line)}"}
    return {
        "deltas": [(name, score.deltas[name]) for name in game.players],
        "lines": score.breakdown,
        "description": game.variant.describe_record(record),
    }


def _hand_page(
    request: HttpRequest,
    session: Session,
    game: services.Game,
    form: HandForm,
    *,
    hand: Hand | None,
    token: str,
    conflict: Hand | None = None,
    status: int = 200,
) -> HttpResponse:
    preview_url = (
        reverse("hand_preview", args=[session.pk])
        if hand is None
        else reverse("hand_edit_preview", args=[session.pk, hand.pk])
    )
    context = {
        "session": session,
        "game": game,
        "form": form,
        "hand": hand,
        "token": token,
        "preview": _preview(game, form) if (request.method == "POST" or hand) else None,
        "preview_url": preview_url,
        "conflict": conflict,
        "hand_types": game.variant.allowed_hand_types(game.options),
    }
    return render(request, "scoring/hand_form.html", context, status=status)


@login_required
@never_cache
def hand_new(request: Request, pk: int) -> HttpResponse:
    session = _own_session(request, pk)
    game = services.game_of(session)
    source = request.POST if request.method == "POST" else request.GET
    hand_type = _hand_type(game, source.get("type"))
    proposed = services.proposed_dealer(session, game)
    form = HandForm(
        variant=game.variant,
        players=game.players,
        options=game.options,
        hand_type=hand_type,
        data=request.POST if request.method == "POST" else None,
        dealer=proposed,
    )
    posted = request.POST.get("token", "")
    token = posted if FORM_TOKEN.fullmatch(posted) else uuid.uuid4().hex
    if request.POST.get("action") == "count":
        form.count_cards()
    if request.method == "POST" and request.POST.get("action", "save") == "save":
        try:
            hand = services.hand_record(
                session=session, raw=form.raw(), user=request.user, client_token=token
            )
        except InvalidInput as error:
            form.add_error(error)
        except busy.DatabaseBusy:
            form.other_errors.append(busy.message())  # the inputs are shown again, nothing is lost
            return busy.answer(_hand_page(request, session, game, form, hand=None, token=token))
        else:
            return redirect(reverse("scoreboard", args=[session.pk]) + f"#hand-{hand.pk}")
    return _hand_page(request, session, game, form, hand=None, token=token)


@login_required
@require_POST
def hand_preview(request: Request, pk: int, hand_id: int | None = None) -> HttpResponse:
    session = _own_session(request, pk)
    if hand_id is not None:
        _own_hand(request, pk, hand_id)
    game = services.game_of(session)
    form = HandForm(
        variant=game.variant,
        players=game.players,
        options=game.options,
        hand_type=_hand_type(game, request.POST.get("type")),
        data=request.POST,
    )
    return render(request, "scoring/hand_form.html#preview", {"preview": _preview(game, form), "game": game})


def _hand_page_context(hand: Hand, *, share_token: str | None = None) -> dict[str, Any]:
    game = services.game_of(hand.session)
    position = hand.session.hands.filter(deleted_at__isnull=True, number__lte=hand.number).count()
    return {
        "session": hand.session,
        "hand": hand,
        "position": position,
        "deltas": [(name, hand.delta_points().get(name, 0)) for name in game.players],
        "share_token": share_token,
        "changes": [] if share_token else list(hand.changes.select_related("user")),
    }


@login_required
def hand_detail(request: Request, pk: int, hand_id: int) -> HttpResponse:
    hand = _own_hand(request, pk, hand_id)
    return render(request, "scoring/hand_detail.html", _hand_page_context(hand))


@login_required
@never_cache
def hand_edit(request: Request, pk: int, hand_id: int) -> HttpResponse:
    hand = _own_hand(request, pk, hand_id)
    if hand.is_deleted and request.method != "POST":
        raise Http404("this hand was deleted")  # a form sent meanwhile gets the conflict page
    session = hand.session
    game = services.game_of(session)
    hand_type = HandType(hand.type)
    if request.method != "POST":
        form = HandForm(
            variant=game.variant,
            players=game.players,
            options=game.options,
            hand_type=hand_type,
            initial=hand.as_session_hand(),
            dealer=hand.dealer or None,
        )
        return _hand_page(request, session, game, form, hand=hand, token=str(hand.version))
    form = HandForm(
        variant=game.variant,
        players=game.players,
        options=game.options,
        hand_type=hand_type,
        data=request.POST,
    )
    # The version the form was opened at; without one the edit is treated as
    # based on an unknown version and refused like any other conflict.
    version = str(_whole(request.POST.get("token")) or 0)
    if request.POST.get("action") == "count":
        form.count_cards()
    if request.POST.get("action", "save") == "save":
        try:
            services.hand_edit(
                hand=hand,
                raw=form.raw(),
                user=request.user,
                expected_version=int(version),
            )
        except InvalidInput as error:
            form.add_error(error)
        except services.HandConflict as conflict:
            return _hand_page(
                request, session, game, form, hand=hand, token=version, conflict=conflict.current, status=409
            )
        except busy.DatabaseBusy:
            form.other_errors.append(busy.message())
            return busy.answer(_hand_page(request, session, game, form, hand=hand, token=version))
        else:
            return redirect(reverse("scoreboard", args=[session.pk]) + f"#hand-{hand.pk}")
    return _hand_page(request, session, game, form, hand=hand, token=version)


@login_required
@require_POST
def hand_delete(request: Request, pk: int, hand_id: int) -> HttpResponse:
    hand = _own_hand(request, pk, hand_id)
    services.hand_delete(hand=hand, user=request.user)
    return redirect(reverse("scoreboard", args=[pk]) + f"?undo={hand.pk}")


@login_required
@require_POST
def hand_restore(request: Request, pk: int, hand_id: int) -> HttpResponse:
    hand = _own_hand(request, pk, hand_id)
    services.hand_restore(hand=hand, user=request.user)
    messages.success(request, _("The hand is back on the sheet."))
    return redirect(reverse("scoreboard", args=[pk]) + f"#hand-{hand.pk}")


# -- score sheets, export and import ------------------------------------------------------

EXPORT_TYPES = {
    "json": ("application/json", "tarock.json"),
    "csv": ("text/csv; charset=utf-8", "csv"),
    "pdf": ("application/pdf", "pdf"),
}


def _series_param(request: HttpRequest) -> int | None:
    return _whole(request.GET.get("series"))


@login_required
def session_print(request: Request, pk: int) -> HttpResponse:
    """The score sheet as a page to print; the PDF is drawn from the same context."""
    session = _own_session(request, pk)
    try:
        context = print_context(session, series=_series_param(request), appendix="appendix" in request.GET)
    except LookupError:
        raise Http404("no such series") from None
    return HttpResponse(session_print_html(context))


@login_required
def session_export(request: Request, pk: int, kind: str) -> HttpResponse:
    session = _own_session(request, pk)
    if kind not in EXPORT_TYPES:
        raise Http404("no such format")
    content_type, extension = EXPORT_TYPES[kind]
    data: str | bytes
    if kind == "json":
        data = services.session_export_json(session)
    elif kind == "csv":
        data = services.session_export_csv(services.session_sheet(session))
    else:
        try:
            data = session_pdf(session, series=_series_param(request), appendix="appendix" in request.GET)
        except LookupError:
            raise Http404("no such series") from None
    response = HttpResponse(data, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{_file_stem(session)}.{extension}"'
    return response


def _file_stem(session: Session) -> str:
    stem = slugify(session.name) or "tarock"
    return f"{stem}-{session.created_at:%Y-%m-%d}"


@login_required
def session_import(request: Request) -> HttpResponse:
    """Upload a tarockscore/1 file; a file with any error is refused as a whole."""
    error: str | None = None
    if request.method == "POST":
        upload = request.FILES.get("file")
        if upload_too_large(request) or (upload is not None and (upload.size or 0) > MAX_IMPORT_BYTES):
            error = _("file: at most %(n)s kB") % {"n": MAX_IMPORT_BYTES // 1024}
        elif upload is None:
            error = _("file: choose a tarockscore session file (.json)")
        else:
            name = (request.POST.get("name") or "").strip()[:80] or services.name_from_filename(
                upload.name or ""
            )
            try:
                session = services.session_import(owner=request.user, text=upload.read(), name=name)
            except InvalidInput as refused:
                error = refused.describe(translate=_, number=number)
            else:
                messages.success(request, _("The session was imported."))
                return redirect("scoreboard", pk=session.pk)
    return render(request, "scoring/session_import.html", {"error": error}, status=400 if error else 200)


MAX_IMPORT_BYTES = settings.SESSION_FILE_MAX_BYTES
