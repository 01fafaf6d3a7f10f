"""The pages fetched again and again, compressed quickly: the evening's sheets, a
table link's page, the hall screen and a tournament's board link.

What it saves: Django's ``gzip_page`` compresses at level 6; these pages are
compressed at level 1 instead. A 45 kB sheet page compresses about three times
faster that way and comes out about a tenth larger (measured when it was
introduced; README, "Rendered once per change"): on the sheet right after a
save, compression was one of the few things left of the page's own work.

What it keeps: Django's rules of what is compressed (not a response already
encoded, not a client that does not accept gzip, not a body too short or one
that would grow) and its mitigation of BREACH, random padding in every
response's gzip header (the file name field), which is why the header is
written here rather than left to ``gzip.compress``.
"""

from __future__ import annotations

import gzip
import re
import secrets
from collections.abc import Callable
from typing import TypeVar, cast

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.middleware.gzip import GZipMiddleware
from django.utils.cache import patch_vary_headers
from django.utils.crypto import get_random_string
from django.utils.decorators import decorator_from_middleware

LEVEL = 1  # Django's own: 6


class QuickGZip(GZipMiddleware):
    """Django's ``GZipMiddleware`` at compression level ``LEVEL``."""

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if not isinstance(response, HttpResponse) or len(response.content) < 200:
            return super().process_response(request, response)
        if response.has_header("Content-Encoding"):
            return response
        patch_vary_headers(response, ("Accept-Encoding",))
        if not gzip_accepted(request):
            return response
        compressed = gzip.compress(response.content, compresslevel=LEVEL, mtime=0)
        # Django's padding: a random file name of 1 to max_random_bytes characters,
        # flagged in the header (FNAME) and ended by NUL, after the fixed ten bytes.
        padding = get_random_string(1 + secrets.randbelow(self.max_random_bytes)).encode() + b"\0"
        compressed = compressed[:3] + bytes([gzip.FNAME]) + compressed[4:10] + padding + compressed[10:]
        if len(compressed) >= len(response.content):
            return response
        response.content = compressed
        response.headers["Content-Length"] = str(len(compressed))
        etag = response.get("ETag")
        if etag and etag.startswith('"'):
            response.headers["ETag"] = "W/" + etag
        response.headers["Content-Encoding"] = "gzip"
        return response


def compressed(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """``response`` as ``quick_gzip_page`` sends it: compressed where the browser accepts it."""
    return cast(HttpResponse, _QUICK.process_response(request, response))


# For ``compressed``: the middleware's rules without a view of its own behind it.
_QUICK = QuickGZip(lambda request: HttpResponse())


def gzip_accepted(request: HttpRequest) -> bool:
    return re.search(r"\bgzip\b", request.META.get("HTTP_ACCEPT_ENCODING", "")) is not None


View = TypeVar("View", bound=Callable[..., HttpResponseBase])


def quick_gzip_page(view: View) -> View:
    """A view whose pages are compressed with ``QuickGZip`` for browsers that accept it."""
    return cast(View, decorator_from_middleware(QuickGZip)(view))
