"""What the server gives a phone for offline use: the service worker, the web app
manifest and its icons, the offline page, the words the scripts show, and a
deletion sent late that must not remove a hand corrected meanwhile."""

from __future__ import annotations

import json
import re
import struct
import time
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import override_settings
from django.urls import reverse

from plumbing import offline
from scoring import hand_pages as hands_views
from scoring import phone_contract, services
from scoring.models import Hand, HandChange
from scoring.sheet import column_heads
from scripts import make_icons
from tests.scoring.test_views import form_data

ROOT = Path(__file__).resolve().parents[2]
GARDE = {"taker": "Anna", "contract": "garde", "bouts": 2, "points": 50}


def config_of(script: str) -> dict:
    first, _, _ = script.partition("\n")
    found = re.fullmatch(r"const CONFIG = (\{.*\});", first)
    assert found, first
    return json.loads(found.group(1))


class TestTheWorker:
    def test_is_served_from_the_root_as_a_script_that_may_control_every_page(self, client):
        response = client.get("/sw.js")
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/javascript")
        assert response["Service-Worker-Allowed"] == "/"
        # The browser asks again on every visit, so a deploy is seen at once.
        assert "no-store" in response["Cache-Control"] or "no-cache" in response["Cache-Control"]

    def test_is_told_its_version_and_the_files_it_keeps_and_each_of_them_is_there(self, client, db):
        config = config_of(client.get("/sw.js").content.decode())
        assert config["version"] == offline.cache_version()
        assert config["offline"] == reverse("offline")
        assert config["outbox"] in config["precache"]
        for url in config["precache"]:
            response = client.get(url)
            assert response.status_code == 200, url
            response.close()

    def test_a_new_version_changes_the_script_so_that_the_browser_installs_it(self, client, monkeypatch):
        before = client.get("/sw.js").content
        monkeypatch.setattr(offline, "cache_version", lambda: "next-deploy")
        after = client.get("/sw.js").content
        assert before != after
        assert config_of(after.decode())["version"] == "next-deploy"

    def test_the_version_follows_the_contents_of_the_files(self, tmp_path):
        one, two = tmp_path / "one.css", tmp_path / "two.js"
        one.write_text("a { color: red }")
        two.write_text("let x = 1;")
        first = offline.version_of([one, two], ["/static/one.css"])
        assert first == offline.version_of([one, two], ["/static/one.css"])
        one.write_text("a { color: blue }")
        assert offline.version_of([one, two], ["/static/one.css"]) != first
        assert offline.version_of([one, two], ["/static/one.abc123.css"]) != offline.version_of(
            [one, two], ["/static/one.css"]
        )

    def test_any_file_of_the_static_folder_is_part_of_the_version(self, tmp_path):
        extra = tmp_path / "extra.css"
        extra.write_text("p { margin: 0 }")
        offline.cache_version.cache_clear()
        plain = offline.cache_version()
        try:
            with override_settings(STATICFILES_DIRS=[ROOT / "static", tmp_path]):
                offline.cache_version.cache_clear()
                with_extra = offline.cache_version()
                extra.write_text("p { margin: 1px }")
                offline.cache_version.cache_clear()
                changed = offline.cache_version()
        finally:
            offline.cache_version.cache_clear()
        assert len({plain, with_extra, changed}) == 3

    def test_a_deploy_that_changes_only_a_template_gives_a_new_version(self, tmp_path):
        # The worker keeps pages drawn by the server: a new template must replace them.
        page = tmp_path / "scoring" / "kept.html"
        page.parent.mkdir()
        page.write_text("<p>{% translate 'Old words' %}</p>")
        engine: dict[str, Any] = dict(settings.TEMPLATES[0])
        engine["DIRS"] = [*engine["DIRS"], tmp_path]
        versions = []
        try:
            with override_settings(TEMPLATES=[engine]):
                for text in ("<p>{% translate 'Old words' %}</p>", "<p>{% translate 'New words' %}</p>"):
                    page.write_text(text)
                    offline.cache_version.cache_clear()
                    versions.append(offline.cache_version())
        finally:
            offline.cache_version.cache_clear()
        assert versions[0] != versions[1]

    @pytest.mark.parametrize(
        "shaping", ["scoring/hand_pages.py", "templates/base.html", "locale/de/LC_MESSAGES/django.mo"]
    )
    def test_the_app_code_its_templates_and_translations_are_part_of_the_version(self, shaping):
        assert (ROOT / shaping).resolve() in offline.page_sources()

    def test_the_version_is_worked_out_once_per_process(self, monkeypatch):
        offline.cache_version.cache_clear()
        first = offline.cache_version()
        monkeypatch.setattr(offline, "page_sources", lambda: pytest.fail("worked out again"))
        assert offline.cache_version() == first
        offline.cache_version.cache_clear()

    def test_stays_small(self):
        # A hand-written worker is only as good as its being read in full.
        assert len((ROOT / "static" / "js" / "sw.js").read_text().splitlines()) <= 150


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


