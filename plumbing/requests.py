"""What every app's views share of a request: its type behind ``login_required``
and the two parameters read the same way everywhere (a form's one-time token, a
whole number)."""

from __future__ import annotations

import re

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class Request(HttpRequest):
    """A request to a view behind ``login_required``, with django-htmx's details."""

    user: User
    htmx: HtmxDetails


FORM_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,40}")  # what a form sends back; anything else gets a new one


def posted_token(request: HttpRequest) -> str:
    """The one-time token a money-moving form sent back (payment, reversal,
    closing, reopening), or "" when it sent none of the app's own format."""
    posted = request.POST.get("token", "")
    return posted if FORM_TOKEN.fullmatch(posted) else ""


def whole(raw: str | None) -> int | None:
    """A non-negative whole number from a request parameter, or None (never an error)."""
    if raw and len(raw) <= 12 and raw.isascii() and raw.isdecimal():
        return int(raw)
    return None
