"""Putting a session right: its details, a player's name, its house rules;
closing and reopening it; deleting and restoring it. Only its owner may."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scoring import services
from scoring.engine import InvalidInput
from scoring.forms import SessionDetailsForm
from scoring.hand_pages import closed, managed
from scoring.models import Session, SessionChange
from scoring.presentation import house_rules, number, render_line, session_change_view
from scoring.schema_forms import SchemaForm
from scoring.services import Right
from scoring.views.common import Request, own_session, posted_token, whole


@login_required
@require_http_methods(["GET", "POST"])
def session_settings(request: Request, pk: int) -> HttpResponse:
    """The session's name, day and money rate; its players; its history."""
    session = own_session(request, pk, need=Right.OWN)
    if session.managed:
        return managed(request, session)
    form = SessionDetailsForm(request.POST if request.method == "POST" else None, initial=_details(session))
    if request.method == "POST" and form.is_valid():
        try:
            services.session_edit(session=session, user=request.user, **form.cleaned_data)
        except InvalidInput as error:
            form.add_error(error.field if error.field in form.fields else None, render_line(error.line))
        except services.SessionClosed:
            form.add_error("money_rate", _("The evening is closed: reopen it to change the money per point."))
        else:
            messages.success(request, _("Saved."))
            return redirect("session_settings", pk=session.pk)
    return settings_page(request, session, form=form, status=400 if form.errors else 200)


def _details(session: Session) -> dict[str, Any]:
    """The form's values (its money field shows the rate as typed: 0,05, not 0,0500)."""
    return {"name": session.name, "played_on": session.played_on, "money_rate": session.money_rate}


def settings_page(
    request: Request,
    session: Session,
    *,
    form: SessionDetailsForm | None = None,
    player_error: tuple[str, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    game = services.game_of(session)
    context = {
        "session": session,
        "form": form or SessionDetailsForm(initial=_details(session)),
        "players": game.players,
        "player_error": player_error,
        "rules": [rule for rule in house_rules(game.variant, game.options) if not rule.is_default],
        "history": [
            session_change_view(change, game.variant)
            for change in session.changes.select_related("user").order_by("-at", "-id")
        ],
        "hand_count": live_hands(session),
    }
    return render(request, "scoring/session_settings.html", context, status=status)


@login_required
@require_POST
def session_player(request: Request, pk: int) -> HttpResponse:
    """Correct one player's name at this table."""
    session = own_session(request, pk, need=Right.OWN)
    if session.managed:
        return managed(request, session)
    old, new = request.POST.get("player", ""), request.POST.get("name", "").strip()
    try:
        services.session_rename_player(session=session, user=request.user, old=old, new=new)
    except InvalidInput as error:
        return settings_page(request, session, player_error=(old, render_line(error.line)), status=400)
    if new != old:
        messages.success(request, _("%(old)s is now %(new)s on the whole sheet.") % {"old": old, "new": new})
    return redirect(reverse("session_settings", args=[session.pk]) + "#players")


@login_required
@require_http_methods(["GET", "POST"])
def session_rules(request: Request, pk: int) -> HttpResponse:
    """New house rules: every hand is scored again under them, or nothing changes."""
    session = own_session(request, pk, need=Right.OWN)
    if session.managed:
        return managed(request, session)
    if session.is_closed:
        return closed(request, session)
    game = services.game_of(session)
    posted = request.POST if request.method == "POST" else None
    initial = services.rules_form_initial(game.variant, session.options)
    options = SchemaForm(game.variant.option_fields, (), prefix="options.", data=posted, initial=initial)
    refused: list[services.RescoredHand] = []
    if posted is not None and posted.get("action") != "refresh":
        try:
            raw = services.with_unshown_rules(game.variant, session.options, options.raw)
            result = services.session_change_rules(session=session, user=request.user, options=raw)
        except InvalidInput as error:
            options.add_error(error)
        except services.RulesRefused as refusal:
            refused = refusal.hands
        else:
            done = f"?done={result.change.pk}" if result.change else ""
            return redirect(reverse("session_rules", args=[session.pk]) + done)
    status = 400 if refused or options.errors or options.other_errors else 200
    return _rules_page(request, session, options, refused=refused, status=status)


def _rules_page(
    request: Request, session: Session, options: SchemaForm, *, refused: list[Any], status: int
) -> HttpResponse:
    game = services.game_of(session)
    done = whole(request.GET.get("done"))
    change = (
        session.changes.filter(pk=done, action=SessionChange.Action.RULES).first()
        if done is not None
        else None
    )
    context = {
        "session": session,
        "options": options,
        "option_widgets": options.widgets(),
        "refused": [(hand, hand.refused.words(_, number)) for hand in refused if hand.refused],
        "done": session_change_view(change, game.variant) if change else None,
        "hand_count": live_hands(session),
    }
    return render(request, "scoring/session_rules.html", context, status=status)


@login_required
@require_POST
def session_close(request: Request, pk: int) -> HttpResponse:
    session = own_session(request, pk, need=Right.OWN)
    if session.managed:
        return managed(request, session)
    services.session_close(session=session, user=request.user, client_token=posted_token(request))
    # The sheet's notice says so, with the day and a button to reopen it.
    return redirect("scoreboard", pk=session.pk)


@login_required
@require_POST
def session_reopen(request: Request, pk: int) -> HttpResponse:
    session = own_session(request, pk, need=Right.OWN)
    if session.managed:
        return managed(request, session)
    services.session_reopen(session=session, user=request.user, client_token=posted_token(request))
    messages.success(request, _("The evening is open again."))
    return redirect("scoreboard", pk=session.pk)


@login_required
@require_http_methods(["GET", "POST"])
def session_delete(request: Request, pk: int) -> HttpResponse:
    """Ask, naming the session and its number of hands; then delete it (restorable)."""
    session = own_session(request, pk, need=Right.OWN)
    if session.managed:
        return managed(request, session)
    if request.method == "POST":
        services.session_delete(session=session, user=request.user)
        text = _("“%(name)s” was deleted. You can restore it here for %(days)s days.")
        messages.success(request, text % {"name": session.name, "days": services.RESTORABLE_DAYS})
        return redirect(reverse("session_list") + "#deleted")
    context = {
        "session": session,
        "hand_count": live_hands(session),
        "days": services.RESTORABLE_DAYS,
    }
    return render(request, "scoring/session_delete.html", context)


@login_required
@require_POST
def session_restore(request: Request, pk: int) -> HttpResponse:
    try:
        session = services.session_deleted_for(request.user, pk)
        services.session_restore(session=session, user=request.user)
    except (Session.DoesNotExist, services.NotRestorable, services.SessionManaged):
        raise Http404("no deleted session to restore") from None
    messages.success(request, _("The session is back."))
    return redirect("scoreboard", pk=session.pk)


def live_hands(session: Session) -> int:
    """How many hands are on the sheet."""
    return session.hands.filter(deleted_at__isnull=True).count()
