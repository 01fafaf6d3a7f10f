"""Accounts: what a player can do about a password here, and what not."""

from __future__ import annotations

import http.cookiejar
import re
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import User
from django.core.servers.basehttp import ThreadedWSGIServer
from django.test import Client
from django.test.testcases import LiveServerThread, _StaticFilesHandler
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from accounts.auth import CLEANUP_BATCH, PER_ADDRESS, PER_USER_AT_ADDRESS
from accounts.models import LoginAttempt, LoginLock
from tests.scoring.test_concurrency import at_once

RESET_PATHS = [
    "/accounts/password_reset/",
    "/accounts/password_reset/done/",
    "/accounts/reset/MQ/set-password/",
    "/accounts/reset/MQ/abc-123/",
    "/accounts/reset/done/",
]


@pytest.mark.parametrize("path", RESET_PATHS)
def test_there_is_no_password_reset_because_no_mail_is_sent(client, logged_in, path):
    for visitor in (client, logged_in):
        assert visitor.get(path).status_code == 404, path
        assert visitor.post(path, {"email": "anna@example.org"}).status_code == 404, path


def test_no_page_links_to_a_password_reset(client):
    with pytest.raises(NoReverseMatch):
        reverse("password_reset")
    for path in (reverse("login"), reverse("admin:login")):
        assert "reset" not in client.get(path).content.decode().lower(), path


def test_a_logged_in_player_still_changes_the_password_and_logs_out(logged_in, user):
    changed = logged_in.post(
        reverse("password_change"),
        {
            "old_password": "a-long-test-password",
            "new_password1": "another-long-password-2",
            "new_password2": "another-long-password-2",
        },
    )
    assert changed.status_code == 302 and changed["Location"] == reverse("password_change_done")
    assert logged_in.get(reverse("password_change_done")).status_code == 200
    user.refresh_from_db()
    assert user.check_password("another-long-password-2")
    assert logged_in.post(reverse("logout")).status_code == 302
    assert "_auth_user_id" not in logged_in.session


class LoginForm:
    """A browser on the login page: its own cookies, the form's CSRF token."""

    def __init__(self, base: str) -> None:
        self.url = base + reverse("login")
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), _NoRedirect
        )
        with self.opener.open(self.url, timeout=30) as response:
            page = response.read().decode()
        self.csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)

    def send(self, username: str, password: str) -> int:
        body = urllib.parse.urlencode(
            {"username": username, "password": password, "csrfmiddlewaretoken": self.csrf}
        ).encode()
        request = urllib.request.Request(self.url, data=body, headers={"Referer": self.url})
        try:
            with self.opener.open(request, timeout=60) as response:
                return int(response.status)
        except urllib.error.HTTPError as error:
            return int(error.code)


