"""The session list, opening a session, importing a session file."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from plumbing.uploads import upload_too_large
from scoring import services
from scoring.engine import InvalidInput, Variant
from scoring.forms import SessionForm
from scoring.games import registry
from scoring.models import variant_choices
from scoring.presentation import number, render_line
from scoring.schema_forms import SchemaForm
from scoring.views.common import Request

MAX_IMPORT_BYTES = settings.SESSION_FILE_MAX_BYTES


@login_required
@require_GET
def session_list(request: Request) -> HttpResponse:
    sessions = (
        services.sessions_of(request.user)
        .annotate(hand_count=Count("hands", filter=Q(hands__deleted_at__isnull=True), distinct=True))
        .select_related("owner")
        .prefetch_related("seats")
    )
    deleted = services.deleted_sessions(request.user)
    context = {"sessions": sessions, "deleted": deleted, "restorable_days": services.RESTORABLE_DAYS}
    return render(request, "scoring/session_list.html", context)


@login_required
@require_GET
def session_new_game(request: Request) -> HttpResponse:
    return render(request, "scoring/session_new_game.html", {"games": variant_choices()})


@login_required
@require_http_methods(["GET", "POST"])
def session_new(request: Request, variant: str) -> HttpResponse:
    if variant not in registry():
        raise Http404("no such game")
    game = registry()[variant]
    form, options = _session_forms(request, game)
    if request.method == "POST" and request.POST.get("action") != "refresh" and form.is_valid():
        try:
            session = services.session_create(
                owner=request.user,
                name=form.cleaned_data["name"],
                variant=variant,
                players=form.players(),
                options=options.raw,
                money_rate=form.cleaned_data["money_rate"],
                first_dealer=form.first_dealer(),
            )
        except InvalidInput as error:
            _refused(form, options, error)
        else:
            return redirect("scoreboard", pk=session.pk)
    context = {"game": game, "form": form, "options": options, "option_widgets": options.widgets()}
    context["known_players"] = request.user.players.values_list("name", flat=True)
    return render(request, "scoring/session_new.html", context)


def _session_forms(request: Request, game: Variant) -> tuple[SessionForm, SchemaForm]:
    """The session's name, seats and money rate, and its house rules (the game's own fields)."""
    data = request.POST if request.method == "POST" else None
    today = date_format(timezone.localdate())
    form = SessionForm(
        data, seats=max(game.table_sizes), initial={"name": _("Tarock evening, %(date)s") % {"date": today}}
    )
    defaults = services.form_defaults(game)
    return form, SchemaForm(game.option_fields, (), prefix="options.", data=data, initial=defaults)


def _refused(form: SessionForm, options: SchemaForm, error: InvalidInput) -> None:
    if error.field.startswith("options."):
        options.add_error(error)
    else:
        form.add_error(None, _("Players: %(error)s") % {"error": render_line(error.line)})


@login_required
@require_http_methods(["GET", "POST"])
def session_import(request: Request) -> HttpResponse:
    """Upload a tarockscore/1 file; a file with any error is refused as a whole."""
    error: str | None = None
    if request.method == "POST":
        text, filename, error = _upload(request)
        if text is not None:
            name = request.POST.get("name") or ""
            try:
                session = services.session_import(owner=request.user, text=text, name=name, filename=filename)
            except InvalidInput as refused:
                error = refused.describe(translate=_, number=number)
            else:
                messages.success(request, _("The session was imported."))
                return redirect("scoreboard", pk=session.pk)
    return render(request, "scoring/session_import.html", {"error": error}, status=400 if error else 200)


def _upload(request: Request) -> tuple[bytes | None, str, str | None]:
    """The uploaded file's bytes and its name, or why there is no file."""
    upload = request.FILES.get("file")
    if upload_too_large(request) or (upload is not None and (upload.size or 0) > MAX_IMPORT_BYTES):
        return None, "", _("file: at most %(n)s kB") % {"n": MAX_IMPORT_BYTES // 1024}
    if upload is None:
        return None, "", _("file: choose a tarockscore session file (.json)")
    return upload.read(), upload.name or "", None
