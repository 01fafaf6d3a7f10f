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
"""

from __future__ import annotations

import gc

from django.urls import get_resolver


def settle() -> int:
    """Load what every request needs, collect once, and freeze what is left: the
    number of objects frozen."""
    get_resolver().url_patterns  # noqa: B018 (the URLconf and its views imported here)
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
