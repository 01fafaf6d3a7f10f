"""The organiser's pages: tournaments, entrants, draw and release, the day's
control page, the desk, provisional and final, the prize list and printouts.

Only the owner and the co-organisers see a tournament; for anyone else it does
not exist (404). Views fetch, bind, call a service and render or redirect; a
refusal is shown beside its input or at the top, and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from plumbing import busy
from plumbing.qr import qr_svg
from plumbing.requests import Request, posted_token, whole
from plumbing.uploads import accepts_upload, upload_too_large
from scoring.engine import InvalidInput
from scoring.engine.types import invalid
from scoring.games import registry
from scoring.public import Export, ExportRefused, SchemaForm, number, render_line
from scoring.services import form_defaults, rules_form_initial
from tournaments.core.names import name_key
from tournaments.core.tournament_file import InvalidTournament, too_large
from tournaments.forms import EntrantForm, SeedForm, TournamentForm, prizes_text
from tournaments.models import TableRound, Tournament
from tournaments.services import desk, entrants, plan, printouts, results, tournament_files, tournaments
from tournaments.services import door as doors
from tournaments.services import raffle as raffles
from tournaments.services.tournaments import forced_options, games


def _posted(request: Request) -> QueryDict | None:
    return request.POST if request.method == "POST" else None


def own_tournament(request: Request, tid: int) -> Tournament:
    """The tournament if the user runs it (owner or co-organiser); a 404 otherwise."""
    try:
        return tournaments.tournament_for(request.user, tid)
    except Tournament.DoesNotExist:
        raise Http404("no such tournament") from None


def refused(request: Request, error: InvalidInput) -> None:
    """A service's refusal at the top of the page."""
    messages.error(request, render_line(error.line))


def refuse(form: Any, error: InvalidInput) -> None:
    """A service's refusal beside the input it names (or above the form)."""
    field = error.field if error.field in form.fields else None
    form.add_error(field, render_line(error.line))


def unknown_action() -> InvalidInput:
    return invalid("action", gettext_noop("not an action of this page"))


def _game(variant: str) -> Any:
    if variant not in games():
        raise Http404("no such game for a tournament")
    return registry()[variant]


def _options_form(variant: str, data: QueryDict | None, initial: dict[str, Any]) -> SchemaForm:
    """The game's house rules form, without the rules a tournament fixes (§1.1)."""
    forced = forced_options(variant)
    fields = [f for f in _game(variant).option_fields if f.name not in forced]
    return SchemaForm(fields, (), prefix="options.", data=data, initial=initial)


