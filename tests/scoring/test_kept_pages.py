"""A group's statistics pages are drawn once per version of what they show and
kept: a repeat view is a lookup, yet every view gets its own CSRF token and the
time it was drawn, and nobody gets a page drawn for someone else's role."""

from __future__ import annotations

import json
import re
import time
from datetime import date
from types import SimpleNamespace

import pytest
from django.test import Client
from django.urls import reverse

from club.services import groups
from plumbing import offline
from scoring import services
from scoring.models import Hand, Session
from scoring.services import sharing
from tests.club.regular_table import evening, player
from tests.scoring.test_sheets import imported

pytestmark = pytest.mark.cache  # also run with CACHE=redis://… (make test-redis)

GARDE = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}  # Anna +240


@pytest.fixture
def group(user):
    group = groups.group_create(owner=user, name="Stammtisch")
    evening(group, user, [GARDE], played_on=date(2026, 3, 3))
    return group


def table_url(group) -> str:
    return reverse("season_table", args=[group.pk, "2026"])


def drawn_at(html: str) -> int:
    config = re.search(r'<script id="offline-config" type="application/json">(.*?)</script>', html)
    assert config is not None
    return int(json.loads(config.group(1))["rendered"])


def test_a_repeat_view_of_the_table_or_a_player_draws_no_template(logged_in, group):
    for url in (table_url(group), reverse("group_player", args=[group.pk, player(group, "Anna").pk])):
        first = logged_in.get(url)
        assert first.status_code == 200 and first.templates
        again = logged_in.get(url)
        assert again.status_code == 200 and again.templates == []
        assert "+240" in again.content.decode()


def test_every_view_of_a_kept_page_carries_a_token_that_is_accepted(user, group):
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    client.get(table_url(group))
    kept = client.get(table_url(group)).content.decode()
    assert "\x00" not in kept
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', kept)
    assert token is not None
    form = {"csrfmiddlewaretoken": token.group(1), "name": "Fasching"}
    answer = client.post(
        reverse("season_new", args=[group.pk]), form | {"starts_on": "2026-02-01", "ends_on": "2026-02-28"}
    )
    assert answer.status_code == 302


def test_a_kept_page_says_when_this_view_was_drawn(logged_in, group, monkeypatch):
    first = logged_in.get(table_url(group)).content.decode()
    assert abs(drawn_at(first) - time.time()) < 60
    later = time.time() + 3600
    monkeypatch.setattr("plumbing.pages.time", SimpleNamespace(time=lambda: later))
    assert drawn_at(logged_in.get(table_url(group)).content.decode()) == int(later)


def test_a_member_never_gets_the_owners_page_nor_the_owner_the_members(user, other_user, client_for, group):
    groups.invitation_accept(token=groups.invitation_create(group=group, user=user).token, user=other_user)
    owner, member = client_for(user), client_for(other_user)
    new_season = 'id="new-season"'
    assert new_season in owner.get(table_url(group)).content.decode()
    assert new_season not in member.get(table_url(group)).content.decode()
    assert new_season in owner.get(table_url(group)).content.decode()


def test_a_renamed_group_shows_its_new_name_on_its_pages(logged_in, group):
    assert "Stammtisch" in logged_in.get(table_url(group)).content.decode()
    groups.group_update(group=group, name="Mittwoch", money_rate=None, min_hands=group.min_hands)
    renamed = logged_in.get(table_url(group)).content.decode()
    assert "Mittwoch" in renamed and "Stammtisch" not in renamed


def test_what_the_last_action_said_is_shown_on_the_next_page_once(logged_in, group):
    logged_in.get(table_url(group))  # the page is kept
    settings = {"name": "Stammtisch", "money_rate": "", "min_hands": "10"}
    assert logged_in.post(reverse("group_settings", args=[group.pk]), settings).status_code == 302
    saved = "The group&#x27;s settings are saved."
    assert saved in logged_in.get(table_url(group)).content.decode()
    assert saved not in logged_in.get(table_url(group)).content.decode()


