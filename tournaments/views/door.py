"""Registration at the door (``TOURNAMENTS.md`` §14.2): the registration link a
player opens on her phone without an account (``/r/<token>/``), her player card
there, and the organisers' side: opening and closing the link, its poster, the
player card's PDF and the page a card's QR code opens at the desk.

The link's pages are counted per client as the board's are (``plumbing.budgets``:
a phone's own budget first, then the link's, so no phone uses up another's) and
answer ``Cache-Control: no-cache``; the page that shows a new PIN is not kept at all.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Case, IntegerField, Value, When
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from plumbing.budgets import Budget, fresh, over_budget
from plumbing.clients import client_of, give_cookie, has_cookie
from plumbing.qr import qr_svg
from plumbing.requests import Request, whole
from scoring.engine import InvalidInput
from scoring.public import render_line
from tournaments.core.circuit import MAX_NUMBER
from tournaments.models import CircuitPlayer, Tournament
from tournaments.services import circuit as circuits
from tournaments.services import door as doors
from tournaments.services import printouts, tournaments
from tournaments.views.circuit import run_circuit
from tournaments.views.organiser import own_tournament, printout

# Requests a minute through a registration link (``plumbing.budgets``): a phone
# registering opens the page, sends her name, her PIN, and looks at her card;
# a hall's phones may share one address before their first cookie; a cup day's
# 270 players arrive within the hour before the start.
DOOR_PER_PHONE = 30
DOOR_PER_ADDRESS = 120
DOOR_PER_MINUTE = 3000  # every phone of the link together
DOOR = Budget(
    "door-link", per_phone=DOOR_PER_PHONE, per_address=DOOR_PER_ADDRESS, per_link=DOOR_PER_MINUTE, own=0
)
DOOR_COOKIE = "tarock_door"  # the phone's one registration per tournament (random, no meaning)
DOOR_COOKIE_DAYS = 2


def door_view(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The tournament behind a registration link, counted against the phone's budget
    and the link's; a link taken away answers 410. The phone's cookie is given on
    its first visit; every answer says ``no-cache``."""

    @fresh
    @wraps(view)
    def answer(request: Request, token: str, *args: Any, **kwargs: Any) -> HttpResponse:
        tournament = doors.door_of(token)
        if tournament is None:
            return render(request, "tournaments/door/gone.html", status=410)
        if (limited := over_budget(request, DOOR, token, cookie=DOOR_COOKIE)) is not None:
            return limited
        client = client_of(request, DOOR_COOKIE)
        phone = client if has_cookie(client) else ""
        response = view(request, tournament, token, phone, *args, **kwargs)
        if not phone:
            give_cookie(response, DOOR_COOKIE, secrets.token_urlsafe(18), days=DOOR_COOKIE_DAYS, path="/r/")
        return response

    return answer


def _names(request: Request) -> dict[str, str]:
    return {key: request.POST.get(key, "")[:200] for key in ("family", "given", "place")}


@require_http_methods(["GET", "POST"])
@door_view
def door_page(request: Request, tournament: Tournament, token: str, phone: str) -> HttpResponse:
    """Her name (family, given, place); the register's entries it matches, each to
    confirm with her PIN, or new: a number and a PIN shown once. A phone that
    registered already sees its registration (waiting for the desk, or accepted)."""
    context: dict[str, Any] = {"tournament": tournament, "token": token, "names": _names(request)}
    action = request.POST.get("action", "") if request.method == "POST" else ""
    if action != "new" and (mine := doors.door_mine(tournament, phone)) is not None:
        return _registered(request, context, mine)
    if (closed := doors.door_closed(tournament)) is not None:
        return render(request, "tournaments/door/page.html", {**context, "closed": render_line(closed.line)})
    if action == "pin":
        return _pin(request, context, tournament, phone)
    try:
        if action == "new":
            return _new(request, context, tournament, phone)
        if action == "find":
            context["offered"] = doors.door_find(tournament=tournament, **context["names"])
            context["found"] = True
        elif action:
            context["error"] = gettext("not an action of this page")
    except InvalidInput as error:
        context["error"], context["error_field"] = render_line(error.line), error.field
    status = 400 if "error" in context else 200
    return render(request, "tournaments/door/page.html", context, status=status)


def _new(request: Request, context: dict[str, Any], tournament: Tournament, phone: str) -> HttpResponse:
    """A new number and its PIN, shown this once; sent again, her registration."""
    door, pin = doors.door_new(tournament=tournament, phone=phone, **context["names"])
    if pin is None:
        return redirect("tournament_door_page", token=context["token"])
    return _registered(request, context, door, pin=pin)


