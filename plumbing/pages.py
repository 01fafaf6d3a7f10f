"""Pages rendered once and kept: whole, or as a frame around parts drawn per view.

A page of a group's statistics looks the same to every member for one version
of the statistics, in one language, except for three things drawn per request:
the CSRF token, a form's one-time token (``{% once %}``) and the time the page
was drawn (``offline_config``). The page is rendered once with marks in their
place, kept, and every later view puts this request's tokens and time in: a
lookup and three replacements instead of the templates. A page with a message
to show (saved, refused …) is rendered as before and not kept, and so is one
asked for with a query string or answering a form sent (POST).

What one reader's page shows of her alone (a phone's own row and her friends'
on a season table) is not kept: the page is kept without it, and ``marking``
puts it in per request after the lookup, as the tokens are.

A page that changes with every hand (the sheet, the new hand's form) keeps only
its frame, everything around the parts that change (its ``holes``), under what
the frame shows; the holes are drawn into it for every view, each from what it
keeps itself per version (the board, the rows, the phone's evening). A part kept
for every reader (a deleted hand's row with its restore form) carries the
token's mark too, so every page drawn here has it replaced (``render_fresh``).

What it saves (``make bench``, each layer on and off: docs/performance.md): the
frame keeps the sheet right after a save and the hand form within their targets;
a season table seen before went from 4.7 to 1.2 ms in process.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from collections.abc import Callable
from typing import Any

from django.contrib.messages import get_messages
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import get_language

from plumbing import caching

# Stand-ins while the page is drawn once. No form takes a NUL character, so no
# name or note on the page can hold the token's; the time's sits in a JSON block
# whose quotes a text on the page would show escaped.
TOKEN_MARK = "\x00csrf-token\x00"
# A money-moving form's one-time token (``{% once %}``): new for every view.
ONCE_MARK = "\x00one-time-token\x00"
RENDERED_MARK = 1_000_000_000_001
_RENDERED = f'"rendered": {RENDERED_MARK}'


def render_kept(
    request: HttpRequest,
    template: str,
    context: dict[str, Any],
    key: tuple[object, ...],
    *,
    holes: tuple[str, ...] = (),
    marking: Callable[[str], str] | None = None,
    status: int = 200,
) -> HttpResponse:
    """``render(request, template, context)``, kept under ``key`` in the reader's
    language: everything the page shows that may change (versions, names, the
    viewer's role). With ``holes`` (the template's partials that change with every
    version), ``key`` is the frame's (what the page shows but its holes): the frame
    is kept, and the holes are drawn into it for every view. ``marking``: what this
    reader alone is shown, put into the page as kept (or as drawn, when not kept).
    A page answered with another ``status`` than 200 (a form's errors) is not kept."""
    if status != 200 or not keeps(request):
        response = render_fresh(request, template, context, status=status)
        if marking:
            response.content = marking(response.content.decode()).encode()
        return response
    marked = {
        **context,
        "csrf_token": TOKEN_MARK,
        "one_time_token": ONCE_MARK,
        "offline_rendered": RENDERED_MARK,
    }
    if holes:
        html = _framed(request, template, marked, key, holes)
    else:
        html = caching.cached(
            _key("page", template, request.path, key), lambda: render_to_string(template, marked, request)
        )
    html = html.replace(TOKEN_MARK, get_token(request)).replace(ONCE_MARK, uuid.uuid4().hex)
    html = html.replace(_RENDERED, f'"rendered": {int(time.time())}')
    return HttpResponse(marking(html) if marking else html)


def render_fresh(
    request: HttpRequest, template: str, context: dict[str, Any], *, status: int = 200
) -> HttpResponse:
    """``render``, with the reader's token put into the parts kept for every reader."""
    response = render(request, template, context, status=status)
    response.content = response.content.replace(TOKEN_MARK.encode(), get_token(request).encode())
    return response


def keeps(request: HttpRequest) -> bool:
    """Whether ``render_kept`` keeps the page asked for: not one with a message to
    show, nor one asked for with a query string or answering a form sent (its
    errors are that request's): those are drawn as any page is."""
    return request.method == "GET" and not (request.GET or len(get_messages(request)))


def _framed(
    request: HttpRequest,
    template: str,
    marked: dict[str, Any],
    frame: tuple[object, ...],
    holes: tuple[str, ...],
) -> str:
    marks = {hole: f"\x00hole:{hole}\x00" for hole in holes}
    html: str = caching.cached(
        _key("frame", template, request.path, frame),
        lambda: render_to_string(template, {**marked, "holes": marks}, request),
    )
    for hole, mark in marks.items():
        html = html.replace(mark, render_to_string(f"{template}#{hole}", marked, request))
    return html


def _key(kind: str, template: str, path: str, parts: tuple[object, ...]) -> str:
    """A short key for what a page shows, in the reader's language."""
    described = repr((template, path, get_language(), *parts)).encode()
    return f"{kind}:" + hashlib.md5(described, usedforsecurity=False).hexdigest()
