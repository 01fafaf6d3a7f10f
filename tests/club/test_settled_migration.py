"""Group evenings stored before statistics and Kasse followed the settlement are
put right once by the data migration (no schema changes: run on today's models)."""

from __future__ import annotations

import importlib
from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from club.models import Booking, EveningResult
from club.services import groups, kasse
from scoring import services
from tests.club import test_group_stats
from tests.club.regular_table import evening

migration = importlib.import_module("scoring.migrations.0010_group_evenings_settled")


def today_as_scoring_held_them():
    """Today's models as the scoring app held them, before the club app took them
    over (the same tables): what the migration's ``apps.get_model("scoring", …)`` finds."""
    executor = MigrationExecutor(connection)
    return executor.loader.project_state(("scoring", "0013_login_limits_to_accounts")).apps


GARDE = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
RATE = Decimal("0.10")


@pytest.fixture
def group(user):
    return groups.group_create(owner=user, name="Dienstag", money_rate=RATE)


def balances(group) -> dict[str, Decimal]:
    return {b.player.name: b.amount for b in kasse.kasse_of(group).balances if b.player}


def illustrated_evening(group, user):
    """An Illustriertes evening of three whose block sums differ from what the settlement pays."""
    session, _ = evening(
        group,
        user,
        test_group_stats.TestIllustrated.HANDS,
        variant="illustrated",
        players=("Anna", "Bert", "Carl"),
        options={"all_pass": "trischaken", "series_target": 30},
        money_rate=RATE,
    )
    return session


def test_illustriertes_rows_written_with_the_block_sums_count_the_balance_afterwards(group, user):
    session = illustrated_evening(group, user)
    for name, block in {"Anna": 34, "Bert": 10, "Carl": 5}.items():  # as stored before
        EveningResult.objects.filter(session=session, player__name=name).update(total=block)
    migration.settle(today_as_scoring_held_them(), None)
    rows = EveningResult.objects.filter(session=session)
    assert {row.player.name: row.total for row in rows} == {"Anna": 53, "Bert": -19, "Carl": -34}


def test_a_deleted_evening_still_booked_is_reversed_and_a_closed_one_never_booked_is_booked(
    group, user, make_session
):
    deleted, _ = evening(group, user, [GARDE], money_rate=RATE)
    services.session_close(session=deleted, user=user)
    services.session_delete(session=deleted, user=user)
    Booking.objects.filter(kind="reversal").delete()  # as stored before: still booked
    brought = make_session(money_rate=RATE)
    services.hand_record(session=brought, raw={**GARDE, "taker": "Bert"})
    services.session_close(session=brought, user=user)
    groups.group_session_add(group=group, session=brought, user=user)
    Booking.objects.filter(session=brought).delete()  # as stored before: never booked
    assert balances(group)["Anna"] == Decimal("24.00")

    migration.settle(today_as_scoring_held_them(), None)
    assert balances(group) == {
        "Anna": Decimal("-8.00"),
        "Bert": Decimal("24.00"),
        "Carl": Decimal("-8.00"),
        "Dora": Decimal("-8.00"),
    }
    reversal = Booking.objects.get(kind="reversal")
    assert reversal.session == deleted and reversal.reverses is not None
    count = Booking.objects.count()
    migration.settle(today_as_scoring_held_them(), None)  # once is enough: nothing more to put right
    assert Booking.objects.count() == count


@pytest.mark.django_db(transaction=True)
def test_the_migration_runs_on_the_models_of_its_time(user):
    group = groups.group_create(owner=user, name="Dienstag", money_rate=RATE)
    session = illustrated_evening(group, user)
    services.session_close(session=session, user=user)
    services.session_delete(session=session, user=user)
    Booking.objects.filter(kind="reversal").delete()
    executor = MigrationExecutor(connection)
    executor.migrate([("scoring", "0009_fill_hand_stats")])  # nothing of the schema changes
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert set(balances(group).values()) == {Decimal("0.00")}
    assert Booking.objects.filter(kind="reversal", session=session).count() == 1
