"""SQLite lets one writer in at a time: a hand saved while another write holds the
database waits its turn; one that waited too long is told "busy, try again" (503)
with its inputs kept, and nothing is stored. Never a server error."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.test import RequestFactory
from django.urls import get_resolver, reverse

from scoring import services
from scoring.busy import RETRY_AFTER, DatabaseBusy, server_error
from scoring.engine.session_file import MAX_HANDS
from scoring.models import Hand, Player
from tests.web.test_views import form_data

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