class TestTheManifest:
    def test_makes_the_app_installable_on_its_session_list(self, client):
        response = client.get(reverse("manifest"))
        assert response.status_code == 200
        assert response["Content-Type"].startswith("application/manifest+json")
        manifest = json.loads(response.content)
        assert manifest["start_url"] == reverse("session_list") == "/"
        assert manifest["display"] == "standalone"
        assert manifest["name"] and manifest["short_name"]
        assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
        assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])

    def test_its_icons_are_there_in_the_sizes_it_names(self, client):
        manifest = json.loads(client.get(reverse("manifest")).content)
        sizes = set()
        for icon in manifest["icons"]:
            response = client.get(icon["src"])
            assert response.status_code == 200, icon["src"]
            width, height = png_size(b"".join(response.streaming_content))
            assert icon["sizes"] == f"{width}x{height}" and icon["type"] == "image/png"
            sizes.add((icon["sizes"], icon["purpose"]))
        # Chromium asks for 192 and 512 pixels; Android's shapes need a maskable one.
        assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes

    def test_speaks_the_readers_language(self, client):
        manifest = json.loads(client.get(reverse("manifest"), HTTP_ACCEPT_LANGUAGE="fr").content)
        assert manifest["lang"] == "fr"
        assert manifest["description"] == "Compter les points du Tarock à table, donne après donne."

    def test_the_icons_are_the_ones_the_script_draws(self):
        for name, size, card in make_icons.SIZES:
            assert (ROOT / "static" / "icons" / name).read_bytes() == make_icons.png(size, card), name


