"""The circuit's season pages kept whole (``plumbing.pages.render_kept``): the
cup's season table (the organiser's and the board link's), its side rankings,
the honours, §14.7's lists, Meine Saison and Mein Tag. Read again, a page is
the same page without a template drawn; a tournament made final, a tier set or
a name changed is on it at once, as drawn with nothing kept, with the cache and
with the cache unreachable; what one phone or one role is shown (her row and
her friends' marked, her day, the owner's forms) is never another's.

Circuits are made as in ``test_scale`` (a circuit file imported through the
page, a running tournament of the first cup on a board link)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.plumbing.test_cache_outage import cache_down as cache_down
from tests.tournaments import factory
from tests.tournaments.circuit.test_scale import SMALL, World, build, finished
from tournaments.services import circuit as circuits
from tournaments.services import circuit_final as finals
from tournaments.services import player_view

pytestmark = pytest.mark.django_db

KEPT = (
    "cup season",
    "cup side rankings",
    "cup honours",
    "circuit honours",
    "qualification list",
    "qualified list",
    "Gesamtwertung",
    "Meine Saison",
    "Mein Tag",
    "cup season from the board",
)


@pytest.fixture(autouse=True)
def steady_day(one_progress_window: None) -> None:
    """Mein Tag keeps a running table's hands at most this long: not within a test."""


@pytest.fixture(params=["kept", "unreachable"])
def cache_state(request: pytest.FixtureRequest) -> Iterator[str]:
    """The pages with the cache, and with the cache unreachable (nothing kept)."""
    if request.param == "unreachable":
        request.getfixturevalue("cache_down")
    yield request.param


