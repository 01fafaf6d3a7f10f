"""What the statistics keep of each hand: the contract or game, each seat's part in
it, whether the seat's side won, and what the seat did worth counting."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from scoring.engine import VARIANTS, read_session
from scoring.engine.variant import HandStats, Section
from tests.engine.support import FIVE, FOUR, SIX, THREE, fixture


def stats_of(
    variant: str, players: list[str], hands: list[dict[str, Any]], options: dict[str, Any] | None = None
) -> list[HandStats]:
    session = read_session({"variant": variant, "players": players, "options": options or {}, "hands": hands})
    return [session.variant.hand_stats(hand, session.options) for hand in session.hands]


def stats_of_fixture(name: str) -> list[HandStats]:
    session = read_session(fixture(name))
    return [session.variant.hand_stats(hand, session.options) for hand in session.hands]


def points(**values: int) -> dict[str, Fraction]:
    return {name: Fraction(value) for name, value in values.items()}


GARDE = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}


class TestFrench:
    def test_a_won_garde_with_the_petit_au_bout_and_a_defenders_poignee(self):
        hand = {**GARDE, "petit_au_bout": "attack", "poignees": [{"player": "Bert", "size": "simple"}]}
        [stats] = stats_of("french", FOUR, [hand])
        assert stats.kind == "garde"
        assert stats.roles == ("taker", "defender", "defender", "defender")
        assert stats.won == (True, False, False, False)
        assert stats.marks == (("petit_au_bout",), ("poignee.simple",), (), ())

    def test_the_contract_is_judged_by_points_and_bouts_not_by_the_sign_of_the_value(self):
        # 41 needed with 2 bouts: 41 wins the contract, but the announced slam failed
        # and the hand's value is negative for the taker.
        hand = {**GARDE, "points": 41, "chelem": "announced_failed"}
        [stats] = stats_of("french", FOUR, [hand])
        assert stats.won[0] is True
        assert stats.marks[0] == ("chelem.announced_failed",)
        assert stats.marks[1:] == ((), (), ())

    def test_the_partner_shares_the_takers_result_and_the_defence_its_petit_au_bout(self):
        hand = {
            "dealer": "Emil",
            "taker": "Anna",
            "partner": "Carl",
            "contract": "prise",
            "bouts": 1,
            "points": 40,
            "petit_au_bout": "defence",
        }
        [stats] = stats_of("french", FIVE, [hand])
        assert stats.roles == ("taker", "defender", "partner", "defender", "defender")
        assert stats.won == (False, True, False, True, True)
        assert stats.marks == ((), ("petit_au_bout",), (), ("petit_au_bout",), ("petit_au_bout",))

    def test_a_slam_by_the_defence_is_counted_for_each_defender(self):
        hand = {**GARDE, "bouts": 0, "points": 3, "chelem": "defence_made"}
        [stats] = stats_of("french", FOUR, [hand])
        assert stats.marks == (
            (),
            ("chelem.defence_made",),
            ("chelem.defence_made",),
            ("chelem.defence_made",),
        )

    def test_with_six_at_the_table_the_dealer_sits_out(self):
        [stats] = stats_of("french", SIX, [{**GARDE, "dealer": "Fritz"}])
        assert stats.roles[-1] == "out" and stats.won[-1] is None and stats.marks[-1] == ()
        assert stats.roles[0] == "taker"

    def test_a_redeal_has_no_roles_and_nobody_wins(self):
        [stats] = stats_of("french", FOUR, [{"dealer": "Dora", "type": "redeal"}])
        assert stats == HandStats("redeal", ("", "", "", ""), (None,) * 4, ((),) * 4)


class TestIllustrated:
    def test_each_kind_of_hand_of_an_evening(self):
        played, trischaken, valat, renonce, redeal = stats_of_fixture("rich-illustrated.json")
        # Alois's Zweiblatt with 44 points is won; his announced Pagat failed, so it is
        # not counted for him; Berta held the Königstrull and took the Mondfang.
        assert (played.kind, played.roles) == ("zweiblatt", ("declarer", "opponent", "opponent"))
        assert played.won == (True, False, False)
        assert played.marks == ((), ("koenigstrull", "mondfang"), ())
        # Most points lose the Trischaken; Berta took no trick.
        assert trischaken.kind == "trischaken" and trischaken.roles == ("", "", "")
        assert trischaken.won == (False, True, True)
        assert trischaken.marks == (("trischaken_lost",), ("no_trick",), ())
        # Cilli's solo valat, with her silent Uhu.
        assert valat.kind == "solo" and valat.won == (False, False, True)
        assert valat.marks == ((), (), ("uhu", "valat"))
        # Alois revoked against Berta's Dreiblatt: Berta wins it with 20 points.
        assert renonce.won == (False, True, False)
        assert renonce.marks == (("renonce",), (), ())
        assert redeal.kind == "redeal"

    def test_a_valat_made_by_the_opponents_is_lost_for_the_declarer_and_counted_for_both(self):
        hand = {
            "dealer": "Carl",
            "declarer": "Anna",
            "game": "dreiblatt",
            "bid": "announced",
            "points": 5,
            "valat": {"by": "opponents", "announced": "silent", "made": True},
        }
        [stats] = stats_of("illustrated", THREE, [hand])
        assert stats.won == (False, True, True)
        assert stats.marks == ((), ("valat",), ("valat",))

    def test_a_series_is_won_by_whoever_ends_it_at_or_above_the_target(self):
        session = read_session(json.dumps({"variant": "illustrated", "players": THREE, "hands": []}))
        ended = Section("series", 0, 3, points(Anna=112, Bert=40, Carl=104), points(Anna=10), True)
        running = Section("series", 4, 5, points(Anna=112, Bert=40, Carl=20), {}, False)
        assert session.variant.section_winners(ended, session.options) == ("Anna", "Carl")
        assert session.variant.section_winners(running, session.options) == ()


class TestChambery:
    def test_each_mode_of_a_five_player_evening_with_one_sitting_out(self):
        call, solo, alone, redeal, solo_lost = stats_of_fixture("rich-chambery.json")
        # Carl dealt and called Emil; 25 of 68 points lose (the tie is 34). Bert sat out.
        assert call.kind == "call"
        assert call.roles == ("opponent", "out", "declarer", "opponent", "partner", "opponent")
        assert call.won == (True, None, False, True, False, True)
        # Anna's solo à point with 50 points wins.
        assert solo.roles[0] == "soloist" and solo.won[0] is True
        assert solo.marks[0] == ("solo.0",)
        # Emil dealt, called nobody, and made exactly the tie: a draw.
        assert alone.roles[4] == "declarer" and "partner" not in alone.roles
        assert set(alone.won) == {None}
        assert redeal.kind == "redeal"
        assert solo_lost.won[0] is False and solo_lost.marks[0] == ("solo.1",)

    def test_three_players_each_for_himself_win_above_the_average(self):
        [stats] = stats_of_fixture("chambery-seed-three-players.json")
        assert stats.kind == "three" and stats.roles == ("", "", "")
        assert stats.won == (True, True, False)  # 37 and 29 above 26, 12 below

    def test_croise_partners_sit_opposite(self):
        hand = {"dealer": "Anna", "mode": "croise", "points": 40}
        [stats] = stats_of("chambery", FOUR, [hand], {"four_player_form": "croise"})
        assert stats.roles == ("declarer", "opponent", "partner", "opponent")
        assert stats.won == (True, False, True, False)

    def test_a_partie_is_won_by_the_highest_total(self):
        session = read_session(json.dumps({"variant": "chambery", "players": FOUR, "hands": []}))
        section = Section("partie", 0, 3, points(Anna=10, Bert=10, Carl=-5, Dora=-15), {}, True)
        assert session.variant.section_winners(section, session.options) == ("Anna", "Bert")


def test_every_kind_role_and_mark_a_game_writes_has_a_label():
    seen: dict[str, set[str]] = {}
    for name in (
        "rich-french.json",
        "rich-illustrated.json",
        "rich-chambery.json",
        "rich-chambery-croise.json",
    ):
        session = read_session(fixture(name))
        keys = seen.setdefault(session.variant.key, set())
        for hand in session.hands:
            stats = session.variant.hand_stats(hand, session.options)
            if stats.kind != "redeal":
                keys.add(f"kind.{stats.kind}")
            keys |= {f"role.{role}" for role in stats.roles if role not in ("", "out")}
            keys |= {f"mark.{mark}" for marks in stats.marks for mark in marks}
    for key, keys in seen.items():
        assert keys and keys <= set(VARIANTS[key].stat_labels), key
