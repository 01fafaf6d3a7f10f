"""What a busy table and a hostile request do to the app: an old form brought
back, a double-tapped correction, a hand deleted while someone corrects it,
a missing or garbled token, an oversized upload, a login guessed through the
admin, a watcher's phone polling a link that was revoked."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.contrib.auth.models import User
from django.test import RequestFactory, override_settings
from django.urls import reverse
from django.urls.converters import StringConverter

from accounts.auth import client_address
from accounts.models import LoginAttempt
from club.models import GroupSession, RosterSeat
from club.services import groups
from scoring import services, urls
from scoring.models import HandChange, Session
from scoring.views.common import FORM_TOKEN
from tests.conftest import seed
from tests.layout import app_patterns
from tests.scoring.test_views import form_data

GARDE = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
PRISE = {"dealer": "Anna", "taker": "Bert", "contract": "prise", "bouts": 1, "points": 45}


@pytest.fixture
def french(make_session):
    return make_session()


class TestRecording:
    def test_an_old_form_brought_back_and_filled_again_records_a_new_hand(self, logged_in, french):
        url = reverse("hand_new", args=[french.pk])
        assert logged_in.post(url, form_data(GARDE, "form-1")).status_code == 302
        # Back button: the same form, the same token, the next hand typed in.
        assert logged_in.post(url, form_data(PRISE, "form-1")).status_code == 302
        assert logged_in.post(url, form_data(PRISE, "form-1")).status_code == 302  # and tapped twice
        hands = list(french.hands.order_by("number"))
        assert [(h.number, h.inputs["taker"]) for h in hands] == [(1, "Anna"), (2, "Bert")]

    def test_the_hand_forms_are_never_served_from_the_browsers_cache(self, logged_in, french):
        hand = services.hand_record(session=french, raw=GARDE)
        for url in (
            reverse("hand_new", args=[french.pk]),
            reverse("hand_edit", args=[french.pk, hand.pk]),
        ):
            assert "no-store" in logged_in.get(url)["Cache-Control"], url

    def test_a_token_the_app_did_not_make_is_refused_and_a_resend_never_stores_a_second_hand(
        self, logged_in, french
    ):
        url = reverse("hand_new", args=[french.pk])
        for token in ("x" * 500, "²³", "<script>", "a b", "form-1;"):
            for _ in range(2):  # and sent again, as a phone resends
                response = logged_in.post(url, form_data(GARDE, token))
                assert response.status_code == 400
                page = response.content.decode()
                assert "one-time mark the app did not give it, so nothing was saved" in page
                assert 'name="points" value="56"' in page, "the hand is kept in the form"
                fresh = re.search(r'name="token" value="([^"]+)"', page).group(1)
                assert FORM_TOKEN.fullmatch(fresh) and fresh != token
        assert french.hands.count() == 0
        # Saved from the page shown, with the app's own token: stored, and once only.
        for _ in range(2):
            assert logged_in.post(url, form_data(GARDE, fresh)).status_code == 302
        assert french.hands.count() == 1

    def test_a_refused_token_is_told_to_the_phones_outbox_in_words(self, logged_in, french):
        url = reverse("hand_new", args=[french.pk])
        response = logged_in.post(url, form_data(GARDE, "²³"), headers={"X-Tarock-Outbox": "1"})
        assert response.status_code == 400 and response["X-Tarock-Refused"] == "1"
        [said] = response.json()["reasons"]
        assert "one-time mark the app did not give it, so nothing was saved" in said
        assert french.hands.count() == 0


class TestCorrecting:
    def test_a_double_tapped_correction_is_saved_once_and_both_taps_succeed(self, logged_in, french):
        hand = services.hand_record(session=french, raw=GARDE)
        url = reverse("hand_edit", args=[french.pk, hand.pk])
        corrected = form_data({**GARDE, "points": 60}, str(hand.version))
        first, second = logged_in.post(url, corrected), logged_in.post(url, corrected)
        assert (first.status_code, second.status_code) == (302, 302)
        hand.refresh_from_db()
        assert (hand.version, hand.inputs["points"]) == (2, 60)
        assert hand.changes.filter(action=HandChange.Action.EDITED).count() == 1

    def test_a_correction_without_the_version_it_started_from_is_a_conflict(self, logged_in, french):
        hand = services.hand_record(session=french, raw=GARDE)
        url = reverse("hand_edit", args=[french.pk, hand.pk])
        for token in ("", "abc", "²"):
            response = logged_in.post(url, form_data({**GARDE, "taker": "Carl"}, token))
            assert response.status_code == 409 and 'id="conflict"' in response.content.decode()
        hand.refresh_from_db()
        assert (hand.version, hand.inputs["taker"]) == (1, "Anna")

    def test_a_correction_of_a_hand_deleted_meanwhile_says_so_and_changes_nothing(self, logged_in, french):
        hand = services.hand_record(session=french, raw=GARDE)
        url = reverse("hand_edit", args=[french.pk, hand.pk])
        services.hand_delete(hand=hand)
        response = logged_in.post(url, form_data({**GARDE, "taker": "Carl"}, "1"))
        assert response.status_code == 409
        assert "Someone deleted this hand" in response.content.decode()
        hand.refresh_from_db()
        assert hand.deleted_at is not None and hand.inputs["taker"] == "Anna"
        assert logged_in.get(url).status_code == 404  # a deleted hand has no form to open

    def test_every_kind_of_change_is_in_the_hands_history(self, user, logged_in, french):
        hand = services.hand_record(session=french, raw=GARDE, user=user)
        services.hand_edit(hand=hand, raw={**GARDE, "points": 60}, user=user, expected_version=1)
        logged_in.post(reverse("hand_delete", args=[french.pk, hand.pk]))
        logged_in.post(reverse("hand_restore", args=[french.pk, hand.pk]))
        changes = list(hand.changes.order_by("at", "id"))
        assert [(c.action, c.user) for c in changes] == [
            ("recorded", user),
            ("edited", user),
            ("deleted", user),
            ("restored", user),
        ]
        deleted = changes[2]
        assert deleted.before["hand"]["points"] == 60 and deleted.after is None
        page = logged_in.get(reverse("hand_detail", args=[french.pk, hand.pk])).content.decode()
        for shown in ("Recorded", "Corrected", "Deleted", "Restored"):
            assert shown in page


class TestImport:
    def test_imported_hands_say_who_imported_them(self, user):
        text = json.dumps(seed("french-seed-table.json"))
        session = services.session_import(owner=user, text=text, name="Seed")
        changes = HandChange.objects.filter(hand__session=session)
        assert changes.count() == session.hands.count() == 5
        assert {(c.action, c.user) for c in changes} == {("imported", user)}
        assert all(c.after["hand"] == c.hand.as_session_hand() for c in changes)

    def test_an_oversized_upload_is_refused_while_it_arrives(self, logged_in, settings):
        settings.SESSION_FILE_MAX_BYTES = 2048
        big = io.BytesIO(b'{"format": "tarockscore/1", "note": "' + b"x" * 10_000 + b'"}')
        big.name = "big.json"
        response = logged_in.post(reverse("session_import"), {"file": big})
        assert response.status_code == 400
        assert "file: at most" in response.content.decode()
        assert not Session.objects.exists()


class TestHostileParameters:
    def test_numbers_that_are_not_plain_digits_never_crash_a_page(self, logged_in, french):
        hand = services.hand_record(session=french, raw=GARDE)
        sheet = reverse("scoreboard", args=[french.pk])
        assert logged_in.get(sheet, {"undo": "²"}).status_code == 200
        assert logged_in.get(sheet, {"undo": "9" * 40}).status_code == 200
        assert logged_in.get(reverse("session_print", args=[french.pk]), {"series": "²"}).status_code == 200
        sharing = reverse("sharing", args=[french.pk])
        assert logged_in.post(sharing, {"action": "remove_editor", "user": "²"}).status_code == 302
        edit = reverse("hand_edit", args=[french.pk, hand.pk])
        assert logged_in.post(edit, form_data(GARDE, "9" * 30)).status_code == 409

    @pytest.mark.parametrize("huge", [2**31, 2**63 - 1, 2**63, 2**64, 10**30])
    def test_an_id_beyond_every_row_is_not_found_in_every_address_that_takes_one(self, user, logged_in, huge):
        session = groups.group_session_create(
            group=groups.group_create(owner=user, name="Club"),
            owner=user,
            name="Friday",
            variant="french",
            players=["Anna", "Bert", "Carl", "Dora"],
            options={},
        )
        hand = services.hand_record(session=session, raw=GARDE)
        real = {
            "pk": session.pk,
            "hand_id": hand.pk,
            "gid": GroupSession.objects.get(session=session).group_id,
            "pid": RosterSeat.objects.get(seat=session.seats.first()).player_id,
            "bid": 1,
            "variant": "french",
            "kind": "csv",
            "season": "all",
            "token": services.session_share(session=session),
        }
        patterns = [p for p in app_patterns() if p.pattern.converters]
        # Every whole number in an address is an id, read by the bounded converter.
        assert {type(c) for p in patterns for c in p.pattern.converters.values()} == {
            urls.IdConverter,
            StringConverter,
        }
        taking_ids = [p for p in patterns if urls.IdConverter in map(type, p.pattern.converters.values())]
        # kasse_csv among them, the group's, the cup's and the circuit's ratings too
        assert len(taking_ids) == 43
        for pattern in taking_ids:
            for name, converter in pattern.pattern.converters.items():
                if type(converter) is not urls.IdConverter:
                    continue
                path = "/" + str(pattern.pattern)
                for key, value in {**real, name: huge}.items():
                    path = re.sub(rf"<\w+:{key}>", str(value), path)
                for method in (logged_in.get, logged_in.post):
                    status = method(path).status_code
                    assert status in (404, 405) if huge < 2**63 else status == 404, (path, status)


class TestLoginLimit:
    def test_the_admin_login_is_limited_too(self, client, db):
        User.objects.create_superuser("admin", password="the-right-admin-password")
        for _ in range(5):
            client.post(reverse("admin:login"), {"username": "admin", "password": "wrong"})
        assert LoginAttempt.objects.filter(username="admin").count() == 5
        client.post(reverse("admin:login"), {"username": "admin", "password": "the-right-admin-password"})
        assert "_auth_user_id" not in client.session
        refused = client.post(reverse("login"), {"username": "admin", "password": "the-right-admin-password"})
        assert refused.status_code == 429

    def test_failures_on_the_login_page_are_counted_once(self, client, user):
        client.post(reverse("login"), {"username": "anna", "password": "wrong"})
        assert LoginAttempt.objects.filter(username="anna").count() == 1

    def test_behind_a_proxy_the_address_is_the_one_the_proxy_saw(self):
        request = RequestFactory().get(
            "/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7"
        )
        assert client_address(request) == "10.0.0.2"
        with override_settings(BEHIND_PROXY=True):
            # The client can put anything first; the last entry is the proxy's own.
            assert client_address(request) == "203.0.113.7"
        spoofed = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="not-an-address")
        with override_settings(BEHIND_PROXY=True):
            assert client_address(spoofed) is None


class TestWatching:
    def _poll(self, client, token, since=""):
        return client.get(
            reverse("shared_board", args=[token]),
            {"since": since},
            HTTP_HX_REQUEST="true",
            HTTP_ACCEPT_LANGUAGE="en",
        )

    def test_the_watching_phone_gets_the_board_again_only_after_a_change(self, client, french):
        services.hand_record(session=french, raw=GARDE)
        token = services.session_share(session=french)
        first = self._poll(client, token)
        assert first.status_code == 200
        version = services.session_board_state(french).version
        assert f"since={version}" in first.content.decode()
        assert self._poll(client, token, version).status_code == 204  # nothing new: nothing sent
        services.hand_record(session=french, raw=PRISE)
        changed = self._poll(client, token, version)
        assert changed.status_code == 200 and "Bert" in changed.content.decode()
        assert 'id="live-status"' in changed.content.decode() and "hx-swap-oob" in changed.content.decode()

    def test_a_correction_or_deletion_also_counts_as_a_change(self, french):
        hand = services.hand_record(session=french, raw=GARDE)
        before = services.session_board_state(french).version
        services.hand_delete(hand=hand)
        after_delete = services.session_board_state(french).version
        services.hand_restore(hand=hand)
        assert len({before, after_delete, services.session_board_state(french).version}) == 3

    def test_a_revoked_link_tells_the_watching_phone_and_stops_its_polling(self, client, french):
        token = services.session_share(session=french)
        services.session_unshare(session=french)
        polled = self._poll(client, token)
        assert polled.status_code == 286  # htmx stops polling on 286
        assert "no longer works" in polled.content.decode()
        # opened afresh, the link says the same, as gone rather than never there
        fresh = client.get(reverse("shared_board", args=[token]), HTTP_ACCEPT_LANGUAGE="en")
        assert fresh.status_code == 410
        notice = re.compile(r'<p class="notice" role="alert">[^<]+</p>')
        assert notice.search(fresh.content.decode()).group() == notice.search(polled.content.decode()).group()