class TestThePages:
    def test_every_page_links_the_manifest_and_loads_the_offline_script_without_inline_code(self, logged_in):
        html = logged_in.get(reverse("session_list")).content.decode()
        assert f'<link rel="manifest" href="{reverse("manifest")}">' in html
        # The offline code: ES modules (static/js/phone/), the outbox among their imports.
        assert '<script type="module" src="/static/js/phone/main.js"></script>' in html
        # The scripts' words are data, which the Content-Security-Policy lets through unexecuted.
        block = re.search(r'<script id="offline-config" type="application/json">(.*?)</script>', html, re.S)
        assert block
        config = json.loads(block.group(1))
        assert config["worker"] == "/sw.js" and "outbox" not in config
        # The cookie the forms' token is read from, as the server names it (static/js/phone/dom.js).
        assert config["csrfCookie"] == settings.CSRF_COOKIE_NAME
        # What a waiting entry's line leaves out is what the server does not count as the
        # hand (static/js/phone/sheet.js reads it here, never a list of its own).
        assert config["notTheHand"] == list(phone_contract.NOT_THE_HAND)
        assert {"csrfmiddlewaretoken", "action", phone_contract.FIELD} <= set(config["notTheHand"])
        assert abs(config["rendered"] - time.time()) < 60

    def test_the_scripts_words_come_translated(self, client):
        for language, waiting in (("de", "Wartet auf das Senden"), ("fr", "En attente d’envoi")):
            html = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
            block = re.search(
                r'<script id="offline-config" type="application/json">(.*?)</script>', html, re.S
            )
            texts = json.loads(block.group(1))["texts"]
            assert texts["waiting"] == waiting
            assert set(texts) == set(offline.texts())

    def test_the_offline_page_needs_no_account(self, client):
        response = client.get(reverse("offline"))
        assert response.status_code == 200
        assert 'id="offline-page"' in response.content.decode()

    def test_the_policy_lets_the_app_own_worker_and_manifest_in_and_nothing_inline(self, client):
        policy = client.get(reverse("offline"))["Content-Security-Policy"]
        assert "worker-src 'self'" in policy and "manifest-src 'self'" in policy
        # WebAssembly compiled from the app's own files (the engine on the phone), never eval.
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy.replace("'wasm-unsafe-eval'", "")

    def test_the_delete_button_carries_the_version_the_page_shows(self, logged_in, make_session):
        session = make_session()
        hand = services.hand_record(session=session, raw=GARDE)
        html = logged_in.get(reverse("hand_detail", args=[session.pk, hand.pk])).content.decode()
        assert f'<input type="hidden" name="version" value="{hand.version}">' in html

    def test_at_six_the_hand_form_carries_the_fields_for_every_dealer_for_a_phone_offline(
        self, logged_in, make_session
    ):
        # Who sits out follows the dealer alone (docs/rules.md §1.3: with six, the dealer):
        # a phone that moves the dealer on without a connection puts in these.
        six = ("Anna", "Bert", "Carl", "Dora", "Emil", "Fritz")
        session = make_session(players=six)
        html = logged_in.get(reverse("hand_new", args=[session.pk])).content.decode()
        drawn = dict(
            re.findall(r'<template class="dealer-fields" data-dealer="(\w+)">(.*?)</template>', html, re.S)
        )
        assert list(drawn) == list(six)
        for dealer, fields in drawn.items():
            assert f"{dealer} sits out this hand." in fields
            takers = re.findall(r'name="taker" value="(\w+)"', fields)
            assert takers == [name for name in six if name != dealer]
            assert re.search(rf'<option value="{dealer}" selected', fields)

    def test_the_fields_for_every_dealer_are_drawn_once_and_follow_names_and_language(
        self, logged_in, make_session, user, monkeypatch
    ):
        six = ("Anna", "Bert", "Carl", "Dora", "Emil", "Fritz")
        session = make_session(players=six)
        url = reverse("hand_new", args=[session.pk])
        built: list[str] = []
        real = hands_views._hand_form

        def counting(*args: Any, **kwargs: Any) -> Any:
            if kwargs.get("blank"):
                built.append(kwargs["blank"][1])
            return real(*args, **kwargs)

        monkeypatch.setattr(hands_views, "_hand_form", counting)

        def dealer_fields(language: str) -> dict[str, str]:
            html = logged_in.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
            return dict(
                re.findall(
                    r'<template class="dealer-fields" data-dealer="(\w+)">(.*?)</template>', html, re.S
                )
            )

        first = dealer_fields("en")
        assert built == list(six)
        assert dealer_fields("en") == first and built == list(six)  # the second page builds no form
        german = dealer_fields("de")
        assert "Fritz setzt in diesem Spiel aus." in german["Fritz"]
        assert "Fritz sits out this hand." in first["Fritz"]

        services.session_rename_player(session=session, user=user, old="Fritz", new="Franz")
        renamed = dealer_fields("en")
        assert list(renamed) == ["Anna", "Bert", "Carl", "Dora", "Emil", "Franz"]
        assert "Franz sits out this hand." in renamed["Franz"] and "Fritz" not in "".join(renamed.values())

    def test_with_nobody_sitting_out_the_hand_form_carries_no_other_fields(self, logged_in, make_session):
        session = make_session(players=("Anna", "Bert", "Carl", "Dora", "Emil"))
        html = logged_in.get(reverse("hand_new", args=[session.pk])).content.decode()
        assert "dealer-fields" not in html