def test_a_kept_sheet_lets_its_reader_restore_a_deleted_hand(user, make_session):
    session = make_session()
    hands = [services.hand_record(session=session, raw=GARDE | {"dealer": name}) for name in ("Dora", "Anna")]
    services.hand_delete(hand=hands[0], user=user)
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    url = reverse("scoreboard", args=[session.pk])
    client.get(url)
    kept = client.get(url)
    assert kept.templates == []
    html = kept.content.decode()
    restore = reverse("hand_restore", args=[session.pk, hands[0].pk])
    form = re.search(rf'action="{restore}".*?name="csrfmiddlewaretoken" value="([^"]+)"', html, re.S)
    assert form is not None
    assert client.post(restore, {"csrfmiddlewaretoken": form.group(1)}).status_code == 302


def test_an_editor_never_gets_the_owners_sheet_nor_the_owner_the_editors(
    user, other_user, client_for, make_session
):
    session = make_session()
    services.hand_record(session=session, raw=GARDE)
    sharing.session_add_editor(session=session, username=other_user.username)
    url = reverse("scoreboard", args=[session.pk])
    owner, editor = client_for(user), client_for(other_user)
    settings = 'id="settings"'
    assert settings in owner.get(url).content.decode()
    assert settings not in editor.get(url).content.decode()
    assert settings in owner.get(url).content.decode()


def test_a_new_hand_draws_only_the_parts_that_change_into_the_kept_frame(logged_in, user, make_session):
    session = make_session()
    services.hand_record(session=session, raw=GARDE)
    url = reverse("scoreboard", args=[session.pk])
    assert "base.html" in {template.name for template in logged_in.get(url).templates}
    services.hand_record(session=session, raw=GARDE | {"dealer": "Anna"})
    page = logged_in.get(url)
    assert "base.html" not in {template.name for template in page.templates}
    assert page.templates  # the parts that changed were drawn
    html = page.content.decode()
    assert "+480" in html  # Anna: two gardes of +240
    assert html.count('id="board"') == 1 and html.count('id="new-hand"') == 1
    assert html.count('<nav class="exports"') == 1


def test_a_series_pdf_link_follows_the_series_on_a_kept_frame(logged_in, user):
    session = imported(user, "illustrated-seed-series.json")
    url = reverse("scoreboard", args=[session.pk])
    series_pdf = "PDF of series 1"
    assert series_pdf in logged_in.get(url).content.decode()
    for hand in Hand.objects.filter(session=session):  # the series is gone with its hands
        services.hand_delete(hand=hand, user=user)
    assert series_pdf not in logged_in.get(url).content.decode()


def test_a_new_release_draws_the_pages_again_rather_than_serve_the_old_ones(
    logged_in, make_session, monkeypatch
):
    # A shared cache (CACHE=database) outlives a deploy: what the old templates
    # drew must not be served by the new code (plumbing.cache_keys).
    session = make_session()
    services.hand_record(session=session, raw=GARDE)
    url = reverse("scoreboard", args=[session.pk])
    assert logged_in.get(url).templates
    assert logged_in.get(url).templates == []  # kept
    monkeypatch.setattr(offline, "cache_version", lambda: "next-release")
    assert "base.html" in {template.name for template in logged_in.get(url).templates}


@pytest.mark.parametrize("backend", ["local", "database", "redis"])
def test_every_cache_backend_keys_what_it_keeps_by_the_release(backend):
    from tarockscore.settings import CACHE_BACKENDS

    assert CACHE_BACKENDS[backend]["KEY_FUNCTION"] == "plumbing.cache_keys.release_key"


