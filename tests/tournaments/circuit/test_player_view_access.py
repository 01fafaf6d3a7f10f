"""Who may open the player's own view (TOURNAMENTS.md §14.3): Mein Tag and
Meine Saison and the cup's season table, GET and POST, behind the board link and behind a link taken away,
for a visitor without an account (with her number on the phone and without),
a player whose account is linked to the register, one whose account is not,
an outsider and the organiser. The pages are the board's: public, ``no-cache``,
410 once the link is gone; a refused request keeps nothing on the phone and
writes nothing."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from ratings.models import RegisterLink
from tests.tournaments.circuit.test_player_view import NAMES, World, build
from tests.tournaments.circuit.test_services import snapshot
from tests.tournaments.table_support import in_english as in_english
from tests.worlds import built_once
from tournaments import public_urls
from tournaments.services import player_view, results

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english", "pdfs_not_drawn")]

ROLES = ("anonymous", "phone", "linked", "unlinked", "outsider", "organiser")
LINKS = ("board", "gone")
ADDRESSES = ("tournament_my_day", "tournament_my_season", "tournament_cup_season")
ANSWERS = {
    ("tournament_my_day", "get"): 200,
    ("tournament_my_day", "post"): 303,  # her number kept on the phone
    ("tournament_my_season", "get"): 200,
    ("tournament_my_season", "post"): 405,
    ("tournament_cup_season", "get"): 200,
    ("tournament_cup_season", "post"): 405,
}


def test_every_address_of_the_players_view_is_in_the_matrix():
    names = {
        pattern.name
        for pattern in public_urls.urlpatterns
        if getattr(pattern, "callback", None) and pattern.callback.__module__ == "tournaments.views.me"
    }
    assert names == set(ADDRESSES)


def build_scene() -> dict[str, Any]:
    user = User.objects.create_user("anna", password="a-long-test-password")
    world = build(user)
    accounts = {role: User.objects.create_user(role, password="a-long-test-password") for role in ROLES[2:5]}
    linked = player_view.entry_by_number(world.circuit, world.number_of(1))
    RegisterLink.objects.create(circuit_entry=linked, user=accounts["linked"])
    gone = world.token
    world.token = results.board_share(world.tournament)  # a new link: the old one answers 410
    return {"world": world, "gone": gone, "organiser": user, **accounts}


scene_once = built_once(build_scene)


@pytest.fixture
def scene(scene_once: dict[str, Any], db: Any, nothing_kept: None) -> dict[str, Any]:
    return copy.deepcopy(scene_once)


def client(scene: dict[str, Any], role: str) -> Client:
    world: World = scene["world"]
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    if role in ("phone", "unlinked"):
        browser.cookies[player_view.ME_COOKIE.format(circuit=world.circuit.pk)] = str(world.number_of(2))
    if role not in ("anonymous", "phone"):
        browser.force_login(scene[role])
    return browser


def _cases() -> list[tuple[str, str, str, str]]:
    return [
        (name, method, role, link)
        for name in ADDRESSES
        for method in ("get", "post")
        for role in ROLES
        for link in LINKS
    ]


@pytest.mark.parametrize(("name", "method", "role", "link"), _cases())
def test_access(scene, name, method, role, link):
    world: World = scene["world"]
    token = world.token if link == "board" else scene["gone"]
    url = reverse(name, args=[token])
    before = snapshot()
    answer = getattr(client(scene, role), method)(
        url, {"number": str(world.number_of(3))} if method == "post" else None
    )
    wanted = ANSWERS[(name, method)]
    if link == "gone" and wanted != 405:
        wanted = 410
    assert answer.status_code == wanted, answer.content[:300]
    if wanted != 405:
        assert "no-cache" in answer["Cache-Control"]
    if wanted != 303:
        assert player_view.ME_COOKIE.format(circuit=world.circuit.pk) not in answer.cookies
    assert snapshot() == before


def test_the_linked_account_is_found_without_a_number_on_the_phone(scene):
    world: World = scene["world"]
    html = client(scene, "linked").get(reverse("tournament_my_day", args=[world.token])).content.decode()
    assert "Found through your account's link to the register." in html
    assert f"{NAMES[0]} · Nr. {world.number_of(1)}" in html
    season = client(scene, "linked").get(reverse("tournament_my_season", args=[world.token]))
    assert f"Nr. {world.number_of(1)}" in season.content.decode()


@pytest.mark.parametrize("role", ("anonymous", "outsider", "organiser"))
def test_without_a_number_or_a_link_the_page_asks_for_the_number(scene, role):
    world: World = scene["world"]
    html = client(scene, role).get(reverse("tournament_my_day", args=[world.token])).content.decode()
    assert 'id="me-number-input"' in html and 'id="me-who"' not in html
    season = client(scene, role).get(reverse("tournament_my_season", args=[world.token])).content.decode()
    assert 'id="me-ask"' in season


def test_the_number_on_the_phone_comes_before_the_accounts_link(scene):
    world: World = scene["world"]
    browser = client(scene, "linked")
    browser.cookies[player_view.ME_COOKIE.format(circuit=world.circuit.pk)] = str(world.number_of(2))
    html = browser.get(reverse("tournament_my_day", args=[world.token])).content.decode()
    assert f"{NAMES[1]} · Nr. {world.number_of(2)}" in html
