"""Nobody gets in where they don't belong; nothing typed at the table runs as code."""

from __future__ import annotations

import io
import json
import os
import re
import secrets
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse
from pypdf import PdfReader

from accounts.models import LoginAttempt
from club.models import Booking, GroupPlayer, Invitation, Membership
from club.services import groups, kasse
from scoring import services
from scoring.models import Hand, HandChange, Session

ROOT = Path(__file__).resolve().parents[2]
HAND = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
EVIL = "<script>alert(1)</script>"


@pytest.fixture
def french(make_session):
    session = make_session()
    hand = services.hand_record(session=session, raw=HAND)
    return session, hand


def url_patterns(resolver: URLResolver) -> list[URLPattern]:
    """Every URL pattern of the site, included ones too."""
    found: list[URLPattern] = []
    for pattern in resolver.url_patterns:
        found.extend(url_patterns(pattern) if isinstance(pattern, URLResolver) else [pattern])
    return found


def every_url(session: Session, hand: Hand) -> list[str]:
    """Every URL that takes a session's or a hand's id."""
    by_session = ["scoreboard", "settlement", "sharing", "session_print", "hand_new", "hand_preview"]
    by_hand = ["hand_detail", "hand_edit", "hand_edit_preview", "hand_delete", "hand_restore"]
    urls = [reverse(name, args=[session.pk]) for name in by_session]
    urls += [reverse("session_export", args=[session.pk, kind]) for kind in ("json", "csv", "pdf")]
    urls += [reverse(name, args=[session.pk, hand.pk]) for name in by_hand]
    return urls


def test_every_url_with_another_users_ids_is_not_found_and_changes_nothing(client_for, other_user, french):
    session, hand = french
    intruder = client_for(other_user)
    for url in every_url(session, hand):
        assert intruder.get(url).status_code in (404, 405), url
        response = intruder.post(
            url, {"token": "x", "action": "save", **{k: str(v) for k, v in HAND.items()}}
        )
        assert response.status_code in (404, 405), url
        assert b"Anna" not in response.content, url  # nothing revealed
    hand.refresh_from_db()
    assert (hand.version, hand.deleted_at, session.hands.count()) == (1, None, 1)
    assert Session.objects.get(pk=session.pk).share_token is None


def test_every_url_asks_an_anonymous_visitor_to_log_in(client, french):
    session, hand = french
    for url in [
        *every_url(session, hand),
        reverse("session_list"),
        reverse("session_import"),
        reverse("session_new"),
        reverse("password_change"),
    ]:
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/"), url


def test_a_hand_of_one_session_is_not_found_through_another(logged_in, make_session, french):
    _session, hand = french
    other = make_session(players=("W", "X", "Y", "Z"))
    assert logged_in.get(reverse("hand_detail", args=[other.pk, hand.pk])).status_code == 404


class TestEditors:
    def test_an_editor_records_and_corrects_hands_and_every_change_is_kept(
        self, client_for, other_user, french
    ):
        session, hand = french
        session.editors.add(other_user)
        editor = client_for(other_user)
        assert "Friday" in editor.get(reverse("session_list")).content.decode()
        response = editor.post(
            reverse("hand_edit", args=[session.pk, hand.pk]),
            {"token": "1", "action": "save", **{k: str(v) for k, v in HAND.items()}, "taker": "Bert"},
        )
        assert response.status_code == 302
        change = HandChange.objects.get(action="edited")
        assert change.user == other_user
        assert change.before["hand"]["taker"] == "Anna" and change.after["hand"]["taker"] == "Bert"
        assert change.before["deltas"]["Anna"] == 240 and change.after["deltas"]["Bert"] == 240
        page = editor.get(reverse("hand_detail", args=[session.pk, hand.pk])).content.decode()
        assert 'id="history"' in page and "mallory" in page

    def test_an_editor_cannot_share_the_session_or_name_more_editors(self, client_for, other_user, french):
        session, _ = french
        session.editors.add(other_user)
        editor = client_for(other_user)
        assert editor.get(reverse("sharing", args=[session.pk])).status_code == 404
        assert editor.post(reverse("sharing", args=[session.pk]), {"action": "share"}).status_code == 404
        assert Session.objects.get(pk=session.pk).share_token is None

    def test_the_owner_names_and_removes_editors(self, logged_in, other_user, french):
        session, _ = french
        url = reverse("sharing", args=[session.pk])
        logged_in.post(url, {"action": "add_editor", "username": "mallory"})
        assert list(session.editors.all()) == [other_user]
        refused = logged_in.post(url, {"action": "add_editor", "username": "nobody"})
        assert refused.status_code == 400 and 'id="username-error"' in refused.content.decode()
        logged_in.post(url, {"action": "remove_editor", "user": str(other_user.pk)})
        assert not session.editors.exists()


