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

# The tests compute ratings where they ask for them (``ratings.services.marks.ratings_update``),
# never in a thread of their own that would race the test's database.
RATINGS_UPDATE = "command"
