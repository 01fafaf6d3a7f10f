"""Games a deployment adds without editing the engine's registry: the setting
``TAROCK_EXTRA_GAMES`` lists dotted paths of engine ``Variant`` classes. They join
the registry before the models are defined (the model's choices and the
database's check of known games are read from it), and again whenever a test
overrides the setting."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.utils.module_loading import import_string

from scoring.engine.registry import register

SETTING = "TAROCK_EXTRA_GAMES"


def load_extra_games() -> None:
    """The registry as the built-in games and those the settings name."""
    register(import_string(path)() for path in getattr(settings, SETTING, ()))


def _follow_setting(*, setting: str, **_kwargs: Any) -> None:
    if setting == SETTING:
        load_extra_games()


setting_changed.connect(_follow_setting, dispatch_uid="scoring.extra_games")
