"""The cache several servers share in Redis (``CACHE=redis://…``): Django's own
backend, the release in every key, and a share link's limit counted exactly
across servers. The tests marked ``redis`` run with ``make test-redis``."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

import pytest
import redis
from django.core.cache import cache, caches
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache

from plumbing import caching, offline
from scoring.views.sharing import SHARED_BOARD_PER_MINUTE

pytestmark = pytest.mark.cache

THREADS_PER_SERVER = 8


def counted_at_once(servers: Sequence[BaseCache], key: str, most: int, requests: int) -> list[bool]:
    """``requests`` requests through one link, counted by threads on every server
    that all start at the same moment (a barrier); whether each was let through."""
    threads = len(servers) * THREADS_PER_SERVER
    start = threading.Barrier(threads)
    answers: list[bool] = []
    lock = threading.Lock()

    def serve(store: BaseCache, count: int) -> None:
        start.wait()
        for _ in range(count):
            answer = caching.within_rate(key, most, store=store)
            with lock:
                answers.append(answer)

    share, rest = divmod(requests, threads)
    workers = [
        threading.Thread(target=serve, args=(servers[i % len(servers)], share + (i < rest)))
        for i in range(threads)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert len(answers) == requests
    return answers


@pytest.mark.redis
def test_two_servers_counting_one_link_at_once_let_exactly_its_limit_through(redis_url):
    # Each server is its own client of the shared Redis, with its own connections.
    first, second = caches.create_connection("default"), caches.create_connection("default")
    assert isinstance(first, RedisCache) and first is not second
    answers = counted_at_once([first, second], "shared-board:burst", SHARED_BOARD_PER_MINUTE, 800)
    assert answers.count(True) == SHARED_BOARD_PER_MINUTE
    for round_ in range(5):  # small limits, so that most requests meet at the border
        answers = counted_at_once([first, second], f"shared-board:round-{round_}", 10, 64)
        assert answers.count(True) == 10, round_


def test_with_the_local_cache_each_server_process_counts_for_itself():
    # What the settings and the docs say of CACHE=local: the limit is per process.
    servers = [LocMemCache("server-a", {}), LocMemCache("server-b", {})]
    answers = counted_at_once(servers, "shared-board:local", 50, 200)
    assert answers.count(True) == 2 * 50


def test_a_links_count_starts_afresh_when_its_window_ends():
    assert [caching.within_rate("shared-board:window", 2, seconds=1) for _ in range(3)] == [True, True, False]
    time.sleep(1.2)
    assert caching.within_rate("shared-board:window", 2, seconds=1)


@pytest.mark.redis
def test_a_count_never_outlives_its_window_even_if_the_window_ends_inside_djangos_incr(
    redis_url, monkeypatch
):
    # Django's Redis incr asks EXISTS, then INCR. Should the window expire between
    # the two, INCR starts a count without an expiry, and the link would be
    # refused for good once that count passed the limit.
    client = redis.Redis.from_url(redis_url)
    window = cache.make_key("rate:shared-board:expired")
    monkeypatch.setattr(cache, "add", lambda *args, **kwargs: False)  # the window was open ...
    monkeypatch.setattr(redis.Redis, "exists", lambda self, *names: 1)  # ... and ends right after EXISTS
    assert caching.within_rate("shared-board:expired", 5)
    assert client.get(window) == b"1"  # INCR started a new count ...
    seconds_left = client.ttl(window)
    assert isinstance(seconds_left, int) and 0 < seconds_left <= 60  # ... that ends with its window


@pytest.mark.redis
def test_what_redis_keeps_carries_the_release_and_a_new_release_does_not_read_it(redis_url, monkeypatch):
    assert isinstance(caches["default"], RedisCache)
    cache.set("probe", "drawn by this release", 60)
    stored = [key.decode() for key in redis.Redis.from_url(redis_url).keys("*probe")]
    assert stored == [f":1:{offline.cache_version()}:probe"]
    assert cache.get("probe") == "drawn by this release"
    monkeypatch.setattr(offline, "cache_version", lambda: "next-release")
    assert cache.get("probe") is None
