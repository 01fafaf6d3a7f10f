"""What makes the app installable and usable offline: the service worker, the
web app manifest and the page shown offline in place of one never opened."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from plumbing import offline


@require_GET
@never_cache
def service_worker(request: HttpRequest) -> HttpResponse:
    # Served from the root so that it may control every page; never cached by
    # the browser, so a deploy's new version is seen on the next visit.
    response = HttpResponse(offline.worker_script(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    text = json.dumps(offline.manifest(), ensure_ascii=False, indent=1)
    return HttpResponse(text, content_type="application/manifest+json; charset=utf-8")


@require_GET
def offline_page(request: HttpRequest) -> HttpResponse:
    """Shown by the worker, offline, for a page this phone has not kept."""
    return render(request, "scoring/offline.html")
