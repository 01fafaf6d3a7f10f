"""The regular table's links to its evenings moved from the evenings' columns to
the club's rows (``club/migrations/0003``, ``scoring/migrations/0003``): every
link is copied as it was, and back again when the migrations are reversed."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("club", "0002_initial"), ("scoring", "0002_hand_played_index")]
AFTER = [("club", "0003_evening_links"), ("scoring", "0003_links_on_the_club_side")]


def migrate(targets: list[tuple[str, str]]) -> Any:
    """The apps' models as they stand after ``targets`` (a fresh executor each time,
    as ``manage.py migrate`` makes one)."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_every_group_and_roster_link_moves_to_the_club_and_back():
    old = migrate(BEFORE)
    user = old.get_model("auth", "User").objects.create(username="anna")
    group = old.get_model("club", "Group").objects.create(name="Dienstag")
    anna = old.get_model("club", "GroupPlayer").objects.create(group=group, name="Anna")
    Session, Seat, Player = (old.get_model("scoring", name) for name in ("Session", "Seat", "Player"))
    player = Player.objects.create(owner=user, name="Anna")
    evening = Session.objects.create(owner=user, name="Abend", variant="french", group=group)
    alone = Session.objects.create(owner=user, name="Allein", variant="french")
    seated = Seat.objects.create(session=evening, player=player, position=0, name="Anna", roster=anna)
    Seat.objects.create(session=alone, player=player, position=0, name="Anna")

    new = migrate(AFTER)
    links = new.get_model("club", "GroupSession").objects.values_list("session_id", "group_id")
    assert list(links) == [(evening.pk, group.pk)]
    seats = new.get_model("club", "RosterSeat").objects.values_list("seat_id", "player_id")
    assert list(seats) == [(seated.pk, anna.pk)]
    columns = {f.name for f in new.get_model("scoring", "Session")._meta.get_fields()}
    assert "group" not in columns and "roster" not in {
        f.name for f in new.get_model("scoring", "Seat")._meta.get_fields()
    }

    back = migrate(BEFORE)
    sessions = back.get_model("scoring", "Session").objects.order_by("pk").values_list("pk", "group_id")
    assert list(sessions) == [(evening.pk, group.pk), (alone.pk, None)]
    rostered = back.get_model("scoring", "Seat").objects.order_by("pk").values_list("pk", "roster_id")
    assert list(rostered) == [(seated.pk, anna.pk), (seated.pk + 1, None)]
    # The test database as the other tests find it: every app at its latest migration,
    # including those that depend on the ones taken back (their tables went with them).
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
