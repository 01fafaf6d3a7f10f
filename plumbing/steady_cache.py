"""The cache is an accelerator, never a dependency: a cache that does not
answer (Redis down, restarting, out of memory, the network gone) is a cache
that has nothing kept, never a server error.

Every use of the cache goes through the backend named in the settings
(``CACHE``), so this is the one place that decides what a failing cache means:

- reading (``get``, ``get_many``, ``has_key``, the templates' ``{% cache %}``)
  finds nothing, and the page is drawn as if seen for the first time;
- keeping (``set``, ``set_many``, ``touch``, ``delete``, ``clear``) keeps
  nothing;
- counting (``add``, ``incr``, ``decr``) cannot be answered by a stand-in, so it
  raises ``CacheUnavailable``: ``caching.within_rate`` then counts in the server
  process (the limits of ``CACHE=local``) or lets the request through
  (``fail_open``), and anything else that counts is answered "busy, try again"
  (503 with ``Retry-After``, ``plumbing.busy``).

After a failure the cache is left alone for ``RESTING_SECONDS`` (by every
thread of the server process): a Redis that does not answer costs one
connection attempt (at most 2 s, the settings' timeout) every few seconds, not
one per cache call of every page.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.cache.backends.redis import RedisCache

log = logging.getLogger("tarockscore.cache")

RESTING_SECONDS = 5.0  # how long a cache that failed is not asked again

# Until when (time.monotonic()) each cache is left alone, by where it is: the
# backend's instances are per thread, the outage is the process's.
_resting: dict[str, float] = {}
_lock = threading.Lock()


class CacheUnavailable(Exception):
    """The cache could not count: nothing can stand in for its answer."""


def _where(cache: BaseCache) -> str:
    return f"{type(cache).__name__}:{getattr(cache, '_steady_location', '')}"


class SteadyCache(BaseCache):
    """A cache backend (put before the real one: ``class X(SteadyCache, RedisCache)``)
    whose errors are misses, not-kept writes, or ``CacheUnavailable`` for counts."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._steady_location = repr(args[0]) if len(args) > 1 else ""

    # -- the outage, shared by the process's threads ------------------------------------------

    def _resting(self) -> bool:
        until = _resting.get(_where(self))
        return until is not None and time.monotonic() < until

    def _failed(self, error: Exception) -> None:
        with _lock:
            first = not self._resting()
            _resting[_where(self)] = time.monotonic() + RESTING_SECONDS
        if first:
            log.warning("the cache does not answer (%s); pages are drawn without it", error)

    def _quiet(self, default: Any, call: Any, *args: Any, **kwargs: Any) -> Any:
        if self._resting():
            return default
        try:
            return call(*args, **kwargs)
        except Exception as error:  # any fault of the cache: what it would keep is drawn again
            self._failed(error)
            return default

    def _counted(self, call: Any, *args: Any, **kwargs: Any) -> Any:
        if self._resting():
            raise CacheUnavailable("the cache is resting after a failure")
        try:
            return call(*args, **kwargs)
        except ValueError:
            raise  # ``incr`` of a key that is not there: the cache's own answer, not a failure
        except Exception as error:
            self._failed(error)
            raise CacheUnavailable(str(error)) from error

    # -- reading: nothing found ---------------------------------------------------------------

    def get(self, *args: Any, **kwargs: Any) -> Any:
        default = args[1] if len(args) > 1 else kwargs.get("default")
        return self._quiet(default, super().get, *args, **kwargs)

    def get_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._quiet({}, super().get_many, *args, **kwargs)

    def has_key(self, *args: Any, **kwargs: Any) -> Any:
        return self._quiet(False, super().has_key, *args, **kwargs)

    def get_or_set(self, key: Any, default: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        value = self.get(key, version=version)
        if value is None:
            value = default() if callable(default) else default
            if value is not None:
                self.set(key, value, timeout, version=version)
        return value

    # -- keeping: nothing kept ----------------------------------------------------------------

    def set(self, *args: Any, **kwargs: Any) -> Any:
        return self._quiet(None, super().set, *args, **kwargs)

    def set_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._quiet([], super().set_many, *args, **kwargs)

    def touch(self, *args: Any, **kwargs: Any) -> Any:
        return self._quiet(False, super().touch, *args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        return self._quiet(False, super().delete, *args, **kwargs)

    def delete_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._quiet(None, super().delete_many, *args, **kwargs)

    def clear(self) -> Any:
        return self._quiet(None, super().clear)

    # -- counting: no stand-in ----------------------------------------------------------------

    def add(self, *args: Any, **kwargs: Any) -> Any:
        return self._counted(super().add, *args, **kwargs)

    def incr(self, *args: Any, **kwargs: Any) -> Any:
        return self._counted(super().incr, *args, **kwargs)

    def decr(self, *args: Any, **kwargs: Any) -> Any:
        return self._counted(super().decr, *args, **kwargs)


class SteadyRedisCache(SteadyCache, RedisCache):
    """Django's Redis backend (``CACHE=redis://…``), steady when Redis is not."""


def rested() -> None:
    """Forget every outage: the next call asks the cache again (for the tests)."""
    with _lock:
        _resting.clear()
