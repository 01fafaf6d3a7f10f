"""SQLite lets one writer in at a time: a hand saved while another write holds the
database waits its turn; one that waited too long is told "busy, try again" (503)
with its inputs kept, and nothing is stored. Never a server error. So is a write
to a database that cannot be reached (down, restarting, the connection dropped),
on either database."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest
from django.db import OperationalError, connection, connections, transaction
from django.test import RequestFactory
from django.urls import get_resolver, reverse

from plumbing.busy import RETRY_AFTER, DatabaseBusy, is_busy, server_error
from scoring import services
from scoring.engine.session_file import MAX_HANDS
from scoring.models import Hand, Player
from tests.scoring.test_views import form_data

GARDE = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56, "note": "Kaffee"}


@pytest.fixture
def sqlite(transactional_db: Any) -> None:
    if connection.vendor != "sqlite":
        pytest.skip(
            "SQLite only: PostgreSQL lets writers of different rows go on side by side and never "
            "reports a locked database; this run uses " + connection.vendor
        )


@contextmanager
def another_write(*, seconds: float) -> Iterator[threading.Event]:
    """A write transaction on another connection (an import, say), holding SQLite's
    write lock for ``seconds`` or until the returned event is set."""
    taken, done = threading.Event(), threading.Event()
    owner_id = Player.objects.values_list("owner_id", flat=True).first()
    assert owner_id is not None

    def hold() -> None:
        try:
            with transaction.atomic():  # BEGIN IMMEDIATE: the write lock, from the start
                Player.objects.create(owner_id=owner_id, name="Someone importing")
                taken.set()
                done.wait(seconds)
        finally:
            connections.close_all()

    thread = threading.Thread(target=hold)
    thread.start()
    assert taken.wait(10), "the other write got the lock"
    try:
        yield done
    finally:
        done.set()
        thread.join(30)


@contextmanager
def busy_timeout(milliseconds: int) -> Iterator[None]:
    """This connection gives up waiting for the write lock after ``milliseconds``."""
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA busy_timeout")
        before = cursor.fetchone()[0]
        cursor.execute(f"PRAGMA busy_timeout = {milliseconds}")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA busy_timeout = {before}")


@pytest.fixture
def french(sqlite: None, make_session: Any) -> Any:
    return make_session()


def test_a_hand_saved_while_another_write_holds_the_database_waits_its_turn_and_is_stored(logged_in, french):
    url = reverse("hand_new", args=[french.pk])
    with another_write(seconds=1.5):
        response = logged_in.post(url, form_data(GARDE, "form-1"))
    assert response.status_code == 302
    assert [(h.inputs["taker"], h.note) for h in Hand.objects.filter(session=french)] == [("Anna", "Kaffee")]


def test_a_hand_saved_during_the_largest_allowed_import_is_stored_after_it_never_an_error(
    user, logged_in, french
):
    players = ["Anna", "Bert", "Carl", "Dora"]
    season = {
        "format": "tarockscore/1",
        "variant": "french",
        "players": players,
        "options": {},
        "hands": [
            {
                "dealer": players[n % 4],
                "taker": players[(n + 1) % 4],
                "contract": "garde",
                "bouts": 2,
                "points": 56,
            }
            for n in range(MAX_HANDS)
        ],
    }
    began, imported = threading.Event(), []

    def note_begin(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        result = execute(sql, params, many, context)
        if sql.startswith("BEGIN"):
            began.set()  # once the import holds the write lock, not just before it asks for it
        return result

    def run_import() -> None:
        try:
            with connection.execute_wrapper(note_begin):
                imported.append(services.session_import(owner=user, text=json.dumps(season), name="Season"))
        finally:
            connections.close_all()

    importer = threading.Thread(target=run_import)
    importer.start()
    assert began.wait(30), "the import began its transaction"
    response = logged_in.post(reverse("hand_new", args=[french.pk]), form_data(GARDE, "form-1"))
    importer.join(120)
    assert imported and imported[0].hands.count() == MAX_HANDS, "the import went through"
    assert response.status_code in (302, 503)  # never a server error
    stored = list(Hand.objects.filter(session=french))
    if response.status_code == 302:
        last_imported = imported[0].hands.order_by("-pk").first()
        assert len(stored) == 1 and stored[0].pk > last_imported.pk, "stored after the import, in its turn"
    else:
        assert stored == [] and response["Retry-After"] == str(RETRY_AFTER)


def test_a_hand_that_waited_too_long_gets_busy_try_again_with_its_inputs_and_nothing_is_stored(
    logged_in, french
):
    url = reverse("hand_new", args=[french.pk])
    with another_write(seconds=30), busy_timeout(200):
        response = logged_in.post(url, form_data(GARDE, "form-1"))
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER)
    page = response.content.decode()
    assert "Nothing was saved: please send it again in a moment." in page
    assert 'id="hand-form"' in page and 'name="token" value="form-1"' in page  # the same form, resendable
    assert 'name="taker" value="Anna" checked' in page and '<option value="Dora" selected' in page
    assert 'name="points" value="56"' in page and 'name="note" value="Kaffee"' in page
    assert not Hand.objects.filter(session=french).exists()
    # Sent again once the database is free: stored, and once only.
    assert logged_in.post(url, form_data(GARDE, "form-1")).status_code == 302
    assert logged_in.post(url, form_data(GARDE, "form-1")).status_code == 302
    assert Hand.objects.filter(session=french).count() == 1


def test_a_correction_that_waited_too_long_keeps_its_inputs_and_changes_nothing(logged_in, french):
    hand = services.hand_record(session=french, raw=GARDE)
    url = reverse("hand_edit", args=[french.pk, hand.pk])
    with another_write(seconds=30), busy_timeout(200):
        response = logged_in.post(url, form_data({**GARDE, "points": 61}, "1"))
    assert response.status_code == 503 and response["Retry-After"] == str(RETRY_AFTER)
    assert 'name="points" value="61"' in response.content.decode()
    hand.refresh_from_db()
    assert (hand.version, hand.inputs["points"]) == (1, 56)


def test_any_other_write_that_waited_too_long_gets_the_busy_page_in_the_readers_language(
    client_for, user, french
):
    hand = services.hand_record(session=french, raw=GARDE)
    german = client_for(user)
    german.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    with another_write(seconds=30), busy_timeout(200):
        response = german.post(reverse("hand_delete", args=[french.pk, hand.pk]))
    assert response.status_code == 503 and response["Retry-After"] == str(RETRY_AFTER)
    page = response.content.decode()
    assert 'id="busy"' in page and "Es wurde nichts gespeichert" in page
    hand.refresh_from_db()
    assert hand.deleted_at is None


def test_a_busy_database_met_outside_a_view_is_answered_busy_too():
    assert get_resolver().resolve_error_handler(500) is server_error
    request = RequestFactory().post("/accounts/login/", HTTP_ACCEPT_LANGUAGE="en")
    try:
        raise DatabaseBusy("database is locked")  # as the session saved after a login would
    except DatabaseBusy:
        response = server_error(request)
    assert response.status_code == 503 and response["Retry-After"] == str(RETRY_AFTER)
    try:
        raise ValueError("a real fault")
    except ValueError:
        assert server_error(request).status_code == 500


# -- a database that cannot be reached ------------------------------------------------------


def _unreachable() -> OperationalError:
    """What Django raises when the server is down or dropped the connection: its
    OperationalError over psycopg's own, which carries no SQLSTATE."""
    try:
        raise psycopg.OperationalError("server closed the connection unexpectedly")
    except psycopg.OperationalError as cause:
        try:
            raise OperationalError(*cause.args) from cause
        except OperationalError as error:
            return error