@pytest.mark.django_db
class TestWhatTheWorkerKeeps:
    """The worker keeps a copy of a page unless its answer says not to: the server
    says which pages, the worker reads no address (static/js/sw.js)."""

    @pytest.mark.parametrize(
        "page",
        [
            lambda session: reverse("login"),
            lambda session: reverse("password_change"),
            lambda session: reverse("admin:index"),
            lambda session: reverse("service_worker"),
            lambda session: reverse("manifest"),
            lambda session: reverse("session_print", args=[session.pk]),
            lambda session: reverse("session_export", args=[session.pk, "json"]),
        ],
    )
    def test_the_accounts_the_admin_the_worker_printouts_and_downloads_say_they_are_not_kept(
        self, logged_in, make_session, page
    ):
        url = page(make_session())
        response = logged_in.get(url)
        assert response.get(offline.NOT_KEPT_HEADER) == "1", url

    def test_a_page_of_the_evenings_says_nothing_and_is_kept(self, logged_in, make_session):
        session = make_session()
        hand = services.hand_record(session=session, raw=GARDE)
        for url in (
            reverse("session_list"),
            reverse("scoreboard", args=[session.pk]),
            reverse("hand_new", args=[session.pk]),
            reverse("hand_edit", args=[session.pk, hand.pk]),
            reverse("offline"),
        ):
            response = logged_in.get(url)
            assert response.status_code == 200, url
            assert offline.NOT_KEPT_HEADER not in response, url
            assert offline.LOGIN_HEADER not in response, url

    def test_the_login_page_says_it_is_one_where_a_logged_out_outbox_is_led(self, client, make_session):
        session = make_session()
        data = {**form_data(GARDE, "l1o2g3"), "dealer": "Dora"}
        led = client.post(
            reverse("hand_new", args=[session.pk]), data, headers={"X-Tarock-Outbox": "1"}, follow=True
        )
        assert led.redirect_chain and led.redirect_chain[-1][0].startswith(reverse("login"))
        assert led[offline.LOGIN_HEADER] == "1" and led[offline.NOT_KEPT_HEADER] == "1"
        assert not Hand.objects.filter(session=session).exists()

    def test_the_worker_judges_no_address(self):
        worker = (ROOT / "static" / "js" / "sw.js").read_text()
        assert offline.NOT_KEPT_HEADER in worker
        code = "\n".join(
            line for line in worker.splitlines() if not line.lstrip().startswith(("//", "/*", "*"))
        )
        assert not re.search(r"accounts|admin|export|sheet\\?/", code)

    def test_the_pages_the_worker_fetches_to_keep_say_so(self):
        """So the server lets them use up no notice meant for the page a player opens
        (plumbing.offline.PageMessages)."""
        worker = (ROOT / "static" / "js" / "sw.js").read_text()
        assert f'const KEEP = {{ "{offline.KEEP_HEADER}": "1" }};' in worker
        fetches = re.findall(r"fetch\(([^;]*)\)", worker)
        keeping = [call for call in fetches if "address.href" in call or "CONFIG.offline" in call]
        assert len(keeping) == 2 and all("headers: KEEP" in call for call in keeping), fetches


@pytest.mark.django_db
class TestTheLineOfAHandThePhoneCannotScore:
    """A phone that cannot score a hand offline writes its line from the form: the
    server names each field there and marks the choices that tell nothing
    (static/js/phone/saving.js reads no class of the page's markup)."""

    def test_each_field_of_the_form_is_named_by_the_server(self, logged_in, make_session):
        session = make_session()
        page = logged_in.get(reverse("hand_new", args=[session.pk])).content.decode()
        for label in ("Dealer", "Taker", "Contract", "Bouts", "Points", "Note"):
            assert f'data-says="{label}"' in page, label

    def test_a_premium_row_left_at_its_dash_and_a_kontra_of_none_tell_nothing(self, logged_in, make_session):
        session = make_session("koenigrufen")
        page = logged_in.get(reverse("hand_new", args=[session.pk])).content.decode()
        unsaid = re.findall(r'<input type="radio" name="([^"]+)" value="([^"]*)"[^>]*\bdata-unsaid\b', page)
        premium_rows = {name for name, value in unsaid if name.startswith("premiums.") and value == ""}
        kontras = {name for name, value in unsaid if name.startswith("kontra.") and value == "0"}
        assert premium_rows and kontras, unsaid[:5]
        assert {value for _, value in unsaid} == {"", "0"}  # never a choice that tells something

    def test_a_deletion_is_named_by_the_hands_line_as_its_page_shows_it(self, logged_in, make_session):
        session = make_session()
        hand = services.hand_record(session=session, raw=GARDE)
        page = logged_in.get(reverse("hand_detail", args=[session.pk, hand.pk])).content.decode()
        form = re.search(r'<form method="post" action="[^"]*/delete/"[^>]*data-says="([^"]+)"', page)
        shown = re.search(r'<p class="preview-what">(.*?)</p>', page)
        assert form and shown and form.group(1) == shown.group(1) and "Garde" in form.group(1)