def test_whatever_column_of_the_evening_changes_its_kept_sheet_and_form_show_it(logged_in, make_session):
    # The keys follow every column of the session's row (scoring.kept_pages), not a
    # list of the ones someone thought the page shows: an evening handed to an event
    # loses its settings buttons at once, though no hand changed.
    session = make_session()
    services.hand_record(session=session, raw=GARDE)
    sheet, form = reverse("scoreboard", args=[session.pk]), reverse("hand_new", args=[session.pk])
    assert 'id="settings"' in logged_in.get(sheet).content.decode()
    logged_in.get(form)
    Session.objects.filter(pk=session.pk).update(managed=True, played_on=date(2026, 3, 4))
    assert 'id="settings"' not in logged_in.get(sheet).content.decode()
    assert logged_in.get(sheet).templates == []  # kept again under its new key
    Session.objects.filter(pk=session.pk).update(name="Samstag")
    assert "Samstag" in logged_in.get(form).content.decode()


NAMES = ("Anna", "Bert", "Carl", "Dora", "Emil", "Fritz")
# Every game, and every table where someone sits out while another deals (the
# dealer himself, or at six in Chambéry the dealer's neighbour).
TABLES = [
    ("french", 4),
    ("french", 5),
    ("french", 6),
    ("illustrated", 3),
    ("chambery", 4),
    ("chambery", 5),
    ("chambery", 6),
    ("koenigrufen", 4),
    ("koenigrufen", 5),
]


def per_view(html: str) -> str:
    """A page without what every view puts in anew: the tokens and the time drawn."""
    html = re.sub(r'(name="(?:csrfmiddlewaretoken|token)" value=")[^"]*"', r'\1"', html)
    html = re.sub(r'"X-CSRFToken": "[^"]*"', '"X-CSRFToken": ""', html)
    return re.sub(r'"rendered": \d+', '"rendered": 0', html)


@pytest.mark.parametrize(("variant", "count"), TABLES)
def test_the_new_hand_form_kept_for_one_dealer_shows_each_next_dealer_as_drawn_anew(
    logged_in, make_session, monkeypatch, variant, count
):
    """The new hand's frame is kept across dealers (the dealer's choice is drawn
    into it per view): with each player dealing in turn it is the page drawn whole,
    who sits out and all; where nobody sits out it is drawn once for the evening."""
    from scoring.engine import VARIANTS

    players = NAMES[:count]
    session = make_session(variant, players=players)
    url = reverse("hand_new", args=[session.pk])
    nobody_sits_out = all(VARIANTS[variant].sitting_out(players, d) is None for d in players)
    dealing = {"now": players[0]}
    monkeypatch.setattr(services, "proposed_dealer", lambda session, game: dealing["now"])
    for turn, dealer in enumerate(players):
        dealing["now"] = dealer
        kept = logged_in.get(url)
        assert f'<option value="{dealer}" selected' in kept.content.decode()
        if turn and nobody_sits_out:
            assert "base.html" not in {template.name for template in kept.templates}  # the frame, kept
        drawn = logged_in.get(url + "?type=played")  # asked with a query: drawn whole, never kept
        assert "base.html" in {template.name for template in drawn.templates}
        whole = drawn.content.decode().replace(
            'hands/new/?type=played"', 'hands/new/"'
        )  # the language form's
        assert per_view(kept.content.decode()) == per_view(whole), dealer


def test_an_evening_as_created_and_as_read_back_has_one_kept_form(logged_in, make_session):
    """The row as created holds the house rules as the engine's values, the row
    read back as text (PostgreSQL with its keys reordered): one frame for all."""
    from scoring.kept_pages import session_lines

    created = make_session("koenigrufen", options={"tariff": "ooe_2023", "doubled_radl": True})
    read = Session.objects.get(pk=created.pk)
    reordered = Session.objects.get(pk=created.pk)
    reordered.options = dict(reversed(list(read.options.items())))
    keys = {repr(session_lines(row)) for row in (created, read, reordered)}  # a frame's key is a repr
    assert len(keys) == 1