@contextmanager
def database_down(*, from_the_write: bool = False) -> Iterator[None]:
    """Every statement on this thread's connection fails as on a database that is
    down; ``from_the_write``: the reads before the first write still answer
    (the server went away while the hand was on its way)."""

    def refuse(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if from_the_write and sql.lstrip()[:6].upper() not in ("UPDATE", "INSERT", "DELETE"):
            return execute(sql, params, many, context)
        raise _unreachable()

    with connection.execute_wrapper(refuse):
        yield


def test_a_page_asked_for_while_the_database_is_down_is_busy_try_again_not_an_error(logged_in, make_session):
    session = make_session()
    with database_down():
        response = logged_in.get(reverse("scoreboard", args=[session.pk]))
    assert response.status_code == 503 and response["Retry-After"] == str(RETRY_AFTER)
    assert "Nothing was saved: please send it again in a moment." in response.content.decode()


def test_a_hand_sent_while_the_database_is_down_is_busy_and_stored_once_when_sent_again(
    logged_in, make_session
):
    session = make_session()
    url = reverse("hand_new", args=[session.pk])
    with database_down():
        response = logged_in.post(url, form_data(GARDE, "form-1"), headers={"X-Tarock-Outbox": "1"})
    assert response.status_code == 503 and response["Retry-After"] == str(RETRY_AFTER)
    assert not Hand.objects.filter(session=session).exists()
    # The outbox sends it again once the database is back: stored, and once only.
    for _ in range(2):
        again = logged_in.post(url, form_data(GARDE, "form-1"), headers={"X-Tarock-Outbox": "1"})
        assert again.status_code == 204
    assert Hand.objects.filter(session=session).count() == 1


def test_a_hand_whose_database_went_away_while_saving_keeps_its_inputs(logged_in, make_session):
    session = make_session()
    url = reverse("hand_new", args=[session.pk])
    with database_down(from_the_write=True):
        response = logged_in.post(url, form_data(GARDE, "form-1"))
    assert response.status_code == 503 and response["Retry-After"] == str(RETRY_AFTER)
    page = response.content.decode()
    assert "Nothing was saved: please send it again in a moment." in page
    assert 'id="hand-form"' in page and 'name="token" value="form-1"' in page
    assert 'name="points" value="56"' in page and 'name="note" value="Kaffee"' in page
    assert not Hand.objects.filter(session=session).exists()
    hand = services.hand_record(session=session, raw=GARDE)
    with database_down(from_the_write=True):
        response = logged_in.post(
            reverse("hand_edit", args=[session.pk, hand.pk]), form_data({**GARDE, "points": 61}, "1")
        )
    assert response.status_code == 503 and 'name="points" value="61"' in response.content.decode()
    hand.refresh_from_db()
    assert (hand.version, hand.inputs["points"]) == (1, 56)


def test_a_deadlock_or_a_fault_are_told_apart():
    assert is_busy(_unreachable())
    for state, busy in (("40P01", True), ("40001", True), ("57P01", True), ("53300", True), ("42P01", False)):
        cause = psycopg.errors.lookup(state)("from the server")
        try:
            raise OperationalError("from the server") from cause
        except OperationalError as error:
            assert is_busy(error) is busy, state
    try:
        raise OperationalError("no such table: scoring_hand") from sqlite3.OperationalError("no such table")
    except OperationalError as error:
        assert not is_busy(error)


@pytest.mark.django_db(transaction=True)
def test_a_postgresql_server_that_refuses_connections_is_busy_try_again(client_for, user):
    if connection.vendor != "postgresql":
        pytest.skip("a server to stop: PostgreSQL only; this run uses " + connection.vendor)
    session = services.session_create(
        owner=user, name="Friday", variant="french", players=["Anna", "Bert", "Carl", "Dora"], options={}
    )
    phone = client_for(user)
    port = connection.settings_dict["PORT"]
    connection.close()
    connection.settings_dict["PORT"] = "1"  # nothing listens there
    try:
        page = phone.get(reverse("scoreboard", args=[session.pk]))
        sent = phone.post(reverse("hand_new", args=[session.pk]), form_data(GARDE, "form-1"))
    finally:
        connection.close()
        connection.settings_dict["PORT"] = port
    for response in (page, sent):
        assert response.status_code == 503 and response["Retry-After"] == str(RETRY_AFTER)
    assert not Hand.objects.filter(session=session).exists()