class TestShareLinks:
    def test_anyone_with_the_link_sees_the_live_sheet_read_only(self, client, logged_in, french):
        session, hand = french
        logged_in.post(reverse("sharing", args=[session.pk]), {"action": "share"})
        token = Session.objects.get(pk=session.pk).share_token
        assert token and len(token) >= 32
        page = client.get(reverse("shared_board", args=[token])).content.decode()
        assert "+240" in page
        assert 'hx-trigger="every 4s"' in page  # it updates by itself
        assert not re.search(
            r'<form[^>]*method="post"(?![^>]*set_language)', page.replace("i18n/setlang", "set_language")
        )
        fragment = client.get(reverse("shared_board", args=[token]), HTTP_HX_REQUEST="true").content.decode()
        assert fragment.lstrip().startswith('<div id="live"')
        detail = client.get(reverse("shared_hand", args=[token, hand.pk])).content.decode()
        assert "(25 + 15) × 2 = 80 (Garde)" in detail
        assert 'id="history"' not in detail and "/edit/" not in detail

    def test_a_share_link_cannot_write(self, client, french):
        session, hand = french
        token = services.session_share(session=session)
        for url in (reverse("shared_board", args=[token]), reverse("shared_hand", args=[token, hand.pk])):
            assert client.post(url, {"action": "save"}).status_code == 405
        assert (
            client.post(reverse("hand_new", args=[session.pk]), {"token": token}).status_code == 302
        )  # login
        assert session.hands.count() == 1

    def test_a_revoked_or_renewed_link_stops_working(self, client, french):
        session, _ = french
        old = services.session_share(session=session)
        new = services.session_share(session=session)
        assert client.get(reverse("shared_board", args=[old])).status_code == 410
        assert client.get(reverse("shared_board", args=[new])).status_code == 200
        services.session_unshare(session=session)
        assert client.get(reverse("shared_board", args=[new])).status_code == 410
        assert client.get(reverse("shared_hand", args=[new, 1])).status_code == 410

    def test_a_link_shows_only_its_own_sessions_hands(self, client, make_session, french):
        session, _ = french
        other = make_session()
        foreign = services.hand_record(session=other, raw=HAND)
        token = services.session_share(session=session)
        assert client.get(reverse("shared_hand", args=[token, foreign.pk])).status_code == 404


class TestLogin:
    def test_failed_logins_are_limited_even_with_the_right_password_afterwards(self, client, user):
        url = reverse("login")
        for _ in range(5):
            assert client.post(url, {"username": "anna", "password": "wrong"}).status_code == 200
        blocked = client.post(url, {"username": "anna", "password": "a-long-test-password"})
        assert blocked.status_code == 429
        assert "_auth_user_id" not in client.session

    def test_a_successful_login_clears_the_failures(self, client, user):
        url = reverse("login")
        for _ in range(3):
            client.post(url, {"username": "anna", "password": "wrong"})
        assert client.post(url, {"username": "anna", "password": "a-long-test-password"}).status_code == 302
        assert not LoginAttempt.objects.filter(username="anna").exists()

    def test_weak_passwords_are_refused(self, logged_in, user):
        for weak in ("12345678", "password", "anna1"):
            response = logged_in.post(
                reverse("password_change"),
                {"old_password": "a-long-test-password", "new_password1": weak, "new_password2": weak},
            )
            assert response.status_code == 200 and 'role="alert"' in response.content.decode()
        user.refresh_from_db()
        assert user.check_password("a-long-test-password")


