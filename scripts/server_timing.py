"""Where a benchmark's request spent its time in the server: each answer says, in a
``Server-Timing`` header, how long the app held it (``app``: from the first
middleware to the last, wall clock) and how much of that its thread ran on the
processor (``cpu``), and when it came to the app (``start``: the machine's monotonic
clock, which the client on the same machine reads too). What a client waited
from sending to ``start`` was spent before the app (a new connection, the
server's queue, gunicorn reading the request); after ``start`` + ``app`` in
sending the answer and in the client itself; what ``app`` holds beyond ``cpu``
the thread waited inside the process (for the interpreter's lock, the database,
a lock of the app's). Only the benchmark's server has it
(``scripts/bench_settings.py``)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse


class ServerTiming:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        start, wall, cpu = time.monotonic(), time.perf_counter(), time.thread_time()
        response = self.get_response(request)
        app_ms = (time.perf_counter() - wall) * 1000
        cpu_ms = (time.thread_time() - cpu) * 1000
        response["Server-Timing"] = f'app;dur={app_ms:.2f}, cpu;dur={cpu_ms:.2f}, start;desc="{start:.6f}"'
        return response


def read(header: str | None) -> tuple[float, float] | None:
    """(app, cpu) in seconds from a ``Server-Timing`` header, or None."""
    if not header:
        return None
    found = dict(
        (name.strip(), float(value))
        for name, _, value in (part.partition(";dur=") for part in header.split(","))
        if value
    )
    if "app" not in found or "cpu" not in found:
        return None
    return found["app"] / 1000, found["cpu"] / 1000


def started(header: str | None) -> float | None:
    """When the request came to the app (``time.monotonic()`` in the server), or None."""
    found = re.search(r'start;desc="([0-9.]+)"', header or "")
    return float(found.group(1)) if found else None