class CountedChecks:
    """Counts the passwords Django actually checks. Each check waits until every
    attempt of the burst has either reached a check or been answered, so a login
    that succeeds (and clears its user name's attempts) cannot make room for
    attempts of the same burst: what is counted is what the limit let through."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, burst: int) -> None:
        self.burst = burst
        self.checked = 0
        self.answered = 0
        self.changed = threading.Condition()
        check = AbstractBaseUser.check_password

        def counted(user: AbstractBaseUser, raw_password: str | None) -> bool:
            with self.changed:
                self.checked += 1
                self.changed.notify_all()
                self.changed.wait_for(lambda: self.checked + self.answered >= self.burst, timeout=30)
            return check(user, raw_password)  # type: ignore[arg-type]

        monkeypatch.setattr(AbstractBaseUser, "check_password", counted)

    def answer(self, status: int) -> int:
        with self.changed:
            self.answered += 1
            self.changed.notify_all()
        return status


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class _WideServer(ThreadedWSGIServer):
    request_queue_size = 64  # the whole burst connects at once; Django's test server queues 10


class _WideServerThread(LiveServerThread):
    server_class = _WideServer


@pytest.fixture
def server(transactional_db: Any) -> Iterator[str]:
    """A live server on loopback that lets a burst of 30 connect at the same moment."""
    thread = _WideServerThread("127.0.0.1", _StaticFilesHandler)
    thread.daemon = True
    thread.start()
    thread.is_ready.wait()
    if thread.error:
        raise thread.error
    yield f"http://127.0.0.1:{thread.port}"
    thread.terminate()


class TestLoginLimitUnderConcurrency:
    """Attempts sent at the same moment, on whichever database the suite runs on."""

    @pytest.mark.parametrize("burst", [12, 30])
    def test_no_more_than_five_passwords_are_checked_for_a_user_name_from_one_address_however_many_arrive_at_once(
        self, server, monkeypatch, burst
    ):
        User.objects.create_user("anna", password="the-right-password")
        right = burst // 2  # the right password is somewhere in the middle of the burst
        passwords = [f"wrong-{i}" for i in range(burst)]
        passwords[right] = "the-right-password"
        forms = [LoginForm(server) for _ in range(burst)]
        checks = CountedChecks(monkeypatch, burst)

        statuses = at_once(forms, lambda i, form: checks.answer(form.send("anna", passwords[i])))

        assert checks.checked == PER_USER_AT_ADDRESS
        assert statuses.count(429) == burst - PER_USER_AT_ADDRESS
        assert sorted(set(statuses)) in ([200, 429], [200, 302, 429])
        let_in = statuses[right] == 302
        assert statuses[right] in (302, 429)  # let in only if its password was one of the five checked
        remaining = LoginAttempt.objects.filter(username="anna").count()
        assert remaining == (0 if let_in else PER_USER_AT_ADDRESS)

    def test_no_more_than_twenty_passwords_are_checked_from_one_address_at_once(self, server, monkeypatch):
        burst = 30
        for i in range(burst):
            User.objects.create_user(f"player{i}", password="the-right-password")
        forms = [LoginForm(server) for _ in range(burst)]
        checks = CountedChecks(monkeypatch, burst)

        statuses = at_once(forms, lambda i, form: checks.answer(form.send(f"player{i}", "wrong")))

        assert checks.checked == PER_ADDRESS
        assert sorted(statuses) == [200] * PER_ADDRESS + [429] * (burst - PER_ADDRESS)
        assert LoginAttempt.objects.filter(ip="127.0.0.1").count() == PER_ADDRESS


def _attempts(count: int, *, minutes_ago: float, username: str = "anna", ip: str = "127.0.0.1") -> None:
    at = timezone.now() - timedelta(minutes=minutes_ago)
    LoginAttempt.objects.bulk_create(LoginAttempt(username=username, ip=ip, at=at) for _ in range(count))


class TestLoginLimit:
    def test_a_refused_attempt_checks_no_password_and_is_not_recorded(self, client, user, monkeypatch):
        _attempts(PER_USER_AT_ADDRESS, minutes_ago=1)
        checks = CountedChecks(monkeypatch, burst=1)
        refused = client.post(
            reverse("login"),
            {"username": "anna", "password": "a-long-test-password"},
            HTTP_ACCEPT_LANGUAGE="en",
        )
        assert refused.status_code == 429
        assert "Too many failed attempts" in refused.content.decode()
        assert checks.checked == 0
        assert LoginAttempt.objects.count() == PER_USER_AT_ADDRESS

    def test_attempts_count_for_a_quarter_of_an_hour(self, client, user):
        _attempts(PER_USER_AT_ADDRESS, minutes_ago=14)
        url = reverse("login")
        assert client.post(url, {"username": "anna", "password": "a-long-test-password"}).status_code == 429
        LoginAttempt.objects.update(at=timezone.now() - timedelta(minutes=16))
        assert client.post(url, {"username": "anna", "password": "a-long-test-password"}).status_code == 302

    def test_the_user_name_is_limited_whatever_its_case(self, client, user):
        url = reverse("login")
        for typed in ("ANNA", "Anna", " anna", "aNNa", "anna "):
            assert client.post(url, {"username": typed, "password": "wrong"}).status_code == 200
        assert client.post(url, {"username": "anna", "password": "a-long-test-password"}).status_code == 429

    def test_a_long_user_name_is_counted_whatever_lower_case_makes_of_it(self, client, db):
        typed = "İ" * 150  # each letter becomes two in lower case
        response = client.post(reverse("login"), {"username": typed, "password": "wrong"})
        assert response.status_code == 200
        assert [len(name) for name in LoginAttempt.objects.values_list("username", flat=True)] == [150]

    def test_an_address_over_its_limit_is_refused_before_the_user_name_counts(self, client, user):
        for i in range(PER_ADDRESS):
            _attempts(1, minutes_ago=1, username=f"guess{i}")
        refused = client.post(reverse("login"), {"username": "anna", "password": "a-long-test-password"})
        assert refused.status_code == 429
        assert not LoginLock.objects.filter(key="user:anna").exists()  # a guessed name costs no row
        assert not LoginAttempt.objects.filter(username="anna").exists()

    def test_five_wrong_passwords_from_one_address_do_not_lock_the_user_out_from_another(self, user):
        # The organiser on a cup day: somebody on the hall's network guesses her
        # password five times; she logs in from her own phone on its own network.
        guesser = Client(REMOTE_ADDR="198.51.100.7")
        url = reverse("login")
        for _ in range(PER_USER_AT_ADDRESS):
            assert guesser.post(url, {"username": "anna", "password": "wrong"}).status_code == 200
        assert guesser.post(url, {"username": "anna", "password": "wrong"}).status_code == 429
        organiser = Client(REMOTE_ADDR="203.0.113.20")
        response = organiser.post(url, {"username": "anna", "password": "a-long-test-password"})
        assert response.status_code == 302 and organiser.session.get("_auth_user_id") == str(user.pk)
        # The guesser's address stays refused for the name (her login cleared only her own).
        assert guesser.post(url, {"username": "anna", "password": "a-long-test-password"}).status_code == 429
        assert LoginAttempt.objects.filter(ip="198.51.100.7").count() == PER_USER_AT_ADDRESS

    def test_guessing_from_many_addresses_of_one_ipv6_network_counts_as_one_address(self, user):
        url = reverse("login")
        for host in range(1, PER_USER_AT_ADDRESS + 1):
            guesser = Client(REMOTE_ADDR=f"2001:db8:5:7::{host:x}")
            assert guesser.post(url, {"username": "anna", "password": "wrong"}).status_code == 200
        same_network = Client(REMOTE_ADDR="2001:db8:5:7:ffff::1")
        assert same_network.post(url, {"username": "anna", "password": "wrong"}).status_code == 429
        other_network = Client(REMOTE_ADDR="2001:db8:5:8::1")
        assert (
            other_network.post(url, {"username": "anna", "password": "a-long-test-password"}).status_code
            == 302
        )
        assert set(LoginAttempt.objects.values_list("ip", flat=True)) == {"2001:db8:5:7::"}

    def test_another_address_is_not_held_up_by_one_that_guessed_too_often(self, client, user):
        for i in range(PER_ADDRESS):
            _attempts(1, minutes_ago=1, username=f"guess{i}", ip="203.0.113.9")
        response = client.post(reverse("login"), {"username": "anna", "password": "a-long-test-password"})
        assert response.status_code == 302

    def test_old_attempts_and_locks_are_removed_a_bounded_batch_at_a_time(self, client, user):
        _attempts(CLEANUP_BATCH + 100, minutes_ago=20, username="somebody")
        old = timezone.now() - timedelta(minutes=20)
        LoginLock.objects.bulk_create(LoginLock(key=f"user:old{i}", at=old) for i in range(CLEANUP_BATCH + 7))
        client.post(reverse("login"), {"username": "anna", "password": "wrong"})
        assert LoginAttempt.objects.filter(username="somebody").count() == 100
        assert LoginLock.objects.filter(key__startswith="user:old").count() == 7
        assert LoginAttempt.objects.filter(username="anna").count() == 1
        assert set(LoginLock.objects.exclude(key__startswith="user:old").values_list("key", flat=True)) == {
            "user:anna",
            "ip:127.0.0.1",
        }
