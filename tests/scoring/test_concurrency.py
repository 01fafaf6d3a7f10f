"""Real concurrent requests against a live server: several phones at one table.

These run on whichever database the suite runs on (SQLite, then PostgreSQL in CI).
"""

from __future__ import annotations

import http.cookiejar
import re
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Sequence
from datetime import date
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import OperationalError, connections

from club.services import groups
from scoring import services
from scoring.models import Hand, HandChange
from scoring.services.sessions import SessionClosed

PASSWORD = "a-long-test-password"
HAND = {
    "type": "played",
    "action": "save",
    "dealer": "Dora",
    "taker": "Anna",
    "contract": "garde",
    "bouts": "2",
    "points": "56",
    "poignees.rows": "1",
}


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class Phone:
    """A browser on one phone: its own cookies, logged in through the real form."""

    def __init__(self, base: str, username: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect)
        page = self.get("/accounts/login/")
        status, _ = self.post("/accounts/login/", {"username": username, "password": PASSWORD}, page)
        assert status == 302, "logged in"

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=30) as response:
            return response.read().decode()

    def post(self, path: str, data: dict[str, str], page: str) -> tuple[int, str]:
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": token}).encode()
        request = urllib.request.Request(self.base + path, data=body, headers={"Referer": self.base + path})
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("Location", "")


def at_once(phones: Sequence[Any], send: Any) -> list[Any]:
    """Let every phone send at the same moment; collect what each got back."""
    barrier = threading.Barrier(len(phones))
    results: list[Any] = [None] * len(phones)

    def run(index: int) -> None:
        barrier.wait()
        results[index] = send(index, phones[index])

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(phones))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


@pytest.fixture
def table(transactional_db: Any, live_server: Any) -> tuple[Any, list[Phone]]:
    owner = User.objects.create_user("anna", password=PASSWORD)
    editors = [User.objects.create_user(f"phone{i}", password=PASSWORD) for i in range(3)]
    session = services.session_create(
        owner=owner, name="Friday", variant="french", players=["Anna", "Bert", "Carl", "Dora"], options={}
    )
    for editor in editors:
        session.editors.add(editor)
    phones = [Phone(live_server.url, user.username) for user in (owner, *editors)]
    return session, phones


def test_phones_recording_a_hand_at_the_same_moment_are_all_kept_and_numbered_in_order(table):
    session, phones = table
    path = f"/sessions/{session.pk}/hands/new/"
    pages = [phone.get(path) for phone in phones]
    results = at_once(phones, lambda i, phone: phone.post(path, {**HAND, "token": f"phone-{i}"}, pages[i]))
    assert [status for status, _ in results] == [302] * len(phones)
    hands = list(Hand.objects.filter(session=session).order_by("number"))
    assert [hand.number for hand in hands] == list(range(1, len(phones) + 1))
    assert sorted(hand.client_token for hand in hands) == sorted(f"phone-{i}" for i in range(len(phones)))
    assert HandChange.objects.filter(action="recorded").count() == len(phones)


def test_a_submit_sent_several_times_at_once_is_stored_once(table):
    session, phones = table
    path = f"/sessions/{session.pk}/hands/new/"
    page = phones[0].get(path)
    token = re.search(r'name="token" value="([^"]+)"', page).group(1)
    # One phone, the same form sent three times at once (a double tap and a resend).
    repeats = [phones[0]] * 3
    results = at_once(repeats, lambda i, phone: phone.post(path, {**HAND, "token": token}, page))
    assert [status for status, _ in results] == [302, 302, 302]
    assert Hand.objects.filter(session=session).count() == 1


