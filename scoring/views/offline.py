"""What makes the app installable and usable offline: the service worker, the
web app manifest and the page shown offline in place of one never opened."""

from __future__ import annotations

import json
from pathlib import Path

from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from plumbing import offline
from scoring import phone

# The runtime's folder is named after its version and the bundle after its sources: never changed in place.
IMMUTABLE = "public, max-age=31536000, immutable"


@require_GET
@never_cache
def service_worker(request: HttpRequest) -> HttpResponse:
    # Served from the root so that it may control every page; never cached by
    # the browser, so a deploy's new version is seen on the next visit.
    response = HttpResponse(
        offline.worker_script({"engine": phone.engine_config()}),
        content_type="text/javascript; charset=utf-8",
    )
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


@require_GET
def phone_runtime(request: HttpRequest, version: str, name: str) -> FileResponse:
    """A file of the pinned Pyodide runtime (scoring/phone.py), Brotli or gzip as the browser takes it."""
    if version != phone.PYODIDE_VERSION or name not in phone.RUNTIME_FILES:
        raise Http404("not a file of this runtime")
    return _immutable(request, phone.runtime_folder() / name)


@require_GET
def phone_bundle(request: HttpRequest, name: str) -> FileResponse:
    """This release's engine bundle; an older one is gone (the phone asks for the one its page names)."""
    if name != phone.bundle_name():
        raise Http404("not this release's engine bundle")
    return _immutable(request, phone.bundle_folder() / name)


def _immutable(request: HttpRequest, path: Path) -> FileResponse:
    source, encoding = phone.encoded_copy(path, request.headers.get("Accept-Encoding", ""))
    if not source.exists():
        raise Http404("not built: make phone")
    response = FileResponse(source.open("rb"), content_type=phone.CONTENT_TYPES[path.suffix])
    if encoding:
        response["Content-Encoding"] = encoding
    response["Vary"] = "Accept-Encoding"
    response["Cache-Control"] = IMMUTABLE
    return response
