"""A hand entered at the table (``from_form``): every choice that changes the
score is made, never preset, and every problem of the hand is reported at
once, in the players' words; a session file keeps its defaults and its readers
still report the first problem."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine import VARIANTS, InvalidInput, Line, read_hand, read_session
from scoring.engine.schema import label_at
from scoring.engine.types import HandType, Table

from .support import FIVE, FOUR, THREE


def entered(
    variant: str, players: list[str], hand: dict[str, Any], options: dict[str, Any] | None = None
) -> Any:
    game = VARIANTS[variant]
    return read_hand(
        game,
        tuple(players),
        game.parse_options(options or {}, players),
        {"dealer": players[-1], **hand},
        None,
        from_form=True,
    )


def refusal(
    variant: str, players: list[str], hand: dict[str, Any], options: dict[str, Any] | None = None
) -> InvalidInput:
    with pytest.raises(InvalidInput) as caught:
        entered(variant, players, hand, options)
    return caught.value


def problems(error: InvalidInput) -> list[tuple[str, str]]:
    return [(problem.field, problem.words()) for problem in error.problems]


class TestNothingIsPreset:
    def test_five_players_a_form_without_a_partner_is_refused_not_scored_as_alone(self):
        error = refusal("french", FIVE, {"taker": "Anna", "contract": "garde", "bouts": 2, "points": 47})
        assert problems(error) == [("partner", "Partner (called king) missing")]

    def test_alone_is_an_answer_of_its_own(self):
        record = entered(
            "french", FIVE, {"taker": "Anna", "contract": "garde", "bouts": 2, "points": 47, "partner": None}
        )
        assert record.play.partner is None

    def test_a_session_file_may_still_leave_the_partner_out_meaning_alone(self):
        session = read_session(
            {
                "variant": "french",
                "players": FIVE,
                "hands": [{"taker": "Anna", "contract": "garde", "bouts": 2, "points": 47}],
            }
        )
        assert session.hands[0].play.partner is None

    def test_with_four_players_nobody_is_called_so_nothing_is_asked(self):
        record = entered("french", FOUR, {"taker": "Anna", "contract": "garde", "bouts": 2, "points": 47})
        assert record.play.partner is None

    def test_chambery_the_dealer_alone_is_said_or_the_call_is_refused(self):
        error = refusal("chambery", FIVE, {"mode": "call", "points": 40})
        assert problems(error) == [("partner", "Partner (holder of the called card) missing")]
        record = entered("chambery", FIVE, {"mode": "call", "points": 40, "partner": None})
        assert record.play.partner is None

    def test_chambery_a_solo_names_its_soloist_and_the_cards_asked_for_together(self):
        error = refusal("chambery", FIVE, {"mode": "solo", "points": 30})
        assert [field for field, _ in problems(error)] == ["soloist", "cards_requested"]

    def test_chambery_without_a_game_only_the_game_is_missing(self):
        """The partner or the soloist is asked once the game says which."""
        error = refusal("chambery", FIVE, {"points": 30})
        assert problems(error) == [("mode", "Game missing")]

    def test_illustriertes_points_are_asked_unless_a_renonce_leaves_them_out(self):
        hand = {"declarer": "A", "game": "dreiblatt", "bid": "announced"}
        error = refusal("illustrated", ["A", "B", "C"], hand)
        assert problems(error) == [("points", "Points missing")]
        record = entered("illustrated", ["A", "B", "C"], {**hand, "renonce": "B"})
        assert record.play.points is None


class TestEveryProblemAtOnce:
    def test_an_empty_hand_lists_every_missing_field(self):
        error = refusal("french", FIVE, {})
        assert problems(error) == [
            ("taker", "Taker missing"),
            ("contract", "Contract missing"),
            ("bouts", "Bouts missing"),
            ("points", "Points missing"),
            ("partner", "Partner (called king) missing"),
        ]

    def test_missing_and_wrong_fields_together_in_the_players_words(self):
        error = refusal(
            "french",
            FOUR,
            {
                "taker": "Anna",
                "bouts": 2,
                "points": "95",
                "poignees": [{"player": "Bert", "size": "simple"}, {"player": "Carl", "size": "huge"}],
            },
        )
        assert problems(error) == [
            ("contract", "Contract missing"),
            ("points", 'Points: 0 to 91, half points allowed (got "95")'),
            ("poignees[2].size", 'Poignées 2, Size: one of simple, double, triple (got "huge")'),
        ]

    def test_three_players_each_missing_and_wrong_count_is_reported(self):
        error = refusal("chambery", THREE, {"points": {"Anna": 40, "Bert": "x"}})
        assert [field for field, _ in problems(error)] == ["points.Bert", "points.Carl"]
        assert error.problems[1].words() == "Points of each player, Carl missing"

    def test_a_cross_field_check_says_which_field_in_words(self):
        error = refusal("french", FOUR, {"taker": "Anna", "contract": "garde", "bouts": 3, "points": 10})
        assert problems(error) == [
            ("points", "Points: with 3 bouts the attack has from 13.5 to 91 points (got 10)"),
        ]

    def test_the_dealer_is_named_in_words_too(self):
        error = refusal("chambery", FIVE, {"dealer": "Zoe", "mode": "call", "points": 40})
        assert error.words().startswith("Dealer: must be one of the players")


class TestFileReaders:
    def test_a_session_file_reports_its_first_problem_with_path_and_words(self):
        with pytest.raises(InvalidInput) as caught:
            read_session({"variant": "french", "players": FOUR, "hands": [{"taker": "Anna", "bouts": 7}]})
        error = caught.value
        assert str(error) == "hand 1, contract: Contract missing"
        assert (error.field, error.hand) == ("contract", 1)
        # The others are there for whoever wants them, each in its hand.
        assert [(p.field, p.hand) for p in error.problems] == [
            ("contract", 1),
            ("bouts", 1),
            ("points", 1),
        ]
        assert error.problems[1].describe() == "hand 1, bouts: Bouts: a whole number from 0 to 3 (got 7)"


class TestLabels:
    @pytest.mark.parametrize(
        ("path", "label"),
        [
            ("points", "Points"),
            ("poignees", "Poignées"),
            ("poignees[2]", "Poignées 2"),
            ("poignees[2].size", "Poignées 2, Size"),
            ("colour", None),
        ],
    )
    def test_a_field_path_has_the_label_players_know(self, path, label):
        french = VARIANTS["french"]
        fields = french.hand_fields(HandType.PLAYED, Table(tuple(FOUR), "Dora"), french.default_options(FOUR))
        found = label_at(fields, path)
        assert (found.render() if found else None) == label

    def test_several_refusals_keep_their_order_when_moved_into_a_hand(self):
        first, second = InvalidInput("a", Line("first")), InvalidInput("b", Line("second"))
        moved = InvalidInput.several([first, second]).in_hand(3, "x.")
        assert [(p.field, p.hand) for p in moved.problems] == [("x.a", 3), ("x.b", 3)]
        assert str(moved) == "hand 3, x.a: first"
