"""The families a rating is kept for come from the registry (TOURNAMENTS.md §15):
the games rated apart, the tournaments' games first, then the other games together."""

from __future__ import annotations

from scoring.engine.registry import OTHER_FAMILY, VARIANTS, rating_families, rating_family


def test_koenigrufen_and_french_tarot_are_rated_apart_and_the_other_games_together() -> None:
    assert [key for key, _name in rating_families()] == ["koenigrufen", "french", OTHER_FAMILY]
    assert dict(rating_families())["french"] == VARIANTS["french"].name
    assert [rating_family(key) for key in ("koenigrufen", "french", "illustrated", "chambery")] == [
        "koenigrufen",
        "french",
        OTHER_FAMILY,
        OTHER_FAMILY,
    ]


def test_a_game_the_registry_does_not_know_counts_with_the_other_games() -> None:
    assert rating_family("no-such-game") == OTHER_FAMILY
