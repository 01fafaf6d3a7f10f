"""The app's URLs plus ``bench/bare/``: a view that does nothing but pass the same
middleware and login check as every page, for the statistics benchmark to compare."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.http import require_GET

from tarockscore.urls import urlpatterns as app_urlpatterns


@login_required
@require_GET
def bare(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok")


urlpatterns = [path("bench/bare/", bare), *app_urlpatterns]
