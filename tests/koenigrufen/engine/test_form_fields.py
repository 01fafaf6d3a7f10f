"""The Königrufen hand form's fields as the engine describes them: the tariff's
games as buttons, the shapes that depend on the game, the premium states, and
a form's untouched controls that record nothing (docs/rules.md §4.5)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.engine import HandType, InvalidInput, Table, get_variant
from scoring.engine.koenigrufen import Game, PremiumType, premium_states
from scoring.engine.schema import Field, Kind, clean_value

PLAYERS = ("Anna", "Bert", "Carl", "Dora")
TABLE = Table(PLAYERS, "Dora", None)
VARIANT = get_variant("koenigrufen")


def fields(tariff: str = "ooe_2023") -> dict[tuple[str, Kind], Field]:
    options = VARIANT.parse_options({"tariff": tariff}, PLAYERS)
    return {(f.name, f.kind): f for f in VARIANT.form_fields(HandType.PLAYED, TABLE, options)}


def test_the_game_offers_the_tariffs_games_in_its_order_as_buttons():
    for tariff in ("ooe_2023", "wtc_2020", "tirol_2020"):
        options = VARIANT.parse_options({"tariff": tariff}, PLAYERS)
        game = fields(tariff)[("game", Kind.CHOICE)]
        assert game.buttons and game.choices == options.games()


def test_points_are_the_sides_or_each_players_by_the_game():
    side = fields()[("points", Kind.POINTS)]
    each = fields()[("points", Kind.PLAYER_POINTS)]
    assert side.thirds and side.ask and side.complement == Fraction(70)
    assert Game.TRISCHAKEN.value not in side.shown_when[1]
    assert each.shown_when == ("game", (Game.TRISCHAKEN.value,))


def test_the_kontra_is_on_the_game_or_each_opponents_by_the_game():
    on_game = fields()[("kontra", Kind.INT)]
    each = fields()[("kontra", Kind.PLAYER_LEVELS)]
    assert Game.PICCOLO.value in each.shown_when[1] and Game.PICCOLO.value not in on_game.shown_when[1]
    assert each.other_than == "declarer"


def test_won_and_the_partner_are_asked_never_preset():
    assert fields()[("won", Kind.BOOL)].ask
    assert fields()[("partner", Kind.PLAYER)].ask


def test_only_a_played_premium_fails_silently():
    assert premium_states(PremiumType.PAGAT) == ((False, True), (True, True), (False, False), (True, False))
    assert premium_states(PremiumType.TRULL) == ((False, True), (True, True), (True, False))
    grid = fields()[("premiums", Kind.LIST)]
    assert grid.grid and set(grid.states) == set(VARIANT.parse_options({}, PLAYERS).premium_types())


def test_each_players_level_is_a_player_and_a_level_in_range():
    each = fields()[("kontra", Kind.PLAYER_LEVELS)]
    assert clean_value(each, {"Bert": 2}, True, PLAYERS) == {"Bert": 2}
    with pytest.raises(InvalidInput, match=r"kontra\.Bert"):
        clean_value(each, {"Bert": 4}, True, PLAYERS)
    with pytest.raises(InvalidInput, match=r"kontra\.Emil"):
        clean_value(each, {"Emil": 1}, True, PLAYERS)


def test_a_form_may_send_untouched_controls_with_a_conceded_hand_a_session_file_may_not():
    raw = {"declarer": "Anna", "game": "rufer", "partner": None, "king_in_talon": "conceded", "kontra": 0}
    options = VARIANT.parse_options({}, PLAYERS)
    hand = VARIANT.parse_play(
        HandType.PLAYED, {**raw, "premiums": [], "valat": None}, TABLE, options, from_form=True
    )
    assert hand is not None and hand.conceded
    with pytest.raises(InvalidInput, match="kontra"):
        VARIANT.parse_play(HandType.PLAYED, raw, TABLE, options)
    with pytest.raises(InvalidInput, match="kontra"):
        VARIANT.parse_play(HandType.PLAYED, {**raw, "kontra": 1}, TABLE, options, from_form=True)