def test_two_phones_correcting_the_same_hand_one_gets_a_conflict_not_a_silent_overwrite(table):
    session, phones = table
    hand = services.hand_record(
        session=session,
        raw={"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56},
    )
    path = f"/sessions/{session.pk}/hands/{hand.pk}/edit/"
    pages = [phone.get(path) for phone in phones[:2]]
    takers = ["Bert", "Carl"]
    results = at_once(
        phones[:2],
        lambda i, phone: phone.post(path, {**HAND, "token": "1", "taker": takers[i]}, pages[i]),
    )
    statuses = sorted(status for status, _ in results)
    assert statuses == [302, 409]
    hand.refresh_from_db()
    assert hand.version == 2
    winner = takers[[status for status, _ in results].index(302)]
    assert hand.inputs["taker"] == winner


def test_corrections_deletions_and_restores_of_one_hand_at_once_never_fail_and_keep_its_history(table):
    """Four phones change one hand at the same moment, round after round: two
    correct it, one deletes it, one puts it back. Each is stored or told why not
    (409: changed meanwhile); never a server error, never "busy" (a deadlock
    between the writers); and the hand is what its history says it is."""
    session, phones = table
    hand = services.hand_record(
        session=session,
        raw={"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56},
    )
    base = f"/sessions/{session.pk}/hands/{hand.pk}"
    # The pages are read once: the CSRF token of a phone stays the same.
    pages = [phone.get(f"/sessions/{session.pk}/") for phone in phones]
    statuses: list[int] = []
    for round_ in range(12):
        hand.refresh_from_db()
        seen = str(hand.version)

        def send(i: int, phone: Phone, seen: str = seen, round_: int = round_) -> tuple[int, str]:
            if i < 2:
                taker = ["Bert", "Carl"][i]
                data = {**HAND, "token": seen, "taker": taker, "points": str(41 + round_)}
                return phone.post(f"{base}/edit/", data, pages[i])
            if i == 2:
                return phone.post(f"{base}/delete/", {"version": seen}, pages[i])
            return phone.post(f"{base}/restore/", {}, pages[i])

        results = at_once(phones, send)
        statuses += [status for status, _ in results]
        assert all(status in (302, 409) for status, _ in results), results
    assert 500 not in statuses and 503 not in statuses
    hand.refresh_from_db()
    changes = list(HandChange.objects.filter(hand=hand).order_by("at", "id"))
    # Every stored change gave the hand a new version, one after the other.
    assert hand.version == len(changes)
    assert changes[0].action == "recorded"
    live = True
    for change in changes[1:]:
        if change.action == "deleted":
            assert live, "deleted only a live hand"
            live = False
        elif change.action == "restored":
            assert not live, "restored only a deleted hand"
            live = True
        else:
            assert change.action == "edited" and live, "corrected only a live hand"
    assert (hand.deleted_at is None) == live
    last_state = next(change.after for change in reversed(changes) if change.after is not None)
    assert last_state["hand"] == hand.as_session_hand()


def test_every_write_of_an_evening_at_the_same_moment_as_corrections_of_its_hands_waits_its_turn(
    transactional_db: Any,
):
    """Every kind of write of one evening, side by side with corrections and
    deletions of its hands, round after round: each takes the evening's row
    first, so none ends in a deadlock (on PostgreSQL, an OperationalError)."""

    owner = User.objects.create_user("anna", password=PASSWORD)
    # An evening of a group: every change also writes the group's statistics.
    session = groups.group_session_create(
        group=groups.group_create(owner=owner, name="Club"),
        owner=owner,
        name="Friday",
        variant="french",
        players=["Anna", "Bert", "Carl", "Dora"],
        options={},
    )
    garde = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
    first, second = (services.hand_record(session=session, raw=garde) for _ in range(2))
    failures: list[BaseException] = []

    def fresh(hand: Hand) -> Hand:
        return Hand.objects.select_related("session").get(pk=hand.pk)

    def correct(hand: Hand, points: int) -> None:
        current = fresh(hand)
        game = services.game_of(current.session)
        services.hand_edit(
            hand=current, raw={**garde, "points": points}, expected_version=current.version, game=game
        )

    writes = [
        lambda: correct(first, 41),
        lambda: correct(first, 61),
        lambda: correct(second, 45),
        lambda: services.hand_delete(hand=fresh(first)),
        lambda: services.hand_restore(hand=fresh(first)),
        lambda: services.hand_record(session=session, raw=garde, client_token="t"),
        lambda: services.session_rescore(session=session),
        lambda: services.session_edit(
            session=session, user=owner, name="Friday", played_on=date(2026, 11, 20), money_rate=None
        ),
        lambda: services.session_change_rules(session=session, user=owner, options={"round_to": 5}),
    ]

    def run(index: int, write: Any) -> None:
        try:
            write()
        except (services.HandConflict, SessionClosed):
            pass  # told: changed meanwhile
        except BaseException as error:  # what the test is looking for
            failures.append(error)
        finally:
            connections.close_all()

    for _ in range(6):
        at_once(writes, run)
    assert not [error for error in failures if isinstance(error, OperationalError)], failures
    assert not failures, failures
    for hand in (first, second):
        changes = HandChange.objects.filter(hand=hand).count()
        assert fresh(hand).version == changes
