"""Every address of ``tournaments.public_urls``, GET and POST, for every kind of
visitor of a link: the status, and on refusal that nothing changed. A table link
opens its own table-round and nothing else."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, reverse

from scoring import services as scoring
from scoring.models import Hand, Seat, Session
from tests.tournaments.table_support import claimed_phone, phone, rufer, tournament_day
from tests.tournaments.table_support import in_english as in_english
from tests.worlds import built_once
from tournaments import public_urls
from tournaments.models import RoundResult, TableRound, Tournament, TournamentChange
from tournaments.services import results, tables

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english", "pdfs_not_drawn")]

# (URL name, what its arguments are); "token" is the visitor's link, "hand" table 1's hand.
URLS: dict[str, tuple[str, ...]] = {
    "tournament_table_code": (),
    "tournament_table": ("token",),
    "tournament_table_hand_new": ("token",),
    "tournament_table_hand_preview": ("token",),
    "tournament_table_hand": ("token", "hand"),
    "tournament_table_hand_edit": ("token", "hand"),
    "tournament_table_hand_edit_preview": ("token", "hand"),
    "tournament_table_hand_delete": ("token", "hand"),
    "tournament_table_hand_restore": ("token", "hand"),
    "tournament_table_seats": ("token",),
    "tournament_table_handover": ("token",),
    "tournament_table_signoff": ("token",),
    "tournament_board": ("board",),
    "tournament_player_card": ("board", "number"),
    "tournament_screen": ("screen",),
    "tournament_my_day": ("board",),
    "tournament_my_season": ("board",),
    "tournament_cup_season": ("board",),
    "tournament_board_teams": ("board",),
}
GET_ONLY = {
    "tournament_table",
    "tournament_table_hand",
    "tournament_board",
    "tournament_player_card",
    "tournament_screen",
    "tournament_my_season",
    "tournament_cup_season",
    "tournament_board_teams",
}
# Pages of no link: whoever asks gets them, the code page says a code is missing.
NO_LINK = {"tournament_table_code"}
# The hall screen never reads who is logged in (it shows nobody's own data): not private.
READS_NO_ACCOUNT = {"tournament_screen"}
POST_ONLY = {
    "tournament_table_hand_preview",
    "tournament_table_hand_edit_preview",
    "tournament_table_hand_delete",
    "tournament_table_hand_restore",
    "tournament_table_seats",
    "tournament_table_handover",
}

# What each visitor gets where the method is allowed: GET, POST.
WATCHER = {
    "tournament_table_code": (200, 400),
    "tournament_table": (200, None),
    "tournament_table_hand_new": (403, 403),
    "tournament_table_hand_preview": (None, 403),
    "tournament_table_hand": (200, None),
    "tournament_table_hand_edit": (403, 403),
    "tournament_table_hand_edit_preview": (None, 403),
    "tournament_table_hand_delete": (None, 403),
    "tournament_table_hand_restore": (None, 403),
    "tournament_table_seats": (None, 403),
    "tournament_table_handover": (None, 403),
    "tournament_table_signoff": (200, 400),
    "tournament_board": (200, None),
    "tournament_player_card": (200, None),
    "tournament_screen": (200, None),
    # The player's own view (§14.3): this day is in no circuit, so a number is refused.
    "tournament_my_day": (200, 400),
    "tournament_my_season": (200, None),
    "tournament_cup_season": (200, None),
    # The board's Teams tab (§14.6): public through the board's link, like the board.
    "tournament_board_teams": (200, None),
}
EXPECTED: dict[str, dict[str, tuple[int | None, int | None]]] = {
    "claimer": {
        **WATCHER,
        "tournament_table_hand_new": (200, 200),  # the empty form shown again, nothing saved
        "tournament_table_hand_preview": (None, 200),
        "tournament_table_hand_edit": (200, 200),  # the empty form shown again with what is missing
        "tournament_table_hand_edit_preview": (None, 200),
        "tournament_table_hand_delete": (None, 302),
        "tournament_table_hand_restore": (None, 302),
        "tournament_table_seats": (None, 302),  # refused with a message: the table has hands
    },
    "second_phone": WATCHER,
    "player_account": WATCHER,
    "organiser": WATCHER,
    "other_table": {
        **WATCHER,
        "tournament_table_hand_new": (200, 200),  # its own table's form
        "tournament_table_hand_preview": (None, 200),
        "tournament_table_hand": (404, None),
        "tournament_table_hand_edit": (404, 404),
        "tournament_table_hand_edit_preview": (None, 404),
        "tournament_table_hand_delete": (None, 404),
        "tournament_table_hand_restore": (None, 404),
        "tournament_table_seats": (None, 302),
    },
    "signed": {**WATCHER},
    "revoked": {name: WATCHER[name] if name in NO_LINK else (410, 410) for name in URLS},
    "outsider": {name: WATCHER[name] if name in NO_LINK else (410, 410) for name in URLS},
    "anonymous": {name: WATCHER[name] if name in NO_LINK else (410, 410) for name in URLS},
}
CHANGES_ALLOWED = {("claimer", "tournament_table_hand_delete", "POST")}


@dataclass
class Visit:
    client: Client
    token: str
    board: str
    hand: int
    number: int
    screen: str


def snapshot() -> dict[str, Any]:
    return {
        "hands": list(Hand.objects.order_by("id").values_list("id", "version", "deleted_at", "device")),
        "tables": list(
            TableRound.objects.order_by("id").values_list(
                "id", "status", "claim_digest", "handover_digest", "first_dealer", "scorer_name", "link_token"
            )
        ),
        "sessions": list(Session.objects.order_by("id").values_list("id", "version", "closed_at", "name")),
        "seats": list(Seat.objects.order_by("id").values_list("id", "position", "name")),
        "results": list(RoundResult.objects.order_by("id").values_list("id", "points", "counted")),
        "changes": TournamentChange.objects.count(),
        "tournaments": list(Tournament.objects.values_list("id", "version", "board_token", "screen_token")),
    }


@dataclass
class World:
    """Two tables of a released round, a hand at each, each table claimed by a phone
    (its cookie kept here), the board shared: built once for the module."""

    owner: User
    stranger: User
    player: User
    day: Any
    cookies: dict[str, str]
    hand: int
    board: str
    screen: str


def build_world() -> World:
    owner = User.objects.create_user("anna", password="a-long-test-password")
    stranger = User.objects.create_user("mallory", password="another-test-password")
    player = User.objects.create_user("player", password="a-long-test-password")
    day = tournament_day(owner, tables_count=2, hands=4)
    first, second = day.table(1), day.table(2)
    cookies = {
        "claimer": claimed_phone(first).cookies[tables.PHONE_COOKIE].value,
        "other_table": claimed_phone(second).cookies[tables.PHONE_COOKIE].value,
    }
    hand = scoring.hand_record(session=tables.open_table(first), raw=rufer("Anna", "Bernd", "Anna"))
    scoring.hand_record(session=tables.open_table(second), raw=rufer("Erika", "Franz", "Erika"))
    board = results.board_share(day.tournament)
    screen = Tournament.objects.get(pk=day.tournament.pk).screen_token or ""
    return World(owner, stranger, player, day, cookies, hand.pk, board, screen)


world_once = built_once(build_world)


@pytest.fixture
def world(world_once: World, db: Any, nothing_kept: None) -> World:
    return copy.deepcopy(world_once)


def holding(cookie: str) -> Client:
    client = phone()
    client.cookies[tables.PHONE_COOKIE] = cookie
    return client


def visit(role: str, world: World) -> Visit:
    day, owner = world.day, world.owner
    first, second = day.table(1), day.table(2)
    board, screen = world.board, world.screen
    token = first.link_token
    client = phone()
    if role == "claimer":
        client = holding(world.cookies["claimer"])
    elif role == "other_table":
        client, token = holding(world.cookies["other_table"]), second.link_token
    elif role == "signed":
        client = holding(world.cookies["claimer"])
        tables.sign_off(first, user=owner, scorer="Organiser", checker="Bernd")
    elif role == "revoked":
        client = holding(world.cookies["claimer"])
        TableRound.objects.filter(pk=first.pk).update(link_token="reissued-" + token[:20])
        results.board_unshare(Tournament.objects.get(pk=day.tournament.pk))
    elif role == "player_account":
        client.force_login(world.player)
    elif role == "organiser":
        client.force_login(owner)
    elif role in ("outsider", "anonymous"):
        if role == "outsider":
            client.force_login(world.stranger)
        token, board, screen = (
            "made-up-link-0123456789",
            "made-up-board-0123456789",
            "made-up-screen-0123456789",
        )
    return Visit(client, token, board, world.hand, day.entrants[0].number, screen)


def address(name: str, v: Visit) -> str:
    values = {"token": v.token, "hand": v.hand, "board": v.board, "number": v.number, "screen": v.screen}
    return reverse(name, args=[values[arg] for arg in URLS[name]])


CASES = [(role, name, method) for role in EXPECTED for name in URLS for method in ("GET", "POST")]


@pytest.mark.parametrize(("role", "name", "method"), CASES)
def test_every_link_address_for_every_visitor(role, name, method, world):
    v = visit(role, world)
    before = snapshot()
    allowed = {"GET": name not in POST_ONLY, "POST": name not in GET_ONLY}[method]
    response = v.client.get(address(name, v)) if method == "GET" else v.client.post(address(name, v), {})
    get, post = EXPECTED[role][name]
    expected = (get if method == "GET" else post) if allowed else 405
    if role in ("revoked", "outsider", "anonymous") and allowed and name not in NO_LINK:
        expected = 410
    assert response.status_code == expected, (role, name, method, response.content[:300])
    if (role, name, method) not in CHANGES_ALLOWED:
        assert snapshot() == before
    if role in ("player_account", "organiser", "outsider") and response.status_code == 200:
        assert "private" in response["Cache-Control"] or name in READS_NO_ACCOUNT
    if allowed and response.status_code != 404:  # every answer of a link's page or poll, refusals too
        assert "no-cache" in response["Cache-Control"], (role, name, method)


# The registration link's pages (§14.2) have their own matrix, with players who
# have a PIN and who have none: ``tests/tournaments/circuit/test_door_pages.py``.
DOOR_URLS = {"tournament_door_page", "tournament_door_card"}


def test_every_address_of_the_links_is_in_the_matrix():
    named = {p.name for p in public_urls.urlpatterns if isinstance(p, URLPattern)}
    assert named == set(URLS) | DOOR_URLS
    assert all(set(EXPECTED[role]) == set(URLS) for role in EXPECTED)


def test_a_table_link_opens_its_own_hands_and_no_others(world):
    """Beside the module's world (its hands are other tables' too)."""
    user = world.owner
    day = tournament_day(user, tables_count=3, hands=4, name="Zweiter Cupabend")
    own: list[int] = []
    for number in (1, 2, 3):
        table = day.table(number)
        session = tables.open_table(table)
        for dealer in ("Anna", "Bernd") if number == 1 else ():
            own.append(scoring.hand_record(session=session, raw=rufer("Anna", "Bernd", dealer)).pk)
        if number != 1:
            names = tables.players(table)
            scoring.hand_record(session=session, raw=rufer(names[0], names[1], names[0]))
    scoring.hand_record(
        session=scoring.session_create(
            owner=user,
            name="Evening",
            variant="koenigrufen",
            players=["Anna", "Bernd", "Christa", "Dieter"],
            options={},
        ),
        raw=rufer("Anna", "Bernd", "Anna"),
    )
    client = claimed_phone(day.table(1))
    token = day.table(1).link_token
    for hand_id in Hand.objects.values_list("id", flat=True):
        expected = 200 if hand_id in own else 404
        assert client.get(reverse("tournament_table_hand", args=[token, hand_id])).status_code == expected
        edit = client.get(reverse("tournament_table_hand_edit", args=[token, hand_id]))
        assert edit.status_code == expected
    before = snapshot()
    for hand_id in Hand.objects.exclude(id__in=own).values_list("id", flat=True):
        assert client.post(reverse("tournament_table_hand_delete", args=[token, hand_id])).status_code == 404
    assert snapshot() == before