class TestHeaders:
    def test_pages_allow_only_the_apps_own_files(self, logged_in, french):
        session, _ = french
        for url in (reverse("scoreboard", args=[session.pk]), reverse("session_print", args=[session.pk])):
            response = logged_in.get(url)
            policy = response["Content-Security-Policy"]
            assert "default-src 'self'" in policy and "script-src 'self'" in policy
            # WebAssembly compiled from the app's own files (the engine on the phone), never eval.
            assert "unsafe-inline" not in policy and "unsafe-eval" not in policy.replace(
                "'wasm-unsafe-eval'", ""
            )
            html = response.content.decode()
            # A JSON block is data the scripts read, never executed (and the policy would not run it).
            inline = r'<script(?![^>]*\b(?:src=|type="application/json"))[^>]*>'
            assert not re.search(inline, html), "no inline script"
            assert "<style" not in html and ' style="' not in html, "no inline style"
            assert response["X-Frame-Options"] == "DENY"
            assert response["X-Content-Type-Options"] == "nosniff"

    def test_deploy_checks_are_clean_with_production_settings(self):
        env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "DATABASE_URL")}
        env.update(
            DJANGO_SETTINGS_MODULE="tarockscore.settings",
            SECRET_KEY=secrets.token_urlsafe(50),
            ALLOWED_HOSTS="tarock.example",
            SECURE_SSL_REDIRECT="1",
            SECURE_COOKIES="1",
        )
        result = subprocess.run(
            [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
            timeout=120,
            check=False,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        assert "no issues" in result.stdout


class TestEscaping:
    def test_names_notes_and_session_names_are_shown_as_text(self, logged_in, make_session):
        session = make_session(players=("Anna", EVIL, "Carl", "Dora"))
        Session.objects.filter(pk=session.pk).update(name=EVIL)
        services.hand_record(session=session, raw={**HAND, "taker": EVIL, "note": EVIL})
        for url in (
            reverse("scoreboard", args=[session.pk]),
            reverse("session_list"),
            reverse("session_print", args=[session.pk]),
            reverse("settlement", args=[session.pk]),
        ):
            html = logged_in.get(url).content.decode()
            assert EVIL not in html, url
            assert "&lt;script&gt;" in html, url
        pdf = logged_in.get(reverse("session_export", args=[session.pk, "pdf"])).content
        text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
        assert "<script>alert(1)</script>" in text.replace("\n", "")  # printed as text, never run

    def test_a_deeply_nested_upload_is_refused_cleanly(self, logged_in):
        upload = io.BytesIO(("[" * 100000 + "]" * 100000).encode())
        upload.name = "deep.json"
        response = logged_in.post(reverse("session_import"), {"file": upload})
        assert response.status_code == 400 and "document" in response.content.decode()
        assert Session.objects.count() == 0

    def test_an_upload_with_a_script_in_a_name_is_imported_as_text(self, logged_in):
        document = {"variant": "french", "players": ["Anna", "Bert", EVIL], "hands": []}
        upload = io.BytesIO(json.dumps(document).encode())
        upload.name = "x.json"
        logged_in.post(reverse("session_import"), {"file": upload})
        session = Session.objects.get()
        html = logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode()
        assert EVIL not in html


def test_users_only_see_what_is_theirs_in_the_session_list(client_for, other_user, make_session):
    make_session()
    html = client_for(other_user).get(reverse("session_list")).content.decode()
    assert "Friday" not in html
    assert User.objects.count() == 2


class TestGroups:
    """The regular table's pages: a member of group A sees and changes nothing of group B."""

    @pytest.fixture
    def group_b(self, user):
        group = groups.group_create(owner=user, name="Gruppe B", money_rate=Decimal("0.05"))
        session = groups.group_session_create(
            group=group,
            owner=user,
            name="B-Abend",
            variant="french",
            players=["Anna", "Bert", "Carl", "Dora"],
            options={},
            money_rate=Decimal("0.05"),
        )
        hand = services.hand_record(session=session, raw=HAND)
        services.session_close(session=session, user=user)
        anna = group.roster.get(name="Anna")
        payment = kasse.payment_record(group=group, payer=anna, payee=None, amount=Decimal(1), user=user)
        invitation = groups.invitation_create(group=group, user=user)
        season = groups.season_create(
            group=group, name="Saison", starts_on=session.played_on, ends_on=session.played_on
        )
        return group, session, hand, anna, payment, invitation, season

    def group_urls(self, group_b) -> list[str]:
        group, session, _hand, anna, payment, _invitation, season = group_b
        g = group.pk
        return [
            reverse("group_detail", args=[g]),
            reverse("group_roster", args=[g]),
            reverse("group_members", args=[g]),
            reverse("group_settings", args=[g]),
            reverse("group_rules", args=[g, "french"]),
            reverse("group_invitations", args=[g]),
            reverse("group_evening_game", args=[g]),
            reverse("group_evening_new", args=[g, "french"]),
            reverse("group_evening_add", args=[g]),
            reverse("group_evening_close", args=[g, session.pk]),
            reverse("group_evening_reopen", args=[g, session.pk]),
            reverse("group_player", args=[g, anna.pk]),
            reverse("group_player_pdf", args=[g, anna.pk]),
            reverse("season_table", args=[g]),
            reverse("season_table", args=[g, f"s{season.pk}"]),
            reverse("season_pdf", args=[g, "2026"]),
            reverse("season_new", args=[g]),
            reverse("group_kasse", args=[g]),
            reverse("kasse_csv", args=[g]),
            reverse("kasse_reverse", args=[g, payment.pk]),
            reverse("group_ratings", args=[g]),
        ]

    def test_a_member_of_another_group_sees_and_changes_nothing_of_this_one(
        self, client_for, other_user, group_b
    ):
        group, session, hand, anna, payment, _invitation, season = group_b
        own = groups.group_create(owner=other_user, name="Gruppe A")
        groups.roster_add(group=own, name="Mallory")
        intruder = client_for(other_user)
        posted = {
            "name": "Mallory",
            "action": "invite",
            "days": "7",
            "max_uses": "5",
            "min_hands": "1",
            "user": str(other_user.pk),
            "player": str(anna.pk),
            "session": str(session.pk),
            "payer": str(anna.pk),
            "payee": "box",
            "amount": "5",
            "starts_on": "2026-01-01",
            "ends_on": "2026-12-31",
        }
        urls = [
            *self.group_urls(group_b),
            # B's player, payment, evening and season through A's group
            reverse("group_player", args=[own.pk, anna.pk]),
            reverse("group_player_pdf", args=[own.pk, anna.pk]),
            reverse("kasse_reverse", args=[own.pk, payment.pk]),
            reverse("group_evening_close", args=[own.pk, session.pk]),
            reverse("group_evening_reopen", args=[own.pk, session.pk]),
            reverse("season_table", args=[own.pk, f"s{season.pk}"]),
            reverse("season_pdf", args=[own.pk, f"s{season.pk}"]),
            *every_url(session, hand),
        ]
        for url in urls:
            assert intruder.get(url).status_code in (404, 405), url
            response = intruder.post(url, {"token": "x", **posted, **{k: str(v) for k, v in HAND.items()}})
            assert response.status_code in (404, 405), url
            assert b"Gruppe B" not in response.content and b"B-Abend" not in response.content, url
        assert not Membership.objects.filter(group=group, user=other_user).exists()
        assert (
            GroupPlayer.objects.filter(group=group).count() == 4
            and Invitation.objects.filter(group=group).count() == 1
        )
        assert (
            Booking.objects.filter(group=group).count() == 2
            and not Booking.objects.filter(group=own).exists()
        )
        assert Session.objects.get(pk=session.pk).closed_at is not None and session.hands.count() == 1
        group.refresh_from_db()
        assert (group.name, group.presets, group.seasons.count()) == ("Gruppe B", {}, 1)
        groups_page = intruder.get(reverse("group_list")).content.decode()
        assert "Gruppe A" in groups_page and "Gruppe B" not in groups_page

    def test_the_sweep_covers_every_url_of_a_group(self, group_b):
        swept = {resolve(url).url_name for url in self.group_urls(group_b)}
        of_a_group = {
            pattern.name for pattern in url_patterns(get_resolver()) if "<id:gid>" in str(pattern.pattern)
        }
        assert of_a_group and of_a_group <= swept

    def test_every_group_url_asks_an_anonymous_visitor_to_log_in(self, client, group_b):
        for url in [*self.group_urls(group_b), reverse("group_list")]:
            response = client.get(url)
            assert response.status_code in (302, 405), url
            if response.status_code == 302:
                assert response["Location"].startswith("/accounts/login/"), url
        invitation = group_b[5]
        assert client.post(reverse("join", args=[invitation.token])).status_code == 200  # asks to log in
        assert not invitation.group.memberships.exclude(role="owner").exists()


def test_a_login_lasts_until_it_expires_is_logged_out_or_the_password_changes(client_for, user, french):
    from datetime import timedelta

    from django.contrib.sessions.models import Session as LoginSession
    from django.utils import timezone

    sheet = reverse("scoreboard", args=[french[0].pk])
    login = reverse("login")
    logged_in = client_for(user)
    assert logged_in.get(sheet).status_code == 200
    LoginSession.objects.update(expire_date=timezone.now() - timedelta(seconds=1))
    assert logged_in.get(sheet)["Location"].startswith(login)  # expired: asked to log in again

    logged_in = client_for(user)
    user.set_password("a-new-long-password")
    user.save()
    assert logged_in.get(sheet)["Location"].startswith(login)  # the password changed elsewhere

    logged_in = client_for(user)
    User.objects.filter(pk=user.pk).update(is_active=False)
    assert logged_in.get(sheet)["Location"].startswith(login)  # a deactivated account is nobody

    stranger = client_for(user)
    stranger.cookies["sessionid"] = "not-a-session-key"
    assert stranger.get(sheet)["Location"].startswith(login)
