"""The test settings with the dummy fourth game registered from the start
(``tests/scoring/test_a_new_game.py`` runs ``makemigrations`` with them)."""

from tarockscore.settings_test import *  # noqa: F403

TAROCK_EXTRA_GAMES = ["tests.scoring.dummy_game.Dummy"]
