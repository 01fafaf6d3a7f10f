"""Adding a game touches the engine (its module and one line of registration),
its templates only if it needs fields of its own, and a migration only for the
list of games the database accepts. Here a dummy game is registered, as a new
module would be, and everything around the engine takes it up by itself."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest
from django.core.management import call_command
from django.db.models import CheckConstraint
from django.urls import reverse

from scoring.engine import (
    VARIANTS,
    HandRecord,
    HandScore,
    HandType,
    Line,
    Table,
    Variant,
    read_session,
    score_session,
)
from scoring.engine.schema import Field, Kind
from scoring.engine.types import gettext_noop
from scoring.models import Session, variant_choices


@dataclass(frozen=True)
class DummyOptions:
    stake: int = 2


@dataclass(frozen=True)
class DummyHand:
    winner: str


class Dummy(Variant):
    key = "dummy"
    name = gettext_noop("Dummy Tarock")
    table_sizes = (3,)
    options_type = DummyOptions
    option_fields = (
        Field("stake", Kind.INT, gettext_noop("Stake"), minimum=Fraction(1), maximum=Fraction(9), default=2),
    )

    def hand_fields(self, hand_type: HandType, table: Table, options: Any) -> tuple[Field, ...]:
        return (Field("winner", Kind.PLAYER, gettext_noop("Winner"), required=True),)

    def build_hand(self, hand_type: HandType, values: dict[str, Any], table: Table, options: Any) -> Any:
        return DummyHand(values["winner"])

    def score(self, record: HandRecord, options: Any) -> HandScore:
        winner = record.play.winner
        deltas = {
            name: Fraction(2 * options.stake if name == winner else -options.stake)
            for name in record.table.players
        }
        return HandScore(deltas, (Line("{name} wins", {"name": winner}),))

    def describe(self, record: HandRecord) -> Line:
        return Line("{name} wins", {"name": record.play.winner})


@pytest.fixture
def dummy(monkeypatch):
    monkeypatch.setitem(VARIANTS, "dummy", Dummy())


def test_the_engine_scores_the_new_game_from_a_session_file(dummy):
    document = {
        "variant": "dummy",
        "players": ["A", "B", "C"],
        "options": {"stake": 3},
        "hands": [{"winner": "B"}],
    }
    result = score_session(read_session(json.dumps(document)))
    assert result.to_json()["totals"] == {"A": -3, "B": 6, "C": -3}


def test_the_list_of_games_and_the_model_choices_come_from_the_registry(dummy):
    assert ("dummy", "Dummy Tarock") in [(key, str(label)) for key, label in variant_choices()]
    field = Session._meta.get_field("variant")
    assert "dummy" in [key for key, _label in field.choices]
    call_command("check")


def test_the_pages_offer_the_new_game_and_its_house_rules(dummy, logged_in):
    assert "Dummy Tarock" in logged_in.get(reverse("session_new")).content.decode()
    page = logged_in.get(reverse("session_new_variant", args=["dummy"]))
    assert page.status_code == 200
    assert 'name="options.stake"' in page.content.decode()


def test_the_database_accepts_exactly_the_registered_games():
    (constraint,) = [
        c
        for c in Session._meta.constraints
        if isinstance(c, CheckConstraint) and c.name == "session_variant_known"
    ]
    assert constraint.condition.children == [("variant__in", tuple(VARIANTS))]


def test_a_new_game_needs_no_migration_for_its_choices(dummy, db):
    # Registered in registry.py, the game's key would also widen the database's
    # check of known games (``session_variant_known``): that one migration is all.
    out = io.StringIO()
    call_command("makemigrations", "scoring", "--dry-run", stdout=out)
    assert out.getvalue().strip() == "No changes detected in app 'scoring'"
