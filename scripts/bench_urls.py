"""The app's pages and the floors to measure them against: a bare view (also
behind the login check, and behind the board link's check), and a logged-in page
of nothing but ``base.html``."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import include, path
from django.views.decorators.http import require_GET

from tournaments.models import Tournament
from tournaments.views.board import board_view


@require_GET
def bare(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok")


@login_required
@require_GET
def bare_login(request: HttpRequest) -> HttpResponse:
    """The bare view behind the login check every organiser's page passes (its session and user read)."""
    return HttpResponse("ok")


@require_GET
@board_view
def bare_board(request: HttpRequest, tournament: Tournament, token: str) -> HttpResponse:
    """The bare view behind the check every board link's page passes (``board_view``:
    the link's tournament read, the phone's and the link's budgets counted, the
    phone's cookie, ``no-cache``)."""
    return HttpResponse("ok")


@login_required
@require_GET
def floor(request: HttpRequest) -> HttpResponse:
    return render(request, "base.html")


urlpatterns = [
    path("bench/bare/", bare),
    path("bench/bare-login/", bare_login),
    path("bench/bare-board/<str:token>/", bare_board),
    path("bench/floor/", floor),
    path("", include("tarockscore.urls")),
]
