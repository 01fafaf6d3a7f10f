"""Pages and files of a session, rendered once per change.

Every key carries the session's ``version``, which goes up in the same
transaction as every change on its sheet (``services.mark_changed``). A page
read after a change therefore asks for a new key, so nothing is ever
invalidated by hand, and servers sharing one cache (``CACHE`` in the
settings) never show each other's stale sheets; old versions simply expire.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from django.core.cache import cache
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.utils.translation import get_language

from plumbing.steady_cache import CacheUnavailable

T = TypeVar("T")


class Versioned(Protocol):
    """What is kept per version: an evening (``Session.sheet_key``: its id and version)."""

    @property
    def sheet_key(self) -> str: ...


# Long enough for an evening and its morning after; a version never changes, so
# this only bounds how long an unread one takes room.
SECONDS = 24 * 60 * 60


def session_key(session: Versioned, *parts: object) -> str:
    """The key of something drawn from this version of the session, in the reader's language."""
    return ":".join(["session", session.sheet_key, get_language() or "", *map(str, parts)])


def row_key(hand_id: int, version: int, place: int, numbers: object, share_token: str, language: str) -> str:
    """The key of a hand's row on the sheet: this version of the hand at this place,
    with these running totals (``numbers``), behind this share link or none, in
    this language. It needs no session version: a row changes only with these."""
    digest = hashlib.md5(repr(numbers).encode(), usedforsecurity=False).hexdigest()
    return f"row:{hand_id}.{version}.{place}:{digest}:{share_token}:{language}"


def get_many(keys: Sequence[str]) -> dict[str, object]:
    """What is stored under these keys, in one round trip to the cache."""
    return cache.get_many(keys)


def set_many(values: dict[str, object]) -> None:
    cache.set_many(values, SECONDS)


def cached(key: str, build: Callable[[], T], seconds: int = SECONDS) -> T:
    """The value stored under ``key``, built and stored on the first request (kept
    ``seconds``: what is asked for only for a short while need not take room all day).

    Built once per server process however many of its threads ask at once (the
    phones that all poll right after a change): the first builds it, the others
    wait for it and read what it stored, instead of each drawing the same page
    and taking the interpreter from every other request meanwhile."""
    value: T | None = cache.get(key)
    if value is not None:
        return value
    with _GUARD:
        lock = _BUILDING.setdefault(key, threading.Lock())
    try:
        with lock:
            value = cache.get(key)
            if value is None:
                value = build()
                cache.set(key, value, seconds)
    finally:
        with _GUARD:
            _BUILDING.pop(key, None)
    return value


# Keys being built in this process, each with the lock its other askers wait on.
_GUARD = threading.Lock()
_BUILDING: dict[str, threading.Lock] = {}


# Where requests are counted while the shared cache cannot count: in this server
# process, as with ``CACHE=local``.
IN_PROCESS = LocMemCache("tarockscore-counts", {"OPTIONS": {"MAX_ENTRIES": 50_000}})


def within_rate(
    key: str, most: int, seconds: int = 60, *, store: BaseCache | None = None, fail_open: bool = False
) -> bool:
    """Count one more request under ``key``: whether it is among the first ``most``
    within ``seconds`` of the first one counted.

    The window opens with ``add`` (of servers opening it at once, one succeeds)
    and each request takes its number with ``incr``. What holds depends on the
    cache (``CACHE`` in the settings):

    - ``redis://…``: both are single Redis commands (SET NX EX, INCR), atomic
      across all servers and threads: exactly ``most`` requests pass in a window,
      however many servers take them at once.
    - ``local``: atomic within one server process (a lock), but each process
      counts for itself: up to ``most`` × the server processes in all.
    - ``database``: one count that every server reads, but ``incr`` reads and then
      writes it: two servers counting at the same instant may take the same
      number, so a few more than ``most`` may pass under a burst.

    A cache that cannot count (``CacheUnavailable``: Redis down) never refuses
    for that: the request is let through with ``fail_open`` (those who must
    never wait), else counted in this server process, as ``local`` counts.

    Django's Redis ``incr`` asks whether the count exists before INCR; should the
    window expire in between, INCR starts a count without an expiry. So the
    request that takes number 1 (re)sets the window's expiry: no count outlives
    its window, and a link is never refused for good.
    """
    try:
        return _counted(store or cache, key, most, seconds)
    except CacheUnavailable:
        return fail_open or _counted(IN_PROCESS, key, most, seconds)


def _counted(store: BaseCache, key: str, most: int, seconds: int) -> bool:
    window = f"rate:{key}"
    for _attempt in range(2):
        store.add(window, 0, seconds)  # the window opens with its first request
        try:
            count = store.incr(window)
        except ValueError:  # the window expired between the two calls: open the next one
            continue
        if count == 1:
            store.touch(window, seconds)
        return bool(count <= most)
    return True  # two windows expired within two round trips: count nothing
