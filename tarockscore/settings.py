"""Settings. Everything that varies by deployment comes from the environment.

DEBUG          off unless set to 1/true/yes/on
SECRET_KEY     required unless DEBUG
ALLOWED_HOSTS  comma-separated; defaults to localhost only
DATABASE_URL   dj-database-url; an SQLite file under var/ by default (WAL mode)
CACHE          where rendered sheets and PDFs are kept: local (default), database, or a
               Redis URL (redis://host:port/db) for several servers
STATIC_ROOT    where collectstatic puts the static files (default: staticfiles/)
SIGNUP         invitation (default), open or off: who may make an account

A value that is not understood is an error at start-up, never a silent default.
"""

from __future__ import annotations

import importlib.util
import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name, "").strip().lower()
    if raw == "":
        return default
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be one of 1, 0, true, false, yes, no, on, off (got {raw!r})")


def env_choice(name: str, choices: tuple[str, ...], default: str) -> str:
    raw = os.environ.get(name, "").strip().lower()
    if raw == "":
        return default
    if raw not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)} (got {raw!r})")
    return raw


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


DEBUG = env_bool("DEBUG")

# Required when DEBUG is off: the system checks (runserver, migrate, check) and
# the WSGI/ASGI entry points refuse to start without it. Commands that need no
# secret, such as score_session, still run.
SECRET_KEY = os.environ.get("SECRET_KEY", "") or ("development-only-not-secret" if DEBUG else "")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])

INSTALLED_APPS = [
    "accounts",  # before the admin: its registration/ templates are the ones shown
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "scoring",
    "club",
    "tournaments",
    "ratings",
]

# Notices ("saved", "round complete") are left alone by the requests the phone's scripts make
# in the background (plumbing.offline.PageMessages).
MESSAGE_STORAGE = "plumbing.offline.PageMessages"

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "tarockscore.middleware.ContentSecurityPolicyMiddleware",
    "tournaments.polls.UnchangedPollMiddleware",  # a board/hall poll: 204 if unchanged, a kept redraw, the hall's redraw
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "plumbing.privacy.PrivatePagesMiddleware",  # pages drawn for an account: Cache-Control private
    "plumbing.offline.NotKeptMiddleware",  # the pages the phone's worker keeps no copy of, said by header
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "plumbing.busy.DatabaseBusyMiddleware",  # SQLite locked too long: 503 "busy, try again"
]

ROOT_URLCONF = "tarockscore.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

WSGI_APPLICATION = "tarockscore.wsgi.application"

DATABASE_URL = os.environ.get("DATABASE_URL") or ""
if not DATABASE_URL:
    # The default database lives in var/; make the folder, so that the first
    # `manage.py migrate` on a fresh checkout works without `make run`.
    (BASE_DIR / "var").mkdir(exist_ok=True)
    DATABASE_URL = f"sqlite:///{BASE_DIR / 'var' / 'db.sqlite3'}"
DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL,
        # Connections stay open between requests: a new PostgreSQL connection
        # costs more than the request itself, and a new SQLite one (its pragmas,
        # Django's functions registered on it) about a millisecond, as much as a
        # watcher's whole poll. Each server thread keeps its own connection.
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE takes the write lock at the start of a transaction, so two phones
    # recording at once queue up instead of failing; WAL lets readers go on. A
    # write waits up to `timeout` seconds for its turn: the largest allowed import
    # (5,000 hands) holds the lock 4-7 s on a quiet 2-core machine and 13-20 s
    # while the load test runs beside it (scripts/bench_import.py). A write that
    # still finds the database locked is answered "busy, try again" (plumbing.busy).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 30,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )

# Rendered sheets, shared boards and PDFs, kept per session version (plumbing.caching).
# "local": each server process keeps its own (one server). "database": one table
# in DATABASE_URL that every server reads (several servers behind a proxy; create
# it once with `manage.py createcachetable`). "redis://host:port/db": a Redis
# database every server reads (several servers; Django's own Redis backend, the
# `redis` package), where the share link's count is exact across servers.
CACHE_BACKENDS: dict[str, dict[str, Any]] = {
    "local": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "tarockscore",
        # A hand's row is about 1 kB: room for many evenings' rows and pages.
        "OPTIONS": {"MAX_ENTRIES": 20_000},
        "KEY_FUNCTION": "plumbing.cache_keys.release_key",
    },
    "database": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "tarockscore_cache",
        "OPTIONS": {"MAX_ENTRIES": 50_000},
        # What one release drew is never served by the next (plumbing.cache_keys).
        "KEY_FUNCTION": "plumbing.cache_keys.release_key",
    },
    "redis": {
        "BACKEND": "plumbing.steady_cache.SteadyRedisCache",  # a Redis down is a cache with nothing kept
        "LOCATION": "",  # the URL given in CACHE (redis_location)
        # A Redis that does not answer gives up within seconds rather than hold a
        # server thread, and the page is drawn without it (plumbing/steady_cache.py);
        # Redis itself bounds its memory (maxmemory).
        "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 5},
        "KEY_FUNCTION": "plumbing.cache_keys.release_key",
    },
}
REDIS_SCHEMES = ("redis", "rediss")


