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
for many tables at once (docs/deployment.md); it never reports this error. What it does
report, like any database server, is that it cannot be reached (down,
restarting, the connection dropped, too many connections) or that a
transaction had to give way (a deadlock, a serialization failure): nothing of
that transaction is stored either, and the answer is the same "busy, try
again", never a server error. The phone's outbox sends a hand answered so
again later (static/js/outbox.js), and its one-time token stores it once.
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db import InterfaceError, OperationalError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views import defaults

from plumbing.steady_cache import CacheUnavailable

RETRY_AFTER = 5  # seconds: what the answer asks a client to wait before sending again


class DatabaseBusy(OperationalError):
    """The database stayed locked by other writers for longer than the busy timeout;
    nothing was written."""


def message() -> str:
    return _(
        "Many changes are being saved at this moment and yours had to wait too long. "
        "Nothing was saved: please send it again in a moment."
    )


# PostgreSQL's classes of errors (SQLSTATE's first two characters) that say "not
# now" rather than "wrong": connection exception, transaction rollback (deadlock,
# serialization failure), insufficient resources (too many connections),
# operator intervention (shutting down, starting up, a statement cancelled).
TRY_AGAIN_CLASSES = frozenset({"08", "40", "53", "57"})
# SQLite's words for a database it cannot get at.
SQLITE_TRY_AGAIN = ("database is locked", "unable to open database file")


def is_busy(error: BaseException | None) -> bool:
    """Whether ``error`` says the database could not do the work now (locked,
    unreachable, the connection lost, the transaction made to give way), or
    the shared cache could not count what must be counted, as opposed to a fault: such a write stored nothing and can be sent again."""
    if isinstance(error, (DatabaseBusy, CacheUnavailable)):
        return True  # the database locked, or the cache could not count (plumbing.steady_cache)
    if not isinstance(error, (OperationalError, InterfaceError)):
        return False
    cause = error.__cause__
    if isinstance(cause, sqlite3.Error) or (cause is None and "database is locked" in str(error)):
        return any(words in str(error) for words in SQLITE_TRY_AGAIN)
    if cause is not None and type(cause).__module__.partition(".")[0] in ("psycopg", "psycopg2"):
        state = getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)
        # No state: the driver's own word that the server could not be reached or
        # dropped the connection (psycopg gives none for those).
        return state is None or state[:2] in TRY_AGAIN_CLASSES
    return "connection" in str(error).lower()  # Django's own: "connection already closed"


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
    try:
        return answer(render(request, "busy.html", {"message": message()}))
    except (OperationalError, InterfaceError) as error:
        if not is_busy(error):
            raise
    # The database cannot even say who is asking (the login, the notices kept
    # for the next page): the page as anyone would see it.
    anyone = {"message": message(), "user": AnonymousUser(), "messages": []}
    return answer(render(request, "busy.html", anyone))


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