def _pin(request: Request, context: dict[str, Any], tournament: Tournament, phone: str) -> HttpResponse:
    number = whole(request.POST.get("number")) or 0
    try:
        doors.door_known(
            tournament=tournament, phone=phone, number=number, pin=request.POST.get("pin", "")[:8]
        )
    except InvalidInput as error:
        context["error"], context["error_field"], context["pin_for"] = (
            render_line(error.line),
            error.field,
            number,
        )
        try:
            context["offered"] = doors.door_find(tournament=tournament, **context["names"])
        except InvalidInput:
            context["offered"] = ()
        context["found"] = bool(context["offered"]) or bool(context["names"]["family"].strip())
        return render(request, "tournaments/door/page.html", context, status=400)
    return redirect("tournament_door_page", token=context["token"])


def _registered(request: Request, context: dict[str, Any], door: Any, pin: str | None = None) -> HttpResponse:
    context.update(door=door, entry=circuits.entry_of(door.player), pin=pin)
    context["card_url"] = reverse("tournament_door_card", args=[context["token"]])
    response = render(request, "tournaments/door/registered.html", context)
    if pin is not None:
        add_never_cache_headers(response)  # the PIN is shown once: never kept on the way
    return response


@require_GET
@door_view
def door_card(request: Request, tournament: Tournament, token: str, phone: str) -> HttpResponse:
    """Her player card on the phone: name (per ``public_name``), place, number and
    the number's QR code for the desk (never the PIN)."""
    mine = doors.door_mine(tournament, phone)
    if mine is None:
        return render(request, "tournaments/door/gone.html#missing", status=404)
    return render(request, "tournaments/door/card.html", card_context(request, mine.player))


def card_context(request: Request, player: CircuitPlayer) -> dict[str, Any]:
    """What the card shows, on the phone and on paper: the QR code carries the
    address that fills her number in at the desk (``tournament_by_number``)."""
    link = request.build_absolute_uri(reverse("tournament_by_number", args=[player.number]))
    entry = circuits.entry_of(player)
    return {
        "entry": entry,
        "shown_name": entry.public(),
        "circuit": player.circuit,
        "link": link,
        "qr": qr_svg(link, label=gettext("QR code of the register number")),
    }


# -- the organisers -----------------------------------------------------------------------


@login_required
@require_POST
def tournament_door(request: Request, tid: int) -> HttpResponse:
    """Open the registration link (a new one: the old one answers 410), or close it."""
    t = own_tournament(request, tid)
    try:
        if request.POST.get("action") == "close":
            doors.door_close(tournament=t, user=request.user)
        else:
            doors.door_open(tournament=t, user=request.user)
    except InvalidInput as error:
        messages.error(request, render_line(error.line))
    return redirect(reverse("tournament_detail", args=[t.pk]) + "#door-link")


@login_required
@require_GET
def tournament_door_poster(request: Request, tid: int) -> HttpResponse:
    """The poster for the entrance: the registration link's QR code, large (PDF, A4)."""
    t = own_tournament(request, tid)
    back = reverse("tournament_detail", args=[t.pk])
    if not t.door_token:
        messages.error(request, gettext("Open the registration link first."))
        return redirect(back)
    url = request.build_absolute_uri(reverse("tournament_door_page", args=[t.door_token]))
    return printout(request, lambda: printouts.door_poster(t, url), back)


@login_required
@require_GET
def circuit_card(request: Request, kid: int, number: int) -> HttpResponse:
    """A register entry's player card (PDF), for its circuit's organisers."""
    circuit = run_circuit(request, kid)
    try:
        entry = circuits.entry_find(circuit, number)
    except InvalidInput:
        raise Http404("no such number") from None
    back = reverse("circuit_entry", args=[circuit.pk, entry.number])
    return printout(request, lambda: printouts.register_card(card_context(request, entry)), back)


@login_required
@require_GET
def tournament_by_number(request: Request, number: int) -> HttpResponse:
    """What a player card's QR code opens at the desk: the entrants page of the
    organiser's tournament taking entries now (today's first, in a cup of a
    circuit), with the number filled in: one tap adds her."""
    if number > MAX_NUMBER:
        raise Http404("no register number")
    today = timezone.localdate()
    found = (
        tournaments.organised_by(request.user)
        .filter(cup__circuit__isnull=False, status__in=doors.OPEN_STATUSES)
        .annotate(
            today=Case(When(played_on=today, then=Value(0)), default=Value(1), output_field=IntegerField())
        )
        .order_by("today", "-played_on", "-pk")
        .first()
    )
    if found is None:
        return render(request, "tournaments/door/by_number.html", {"number": number})
    return redirect(reverse("tournament_entrants", args=[found.pk]) + f"?register_number={number}#by-number")
