"""A server worker made ready before its first request (gunicorn.conf.py,
``post_worker_init``): its URLconf and every view module imported, then all it
holds moved out of the garbage collector's sight.

Why: a worker holds some 100,000 objects once Django, the apps and the URLconf
are loaded, and keeps them all its life. Python's collector went through all of
them in each of its full collections, which came every few seconds at a cup
day's rate and stopped every thread of the worker for 45–200 ms, a request that
came in meanwhile waiting for it. ``gc.freeze()`` leaves the objects where they
are and only takes them out of the collector's counts: a full collection now goes
through what the worker made since (some 20,000 objects at a cup day, pauses of
at most about 40 ms). The collector was one cause of the hall's slow polls, not
the only one (docs/performance.md, the cup days).

The other: a worker's threads take turns with the interpreter, and Python hands
it to a waiting thread only every 5 ms. A hall screen's poll needs it back a few
times (its request read, the database's answer, its answer sent), and behind a
thread drawing a board (50–85 ms of the processor right after a change) each of
those waited up to 5 ms: the slowest 204 of a cup-day run took 23 ms in the app
for 1.2 ms of work (49 ms in another run). Every 0.5 ms instead, the slowest
took 4.7–13.6 ms in four runs (docs/performance.md, the cup days); the threads'
work is the same (a switch costs microseconds).
"""

from __future__ import annotations

import gc
import sys

from django.urls import get_resolver

SWITCH_SECONDS = 0.0005  # Python's own: 0.005


def settle() -> int:
    """Load what every request needs, collect once, and freeze what is left: the
    number of objects frozen. And let a thread that waits for the interpreter
    have it within ``SWITCH_SECONDS``."""
    get_resolver().url_patterns  # noqa: B018 (the URLconf and its views imported here)
    gc.collect()
    gc.freeze()
    sys.setswitchinterval(SWITCH_SECONDS)
    return gc.get_freeze_count()
