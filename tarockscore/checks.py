"""Start-up checks for settings that have no safe default."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, register
from django.core.exceptions import ImproperlyConfigured

MISSING_KEY = "SECRET_KEY is required when DEBUG is off: set the SECRET_KEY environment variable."


@register()
def secret_key_is_set(app_configs: Any, **kwargs: Any) -> list[Error]:
    if settings.SECRET_KEY:
        return []
    return [Error(MISSING_KEY, id="tarockscore.E001")]


def require_secret_key() -> None:
    """Refuse to serve without a secret key (called by the WSGI and ASGI entry points)."""
    if not settings.SECRET_KEY:
        raise ImproperlyConfigured(MISSING_KEY)
