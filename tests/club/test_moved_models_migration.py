"""The regular table's and the login limits' models moved from the scoring app to
the club and accounts apps in Django's books only: a database of the old layout
migrates forward without a single statement and keeps every row, now read through
the new apps' models."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from accounts.models import LoginAttempt, LoginLock, SignupAttempt
from club.models import (
    Booking,
    BookingLine,
    EveningResult,
    Group,
    GroupPlayer,
    Invitation,
    Membership,
    Season,
)
from scoring.models import Seat, Session

OLD_LAYOUT = [("scoring", "0012_money_fits")]  # before accounts and club took their models over
# The move itself: the models change apps in Django's books only.
MOVED = [
    ("scoring", "0014_regular_table_to_club"),
    ("accounts", "0002_login_sessions_backend"),
    ("club", "0001_initial"),
]


@pytest.fixture
def latest_schema_afterwards():
    """The latest migrations are applied again for the tests that follow."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def stored_in_the_old_layout() -> dict[str, int]:
    """Rows written through the models as the scoring app held them; their ids."""
    executor = MigrationExecutor(connection)
    executor.migrate([*OLD_LAYOUT, ("accounts", None)])  # the accounts app had no migration yet
    old = executor.loader.project_state(OLD_LAYOUT).apps
    User = old.get_model("auth", "User")
    Player = old.get_model("scoring", "Player")
    OldSession = old.get_model("scoring", "Session")
    OldSeat = old.get_model("scoring", "Seat")
    OldGroup = old.get_model("scoring", "Group")
    anna = User.objects.create(username="anna")
    group = OldGroup.objects.create(name="Dienstag", money_rate=Decimal("0.10"), currency="CHF")
    old.get_model("scoring", "Membership").objects.create(group=group, user=anna, role="owner")
    roster = old.get_model("scoring", "GroupPlayer").objects.create(group=group, name="Anna", user=anna)
    session = OldSession.objects.create(
        owner=anna, name="März", variant="french", options={}, group=group, played_on=date(2026, 3, 3)
    )
    seat = OldSeat.objects.create(
        session=session,
        player=Player.objects.create(owner=anna, name="Anna"),
        position=0,
        name="Anna",
        roster=roster,
    )
    booking = old.get_model("scoring", "Booking").objects.create(group=group, kind="payment", note="Bier")
    old.get_model("scoring", "BookingLine").objects.create(
        booking=booking, group=group, player=roster, amount=5
    )
    old.get_model("scoring", "EveningResult").objects.create(
        group=group, session=session, player=roster, played_on=date(2026, 3, 3), variant="french", total=40
    )
    old.get_model("scoring", "Season").objects.create(
        group=group, name="Fasching", starts_on=date(2026, 1, 1), ends_on=date(2026, 2, 1)
    )
    old.get_model("scoring", "Invitation").objects.create(
        group=group, token="t" * 40, expires_at=timezone.now(), max_uses=3
    )
    old.get_model("scoring", "LoginAttempt").objects.create(username="anna", ip="127.0.0.1")
    old.get_model("scoring", "LoginLock").objects.create(key="user:anna", at=timezone.now())
    old.get_model("scoring", "SignupAttempt").objects.create(ip="127.0.0.2")
    return {"group": group.pk, "session": session.pk, "seat": seat.pk, "roster": roster.pk}


@pytest.mark.django_db(transaction=True)
def test_the_old_layout_migrates_forward_without_a_statement(latest_schema_afterwards):
    stored_in_the_old_layout()
    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(MOVED)
    moved = {(migration.app_label, migration.name) for migration, _ in plan}
    assert {
        ("accounts", "0001_initial"),
        ("club", "0001_initial"),
        ("scoring", "0014_regular_table_to_club"),
    } <= moved
    assert statements(executor, plan) == []  # nothing for the database to do


def statements(executor: MigrationExecutor, plan: list) -> list[str]:
    """The SQL a plan would run, its comments (``-- (no-op)``) left out."""
    collected = executor.loader.collect_sql(plan)  # type: ignore[attr-defined]  # not in the stubs
    return [sql for sql in collected if not sql.startswith("--")]


@pytest.mark.django_db(transaction=True)
def test_a_statement_in_a_plan_would_be_seen():
    """The check above can fail: a migration that writes to the database shows."""
    executor = MigrationExecutor(connection)
    plan = [(executor.loader.graph.nodes[("scoring", "0012_money_fits")], False)]
    assert statements(executor, plan) != []


@pytest.mark.django_db(transaction=True)
def test_every_row_of_the_old_layout_is_read_through_the_new_apps_models(latest_schema_afterwards):
    ids = stored_in_the_old_layout()
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    group = Group.objects.get(pk=ids["group"])
    assert (group.name, group.money_rate, group.currency) == ("Dienstag", Decimal("0.1000"), "CHF")
    assert Membership.objects.get(group=group).user.username == "anna"
    roster = GroupPlayer.objects.get(pk=ids["roster"])
    assert Session.objects.get(pk=ids["session"]).group == group  # an evening's group: club's model
    assert Seat.objects.get(pk=ids["seat"]).roster == roster
    assert [line.amount for line in BookingLine.objects.filter(player=roster)] == [Decimal("5.00")]
    assert Booking.objects.get(group=group).note == "Bier"
    assert EveningResult.objects.get(session_id=ids["session"]).total == 40
    assert Season.objects.get(group=group).name == "Fasching"
    assert Invitation.objects.get(group=group).max_uses == 3
    assert LoginAttempt.objects.get().username == "anna"
    assert LoginLock.objects.get().key == "user:anna"
    assert SignupAttempt.objects.get().ip == "127.0.0.2"


@pytest.mark.django_db
def test_the_models_and_every_apps_migrations_agree():
    """No app's models differ from what its migrations say (the moved ones included)."""
    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)  # exits with 1 on a difference
    assert out.getvalue().strip() == "No changes detected"
