"""Who may open the organiser's pages: every address of ``tournaments/urls.py``,
GET and POST, for the owner, a co-organiser, a player of the tournament who has
an account, a co-organiser the owner took off the tournament, a member who left
the group whose roster the tournament drew on, an outsider and a visitor without
one. A tournament or cup exists
only for those who run it (404 for anyone else); a refused request changes
nothing; every page drawn for an account is ``Cache-Control: private``."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from club.models import GroupPlayer, Membership
from club.services import groups
from tests.tournaments import factory
from tests.worlds import built_once
from tournaments import urls
from tournaments.models import (
    Cup,
    CupChange,
    CupPlayer,
    Entrant,
    Round,
    SideRanking,
    TableRound,
    TableSeat,
    Team,
    TeamMember,
    Tournament,
    TournamentChange,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pdfs_not_drawn")]

# Each address: how to fill it in, and whether it belongs to one tournament or cup
# (only its organisers see it) or to the account (every account has its own).
OWN = "own"  # the account's own list or form: open to every account
RUN = "run"  # one tournament's or cup's page: its organisers only
MATRIX: dict[str, tuple[str, Callable[[dict[str, Any]], list[Any]]]] = {
    "tournament_list": (OWN, lambda w: []),
    "tournament_new": (OWN, lambda w: ["koenigrufen"]),
    "tournament_import": (OWN, lambda w: []),
    "tournament_detail": (RUN, lambda w: [w["t"].pk]),
    "tournament_settings": (RUN, lambda w: [w["t"].pk]),
    "tournament_entrants": (RUN, lambda w: [w["t"].pk]),
    "tournament_draw": (RUN, lambda w: [w["t"].pk]),
    "tournament_release": (RUN, lambda w: [w["t"].pk]),
    "tournament_status": (RUN, lambda w: [w["t"].pk]),
    "tournament_clock": (RUN, lambda w: [w["t"].pk]),
    "tournament_board_link": (RUN, lambda w: [w["t"].pk]),
    "tournament_door": (RUN, lambda w: [w["t"].pk]),
    "tournament_door_poster": (RUN, lambda w: [w["t"].pk]),
    "tournament_by_number": (OWN, lambda w: [1]),
    "tournament_round": (RUN, lambda w: [w["t"].pk, 1]),
    "organiser_table": (RUN, lambda w: [w["t"].pk, w["table"].pk]),
    "tournament_prizes": (RUN, lambda w: [w["t"].pk]),
    "tournament_raffle": (RUN, lambda w: [w["t"].pk]),
    "tournament_sides": (RUN, lambda w: [w["t"].pk]),
    "tournament_teams": (RUN, lambda w: [w["t"].pk]),
    "tournament_print": (RUN, lambda w: [w["t"].pk, "plan"]),
    "tournament_card": (RUN, lambda w: [w["t"].pk, 1]),
    "tournament_export": (RUN, lambda w: [w["t"].pk]),
    "cup_list": (OWN, lambda w: []),
    "cup_detail": (RUN, lambda w: [w["cup"].pk]),
    "cup_pdf": (RUN, lambda w: [w["cup"].pk]),
    "cup_register": (RUN, lambda w: [w["cup"].pk]),
    "cup_settings": (RUN, lambda w: [w["cup"].pk]),
    "cup_sides": (RUN, lambda w: [w["cup"].pk]),
    "cup_honours": (RUN, lambda w: [w["cup"].pk]),
}
# A cup's register is merged and its settings changed by the cup's owner; its
# tournaments' co-organisers only read the register and never see the settings.
OWNER_ONLY = {
    ("cup_register", "post", "organiser"),
    ("cup_settings", "get", "organiser"),
    ("cup_settings", "post", "organiser"),
    ("cup_sides", "post", "organiser"),  # a cup's side rankings are its owner's to change
}
ROLES = ("owner", "organiser", "player", "former_organiser", "former_member", "outsider", "anonymous")
# Accounts that see none of one tournament's or cup's pages.
NOT_RUNNING = ("player", "former_organiser", "former_member", "outsider")
# What a refused POST must leave as it was: the organiser's data.
POSTED = {
    "action": "redraw",
    "round": "1",
    "name": "Neu",
    "reason": "x",
    "player": "1",
    "into": "2",
    "token": "t1",
    "kind": "home",
    "value": "Steyr",
}


def test_every_address_of_the_organisers_pages_is_in_the_matrix():
    assert {pattern.name for pattern in urls.urlpatterns} == set(MATRIX)


def build_world() -> dict[str, Any]:
    user = User.objects.create_user("anna", password="a-long-test-password")
    co = User.objects.create_user("co", password="a-long-test-password")
    hans = User.objects.create_user("hans", password="a-long-test-password")
    outsider = User.objects.create_user("outsider", password="a-long-test-password")
    former = User.objects.create_user("former", password="a-long-test-password")
    left = User.objects.create_user("left", password="a-long-test-password")
    group = groups.group_create(owner=user, name="Stammtisch")
    GroupPlayer.objects.create(group=group, name="Hans", user=hans)
    Membership.objects.create(group=group, user=left, role=Membership.Role.MEMBER)
    cup = factory.cup(user)
    t = factory.tournament(user, cup=cup, group=group, organisers=["co", "former"])
    factory.draw(t)
    factory.release(t)
    # The owner takes one co-organiser off the day; a member leaves the group.
    factory.settings_saved(t, user, organisers=["co"])
    groups.member_remove(group=group, user_id=left.pk)
    assert list(factory.fresh(t).organisers.values_list("username", flat=True)) == ["co"]
    table = TableRound.objects.filter(round__tournament=t).order_by("round__number", "number").first()
    assert Entrant.objects.get(tournament=t, name="Hans").roster.user == hans
    return {
        "t": t,
        "cup": cup,
        "table": table,
        "owner": user,
        "organiser": co,
        "player": hans,
        "former_organiser": former,
        "former_member": left,
        "outsider": outsider,
    }


world_once = built_once(build_world)


@pytest.fixture
def world(world_once: dict[str, Any], db: Any, nothing_kept: None) -> dict[str, Any]:
    return copy.deepcopy(world_once)


def client(world: dict[str, Any], role: str) -> Client:
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    if role != "anonymous":
        browser.force_login(world[role])
    return browser


def snapshot() -> list[Any]:
    models = (
        Tournament,
        Entrant,
        Round,
        TableRound,
        TableSeat,
        TournamentChange,
        Cup,
        CupPlayer,
        CupChange,
        SideRanking,
        Team,
        TeamMember,
    )
    return [
        sorted(model.objects.values_list(*[f.attname for f in model._meta.concrete_fields]))
        for model in models
    ]


def _cases() -> list[tuple[str, str, str]]:
    return [(name, method, role) for name in MATRIX for method in ("get", "post") for role in ROLES]


@pytest.mark.parametrize(("name", "method", "role"), _cases())
def test_access(world, name, method, role):
    kind, args = MATRIX[name]
    url = reverse(name, args=args(world))
    before = snapshot()
    answer = getattr(client(world, role), method)(url, POSTED if method == "post" else None)
    status = answer.status_code
    if role == "anonymous":
        assert status == 302 and answer["Location"].startswith(reverse("login"))
        assert snapshot() == before
        return
    assert "private" in answer.get("Cache-Control", "")
    if (kind == RUN and role in NOT_RUNNING) or (name, method, role) in OWNER_ONLY:
        assert status in (404, 405)
        assert snapshot() == before
    elif status == 405:
        assert snapshot() == before
    else:
        assert status in (200, 204, 302, 400)


GARBAGE = [
    {},
    {"action": "desk", "sum_1": "1e999", "sum_5": "NaN"},
    {"action": "swap", "first": "-1", "second": "99999999999999999999"},
    {"action": "move", "number": "abc", "table": ""},
    {"action": "seat", "number": "1", "table": "1", "instead_of": "x"},
    {"action": "withdraw", "number": "1", "after_round": "77"},
    {"action": "roster", "names": ["", "\x00"]},
    {"action": "add", "name": "A" * 500, "place": "\u202e"},
    {"action": "edit", "number": "1", "name": "", "place": ""},
    {"action": "reopen", "reason": ""},
    {"action": "redraw", "round": "0", "seed": "12ab56"},
    {"seed": "9999999", "rounds": "1000", "hands_at_four": "-1", "money_rate": "x", "name": ""},
    {"player": "1", "into": "1"},
    {"action": "save", "name": "X", "members": ["abc", "-1", "99999999999999999999"], "team": "x"},
    {"action": "settings", "kind": "pairs", "team_best": "1e9", "prizes": "\x00"},
    {"action": "remove", "team": "-3"},
]


@pytest.mark.parametrize("data", GARBAGE)
def test_bad_input_to_any_page_is_refused_without_an_error(world, data):
    browser = client(world, "owner")
    for name, (_kind, args) in MATRIX.items():
        answer = browser.post(reverse(name, args=args(world)), data)
        assert answer.status_code < 500, (name, data)