@pytest.mark.django_db
class TestThePhonesPreview:
    """The hand form carries the rows of its preview and of the bar by the thumb as
    the phone draws them offline (static/js/phone/preview.js draws no markup of its own)."""

    def test_the_form_draws_the_rows_with_its_words_and_classes(self, client_for, user, make_session):
        players = ("Anna", "Bernhardine", "Carl", "Dora", "Emil")
        session = make_session("french", players=players)
        client = client_for(user)
        page = client.get(reverse("hand_new", args=[session.pk]), headers={"Accept-Language": "de"})
        rows = dict(
            re.findall(r'<template data-phone-row="([^"]+)">(.*?)</template>', page.content.decode(), re.S)
        )
        assert (
            "Noch nicht vollständig:" in rows["preview-open"] and 'data-slot="items"' in rows["preview-open"]
        )
        assert "Noch offen:" in rows["quick-open"] and "role=" not in rows["quick-open"]
        assert "Nicht gespeichert:" in rows["quick-refused"] and 'role="alert"' in rows["quick-refused"]
        assert 'class="pos"' in rows["delta-plus"] and 'class="neg"' in rows["delta-minus"]
        assert 'class="zero"' in rows["quick-zero"] and 'class="out"' in rows["delta-out"]
        for name in players:
            assert f'<abbr title="{name}">' in rows[f"head:{name}"]
        # The heads are the sheet's own: a long name shortened as the sheet's column heads it.
        heads = re.findall(r"<abbr[^>]*>([^<]+)</abbr>", "".join(rows[f"head:{n}"] for n in players))
        assert heads == list(column_heads(players).values()) and "Bernhardine" not in heads


@pytest.mark.django_db
class TestADeletionSentLate:
    def test_of_a_hand_corrected_meanwhile_is_refused_and_changes_nothing(self, make_session):
        session = make_session()
        hand = services.hand_record(session=session, raw=GARDE)
        seen = hand.version
        services.hand_edit(hand=hand, raw={**GARDE, "points": 48}, expected_version=seen)
        changes = HandChange.objects.count()
        with pytest.raises(services.HandConflict):
            services.hand_delete(hand=hand, expected_version=seen)
        hand.refresh_from_db()
        assert hand.deleted_at is None and hand.version == seen + 1
        assert HandChange.objects.count() == changes

    def test_of_the_version_it_saw_deletes(self, make_session):
        session = make_session()
        hand = services.hand_record(session=session, raw=GARDE)
        services.hand_delete(hand=hand, expected_version=hand.version)
        assert Hand.objects.get(pk=hand.pk).is_deleted

    def test_twice_deletes_once(self, make_session):
        session = make_session()
        hand = services.hand_record(session=session, raw=GARDE)
        seen = hand.version
        services.hand_delete(hand=hand, expected_version=seen)
        services.hand_delete(hand=hand, expected_version=seen)  # resent after a lost answer
        assert HandChange.objects.filter(hand=hand, action=HandChange.Action.DELETED).count() == 1

    def test_through_the_page_answers_with_the_conflict_page(self, logged_in, make_session):
        session = make_session()
        hand = services.hand_record(session=session, raw=GARDE)
        seen = hand.version
        services.hand_edit(hand=hand, raw={**GARDE, "points": 48}, expected_version=seen)
        response = logged_in.post(reverse("hand_delete", args=[session.pk, hand.pk]), {"version": str(seen)})
        assert response.status_code == 409
        html = response.content.decode()
        assert 'id="conflict"' in html and "48" in html
        assert not Hand.objects.get(pk=hand.pk).is_deleted

    @pytest.mark.parametrize("version", ["", "abc", "-1", "1.0", "9" * 40])
    def test_with_a_version_not_understood_is_refused_as_a_conflict(self, logged_in, make_session, version):
        session = make_session()
        hand = services.hand_record(session=session, raw=GARDE)
        response = logged_in.post(reverse("hand_delete", args=[session.pk, hand.pk]), {"version": version})
        assert response.status_code == 409
        assert not Hand.objects.get(pk=hand.pk).is_deleted

    def test_from_a_page_that_sends_no_version_deletes_as_before(self, logged_in, make_session):
        session = make_session()
        hand = services.hand_record(session=session, raw=GARDE)
        response = logged_in.post(reverse("hand_delete", args=[session.pk, hand.pk]))
        assert response.status_code == 302
        assert Hand.objects.get(pk=hand.pk).is_deleted