# What differs from one request to the next on the same page: the CSRF token (masked
# anew each time) and the moment the page was drawn (``offline_config``).
PER_REQUEST = (
    (re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"'), 'name="csrfmiddlewaretoken" value=""'),
    (re.compile(r'"X-CSRFToken": "[^"]+"'), '"X-CSRFToken": ""'),
    (re.compile(r'"rendered": \d+'), '"rendered": 0'),
)


def steady(html: bytes) -> str:
    text = html.decode()
    for pattern, blank in PER_REQUEST:
        text = pattern.sub(blank, text)
    return text


def page(client: Client, url: str) -> tuple[str, bool]:
    """The page as shown (its per-request tokens blanked), and whether a template was drawn for it."""
    answer = client.get(url)
    assert answer.status_code == 200, (url, answer.status_code)
    return steady(answer.content), bool(answer.templates)


def shown(world: World) -> dict[str, tuple[str, bool]]:
    return {name: page(*world.pages()[name]) for name in KEPT}


def as_drawn_now(world: World) -> dict[str, str]:
    """Every page as drawn with nothing kept: in another server process, the cache emptied."""
    cache.clear()
    factory.forget_kept()
    return {name: html for name, (html, _) in shown(world).items()}


def test_a_page_read_again_is_the_page_kept_without_a_template_drawn(user):
    world = build(user, SMALL)
    first = shown(world)
    again = shown(world)
    for name in KEPT:
        assert again[name][0] == first[name][0], name
        assert first[name][1] and not again[name][1], name


def test_a_tournament_made_final_is_on_every_kept_page_at_once(user, cache_state):
    world = build(user, SMALL)
    before = shown(world)
    shown(world)  # read again: kept, where the cache keeps
    finished(world)
    after = shown(world)
    assert {name: html for name, (html, _) in after.items()} == as_drawn_now(world)
    # What the new tournament changes on each page, not only the page's tokens.
    for name in ("cup season", "cup season from the board", "cup honours", "circuit honours", "Meine Saison"):
        assert after[name][0] != before[name][0], name
    assert "3 Turniere" in after["Meine Saison"][0] and "3 Turniere" not in before["Meine Saison"][0]
    assert "Noch kein Platz" in before["Mein Tag"][0] and "Noch kein Platz" not in after["Mein Tag"][0]


def test_a_tier_set_is_on_the_lists_and_meine_saison_at_once(user, cache_state):
    world = build(user, SMALL)
    shown(world)
    shown(world)
    finals.cup_tier_set(
        circuit=world.circuit,
        user=user,
        cup_id=world.cup.pk,
        tier="custom",
        tier_table="97 96 95",
        min_events=2,
    )
    after = shown(world)
    assert {name: html for name, (html, _) in after.items()} == as_drawn_now(world)
    assert "<strong>97</strong>" in after["qualification list"][0]
    assert re.search(r"qualifiziert, 9[567] Vorrundenpunkte", after["Meine Saison"][0])


def test_a_register_name_changed_is_on_every_kept_page_at_once(user, cache_state):
    world = build(user, SMALL)
    shown(world)
    shown(world)
    circuits.register_public_name_set(circuit=world.circuit, user=user, number=1, public_name="short")
    after = shown(world)
    assert {name: html for name, (html, _) in after.items()} == as_drawn_now(world)
    for name in ("cup season from the board", "Meine Saison", "Mein Tag"):
        assert "Spieler001 E." in after[name][0], name


def test_a_phones_row_and_friends_are_marked_for_it_alone(user):
    world = build(user, SMALL)
    board_season = reverse("tournament_cup_season", args=[world.token])
    cup_season = reverse("cup_detail", args=[world.cup.pk])
    her = world.phone  # Nr. 1, following Nr. 2 and 3
    other = Client(HTTP_ACCEPT_LANGUAGE="de")
    other.cookies[player_view.ME_COOKIE.format(circuit=world.circuit.pk)] = "4"
    nobody = Client(HTTP_ACCEPT_LANGUAGE="de")
    organiser = world.organiser  # no number kept on the organiser's browser
    for url, clients in ((board_season, (her, other, nobody)), (cup_season, (organiser,))):
        seen = {id(client): page(client, url)[0] for client in clients}
        if url == board_season:
            mine, theirs, no_one = seen[id(her)], seen[id(other)], seen[id(nobody)]
            assert '<tr data-nr="1" class="me" aria-current="true">' in mine
            assert '<tr data-nr="2" class="friend">' in mine and '<tr data-nr="3" class="friend">' in mine
            assert '<tr data-nr="4" class="me" aria-current="true">' in theirs
            assert 'class="me"' not in no_one and 'class="friend"' not in no_one
            assert 'data-nr="1" class' not in theirs and 'class="friend"' not in theirs
            # Her page read again is marked as before: kept unmarked, marked per request.
            assert page(her, url)[0] == mine
        else:
            html = seen[id(organiser)]
            assert 'class="me"' not in html and 'class="friend"' not in html
    organiser.cookies[player_view.ME_COOKIE.format(circuit=world.circuit.pk)] = "4"
    assert '<tr data-nr="4" class="me" aria-current="true">' in page(organiser, cup_season)[0]


def test_mein_tag_and_meine_saison_are_each_phones_own(user):
    world = build(user, SMALL)
    her = world.phone  # Nr. 1, following Nr. 2 and 3
    other = Client(HTTP_ACCEPT_LANGUAGE="de")
    other.cookies[player_view.ME_COOKIE.format(circuit=world.circuit.pk)] = "4"
    for name in ("Mein Tag", "Meine Saison"):
        _, url = world.pages()[name]
        mine, theirs = page(her, url)[0], page(other, url)[0]
        assert "Nr. 1</h2>" in mine and "Nr. 4</h2>" not in mine, name
        assert "Nr. 4</h2>" in theirs and "Nr. 1</h2>" not in theirs, name
        assert page(her, url)[0] == mine, name
    day = reverse("tournament_my_day", args=[world.token])
    followed = "Nr. 2 Spieler002 Eva"
    assert followed in page(her, day)[0] and followed not in page(other, day)[0]
    # The same phone following another number: a page of its own.
    her.cookies[player_view.FRIENDS_COOKIE.format(circuit=world.circuit.pk)] = "5"
    html = page(her, day)[0]
    assert "Nr. 5 Spieler005 Eva" in html and followed not in html


def test_a_page_is_kept_per_role_and_per_login(user, other_user):
    world = build(user, SMALL)
    factory.fresh(world.running).organisers.add(other_user)  # runs a tournament of the cup, owns nothing
    helper = Client(HTTP_ACCEPT_LANGUAGE="de")
    helper.force_login(other_user)
    sides = reverse("cup_sides", args=[world.cup.pk])
    season = reverse("cup_detail", args=[world.cup.pk])
    assert 'id="side-form"' in page(world.organiser, sides)[0]
    assert 'id="side-form"' not in page(helper, sides)[0]
    assert 'id="cup-settings"' in page(world.organiser, season)[0]
    assert 'id="cup-settings"' not in page(helper, season)[0]
    # A board link's page opened by a phone and by a logged-in account (its own menu).
    board_season = reverse("tournament_cup_season", args=[world.token])
    anonymous = page(Client(HTTP_ACCEPT_LANGUAGE="de"), board_season)[0]
    logged_in = page(helper, board_season)[0]
    logout = reverse("logout")
    assert logout not in anonymous and logout in logged_in


def test_a_refused_side_ranking_is_drawn_with_its_errors_and_never_kept(user):
    world = build(user, SMALL)
    sides = reverse("cup_sides", args=[world.cup.pk])
    refused = world.organiser.post(sides, {"name": "", "kind": "category", "value": ""})
    assert refused.status_code == 400
    html = page(world.organiser, sides)[0]
    assert 'role="alert"' not in html and 'class="error"' not in html
    assert html == page(world.organiser, sides)[0]


def test_a_refused_number_on_mein_tag_is_drawn_for_its_request_alone(user):
    world = build(user, SMALL)
    day = reverse("tournament_my_day", args=[world.token])
    refused = world.phone.post(day, {"action": "number", "number": "999999"})
    assert refused.status_code == 400 and 'id="me-problem"' in refused.content.decode()
    assert 'id="me-problem"' not in page(world.phone, day)[0]


def test_a_user_of_no_account_never_sees_a_page_kept_for_another(user: User):
    """The organiser's pages stay behind the login and their access checks, kept or not."""
    world = build(user, SMALL)
    for name in KEPT:
        client, url = world.pages()[name]
        if client is world.organiser:
            page(client, url)
            assert Client().get(url).status_code == 302, name