@login_required
@require_GET
def tournament_list(request: Request) -> HttpResponse:
    """The tournaments the user runs, and the way to a new one."""
    context = {
        "tournaments": tournaments.organised_by(request.user),
        "games": [(k, registry()[k]) for k in games()],
    }
    return render(request, "tournaments/organiser/list.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request: Request, variant: str) -> HttpResponse:
    """A new tournament of the game with every setting at its default (§11)."""
    game = _game(variant)
    form = TournamentForm(_posted(request), variant=variant, user=request.user, initial=_new_initial(variant))
    options = _options_form(variant, _posted(request), form_defaults(game))
    if request.method == "POST" and request.POST.get("action") != "refresh" and form.is_valid():
        try:
            created = tournaments.tournament_create(
                owner=request.user,
                variant=variant,
                options=options.raw,
                settings=form.settings(),
                group=form.cleaned_data.get("group"),
                **form.others(),
            )
        except InvalidInput as error:
            options.add_error(error) if error.field.startswith("options.") else refuse(form, error)
        else:
            return redirect("tournament_entrants", tid=created.pk)
    context = {"game": game, "form": form, "options": options, "option_widgets": options.widgets()}
    return render(request, "tournaments/organiser/new.html", context, status=400 if form.errors else 200)


def _rules_initial(t: Tournament) -> dict[str, Any]:
    return rules_form_initial(_game(t.variant), t.options)


def _new_initial(variant: str) -> dict[str, Any]:
    from django.utils import timezone

    initial = TournamentForm.initial_for(variant)
    initial.update(played_on=timezone.localdate(), money_rate=tournaments.default_money_rate(variant))
    return initial


def _settings_initial(t: Tournament) -> dict[str, Any]:
    initial = {**t.settings, "name": t.name, "played_on": t.played_on, "money_rate": t.money_rate}
    initial["prizes"] = prizes_text(t.settings.get("prizes") or [])
    initial["rank_points"] = ", ".join(map(str, t.settings.get("rank_points") or []))
    initial.update(cup=t.cup, cup_final=t.cup_final, cup_factor=t.cup_factor, group=t.group)
    initial["organisers"] = ", ".join(t.organisers.order_by("username").values_list("username", flat=True))
    return initial


@login_required
@require_http_methods(["GET", "POST"])
def tournament_settings(request: Request, tid: int) -> HttpResponse:
    """Name, day, co-organisers; house rules and settings until round 1 is drawn."""
    t, fixed = own_tournament(request, tid), tournaments.drawn(own_tournament(request, tid))
    form = TournamentForm(
        _posted(request), variant=t.variant, user=request.user, initial=_settings_initial(t), fixed=fixed
    )
    options = _options_form(t.variant, None if fixed else _posted(request), _rules_initial(t))
    if request.method == "POST" and request.POST.get("action") != "refresh" and form.is_valid():
        try:
            tournaments.tournament_update(
                tournament=t,
                user=request.user,
                options=options.raw,
                settings=form.settings(),
                **form.others(),
            )
        except InvalidInput as error:
            options.add_error(error) if error.field.startswith("options.") else refuse(form, error)
        else:
            return redirect("tournament_detail", tid=t.pk)
    context = {"tournament": t, "form": form, "options": options, "option_widgets": options.widgets()}
    context["fixed"] = fixed
    return render(request, "tournaments/organiser/settings.html", context, status=400 if form.errors else 200)


# -- the day's control page ----------------------------------------------------------------


@login_required
@require_GET
def tournament_detail(request: Request, tid: int) -> HttpResponse:
    """The control page: the current round's tables, live (polled every 15 s, sent
    only when the tournament or a table's sheet changed: ``desk.live_key``)."""
    t = own_tournament(request, tid)
    live = desk.live_key(t)
    if request.htmx and request.GET.get("since") == live:
        return HttpResponse(status=204)
    state = desk.control(t, whole(request.GET.get("round")))
    template = (
        "tournaments/organiser/control.html#live" if request.htmx else "tournaments/organiser/control.html"
    )
    context = {"tournament": t, "control": state, "seed_form": SeedForm(), "here": "control", "live": live}
    until = tournaments.complaint_until(t)
    context["complaint_until"] = until
    context["complaints_open"] = until is not None and timezone.now() < until
    context.update(board=_board_link(request, t), round_ends=desk.round_ends(t, state.round))
    context.update(door=_door_link(request, t), door_pending=len(doors.door_pending(t)))
    context["entrant_count"] = t.entrants.count()
    return render(request, template, context)


def _board_link(request: Request, t: Tournament) -> dict[str, str] | None:
    """The board's link for the players' phones, with its QR code, and the hall
    screen's own link (never counted with the phones: opened on the hall's screen only)."""
    if not t.board_token:
        return None
    url = request.build_absolute_uri(reverse("tournament_board", args=[t.board_token]))
    screen = (
        request.build_absolute_uri(reverse("tournament_screen", args=[t.screen_token]))
        if t.screen_token
        else ""
    )
    return {"url": url, "qr": qr_svg(url, label=_qr_label()), "screen": screen}


def _door_link(request: Request, t: Tournament) -> dict[str, Any] | None:
    """The registration link at the door (§14.2) with its QR code, whether it takes
    players now; ``None`` for a tournament whose cup is in no circuit."""
    if doors.circuit_of(t) is None:
        return None
    if not t.door_token:
        return {"url": ""}
    url = request.build_absolute_uri(reverse("tournament_door_page", args=[t.door_token]))
    closed = doors.door_closed(t)
    label = gettext("QR code of the registration link")
    return {"url": url, "qr": qr_svg(url, label=label), "closed": render_line(closed.line) if closed else ""}


@login_required
@require_POST
def tournament_draw(request: Request, tid: int) -> HttpResponse:
    """The first draw (typed or picked seed), or a redraw of a round with a new seed."""
    t = own_tournament(request, tid)
    seed = request.POST.get("seed", "")
    try:
        if request.POST.get("action") == "redraw":
            number = whole(request.POST.get("round")) or 1
            plan.round_redraw(
                tournament=t, user=request.user, number=number, seed=seed, client_token=posted_token(request)
            )
        else:
            plan.plan_draw(tournament=t, user=request.user, seed=seed, client_token=posted_token(request))
    except InvalidInput as error:
        refused(request, error)
    return redirect("tournament_detail", tid=t.pk)


@login_required
@require_POST
def tournament_release(request: Request, tid: int) -> HttpResponse:
    """Release the next round (refused naming the open tables of the round before)."""
    t = own_tournament(request, tid)
    try:
        plan.round_release(tournament=t, user=request.user, client_token=posted_token(request))
    except InvalidInput as error:
        refused(request, error)
    return redirect("tournament_detail", tid=t.pk)


@login_required
@require_POST
def tournament_clock(request: Request, tid: int) -> HttpResponse:
    """Extra minutes for one table of the running round, from the control page (§3.6)."""
    t = own_tournament(request, tid)
    try:
        desk.table_give_minutes(
            tournament=t,
            user=request.user,
            table=request.POST.get("table", ""),
            minutes=request.POST.get("minutes", ""),
            client_token=posted_token(request),
        )
    except InvalidInput as error:
        refused(request, error)
    return redirect(reverse("tournament_detail", args=[t.pk]) + "#clock")


STATUS_ACTIONS = {
    "provisional": tournaments.tournament_provisional,
    "final": tournaments.tournament_final,
}


@login_required
@require_POST
def tournament_status(request: Request, tid: int) -> HttpResponse:
    """Provisional after the last table; final after the complaint window; reopened with a reason."""
    t = own_tournament(request, tid)
    action, token = request.POST.get("action", ""), posted_token(request)
    try:
        if action == "reopen":
            tournaments.tournament_reopen(
                tournament=t, user=request.user, reason=request.POST.get("reason", ""), client_token=token
            )
        elif action in STATUS_ACTIONS:
            STATUS_ACTIONS[action](tournament=t, user=request.user, client_token=token)
        else:
            raise unknown_action()
    except InvalidInput as error:
        refused(request, error)
    return redirect("tournament_detail", tid=t.pk)


@login_required
@require_POST
def tournament_board_link(request: Request, tid: int) -> HttpResponse:
    """A new board link (the old one answers 410), or none: the board is not shared."""
    t = own_tournament(request, tid)
    if request.POST.get("action") == "unshare":
        results.board_unshare(t)
    else:
        results.board_share(t)
    return redirect("tournament_detail", tid=t.pk)


# -- entrants ------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def tournament_entrants(request: Request, tid: int) -> HttpResponse:
    """Register entrants (typed, or picked from the group's roster), put them right,
    tick the fee, strike one before the draw, mark one withdrawn."""
    t = own_tournament(request, tid)
    action = request.POST.get("action", "add")
    form = EntrantForm(
        request.POST if request.method == "POST" and action == "add" else None, initial={"roster": True}
    )
    if request.method == "POST":
        done = _entrant_action(request, t, action, form)
        if done:
            return redirect("tournament_entrants", tid=t.pk)
    listed = t.entrants.select_related("door_entry").order_by("number")
    context = {"tournament": t, "form": form, "entrants": listed, "here": "entrants"}
    context["roster"] = _roster_offered(t)
    context["drawn"] = tournaments.drawn(t)
    context["circuit"] = doors.circuit_of(t)
    context["door_pending"] = doors.door_pending(t) if context["circuit"] is not None else []
    typed = request.POST.get("register_number") if action == "number" else request.GET.get("register_number")
    context["register_number"] = whole(typed) or ""
    return render(request, "tournaments/organiser/entrants.html", context, status=400 if form.errors else 200)


def _roster_offered(t: Tournament) -> list[str]:
    if t.group is None:
        return []
    taken = {name_key(name) for name in t.entrants.values_list("name", flat=True)}
    roster = t.group.roster.filter(hidden_at__isnull=True).order_by("name")
    return [p.name for p in roster if name_key(p.name) not in taken]  # a look-alike counts as taken


def _entrant_action(request: Request, t: Tournament, action: str, form: EntrantForm) -> bool:
    """Carry out one action of the entrants page; whether it went through."""
    posted, user, token = request.POST, request.user, posted_token(request)
    number = whole(posted.get("number")) or 0
    register_number = whole(posted.get("register_number")) or 0  # a number of the circuit's register
    try:
        if action == "add":
            if not form.is_valid():
                return False
            entrants.entrant_add(tournament=t, user=user, client_token=token, **form.cleaned_data)
        elif action == "roster":
            picked = [entrants.NewEntrant(name) for name in posted.getlist("names")]
            entrants.entrants_add(tournament=t, user=user, entrants=picked)
        elif action == "edit":
            entrants.entrant_edit(
                tournament=t,
                user=user,
                number=number,
                name=posted.get("name", ""),
                place=posted.get("place", ""),
                fee_paid=posted.get("fee_paid") == "on",
            )
        elif action == "number":
            doors.entrant_by_number(
                tournament=t,
                user=user,
                number=register_number,
                fee_paid=posted.get("fee_paid") == "on",
                client_token=token,
            )
        elif action == "accept":
            doors.door_accept(
                tournament=t,
                user=user,
                number=register_number,
                fee_paid=posted.get("fee_paid") == "on",
                client_token=token,
            )
        elif action == "strike_door":
            doors.door_strike(tournament=t, user=user, number=register_number)
        elif action == "remove":
            entrants.entrant_remove(tournament=t, user=user, number=number)
        elif action == "withdraw":
            plan.entrant_withdraw(
                tournament=t,
                user=user,
                number=number,
                after_round=whole(posted.get("after_round")) or 0,
                client_token=token,
            )
        else:
            raise unknown_action()
    except InvalidInput as error:
        refuse(form, error) if action == "add" else refused(request, error)
        return action != "add"
    return True


# -- a round's plan and the changes of §2.5 ------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def tournament_round(request: Request, tid: int, number: int) -> HttpResponse:
    """A round's tables and seats; swap two entrants, move one, seat a late entrant or a filler."""
    t = own_tournament(request, tid)
    round_ = t.rounds.filter(number=number).first()
    if round_ is None:
        raise Http404("no such round")
    if request.method == "POST":
        _round_change(request, t, number)
        return redirect("tournament_round", tid=t.pk, number=number)
    tables = round_.tables.prefetch_related("seats__entrant").order_by("number")
    seated = set(round_.seats.values_list("entrant_id", flat=True))
    unseated = [e for e in entrants.active_in(t, number) if e.pk not in seated]
    context = {"tournament": t, "round": round_, "tables": tables, "unseated": unseated, "here": "plan"}
    return render(request, "tournaments/organiser/round.html", context)


def _round_change(request: Request, t: Tournament, number: int) -> None:
    posted, token = request.POST, posted_token(request)
    common: dict[str, Any] = {
        "tournament": t,
        "user": request.user,
        "round_number": number,
        "client_token": token,
    }
    try:
        match posted.get("action"):
            case "swap":
                plan.seat_swap(
                    first=whole(posted.get("first")) or 0, second=whole(posted.get("second")) or 0, **common
                )
            case "move":
                plan.seat_move(
                    number=whole(posted.get("number")) or 0,
                    table_number=whole(posted.get("table")) or 0,
                    **common,
                )
            case "seat":
                plan.seat_add(
                    number=whole(posted.get("number")) or 0,
                    table_number=whole(posted.get("table")) or 0,
                    instead_of=whole(posted.get("instead_of")),
                    **common,
                )
            case _:
                raise unknown_action()
    except InvalidInput as error:
        refused(request, error)


# -- one table: the desk, ending, opening, confirming, a new link --------------------------


def _table(t: Tournament, pk: int) -> TableRound:
    try:
        return desk.table_of(t, pk)
    except TableRound.DoesNotExist:
        raise Http404("no such table") from None


TABLE_ACTIONS = {"end": desk.table_end, "open": desk.table_open}


@login_required
@require_http_methods(["GET", "POST"])
def organiser_table(request: Request, tid: int, pk: int) -> HttpResponse:
    """One table: its players and state; the desk entry of a paper sheet; end it early,
    open it again, confirm it, or give it a new link."""
    t = own_tournament(request, tid)
    table = _table(t, pk)
    error = _table_action(request, t, table) if request.method == "POST" else None
    if request.method == "POST" and error is None:
        return redirect("tournament_detail", tid=t.pk)
    seats = table.seats.select_related("entrant").order_by("position")
    link = request.build_absolute_uri(printouts.table_link(table))
    rows = [(seat, request.POST.get(f"sum_{seat.entrant.number}", "")) for seat in seats]
    played = desk.hands_played(table)
    context = {
        "tournament": t,
        "table": table,
        "desk_rows": rows,
        "error": error,
        "link": link,
        "played": played,
        "status": TableRound.Status(results.running_status(table, played)).label,
        "corrections": desk.corrections(table),
    }
    context["qr"] = qr_svg(link, label=_qr_label())
    return render(request, "tournaments/organiser/table.html", context, status=400 if error else 200)


def _qr_label() -> str:
    from django.utils.translation import gettext

    return gettext("QR code of the table link")


def _table_action(request: Request, t: Tournament, table: TableRound) -> str | None:
    """Carry out one action on a table; the refusal's words, if refused."""
    posted = request.POST
    common: dict[str, Any] = {"tournament": t, "user": request.user, "table_id": table.pk}
    common["client_token"] = posted_token(request)
    action = posted.get("action", "")
    try:
        if action == "desk":
            sums = {
                n: posted.get(f"sum_{n}", "") for n in table.seats.values_list("entrant__number", flat=True)
            }
            desk.desk_enter(sums=sums, **common)
        elif action in TABLE_ACTIONS:
            TABLE_ACTIONS[action](reason=posted.get("reason", ""), **common)
        elif action == "confirm":
            desk.table_confirm(**common)
        elif action == "reissue":
            desk.table_reissue(**common)
        elif action == "release":
            desk.table_release_claim(**common)
        else:
            raise unknown_action()
    except InvalidInput as error:
        return render_line(error.line)
    return None


# -- results and files ---------------------------------------------------------------------


@login_required
@require_GET
def tournament_prizes(request: Request, tid: int) -> HttpResponse:
    """The ranking with the prize list (§4.5), and with the raffle on, who is
    present at the ceremony and the material prizes drawn among them."""
    t = own_tournament(request, tid)
    context = {"tournament": t, "prizes": printouts.prize_list(t), "here": "prizes"}
    return render(request, "tournaments/organiser/prizes.html", context)


@login_required
@require_POST
def tournament_raffle(request: Request, tid: int) -> HttpResponse:
    """Draw the material prizes among the start numbers ticked present."""
    t = own_tournament(request, tid)
    ticked = [whole(value) for value in request.POST.getlist("present")]
    try:
        if None in ticked:
            raise invalid("present", gettext_noop("only entrants of this tournament, each once"))
        raffles.raffle_draw(
            tournament=t,
            user=request.user,
            present=[number for number in ticked if number is not None],
            client_token=posted_token(request),
        )
    except InvalidInput as error:
        refused(request, error)
    return redirect("tournament_prizes", tid=t.pk)


@login_required
@require_GET
def tournament_print(request: Request, tid: int, kind: str) -> HttpResponse:
    """A printout: table slips, seating plan, ranking list, prize list (PDF, A4)."""
    t = own_tournament(request, tid)
    if kind not in printouts.KINDS:
        raise Http404("no such printout")
    table = whole(request.GET.get("table"))
    base = request.build_absolute_uri("/")[:-1]
    back = reverse("tournament_detail", args=[t.pk])
    return printout(request, lambda: printouts.KINDS[kind](t, base=base, table_id=table), back)


@login_required
@require_GET
def tournament_card(request: Request, tid: int, number: int) -> HttpResponse:
    """One entrant's player card (PDF)."""
    t = own_tournament(request, tid)
    entrant = t.entrants.filter(number=number).first()
    if entrant is None:
        raise Http404("no such entrant")
    back = reverse("tournament_entrants", args=[t.pk])
    return printout(request, lambda: printouts.player_card(t, entrant), back)


@login_required
@require_GET
def tournament_export(request: Request, tid: int) -> HttpResponse:
    """The tournament file (§13) as a download."""
    return _download(tournament_files.tournament_file(own_tournament(request, tid)))


@accepts_upload(tournament_files.MOST_BYTES)
@login_required
@require_http_methods(["GET", "POST"])
def tournament_import(request: Request) -> HttpResponse:
    """A tournament from a tournament file (§13); the importer organises it. The
    file is read as ``score_tournament`` reads it: a refusal is its one line (400)."""
    error = None
    if request.method == "POST":
        upload = request.FILES.get("file")
        try:
            if upload_too_large(request):
                raise too_large()
            data = upload.read(tournament_files.MOST_BYTES + 1) if upload else b""
            created = tournament_files.tournament_import(owner=request.user, data=data)
        except InvalidTournament as refusal:
            error = refusal.describe(gettext, number)
        except InvalidInput as refusal:
            error = f"{refusal.field}: {render_line(refusal.line)}"
        else:
            return redirect("tournament_detail", tid=created.pk)
    return render(
        request, "tournaments/organiser/import.html", {"error": error}, status=400 if error else 200
    )


def printout(request: Request, draw: Callable[[], Export], back: str) -> HttpResponse:
    """A printout as a download. One that could not be drawn just now (its drawing
    took too long or failed) is answered as a session's export is: "could not be
    drawn just now", here as 503 with Retry-After and a way ``back``."""
    try:
        export = draw()
    except ExportRefused as refused:
        return busy.answer(render(request, "busy.html", {"message": refused.message, "back": back}))
    return _download(export)


def _download(export: Any) -> HttpResponse:
    response = HttpResponse(export.data, content_type=export.content_type)
    response["Content-Disposition"] = f'attachment; filename="{export.filename}"'
    return response