@pytest.mark.django_db
class TestAPhoneSendingItsOutbox:
    """It is told in so many words that a change was stored: only that answer
    takes a waiting hand off the phone, never a redirect that might lead elsewhere."""

    def test_a_new_hand_is_answered_with_the_hand_stored_and_once_only_when_resent(
        self, logged_in, make_session
    ):
        session = make_session()
        data = {**form_data(GARDE, "a1b2c3"), "dealer": "Dora"}
        url = reverse("hand_new", args=[session.pk])
        first = logged_in.post(url, data, headers={"X-Tarock-Outbox": "1"})
        again = logged_in.post(url, data, headers={"X-Tarock-Outbox": "1"})
        assert first.status_code == again.status_code == 204
        hand = Hand.objects.get(session=session)
        assert first["X-Tarock-Stored"] == again["X-Tarock-Stored"] == str(hand.pk)

    def test_a_refused_hand_is_told_what_its_form_would_say_and_stores_nothing(self, logged_in, make_session):
        session = make_session()
        data = {**form_data({k: v for k, v in GARDE.items() if k != "points"}, "d4e5f6"), "dealer": "Dora"}
        response = logged_in.post(
            reverse("hand_new", args=[session.pk]), data, headers={"X-Tarock-Outbox": "1"}
        )
        assert response.status_code == 422 and "X-Tarock-Stored" not in response
        assert refusals(response) == ["Points missing"]
        assert not Hand.objects.filter(session=session).exists()

    def test_a_correction_and_a_deletion_are_answered_the_same_way(self, logged_in, make_session):
        session = make_session()
        hand = services.hand_record(session=session, raw=GARDE)
        data = {**form_data({**GARDE, "points": 52}, str(hand.version)), "dealer": "Dora"}
        edited = logged_in.post(
            reverse("hand_edit", args=[session.pk, hand.pk]), data, headers={"X-Tarock-Outbox": "1"}
        )
        assert edited.status_code == 204 and edited["X-Tarock-Stored"] == str(hand.pk)
        hand.refresh_from_db()
        deleted = logged_in.post(
            reverse("hand_delete", args=[session.pk, hand.pk]),
            {"version": str(hand.version)},
            headers={"X-Tarock-Outbox": "1"},
        )
        assert deleted.status_code == 204 and deleted["X-Tarock-Stored"] == str(hand.pk)
        assert Hand.objects.get(pk=hand.pk).is_deleted

    def test_a_form_sent_from_a_page_is_still_led_to_the_sheet(self, logged_in, make_session):
        session = make_session()
        data = {**form_data(GARDE, "g7h8i9"), "dealer": "Dora"}
        response = logged_in.post(reverse("hand_new", args=[session.pk]), data)
        hand = Hand.objects.get(session=session)
        assert response.status_code == 302
        assert response["Location"] == reverse("scoreboard", args=[session.pk]) + f"#hand-{hand.pk}"


OUTBOX = {"X-Tarock-Outbox": "1", "Accept-Language": "de"}


def refusals(response) -> list[str]:
    """What a phone sending its outbox is told of a refusal, as data in the player's
    language: each thing said, and (for a phone of the version before) all in one line."""
    assert response["X-Tarock-Refused"] == "1" and "X-Tarock-Stored" not in response
    assert response["Content-Type"] == "application/json"
    answer = json.loads(response.content)
    assert answer["reason"] == " · ".join(answer["reasons"])
    return answer["reasons"]


