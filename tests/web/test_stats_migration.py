"""Hands recorded before statistics existed get them from the data migration."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("scoring", "0008_groups_statistics_kasse")]
AFTER = [("scoring", "0009_fill_hand_stats")]


@pytest.fixture
def latest_schema_afterwards():
    """Later migrations (of other work) are applied again for the tests that follow."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_the_statistics_of_every_stored_hand(latest_schema_afterwards):
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    apps = executor.loader.project_state(BEFORE).apps
    User = apps.get_model("auth", "User")
    Player = apps.get_model("scoring", "Player")
    Session = apps.get_model("scoring", "Session")
    Seat = apps.get_model("scoring", "Seat")
    Hand = apps.get_model("scoring", "Hand")
    owner = User.objects.create(username="anna")
    session = Session.objects.create(
        owner=owner,
        name="Alt",
        variant="french",
        options={"five_player_split": "taker_double", "round_to": 1},
    )
    for position, name in enumerate(("Anna", "Bert", "Carl", "Dora")):
        player = Player.objects.create(owner=owner, name=name)
        Seat.objects.create(session=session, player=player, position=position, name=name)
    played = Hand.objects.create(
        session=session,
        number=1,
        dealer="Dora",
        inputs={"taker": "Anna", "contract": "garde", "bouts": 2, "points": 56, "petit_au_bout": "attack"},
        deltas={"Anna": 300, "Bert": -100, "Carl": -100, "Dora": -100},
    )
    refused = Hand.objects.create(
        session=session, number=2, inputs={"taker": "Nobody", "contract": "garde", "bouts": 2, "points": 56}
    )

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    apps = executor.loader.project_state(AFTER).apps
    Hand = apps.get_model("scoring", "Hand")
    assert Hand.objects.get(pk=played.pk).stats == {
        "kind": "garde",
        "roles": ["taker", "defender", "defender", "defender"],
        "won": [True, False, False, False],
        "marks": [["petit_au_bout"], [], [], []],
    }
    assert Hand.objects.get(pk=refused.pk).stats == {}  # today's rules refuse it: counted by its deltas only
    assert Hand.objects.get(pk=played.pk).deltas["Anna"] == 300  # the snapshot itself is left as it was
