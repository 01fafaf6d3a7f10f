"""Cups and seasons: a new cup, its season ranking (page and PDF) and its player
register, where two entries of one person are merged (``TOURNAMENTS.md`` §5)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_GET, require_http_methods

from plumbing import caching, pages
from plumbing.requests import Request, whole
from scoring.engine import InvalidInput
from scoring.public import Export, render_line
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


def season_and_sides(cup: Cup, key: str) -> tuple[cups.Season, list[side.CupSideTable]]:
    """The cup's season table and its side rankings (§14.4), both kept under this
    version of the season (``key``, ``cups.season_keys``): built once after a change,
    however many read them."""
    return cups.season_rankings([cup], {cup.pk: key})[cup.pk], kept_sides(cup, key)


def kept_sides(cup: Cup, key: str) -> list[side.CupSideTable]:
    """The cup's side rankings as season tables, kept under this version of its season."""
    return caching.cached(key + ":sides", lambda: side.cup_sides(cup))


# Where a phone's "you" or "friend" goes in a row of the season table as kept.
MARK = "<!--me-->"


@dataclass(frozen=True)
class KeptSeason:
    """A season table as its pages draw it, kept per version of the season, language
    and kind of page: its rows unmarked (``marked`` marks a phone's), "Endstand" or
    the day it stands at."""

    rows: str
    ended: bool
    as_of: date | None


def season_page(cup: Cup, cookies: Mapping[str, str], *, public: bool) -> dict[str, Any]:
    """What a season table's page needs (``_season_table.html``): its rows as kept for
    this version of the season (the cup as read in this request, ``season_key_of``),
    unmarked: ``render_season`` marks the phone's row and friends' per request; and
    the season itself, read from the cache or built only when a page draws more of it."""
    key = cups.season_key_of(cup)
    season = SimpleLazyObject(lambda: cups.season_rankings([cup], {cup.pk: key})[cup.pk])

    def draw() -> KeptSeason:
        found = cast(cups.Season, season)
        marks = player_view.season_marks(cup, found, {})
        rows = render_to_string(
            "tournaments/cup/_season_rows.html", {"season": found, "marks": marks, "public": public}
        )
        return KeptSeason(rows, found.ended, found.as_of)

    page = "public" if public else "organiser"
    kept = caching.cached(f"{key}:rows:{page}:{get_language()}", draw)
    return {
        "season": season,
        "kept": kept,
        "rows": mark_safe(kept.rows),  # drawn by the template, escaped there
        "marks": player_view.phone_marks(cup, cookies),
        "season_key": key,
        "cache_seconds": caching.SECONDS,
    }


def render_season(request: Request, template: str, context: dict[str, Any], *shown: object) -> HttpResponse:
    """A page of a season table kept whole (``pages.render_kept``) per version of the
    season and what else it shows (``shown``: names, the viewer's role); the
    phone's row and her friends' marked into it per request, never kept."""
    cup = context["cup"]
    circuit = (cup.circuit_id, cup.circuit.name, cup.circuit.season) if cup.circuit else None
    names = (cup.name, cup.season, cup.scheme, cup.best_n, cup.final_mode, circuit)
    key = (context["season_key"], names, request.user.is_authenticated, *shown)
    marks = context["marks"]
    return pages.render_kept(request, template, context, key, marking=lambda html: marked(html, marks))


def marked(rows: str, marks: player_view.Marks) -> SafeString:
    """The kept rows with her row ("you", ``aria-current``) and her friends' marked."""
    chosen: list[tuple[int, str, str]] = []
    if marks.me is not None:
        chosen.append((marks.me, ' class="me" aria-current="true"', gettext("you")))
    chosen += [(n, ' class="friend"', gettext("friend")) for n in marks.friends if n != marks.me]
    for number, attributes, label in chosen:
        tag = f'<tr data-nr="{number}">'
        at = rows.find(tag)
        end = rows.find(MARK, at)
        if at < 0 or end < 0:
            continue
        badge = f' <span class="badge me-label">{escape(label)}</span>'
        row = f'<tr data-nr="{number}"{attributes}>' + rows[at + len(tag) : end] + badge
        rows = rows[:at] + row + rows[end + len(MARK) :]
    # The rows were drawn by the template (escaped there), the marks escaped here.
    return mark_safe(rows.replace(MARK, ""))


@login_required
@require_GET
def cup_detail(request: Request, cid: int) -> HttpResponse:
    """The season ranking (§5.4): "Stand: <date>", or "Endstand" after the final;
    kept whole per version of the season, per role (the owner's settings)."""
    cup = own_cup(request, cid)
    context = season_page(cup, request.COOKIES, public=False)
    key = context["season_key"]
    context.update(
        {
            "cup": cup,
            "sides": SimpleLazyObject(lambda: kept_sides(cup, key)),
            # A tournament joining, leaving or renamed, its region: a new version of the season.
            "tournaments": cup.tournaments.filter(deleted_at__isnull=True),
        }
    )
    return render_season(request, "tournaments/cup/detail.html", context, cup.owner_id == request.user.pk)


@login_required
@require_GET
def cup_pdf(request: Request, cid: int) -> HttpResponse:
    """The season table (§5.4) as a PDF."""
    cup = own_cup(request, cid)
    key = cups.season_key_of(cup)
    draw = kept_pdf(f"{key}:season", lambda: printouts.season_pdf(*season_and_sides(cup, key)))
    return printout(request, draw, reverse("cup_detail", args=[cid]))


def kept_pdf(key: str, draw: Callable[[], Export]) -> Callable[[], Export]:
    """A printout drawn once per version (``key``) and language, as a session's PDF is:
    asked for again, it is sent as drawn. One that could not be drawn is not kept."""
    return lambda: caching.cached(f"{key}:pdf:{get_language()}", draw)


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