def refusal(response) -> str:
    """The one reason a phone sending its outbox is given."""
    [reason] = refusals(response)
    return reason


@pytest.mark.django_db
class TestAHandFromTheOutboxThatCannotBeStored:
    """A phone sending what it kept is told why, in words it can show beside the
    hand it keeps: never the sheet's page or the bare "Not Found" page."""

    def test_on_a_closed_evening_is_refused_because_the_evening_is_closed(self, logged_in, make_session):
        session = make_session()
        services.session_close(session=session, user=None)
        data = {**form_data(GARDE, "c1o2s3"), "dealer": "Dora"}
        response = logged_in.post(reverse("hand_new", args=[session.pk]), data, headers=OUTBOX)
        assert response.status_code == 423
        assert refusal(response).startswith("Dieser Abend ist abgeschlossen")
        assert not Hand.objects.filter(session=session).exists()
        # Nothing is left waiting to be said on the sheet the players open next.
        sheet = logged_in.get(reverse("scoreboard", args=[session.pk]), headers={"Accept-Language": "de"})
        assert 'class="messages"' not in sheet.content.decode()

    def test_a_correction_and_a_deletion_on_a_closed_evening_too(self, logged_in, make_session):
        session = make_session()
        hand = services.hand_record(session=session, raw=GARDE)
        services.session_close(session=session, user=None)
        data = {**form_data({**GARDE, "points": 52}, str(hand.version)), "dealer": "Dora"}
        edited = logged_in.post(reverse("hand_edit", args=[session.pk, hand.pk]), data, headers=OUTBOX)
        deleted = logged_in.post(
            reverse("hand_delete", args=[session.pk, hand.pk]), {"version": str(hand.version)}, headers=OUTBOX
        )
        assert edited.status_code == deleted.status_code == 423
        assert refusal(edited) == refusal(deleted) and "abgeschlossen" in refusal(edited)

    def test_for_a_deleted_evening_says_so(self, logged_in, make_session, user):
        session = make_session()
        hand = services.hand_record(session=session, raw=GARDE)
        services.session_delete(session=session, user=user)
        new = logged_in.post(
            reverse("hand_new", args=[session.pk]),
            {**form_data(GARDE, "d1e2l3"), "dealer": "Dora"},
            headers=OUTBOX,
        )
        edited = logged_in.post(
            reverse("hand_edit", args=[session.pk, hand.pk]),
            {**form_data(GARDE, str(hand.version)), "dealer": "Dora"},
            headers=OUTBOX,
        )
        assert new.status_code == edited.status_code == 404
        assert (
            refusal(new)
            == refusal(edited)
            == "Dieser Abend wurde gelöscht oder ist für dieses Konto nicht mehr offen."
        )

    def test_for_an_evening_not_open_to_this_account_says_so_without_telling_more(
        self, client_for, make_session, other_user
    ):
        session = make_session()
        stranger = client_for(other_user)
        data = {**form_data(GARDE, "n1o2a3"), "dealer": "Dora"}
        response = stranger.post(reverse("hand_new", args=[session.pk]), data, headers=OUTBOX)
        assert response.status_code == 404
        assert refusal(response) == "Dieser Abend wurde gelöscht oder ist für dieses Konto nicht mehr offen."

    def test_a_correction_of_a_hand_deleted_meanwhile_says_so(self, logged_in, make_session):
        session = make_session()
        hand = services.hand_record(session=session, raw=GARDE)
        seen = hand.version
        services.hand_delete(hand=hand, expected_version=seen)
        data = {**form_data({**GARDE, "points": 52}, str(seen)), "dealer": "Dora"}
        response = logged_in.post(reverse("hand_edit", args=[session.pk, hand.pk]), data, headers=OUTBOX)
        assert response.status_code == 410
        assert refusal(response).startswith("Jemand hat dieses Spiel gelöscht")
        assert Hand.objects.get(pk=hand.pk).is_deleted

    def test_a_kind_of_hand_the_house_rules_no_longer_allow_says_so(self, logged_in, make_session):
        session = make_session()
        data = {**form_data({"type": "no-such-kind"}, "k1i2n3"), "dealer": "Dora"}
        response = logged_in.post(reverse("hand_new", args=[session.pk]), data, headers=OUTBOX)
        assert response.status_code == 404
        assert "Art des Spiels" in refusal(response)

    @pytest.mark.parametrize(
        ("language", "says"),
        [("de", ["Kontrakt: nicht angegeben"]), ("fr", ["Contrat : à indiquer"])],
    )
    def test_a_hand_with_a_field_missing_says_so_once_naming_the_field(
        self, client_for, user, make_session, language, says
    ):
        # The field's error names its field already, and the summary by the thumb
        # ("Nicht gespeichert: …") repeats it on the page: neither is said twice.
        session = make_session()
        client = client_for(user)
        data = {"token": "refused-once", "action": "save", "dealer": "Dora", "taker": "Anna", "bouts": "2"}
        response = client.post(
            reverse("hand_new", args=[session.pk]),
            {**data, "points": "56"},
            headers={"X-Tarock-Outbox": "1", "Accept-Language": language},
        )
        assert response.status_code == 422
        assert refusals(response) == says  # the words' spaces as the page shows them, one each

    def test_a_hand_with_several_problems_says_each_after_its_label_in_the_forms_order(
        self, logged_in, make_session
    ):
        session = make_session()
        data = {**form_data({"taker": "Anna", "contract": "garde", "bouts": 7}, "s1e2v3"), "dealer": "Dora"}
        response = logged_in.post(
            reverse("hand_new", args=[session.pk]), data, headers={"X-Tarock-Outbox": "1"}
        )
        assert response.status_code == 422
        assert refusals(response) == ["Bouts: a whole number from 0 to 3 (got 7)", "Points missing"]

    def test_a_correction_made_from_an_older_version_says_what_the_hand_reads_now(
        self, logged_in, make_session
    ):
        session = make_session()
        hand = services.hand_record(session=session, raw=GARDE)
        seen = hand.version
        services.hand_edit(hand=hand, raw={**GARDE, "points": 60}, expected_version=seen)
        data = {**form_data({**GARDE, "points": 52}, str(seen)), "dealer": "Dora"}
        url = reverse("hand_edit", args=[session.pk, hand.pk])
        response = logged_in.post(url, data, headers={"X-Tarock-Outbox": "1"})
        assert response.status_code == 409
        said = refusal(response)
        assert said.startswith("Someone else changed this hand while you were editing it. It now reads:")
        assert "Anna +" in said and "<" not in said
        # Sent from the page, the page says it, with the way to start again.
        page = logged_in.post(url, data)
        assert page.status_code == 409 and 'id="conflict"' in page.content.decode()
        assert "X-Tarock-Refused" not in page

    def test_a_deletion_of_a_hand_changed_meanwhile_says_what_it_reads_now(self, logged_in, make_session):
        session = make_session()
        hand = services.hand_record(session=session, raw=GARDE)
        seen = hand.version
        services.hand_edit(hand=hand, raw={**GARDE, "points": 60}, expected_version=seen)
        url = reverse("hand_delete", args=[session.pk, hand.pk])
        response = logged_in.post(url, {"version": str(seen)}, headers=OUTBOX)
        assert response.status_code == 409
        assert refusal(response).startswith("Jemand anderer hat dieses Spiel geändert")
        assert not Hand.objects.get(pk=hand.pk).is_deleted

    def test_a_form_sent_from_a_page_to_a_closed_evening_still_goes_to_the_sheet_and_says_why(
        self, logged_in, make_session
    ):
        session = make_session()
        services.session_close(session=session, user=None)
        data = {**form_data(GARDE, "p1a2g3"), "dealer": "Dora"}
        response = logged_in.post(reverse("hand_new", args=[session.pk]), data, follow=True)
        assert response.redirect_chain == [(reverse("scoreboard", args=[session.pk]), 302)]
        assert "Nothing was changed: reopen the evening" in response.content.decode()
        assert "X-Tarock-Refused" not in response
