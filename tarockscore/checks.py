"""Start-up checks for settings that have no safe default."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, register
from django.core.exceptions import ImproperlyConfigured

MISSING_KEY = "SECRET_KEY is required when DEBUG is off: set the SECRET_KEY environment variable."


def _has_secret_key() -> bool:
    # Loading the settings first: a value they refuse (CACHE, SIGNUP, ...) stops
    # the start with its own message, not as a missing key.
    settings.INSTALLED_APPS  # noqa: B018
    try:
        return bool(settings.SECRET_KEY)
    except ImproperlyConfigured:  # Django's own refusal of an empty key
        return False


@register()
def secret_key_is_set(app_configs: Any, **kwargs: Any) -> list[Error]:
    return [] if _has_secret_key() else [Error(MISSING_KEY, id="tarockscore.E001")]


def require_secret_key() -> None:
    """Refuse to serve without a secret key (called by the WSGI and ASGI entry points)."""
    if not _has_secret_key():
        raise ImproperlyConfigured(MISSING_KEY)


@register()
def extra_games_load(app_configs: Any, **kwargs: Any) -> list[Error]:
    """A game named in ``TAROCK_EXTRA_GAMES`` that cannot be loaded (a typo in its
    path, not a game, a key taken twice) stops the start, naming the setting."""
    from scoring.games import SETTING, registry

    try:
        registry()
    except (ImportError, AttributeError, TypeError, ValueError) as error:
        return [Error(f"{SETTING}: {error}", id="tarockscore.E002")]
    return []
