"""The app's pages and two floors to measure them against: a bare view, and a
logged-in page of nothing but ``base.html``."""

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
def floor(request: HttpRequest) -> HttpResponse:
    return render(request, "base.html")


urlpatterns = [
    path("bench/bare/", bare),
    path("bench/floor/", floor),
    path("", include("tarockscore.urls")),
]
