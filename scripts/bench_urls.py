"""The app's pages and the floors to measure them against: a bare view (also
behind the login check), and a logged-in page of nothing but ``base.html``."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import include, path
from django.views.decorators.http import require_GET


@require_GET
def bare(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok")


@login_required
@require_GET
def bare_login(request: HttpRequest) -> HttpResponse:
    """The bare view behind the login check every organiser's page passes (its session and user read)."""
    return HttpResponse("ok")


@login_required
@require_GET
def floor(request: HttpRequest) -> HttpResponse:
    return render(request, "base.html")


urlpatterns = [
    path("bench/bare/", bare),
    path("bench/bare-login/", bare_login),
    path("bench/floor/", floor),
    path("", include("tarockscore.urls")),
]
