"""SQLite: a write that could not get the database in time is answered "busy, try
again" (503 with Retry-After), never with a server error.

SQLite lets one writer in at a time; the others wait their turn, up to the busy
timeout in the settings (long enough for the largest allowed import). A write
still waiting after that fails with "database is locked" and nothing of it is
stored. Such an error is raised as ``DatabaseBusy`` where it happens; the hand
form catches it to show the player's inputs again with the message, and
``DatabaseBusyMiddleware`` answers it for every other page. ``server_error``
covers a write outside a view, such as the session saved after a login.

PostgreSQL lets writers of different rows go on side by side and is the choice
for many tables at once (README); it never reports this error.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from django.db import OperationalError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views import defaults

RETRY_AFTER = 5  # seconds: what the answer asks a client to wait before sending again


class DatabaseBusy(OperationalError):
    """The database stayed locked by other writers for longer than the busy timeout;
    nothing was written."""


def message() -> str:
    return _(
        "Many changes are being saved at this moment and yours had to wait too long. "
        "Nothing was saved: please send it again in a moment."
    )


def is_busy(error: BaseException | None) -> bool:
    return isinstance(error, DatabaseBusy) or (
        isinstance(error, OperationalError) and "database is locked" in str(error)
    )


def _report_busy(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
    try:
        return execute(sql, params, many, context)
    except OperationalError as error:
        if isinstance(error, DatabaseBusy) or not is_busy(error):
            raise
        raise DatabaseBusy(*error.args) from error


def watch_connection(sender: Any, connection: BaseDatabaseWrapper, **kwargs: Any) -> None:
    """``connection_created`` receiver: an SQLite connection reports a lock that
    outlasted the busy timeout as ``DatabaseBusy``."""
    if connection.vendor == "sqlite" and _report_busy not in connection.execute_wrappers:
        connection.execute_wrappers.append(_report_busy)


def answer(response: HttpResponse) -> HttpResponse:
    """``response`` as the "busy, try again" answer: 503 with Retry-After."""
    response.status_code = 503
    response["Retry-After"] = str(RETRY_AFTER)
    return response


def busy_page(request: HttpRequest) -> HttpResponse:
    return answer(render(request, "busy.html", {"message": message()}))


class DatabaseBusyMiddleware:
    """Answers a view that met a busy database with the "busy, try again" page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        return busy_page(request) if is_busy(exception) else None


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: a busy database met outside a view (in a middleware, such as
    the session saved after a login) is answered "busy" too; anything else gets
    Django's own error page."""
    if is_busy(sys.exc_info()[1]):
        return busy_page(request)
    return defaults.server_error(request)