def redis_location(raw: str) -> str:
    """``raw`` if it is a Redis URL the cache can use: ``redis://`` (or ``rediss://``
    for TLS), an optional user and password, a host, an optional port and an optional
    database number, nothing else. Redis' own client would read a mistyped database
    (``/l``) as database 0; here it is an error that names what is wrong."""

    def refuse(reason: str) -> ImproperlyConfigured:
        shown = re.sub(r"//[^/]*@", "//…@", raw)  # never the password in a log
        return ImproperlyConfigured(
            f"CACHE={shown!r} is not a Redis URL such as redis://127.0.0.1:6379/1: {reason}"
        )

    parts = urlsplit(raw)
    if parts.scheme not in REDIS_SCHEMES or not raw.startswith(f"{parts.scheme}://"):
        raise refuse("it must start with redis:// or rediss://")
    if not parts.hostname:
        raise refuse("the host is missing")
    try:
        port = parts.port
    except ValueError:
        port = 0
    if port == 0:
        raise refuse("the port must be a number from 1 to 65535")
    if "?" in raw or "#" in raw:
        raise refuse("nothing but the database number may follow the host (no ? or #)")
    if parts.path not in ("", "/") and not re.fullmatch(r"/\d{1,5}", parts.path):
        raise refuse("the database must be a number (redis://host:port/1)")
    if importlib.util.find_spec("redis") is None:
        raise ImproperlyConfigured("CACHE=redis://… needs the redis package: pip install -r requirements.txt")
    return raw


# Ratings (docs/ratings.md): "thread" computes them in a thread of the server
# right after the answer that closed an evening or signed a table; "command"
# leaves it to `manage.py update_ratings` (run from cron). Either way the
# command catches up whatever a stopped server left marked.
RATINGS_UPDATE = env_choice("RATINGS_UPDATE", ("thread", "command"), "thread")

CACHE = os.environ.get("CACHE", "").strip() or "local"
if CACHE.lower() in ("local", "database"):
    CACHES = {"default": CACHE_BACKENDS[CACHE.lower()]}
elif "://" in CACHE:
    CACHES = {"default": {**CACHE_BACKENDS["redis"], "LOCATION": redis_location(CACHE)}}
else:
    raise ImproperlyConfigured(
        f"CACHE must be one of local, database or a Redis URL such as redis://127.0.0.1:6379/1 (got {CACHE!r})"
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = ["accounts.auth.RateLimitedBackend"]  # failed logins limited everywhere
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Who may make an account: "invitation" (only through a group's invitation link),
# "open" (anyone, on the sign-up page), or "off" (accounts only by an administrator;
# an invitation then lets in those who have an account already).
SIGNUP = env_choice("SIGNUP", ("invitation", "open", "off"), "invitation")

# Games beyond the engine's own, as dotted paths of engine ``Variant`` classes
# (``scoring.games``): nothing else to add, not even a migration.
TAROCK_EXTRA_GAMES: list[str] = []

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "session_list"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "de"
LANGUAGES = [("de", _("German")), ("en", _("English")), ("fr", _("French"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# English dates as players read them (29 Nov 2026, 7:30 am): tarockscore/formats/en.
FORMAT_MODULE_PATH = ["tarockscore.formats"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Vienna")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "plumbing.staticfiles.StaticStorage"  # WhiteNoise's, the phone's module imports hashed too
    },
}

# Session files uploaded for import are small; anything larger is refused while
# it arrives (plumbing.uploads), so it never reaches memory or a temporary file.
SESSION_FILE_MAX_BYTES = 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
FILE_UPLOAD_HANDLERS = [
    "plumbing.uploads.SizeLimitedUploadHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
]

# Behind a reverse proxy: trust its X-Forwarded-Proto and X-Forwarded-For.
BEHIND_PROXY = env_bool("BEHIND_PROXY")

# Django's database sessions, read with one written-out statement per request.
SESSION_ENGINE = "plumbing.login_sessions"
SESSION_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"  # like the session cookie: not sent along with other sites' requests
CSRF_COOKIE_HTTPONLY = False
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    LANGUAGE_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    if BEHIND_PROXY:
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
