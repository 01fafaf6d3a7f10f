"""A dummy fourth game, registered from the test settings (``TAROCK_EXTRA_GAMES``)
by ``tests/scoring/test_a_new_game.py``: the smallest game the engine accepts."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from scoring.engine import HandRecord, HandScore, HandType, Line, Table, VariantOf
from scoring.engine.schema import Field, Kind
from scoring.engine.types import gettext_noop
from scoring.engine.variant import TournamentTerms

PATH = "tests.scoring.dummy_game.Dummy"


@dataclass(frozen=True)
class DummyOptions:
    stake: int = 2


@dataclass(frozen=True)
class DummyHand:
    winner: str


class Dummy(VariantOf[DummyOptions, DummyHand]):
    """Everyone else pays the winner the stake (at three: the winner gets twice the stake)."""

    key = "dummy"
    name = gettext_noop("Dummy Tarock")
    table_sizes = (3, 4, 5)
    options_type = DummyOptions
    # Offered for tournaments, last in their list: one round of two hands by default.
    tournament = TournamentTerms(
        order=9, rounds=1, hands=2, money_rate=None, kontra_cash=False, halves=False, heine=True
    )
    option_fields = (
        Field("stake", Kind.INT, gettext_noop("Stake"), minimum=Fraction(1), maximum=Fraction(9), default=2),
    )

    def hand_fields(self, hand_type: HandType, table: Table, options: Any) -> tuple[Field, ...]:
        return (Field("winner", Kind.PLAYER, gettext_noop("Winner"), required=True),)

    def build_hand(self, hand_type: HandType, values: dict[str, Any], table: Table, options: Any) -> Any:
        return DummyHand(values["winner"])

    def score(self, record: HandRecord, options: Any) -> HandScore:
        winner = record.play.winner
        others = len(record.table.players) - 1
        deltas = {
            name: Fraction(others * options.stake if name == winner else -options.stake)
            for name in record.table.players
        }
        return HandScore(deltas, (Line("{name} wins", {"name": winner}),))

    def describe(self, record: HandRecord) -> Line:
        return Line("{name} wins", {"name": record.play.winner})
