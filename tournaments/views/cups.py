"""Cups and seasons: a new cup, its season ranking (page and PDF) and its player
register, where two entries of one person are merged (``TOURNAMENTS.md`` §5)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from plumbing import caching
from plumbing.requests import Request, whole
from scoring.engine import InvalidInput
from scoring.public import render_line
from tournaments.forms import CupForm
from tournaments.models import Cup
from tournaments.services import cups, player_view, printouts, side
from tournaments.views.organiser import printout, refuse


def own_cup(request: Request, cid: int) -> Cup:
    """The cup if the user owns it or runs one of its tournaments; a 404 otherwise."""
    try:
        return cups.cup_for(request.user, cid)
    except Cup.DoesNotExist:
        raise Http404("no such cup") from None


@login_required
@require_http_methods(["GET", "POST"])
def cup_list(request: Request) -> HttpResponse:
    """The user's cups, and a new one."""
    form = CupForm(
        request.POST if request.method == "POST" else None,
        user=request.user,
        initial={"best_n": "6", "scheme": "fixed", "final_mode": "extra"},
    )
    if form.is_valid():
        try:
            cup = cups.cup_create(owner=request.user, **form.cleaned_data)
        except InvalidInput as error:
            refuse(form, error)
        else:
            return redirect("cup_detail", cid=cup.pk)
    context = {"cups": cups.cups_of(request.user), "form": form}
    return render(request, "tournaments/cup/list.html", context, status=400 if form.errors else 200)


def season_and_sides(cup: Cup) -> tuple[cups.Season, list[side.CupSideTable]]:
    """The cup's season table and its side rankings (§14.4), both kept per version of
    the season (``cups.season_key``): built once after a change, however many read them."""
    keys = cups.season_keys([cup])
    return cups.season_rankings([cup], keys)[cup.pk], kept_sides(cup, keys[cup.pk])


def kept_sides(cup: Cup, key: str | None = None) -> list[side.CupSideTable]:
    """The cup's side rankings as season tables, kept per version of its season."""
    key = cups.season_keys([cup])[cup.pk] if key is None else key
    return caching.cached(key + ":sides", lambda: side.cup_sides(cup))


@login_required
@require_GET
def cup_detail(request: Request, cid: int) -> HttpResponse:
    """The season ranking (§5.4): "Stand: <date>", or "Endstand" after the final."""
    cup = own_cup(request, cid)
    season, sides = season_and_sides(cup)
    context = {
        "cup": cup,
        "season": season,
        "sides": sides,
        "tournaments": cup.tournaments.filter(deleted_at__isnull=True),
        # A phone's own row and its friends' (§14.3), where the cup is in a circuit.
        "marks": player_view.season_marks(cup, season, request.COOKIES),
    }
    return render(request, "tournaments/cup/detail.html", context)


@login_required
@require_GET
def cup_pdf(request: Request, cid: int) -> HttpResponse:
    """The season table (§5.4) as a PDF."""
    cup = own_cup(request, cid)
    return printout(
        request,
        lambda: printouts.season_pdf(*season_and_sides(cup)),
        reverse("cup_detail", args=[cid]),
    )


@login_required
@require_http_methods(["GET", "POST"])
def cup_register(request: Request, cid: int) -> HttpResponse:
    """The cup's player register; its owner merges two entries of one person."""
    cup = own_cup(request, cid)
    if request.method == "POST":
        if cup.owner_id != request.user.pk:
            raise Http404("only the cup's owner merges")
        try:
            into = cups.cup_player_merge(
                cup=cup,
                user=request.user,
                player_id=whole(request.POST.get("player")) or 0,
                into_id=whole(request.POST.get("into")) or 0,
            )
        except InvalidInput as error:
            messages.error(request, render_line(error.line))
        else:
            messages.success(request, into.name)
        return redirect("cup_register", cid=cup.pk)
    context = {"cup": cup, "register": cups.register(cup), "owner": cup.owner_id == request.user.pk}
    return render(request, "tournaments/cup/register.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def cup_settings(request: Request, cid: int) -> HttpResponse:
    """The cup's name, season, scheme and what counts: its owner changes them, and
    every tournament of the cup is counted again by them (``cups.cup_update``)."""
    cup = own_cup(request, cid)
    if cup.owner_id != request.user.pk:
        raise Http404("only the cup's owner changes its settings")
    form = CupForm(
        request.POST if request.method == "POST" else None, user=request.user, initial=_initial(cup)
    )
    if form.is_valid():
        try:
            cups.cup_update(cup=cup, user=request.user, **form.cleaned_data)
        except InvalidInput as error:
            refuse(form, error)
        else:
            return redirect("cup_detail", cid=cup.pk)
    context = {"cup": cup, "form": form}
    return render(request, "tournaments/cup/settings.html", context, status=400 if form.errors else 200)


def _initial(cup: Cup) -> dict[str, object]:
    fields = ("name", "season", "starts_on", "ends_on", "scheme", "best_n", "final_mode", "group")
    initial: dict[str, object] = {name: getattr(cup, name) for name in fields}
    initial["points_table"] = ", ".join(map(str, cup.points_table or []))
    return initial
