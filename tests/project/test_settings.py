"""Settings come from the environment; a typo is an error, not a silent default."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection

from tarockscore.settings import env_bool, env_list, redis_location

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.cache


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("1", True), ("yes", True), ("On", True), ("0", False), ("false", False), ("", False)],
)
def test_booleans(monkeypatch, raw, expected):
    monkeypatch.setenv("SOME_FLAG", raw)
    assert env_bool("SOME_FLAG") is expected


def test_a_misspelled_boolean_is_an_error(monkeypatch):
    monkeypatch.setenv("SOME_FLAG", "ture")
    with pytest.raises(ImproperlyConfigured, match="SOME_FLAG"):
        env_bool("SOME_FLAG")


def test_lists(monkeypatch):
    monkeypatch.setenv("HOSTS", "tarock.example, www.tarock.example,")
    assert env_list("HOSTS", []) == ["tarock.example", "www.tarock.example"]
    monkeypatch.delenv("HOSTS")
    assert env_list("HOSTS", ["localhost"]) == ["localhost"]


def _django(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DEBUG", "DATABASE_URL", "CACHE")}
    clean.update(env, DJANGO_SETTINGS_MODULE="tarockscore.settings")
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=clean,
        timeout=60,
        check=False,
    )


def test_the_server_refuses_to_start_without_a_secret_key_when_debug_is_off():
    result = _django("import tarockscore.wsgi")
    assert result.returncode != 0
    assert "SECRET_KEY is required when DEBUG is off" in result.stderr


def test_debug_is_off_unless_set():
    result = _django("from django.conf import settings; print(settings.DEBUG)", SECRET_KEY="x")
    assert result.stdout.strip() == "False"


def test_sqlite_is_the_default_database_in_wal_mode():
    result = _django(
        "from django.conf import settings; d = settings.DATABASES['default'];"
        "print(d['ENGINE'], d['NAME'].endswith('var/db.sqlite3'), d['OPTIONS']['transaction_mode'])",
        SECRET_KEY="x",
    )
    assert result.stdout.split() == ["django.db.backends.sqlite3", "True", "IMMEDIATE"]


def test_database_connections_are_kept_open_between_requests_with_sqlite_too():
    code = "from django.conf import settings; print(settings.DATABASES['default']['CONN_MAX_AGE'])"
    assert _django(code, SECRET_KEY="x").stdout.strip() == "60"
    assert _django(code, SECRET_KEY="x", CONN_MAX_AGE="0").stdout.strip() == "0"


@pytest.mark.django_db
def test_the_sqlite_connection_uses_wal():
    if connection.vendor != "sqlite":
        pytest.skip("runs against SQLite; this run uses " + connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        mode = cursor.fetchone()[0]
    # The test database lives in memory, where SQLite reports "memory"; a file database reports "wal".
    assert mode in ("wal", "memory")


LANGUAGE_COOKIE = (
    "import django; django.setup(); from django.test import Client;"
    "response = Client().post('/i18n/setlang/', {'language': 'fr'}, secure=True, HTTP_HOST='tarock.example');"
    "cookie = response.cookies['django_language'];"
    "print(cookie.value, bool(cookie['secure']), cookie['samesite'])"
)


def test_the_language_cookie_is_secure_and_same_site_in_production():
    # SECURE_COOKIES as production leaves it (on); the test run itself switches it off.
    result = _django(LANGUAGE_COOKIE, SECRET_KEY="x", ALLOWED_HOSTS="tarock.example", SECURE_COOKIES="")
    assert result.stdout.split() == ["fr", "True", "Lax"], result.stderr


def test_the_language_cookie_follows_secure_cookies_off_behind_a_plain_http_proxy():
    result = _django(LANGUAGE_COOKIE, SECRET_KEY="x", ALLOWED_HOSTS="tarock.example", SECURE_COOKIES="0")
    assert result.stdout.split() == ["fr", "False", "Lax"], result.stderr


def test_each_server_keeps_its_own_cache_unless_told_to_share_one_in_the_database():
    code = "from django.conf import settings; print(settings.CACHES['default']['BACKEND'])"
    assert _django(code, SECRET_KEY="x").stdout.strip().endswith("LocMemCache")
    assert _django(code, SECRET_KEY="x", CACHE="database").stdout.strip().endswith("DatabaseCache")


def test_an_unknown_cache_is_an_error():
    result = _django("import django.conf; django.conf.settings.CACHES", SECRET_KEY="x", CACHE="memcache")
    assert result.returncode != 0
    assert "CACHE must be one of local, database" in result.stderr


def test_several_servers_can_share_the_cache_in_redis_through_djangos_own_backend():
    code = (
        "from django.conf import settings; c = settings.CACHES['default'];"
        "print(c['BACKEND'], c['LOCATION'], c['KEY_FUNCTION'])"
    )
    result = _django(code, SECRET_KEY="x", CACHE="redis://:s3cret@cache.internal:6380/3")
    assert result.stdout.split() == [
        "plumbing.steady_cache.SteadyRedisCache",  # Django's own, steady when Redis is not
        "redis://:s3cret@cache.internal:6380/3",
        "plumbing.cache_keys.release_key",  # what one release drew is never served by the next
    ], result.stderr


@pytest.mark.parametrize(
    ("worker", "url", "kept_in"),
    [
        ("gw0", "redis://127.0.0.1:6379/1", "redis://127.0.0.1:6379/1"),
        ("gw1", "redis://127.0.0.1:6379/1", "redis://127.0.0.1:6379/2"),
        ("gw3", "redis://:pw@cache.internal:6380/4", "redis://:pw@cache.internal:6380/7"),
        ("gw2", "redis://cache.internal", "redis://cache.internal/2"),
        ("", "redis://127.0.0.1:6379/1", "redis://127.0.0.1:6379/1"),  # one process
    ],
)
def test_each_test_worker_keeps_its_redis_cache_in_a_database_of_its_own(worker, url, kept_in):
    """make test-redis runs in workers; one worker's cache.clear() must empty no other's."""
    code = (
        "import os; os.environ['DJANGO_SETTINGS_MODULE'] = 'tarockscore.settings_test';"
        "from django.conf import settings; print(settings.CACHES['default']['LOCATION'])"
    )
    result = _django(code, CACHE=url, PYTEST_XDIST_WORKER=worker)
    assert result.stdout.strip() == kept_in, result.stderr


def test_a_test_worker_past_redis_last_database_is_an_error():
    code = (
        "import os; os.environ['DJANGO_SETTINGS_MODULE'] = 'tarockscore.settings_test';"
        "from django.conf import settings; settings.CACHES"
    )
    result = _django(code, CACHE="redis://127.0.0.1:6379/1", PYTEST_XDIST_WORKER="gw15")
    assert result.returncode != 0
    assert "test worker gw15 would keep its cache in Redis database 16" in result.stderr


@pytest.mark.parametrize(
    "url",
    [
        "redis://127.0.0.1:6379/1",
        "redis://cache.internal",
        "redis://cache.internal/",
        "rediss://u:p@10.0.0.5:6390/0",
    ],
)
def test_a_redis_url_names_a_host_and_at_most_a_port_and_a_database_number(url):
    assert redis_location(url) == url


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("redis:/127.0.0.1:6379/1", "it must start with redis:// or rediss://"),
        ("REDIS://127.0.0.1:6379/1", "it must start with redis:// or rediss://"),
        ("unix:///run/redis.sock", "it must start with redis:// or rediss://"),
        ("memcache://127.0.0.1:11211", "it must start with redis:// or rediss://"),
        ("redis://:6379/1", "the host is missing"),
        ("redis://127.0.0.1:99999/1", "the port must be a number from 1 to 65535"),
        ("redis://127.0.0.1:redis/1", "the port must be a number from 1 to 65535"),
        ("redis://127.0.0.1:0/1", "the port must be a number from 1 to 65535"),
        ("redis://127.0.0.1:6379/l", "the database must be a number"),  # Redis' client would take database 0
        ("redis://127.0.0.1:6379/1/2", "the database must be a number"),
        ("redis://127.0.0.1:6379/1?db=2", "nothing but the database number may follow the host"),
        ("redis://127.0.0.1:6379/1#tests", "nothing but the database number may follow the host"),
    ],
)
def test_a_malformed_redis_url_is_an_error_that_says_what_is_wrong(url, reason):
    with pytest.raises(ImproperlyConfigured, match=re.escape(reason)):
        redis_location(url)


def test_a_malformed_redis_url_stops_the_app_at_start_without_showing_its_password():
    result = _django(
        "import tarockscore.wsgi", SECRET_KEY="x", CACHE="redis://admin:s3cret@cache.internal:6379/one"
    )
    assert result.returncode != 0
    assert "CACHE='redis://…@cache.internal:6379/one' is not a Redis URL" in result.stderr
    assert "the database must be a number" in result.stderr and "s3cret" not in result.stderr
