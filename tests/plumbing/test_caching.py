"""What is kept per version is built once per server process, however many of
its threads ask for it at the same moment (the phones polling right after a change)."""

from __future__ import annotations

import threading
import time

import pytest
from django.core.cache import cache

from plumbing import caching

pytestmark = pytest.mark.cache  # the same with the cache in Redis (make test-redis)


def test_threads_asking_at_once_build_the_value_once_and_all_get_it():
    cache.delete("test:kept")
    built = []
    started = threading.Barrier(8)

    def build() -> str:
        built.append(threading.get_ident())
        time.sleep(0.2)  # a page drawn while the others ask
        return "drawn"

    answers: list[str] = []

    def ask() -> None:
        started.wait()
        answers.append(caching.cached("test:kept", build))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == ["drawn"] * 8
    assert len(built) == 1
    assert caching._BUILDING == {}  # nothing left behind for the next version


def test_a_build_that_fails_leaves_the_key_free_for_the_next_request():
    cache.delete("test:failing")

    def broken() -> str:
        raise RuntimeError("drawing failed")

    with pytest.raises(RuntimeError):
        caching.cached("test:failing", broken)
    assert caching._BUILDING == {}
    assert caching.cached("test:failing", lambda: "second try") == "second try"
