"""Side rankings and honours (``TOURNAMENTS.md`` §14.4, §14.8): a tournament's and
a cup's side rankings, defined by their organisers; the Bestenliste and the
Cupsieger of a cup and of a circuit."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_http_methods

from plumbing import caching, pages
from plumbing.requests import Request, whole
from scoring.engine import InvalidInput
from tournaments.forms import RegionForm, SideRankingForm
from tournaments.models import Circuit, Cup, Tournament
from tournaments.services import circuit as circuits
from tournaments.services import cups, honours, side
from tournaments.views.cups import kept_sides, own_cup
from tournaments.views.organiser import own_tournament, refuse


def _posted(
    request: Request, form: SideRankingForm, *, cup: Cup | None = None, tournament: Tournament | None = None
) -> bool:
    """A side ranking added or one removed, as the POST says; ``True`` when done."""
    if request.POST.get("action") == "delete":
        side.side_ranking_delete(
            user=request.user, side_id=whole(request.POST.get("side")) or 0, cup=cup, tournament=tournament
        )
        return True
    if not form.is_valid():
        return False
    try:
        side.side_ranking_add(user=request.user, cup=cup, tournament=tournament, **form.cleaned_data)
    except InvalidInput as error:
        refuse(form, error)
        return False
    return True


@login_required
@require_http_methods(["GET", "POST"])
def tournament_sides(request: Request, tid: int) -> HttpResponse:
    """The tournament's side rankings with their places, and a new one; its venue region."""
    t = own_tournament(request, tid)
    posted = request.POST if request.method == "POST" and request.POST.get("action") != "region" else None
    form = SideRankingForm(posted, kinds=side.TOURNAMENT_KINDS, initial={"one_prize_per_player": True})
    region = RegionForm(
        request.POST if request.POST.get("action") == "region" else None, initial={"region": t.region}
    )
    if request.method == "POST" and _tournament_posted(request, t, form, region):
        return redirect("tournament_sides", tid=t.pk)
    context = {"tournament": t, "form": form, "region": region, "here": "sides"}
    context["own"], context["sides"] = side.sides_of(tournament=t), side.tournament_sides(t)
    bad = form.errors or region.errors
    return render(request, "tournaments/organiser/sides.html", context, status=400 if bad else 200)


def _tournament_posted(request: Request, t: Tournament, form: SideRankingForm, region: RegionForm) -> bool:
    if request.POST.get("action") != "region":
        return _posted(request, form, tournament=t)
    if not region.is_valid():
        return False
    try:
        side.tournament_region_set(tournament=t, user=request.user, region=region.cleaned_data["region"])
    except InvalidInput as error:
        refuse(region, error)
        return False
    return True


@login_required
@require_http_methods(["GET", "POST"])
def cup_sides(request: Request, cid: int) -> HttpResponse:
    """The cup's side rankings as season tables; its owner adds and removes them."""
    cup = own_cup(request, cid)
    owner = cup.owner_id == request.user.pk
    if request.method == "POST" and not owner:
        raise Http404("only the cup's owner changes its side rankings")
    posted = request.POST if request.method == "POST" else None
    form = SideRankingForm(posted, kinds=side.CUP_KINDS, initial={"one_prize_per_player": True})
    if request.method == "POST" and _posted(request, form, cup=cup):
        return redirect("cup_sides", cid=cup.pk)
    key = cups.season_key_of(cup)
    context = _sides_context(cup, key)
    context.update({"form": form, "owner": owner})
    key_shown = (key, cup.name, cup.season, owner)
    status = 400 if form.errors else 200
    return pages.render_kept(request, "tournaments/cup/sides.html", context, key_shown, status=status)


def _sides_context(cup: Cup, key: str) -> dict[str, Any]:
    """The cup's side rankings and their tables, read or drawn only when the page is
    drawn: a side ranking added or removed is a new version of the season (``key``)."""
    sides = SimpleLazyObject(lambda: kept_sides(cup, key))
    return {
        "cup": cup,
        "own": SimpleLazyObject(lambda: side.sides_of(cup=cup)),
        "sides": sides,
        "lines": SimpleLazyObject(lambda: {found.side.pk: found.lines for found in sides}),
        "season_key": key,
        "cache_seconds": caching.SECONDS,
    }


@login_required
@require_GET
def cup_honours(request: Request, cid: int) -> HttpResponse:
    """The cup's Bestenliste, all-time and per season, and its Cupsieger (§14.8)."""
    cup = own_cup(request, cid)
    context = {"cup": cup, "labels": LABELS, **_honours_context(honours.kept_cup_honours(cup))}
    return _kept_honours(request, "tournaments/cup/honours.html", context, cup.name, cup.season)


@login_required
@require_GET
def circuit_honours(request: Request, kid: int) -> HttpResponse:
    """The circuit's Bestenliste over all its cups, and each cup's Cupsieger (§14.8)."""
    try:
        circuit, _organiser = circuits.circuit_seen(request.user, kid)
    except Circuit.DoesNotExist:
        raise Http404("no such circuit") from None
    context = {
        "circuit": circuit,
        "labels": LABELS,
        **_honours_context(honours.kept_circuit_honours(circuit)),
    }
    return _kept_honours(request, "tournaments/circuit/honours.html", context, circuit.name, circuit.season)


def _kept_honours(request: Request, template: str, context: dict[str, Any], *names: str) -> HttpResponse:
    """An honours page kept whole per version of the honours (each cup's season, its
    circuit's register) and the names it is headed by: one lookup when seen before."""
    return pages.render_kept(request, template, context, (context["honours_key"], *names))


def _honours_context(kept: honours.Kept) -> dict[str, Any]:
    """The honours drawn only when the page's tables are not kept for this version."""
    return {
        "honours": SimpleLazyObject(kept.honours),
        "honours_key": kept.key,
        "cache_seconds": caching.SECONDS,
    }


# The Bestenliste's tables as the pages head them (``core.circuit.BESTENLISTE``).
LABELS = {
    "wins": _("Most tournament wins"),
    "podiums": _("Most podiums"),
    "best_total": _("Highest tournament total"),
    "best_round": _("Highest round result"),
    "participations": _("Most participations"),
}
