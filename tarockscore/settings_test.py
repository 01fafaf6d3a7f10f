"""Settings for the test suite: the real settings, a test key, a fast hasher."""

import os

os.environ.setdefault("SECRET_KEY", "test-suite-only")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("SECURE_COOKIES", "0")

from .settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES["staticfiles"] = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}  # noqa: F405
# Static files straight from static/, without collectstatic.
STATIC_ROOT = None  # type: ignore[assignment]
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# SQLite tests use a file, not memory: with an in-memory database Django shares
# one connection between the live server's threads, and the tests of concurrent
# requests would not be concurrent at all.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    import tempfile

    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": os.path.join(tempfile.gettempdir(), f"tarockscore-test-{os.getpid()}.sqlite3")
    }

# With the cache in Redis (make test-redis, make test-db under CI), each pytest-xdist
# worker keeps it in a database of its own, the URL's number plus the worker's (gw0 +0,
# gw1 +1, …; a worker started again after a crash gets the next number), so that one
# worker's cache.clear() empties nothing another worker's test has just kept. The
# Makefile runs at most 8 workers there; Redis has databases 0-15 unless told otherwise.
_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if _worker and CACHES["default"]["BACKEND"].endswith("RedisCache"):  # noqa: F405
    from urllib.parse import urlsplit, urlunsplit

    _url = urlsplit(CACHES["default"]["LOCATION"])  # noqa: F405
    _database = int(_url.path.strip("/") or 0) + int(_worker.removeprefix("gw"))
    if _database > 15:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(
            f"test worker {_worker} would keep its cache in Redis database {_database}; Redis has 0-15: "
            "run fewer workers (-n) or give CACHE a lower database number"
        )
    CACHES["default"]["LOCATION"] = urlunsplit(_url._replace(path=f"/{_database}"))  # noqa: F405

# The tests compute ratings where they ask for them (``ratings.services.marks.ratings_update``),
# never in a thread of their own that would race the test's database.
RATINGS_UPDATE = "command"
