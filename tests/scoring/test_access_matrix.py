"""Who may do what, for every URL that names an evening, a hand or a group: one
row per URL and method, one column per role, the answer expected in each cell.

The world: a group owned by Olga with Mona as a member; Rita was a member,
started the evening "Dienstag" in the group and was then taken out of it; Eddi
is named an editor of that evening without being a member; Otto has nothing to
do with any of it. A refused request answers 404 (what you may not see does not
exist for you; 405 where the method is never taken) and changes nothing; an
anonymous visitor is sent to log in; the share link shows the board read-only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, reverse
from django.utils import timezone

from club.models import (
    Booking,
    BookingLine,
    Group,
    GroupPlayer,
    GroupSession,
    Invitation,
    Membership,
    RosterSeat,
    Season,
)
from club.services import groups, kasse
from scoring import services
from scoring.models import Hand, Seat, Session, SessionChange
from tests.club.regular_table import evening
from tests.layout import app_patterns as every_app_pattern

pytestmark = pytest.mark.usefixtures("pdfs_not_drawn")

HAND = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
ROLES = ("owner", "member", "removed", "editor", "outsider", "anonymous")
LOGIN = "login"  # sent to the login page
PUBLIC = {"shared_board", "shared_hand"}  # no login asked: an answer reading no account is nobody's
G, P = "GET", "POST"

# fmt: off
# url name               method owner member removed editor outsider anonymous
ROWS: list[tuple[Any, ...]] = [
    # the evening and its hands: rights from the group; Rita reads what she started
    ("scoreboard",            G, 200, 200, 200, 200, 404, LOGIN),
    ("scoreboard",            P, 405, 405, 405, 405, 405, LOGIN),
    ("settlement",            G, 200, 200, 200, 200, 404, LOGIN),
    ("settlement",            P, 405, 405, 405, 405, 405, LOGIN),
    ("session_print",         G, 200, 200, 200, 200, 404, LOGIN),
    ("session_print",         P, 405, 405, 405, 405, 405, LOGIN),
    ("session_export",        G, 200, 200, 200, 200, 404, LOGIN),
    ("session_export",        P, 405, 405, 405, 405, 405, LOGIN),
    ("hand_detail",           G, 200, 200, 200, 200, 404, LOGIN),
    ("hand_detail",           P, 405, 405, 405, 405, 405, LOGIN),
    ("hand_new",              G, 200, 200, 404, 200, 404, LOGIN),
    ("hand_new",              P, 302, 302, 404, 302, 404, LOGIN),
    ("hand_preview",          G, 405, 405, 405, 405, 405, LOGIN),
    ("hand_preview",          P, 200, 200, 404, 200, 404, LOGIN),
    ("hand_edit",             G, 200, 200, 404, 200, 404, LOGIN),
    ("hand_edit",             P, 302, 302, 404, 302, 404, LOGIN),
    ("hand_edit_preview",     G, 405, 405, 405, 405, 405, LOGIN),
    ("hand_edit_preview",     P, 200, 200, 404, 200, 404, LOGIN),
    ("hand_delete",           G, 405, 405, 405, 405, 405, LOGIN),
    ("hand_delete",           P, 302, 302, 404, 302, 404, LOGIN),
    ("hand_restore",          G, 405, 405, 405, 405, 405, LOGIN),
    ("hand_restore",          P, 302, 302, 404, 302, 404, LOGIN),
    # the evening's owner is the group's owner
    ("sharing",               G, 200, 404, 404, 404, 404, LOGIN),
    ("sharing",               P, 302, 404, 404, 404, 404, LOGIN),
    ("session_settings",      G, 200, 404, 404, 404, 404, LOGIN),
    ("session_settings",      P, 302, 404, 404, 404, 404, LOGIN),
    ("session_player",        G, 405, 405, 405, 405, 405, LOGIN),
    ("session_player",        P, 302, 404, 404, 404, 404, LOGIN),
    ("session_rules",         G, 200, 404, 404, 404, 404, LOGIN),
    ("session_rules",         P, 302, 404, 404, 404, 404, LOGIN),
    ("session_close",         G, 405, 405, 405, 405, 405, LOGIN),
    ("session_close",         P, 302, 404, 404, 404, 404, LOGIN),
    ("session_reopen",        G, 405, 405, 405, 405, 405, LOGIN),
    ("session_reopen",        P, 302, 404, 404, 404, 404, LOGIN),
    ("session_delete",        G, 200, 404, 404, 404, 404, LOGIN),
    ("session_delete",        P, 302, 404, 404, 404, 404, LOGIN),
    ("session_restore",       G, 405, 405, 405, 405, 405, LOGIN),
    ("session_restore",       P, 302, 404, 404, 404, 404, LOGIN),
    # the share link: the board read-only for whoever has it, logged in or not
    ("shared_board",          G, 200, 200, 200, 200, 200, 200),
    ("shared_board",          P, 405, 405, 405, 405, 405, 405),
    ("shared_hand",           G, 200, 200, 200, 200, 200, 200),
    ("shared_hand",           P, 405, 405, 405, 405, 405, 405),
    # the group: its members, and its owner alone for what manages it; Rita is out
    ("group_detail",          G, 200, 200, 404, 404, 404, LOGIN),
    ("group_detail",          P, 405, 405, 405, 405, 405, LOGIN),
    ("group_roster",          G, 405, 405, 405, 405, 405, LOGIN),
    ("group_roster",          P, 302, 302, 404, 404, 404, LOGIN),
    ("group_members",         G, 405, 405, 405, 405, 405, LOGIN),
    ("group_members",         P, 302, 404, 404, 404, 404, LOGIN),
    ("group_settings",        G, 200, 404, 404, 404, 404, LOGIN),
    ("group_settings",        P, 302, 404, 404, 404, 404, LOGIN),
    ("group_rules",           G, 200, 404, 404, 404, 404, LOGIN),
    ("group_rules",           P, 302, 404, 404, 404, 404, LOGIN),
    ("group_invitations",     G, 200, 404, 404, 404, 404, LOGIN),
    ("group_invitations",     P, 302, 404, 404, 404, 404, LOGIN),
    ("group_evening_game",    G, 200, 200, 404, 404, 404, LOGIN),
    ("group_evening_game",    P, 405, 405, 405, 405, 405, LOGIN),
    ("group_evening_new",     G, 200, 200, 404, 404, 404, LOGIN),
    ("group_evening_new",     P, 302, 302, 404, 404, 404, LOGIN),
    ("group_evening_add",     G, 405, 405, 405, 405, 405, LOGIN),
    ("group_evening_add",     P, 302, 404, 404, 404, 404, LOGIN),  # Olga's own session: hers to bring
    ("group_evening_close",   G, 405, 405, 405, 405, 405, LOGIN),
    ("group_evening_close",   P, 302, 302, 404, 404, 404, LOGIN),
    ("group_evening_reopen",  G, 405, 405, 405, 405, 405, LOGIN),
    ("group_evening_reopen",  P, 302, 404, 404, 404, 404, LOGIN),
    ("group_player",          G, 200, 200, 404, 404, 404, LOGIN),
    ("group_player",          P, 405, 405, 405, 405, 405, LOGIN),
    ("group_player_pdf",      G, 200, 200, 404, 404, 404, LOGIN),
    ("group_player_pdf",      P, 405, 405, 405, 405, 405, LOGIN),
    ("season_table",          G, 200, 200, 404, 404, 404, LOGIN),
    ("season_table",          P, 405, 405, 405, 405, 405, LOGIN),
    ("group_ratings",         G, 200, 200, 404, 404, 404, LOGIN),
    ("group_ratings",         P, 405, 405, 405, 405, 405, LOGIN),
    ("season_pdf",            G, 200, 200, 404, 404, 404, LOGIN),
    ("season_pdf",            P, 405, 405, 405, 405, 405, LOGIN),
    ("season_new",            G, 405, 405, 405, 405, 405, LOGIN),
    ("season_new",            P, 302, 404, 404, 404, 404, LOGIN),
    ("group_kasse",           G, 200, 200, 404, 404, 404, LOGIN),
    ("group_kasse",           P, 302, 302, 404, 404, 404, LOGIN),
    ("kasse_csv",             G, 200, 200, 404, 404, 404, LOGIN),
    ("kasse_csv",             P, 405, 405, 405, 405, 405, LOGIN),
    ("kasse_reverse",         G, 405, 405, 405, 405, 405, LOGIN),
    ("kasse_reverse",         P, 302, 302, 404, 404, 404, LOGIN),
]
# fmt: on
MATRIX: list[tuple[str, str, str, int | str]] = [
    (name, method, role, expected)
    for name, method, *cells in ROWS
    for role, expected in zip(ROLES, cells, strict=True)
]


@dataclass
class World:
    users: dict[str, User]
    group: Group
    evening: Session  # started by Rita, who was then taken out of the group
    hand: Hand
    deleted_hand: Hand
    deleted_evening: Session  # the group's, deleted by Olga
    alone: Session  # Olga's own, in no group
    anna: GroupPlayer
    payment: Booking
    invitation: Invitation


def make_world() -> World:
    users = {
        role: User.objects.create_user(name, password="x-long-test-password")
        for role, name in [
            ("owner", "olga"),
            ("member", "mona"),
            ("removed", "rita"),
            ("editor", "eddi"),
            ("outsider", "otto"),
        ]
    }
    group = groups.group_create(owner=users["owner"], name="Dienstagsrunde", money_rate=Decimal("0.05"))
    for role in ("member", "removed"):
        Membership.objects.create(group=group, user=users[role])
    session, (hand, gone) = evening(group, users["removed"], [HAND, HAND], money_rate=Decimal("0.05"))
    services.hand_delete(hand=gone, user=users["removed"])
    session.editors.add(users["editor"])
    services.session_share(session=session)
    deleted, _ = evening(group, users["removed"], [HAND], name="Mittwoch")
    services.session_delete(session=deleted, user=users["owner"])
    groups.member_remove(group=group, user_id=users["removed"].pk)
    alone = services.session_create(
        owner=users["owner"],
        name="Allein",
        variant="french",
        players=["Anna", "Bert", "Carl", "Dora"],
        options={},
    )
    anna = group.roster.get(name="Anna")
    payment = kasse.payment_record(
        group=group, payer=anna, payee=None, amount=Decimal(1), user=users["owner"]
    )
    invitation = groups.invitation_create(group=group, user=users["owner"])
    return World(
        users=users,
        group=group,
        evening=Session.objects.get(pk=session.pk),
        hand=hand,
        deleted_hand=gone,
        deleted_evening=deleted,
        alone=alone,
        anna=anna,
        payment=payment,
        invitation=invitation,
    )


def url_of(name: str, world: World) -> str:
    """The URL of ``name`` about the world's evening, hand, group, player, payment."""
    pk = world.deleted_evening.pk if name == "session_restore" else world.evening.pk
    hand = world.deleted_hand.pk if name == "hand_restore" else world.hand.pk
    values: dict[str, Any] = {
        "pk": pk,
        "hand_id": hand,
        "gid": world.group.pk,
        "pid": world.anna.pk,
        "bid": world.payment.pk,
        "variant": "french",
        "kind": "csv",
        "season": str(timezone.localdate().year),
        "token": world.evening.share_token,
    }
    [pattern] = [p for p in patterns_of(name) if "<str:season>" in str(p.pattern) or name != "season_table"]
    return reverse(name, kwargs={key: values[key] for key in pattern.pattern.converters})


def patterns_of(name: str) -> list[URLPattern]:
    return [pattern for pattern in app_patterns() if pattern.name == name]


def app_patterns() -> list[URLPattern]:
    return every_app_pattern()


def posted(name: str, world: World) -> dict[str, Any]:
    """What a form of that page would send: enough that an allowed request does its work."""
    users, anna = world.users, world.anna
    today = timezone.localdate().isoformat()
    hand = {k: str(v) for k, v in HAND.items()}
    return {
        "sharing": {"action": "add_editor", "username": "otto"},
        "session_settings": {"name": "Mine now", "played_on": today, "money_rate": "9999"},
        "session_player": {"player": "Anna", "name": "Zora"},
        "session_rules": {"options.round_to": "10"},
        "hand_new": {"token": "matrix-1", "action": "save", **hand},
        "hand_preview": hand,
        "hand_edit": {"token": "1", "action": "save", **hand, "taker": "Bert"},
        "hand_edit_preview": {**hand, "taker": "Bert"},
        "hand_delete": {"version": "1"},
        "group_roster": {"name": "Zeno"},
        "group_members": {"user": str(users["member"].pk)},
        "group_settings": {"name": "Mine now", "money_rate": "9999", "min_hands": "3"},
        "group_rules": {"options.round_to": "10"},
        "group_invitations": {"action": "invite", "days": "7", "max_uses": "5"},
        "group_evening_new": {"name": "Neu", "seat_1": "Anna", "seat_2": "Bert", "seat_3": "Carl"},
        "group_evening_add": {"session": str(world.alone.pk)},
        "season_new": {"name": "Fasching", "starts_on": today, "ends_on": today},
        "group_kasse": {"payer": str(anna.pk), "payee": "box", "amount": "4", "note": ""},
        "kasse_reverse": {"note": ""},
    }.get(name, {})


def snapshot() -> dict[str, list[tuple[Any, ...]]]:
    """Everything a request could change: evenings, hands, seats, editors, the
    group, its members, roster, invitations, seasons and Kasse."""
    return {
        "sessions": list(
            Session.objects.order_by("pk").values_list(
                "pk",
                "version",
                "name",
                "played_on",
                "money_rate",
                "options",
                "closed_at",
                "deleted_at",
                "share_token",
            )
        ),
        "group_sessions": list(GroupSession.objects.order_by("pk").values_list("session_id", "group_id")),
        "roster_seats": list(RosterSeat.objects.order_by("pk").values_list("seat_id", "player_id")),
        "hands": list(Hand.objects.order_by("pk").values_list("pk", "version", "deleted_at", "inputs")),
        "seats": list(Seat.objects.order_by("pk").values_list("pk", "name", "session_id")),
        "editors": list(Session.editors.through.objects.order_by("pk").values_list("session_id", "user_id")),
        "changes": list(SessionChange.objects.order_by("pk").values_list("pk")),
        "groups": list(
            Group.objects.order_by("pk").values_list("pk", "name", "money_rate", "presets", "version")
        ),
        "members": list(Membership.objects.order_by("pk").values_list("group_id", "user_id", "role")),
        "roster": list(GroupPlayer.objects.order_by("pk").values_list("pk", "name", "user_id")),
        "invitations": list(Invitation.objects.order_by("pk").values_list("pk", "revoked_at")),
        "seasons": list(Season.objects.order_by("pk").values_list("pk")),
        "bookings": list(Booking.objects.order_by("pk").values_list("pk", "kind")),
        "lines": list(BookingLine.objects.order_by("pk").values_list("pk", "amount")),
    }


@pytest.fixture
def world(db: Any) -> World:
    return make_world()


def client_of(role: str, world: World) -> Client:
    client = Client()
    if role != "anonymous":
        client.force_login(world.users[role])
    return client


def sweep(role: str, world: World) -> list[str]:
    """Every cell of the role's column, each request undone after it is checked
    (a savepoint), so that each starts from the same world. What went otherwise."""
    client = client_of(role, world)
    wrong = []
    for name, method, cell_role, expected in MATRIX:
        if cell_role != role:
            continue
        url = url_of(name, world)
        before = snapshot()
        with transaction.atomic():
            point = transaction.savepoint()
            response = client.get(url) if method == G else client.post(url, posted(name, world))
            after = snapshot()
            transaction.savepoint_rollback(point)
        cache.clear()  # pages kept for versions the rollback took back
        cell = f"{method} {name} as {role}"
        if expected == LOGIN:
            if response.status_code != 302 or not response["Location"].startswith("/accounts/login/"):
                wrong.append(f"{cell}: {response.status_code}, not sent to log in")
        elif response.status_code != expected:
            wrong.append(f"{cell}: {response.status_code}, expected {expected}")
        refused = expected in (404, 405, LOGIN)
        if refused and after != before:
            changed = [key for key in before if before[key] != after[key]]
            wrong.append(f"{cell}: refused but changed {changed}")
        if refused and b"Dienstag" in response.content and expected != LOGIN:
            wrong.append(f"{cell}: refused but named the evening or the group")
        private = "private" in response.get("Cache-Control", "")
        if role != "anonymous" and name not in PUBLIC and not private:
            wrong.append(f"{cell}: drawn for an account without Cache-Control: private")
        if role == "anonymous" and private:
            wrong.append(f"{cell}: a public answer marked private")
    return wrong


@pytest.mark.parametrize("role", ROLES)
def test_every_cell_of_the_matrix(world, role):
    wrong = sweep(role, world)
    assert not wrong, "\n".join(wrong)


def test_the_matrix_names_every_url_that_takes_an_evening_a_hand_or_a_group():
    ids = ("<id:pk>", "<id:hand_id>", "<id:gid>", "<str:token>")
    taking_ids = {str(p.name) for p in app_patterns() if any(part in str(p.pattern) for part in ids)} - {
        "join",
        "join_signup",
    }  # an invitation's token, not an evening's
    in_matrix = {(name, method) for name, method, *_ in ROWS}
    missing = {(name, method) for name in taking_ids for method in (G, P)} - in_matrix
    assert taking_ids and missing == set()
    assert len(MATRIX) == len(ROWS) * len(ROLES) and len(set(in_matrix)) == len(ROWS)


# -- the finding, as it happened ------------------------------------------------------------


@pytest.fixture
def closed_world(world: World) -> World:
    """Rita's evening closed by the group's owner with a money rate: booked into the Kasse."""
    services.session_close(session=world.evening, user=world.users["owner"])
    world.evening.refresh_from_db()
    return world


def test_a_removed_member_can_no_longer_change_the_evening_she_started(closed_world):
    world = closed_world
    rita, pk = client_of("removed", world), world.evening.pk
    before = snapshot()
    balances = dict(kasse_balances(world.group))
    today = timezone.localdate().isoformat()
    attempts = [
        (reverse("session_reopen", args=[pk]), {}),
        (reverse("group_evening_reopen", args=[world.group.pk, pk]), {}),
        (reverse("session_settings", args=[pk]), {"name": "Rita", "played_on": today, "money_rate": "9999"}),
        (reverse("session_player", args=[pk]), {"player": "Anna", "name": "Zora"}),
        (
            reverse("hand_new", args=[pk]),
            {"token": "t-1", "action": "save", **{k: str(v) for k, v in HAND.items()}},
        ),
        (reverse("session_close", args=[pk]), {}),
        (reverse("group_evening_close", args=[world.group.pk, pk]), {}),
        (reverse("sharing", args=[pk]), {"action": "add_editor", "username": "otto"}),
        (reverse("session_delete", args=[pk]), {}),
    ]
    for url, data in attempts:
        assert rita.post(url, data).status_code == 404, url
    assert snapshot() == before
    assert (
        dict(kasse_balances(world.group)) == balances and not GroupPlayer.objects.filter(name="Zora").exists()
    )


def test_the_groups_owner_puts_the_evening_right_and_deletes_it(closed_world):
    world = closed_world
    olga, pk = client_of("owner", world), world.evening.pk
    assert olga.get(reverse("session_settings", args=[pk])).status_code == 200
    assert olga.post(reverse("session_reopen", args=[pk])).status_code == 302
    today = timezone.localdate().isoformat()
    data = {"name": "Dienstag", "played_on": today, "money_rate": "0.10"}
    assert olga.post(reverse("session_settings", args=[pk]), data).status_code == 302
    assert Session.objects.get(pk=pk).money_rate == Decimal("0.1")
    assert olga.get(reverse("session_delete", args=[pk])).status_code == 200
    assert olga.post(reverse("session_delete", args=[pk])).status_code == 302
    assert Session.objects.get(pk=pk).deleted_at is not None
    listed = olga.get(reverse("session_list")).content.decode()
    assert f'id="deleted-session-{pk}"' in listed  # the group's owner restores it
    assert olga.post(reverse("session_restore", args=[pk])).status_code == 302


def test_a_removed_member_still_reads_the_evening_she_started_without_a_button_to_change_it(closed_world):
    world = closed_world
    Session.objects.filter(pk=world.evening.pk).update(
        closed_at=None
    )  # open: the sheet would offer a new hand
    rita, pk = client_of("removed", world), world.evening.pk
    sheet = rita.get(reverse("scoreboard", args=[pk])).content.decode()
    assert "Dienstag" in sheet and 'id="board"' in sheet and 'id="read-only"' in sheet
    for control in (
        'id="new-hand"',
        'id="settings"',
        reverse("sharing", args=[pk]),
        "hand_restore",
        "/restore/",
    ):
        assert control not in sheet, control
    hand = rita.get(reverse("hand_detail", args=[pk, world.hand.pk])).content.decode()
    assert reverse("hand_edit", args=[pk, world.hand.pk]) not in hand
    assert reverse("hand_delete", args=[pk, world.hand.pk]) not in hand
    gone = rita.get(reverse("hand_detail", args=[pk, world.deleted_hand.pk])).content.decode()
    assert 'id="deleted-notice"' in gone and 'id="restore"' not in gone
    member_sheet = client_of("member", world).get(reverse("scoreboard", args=[pk])).content.decode()
    assert 'id="new-hand"' in member_sheet and 'id="settings"' not in member_sheet
    assert 'id="read-only"' not in member_sheet
    restore = reverse("hand_restore", args=[pk, world.deleted_hand.pk])
    assert restore in member_sheet  # the deleted hand struck through, restorable
    owner_sheet = client_of("owner", world).get(reverse("scoreboard", args=[pk])).content.decode()
    assert 'id="new-hand"' in owner_sheet and 'id="settings"' in owner_sheet


def test_only_the_groups_owner_is_offered_to_reopen_a_closed_evening(closed_world):
    world = closed_world
    reopen = reverse("group_evening_reopen", args=[world.group.pk, world.evening.pk])
    page = reverse("group_detail", args=[world.group.pk])
    assert reopen in client_of("owner", world).get(page).content.decode()
    Session.objects.filter(pk=world.evening.pk).update(owner=world.users["member"])  # started by Mona
    assert reopen not in client_of("member", world).get(page).content.decode()
    assert client_of("member", world).post(reopen).status_code == 404
    assert Session.objects.get(pk=world.evening.pk).closed_at is not None


def kasse_balances(group: Group) -> list[tuple[str, Decimal]]:
    return sorted((b.player.name if b.player else "", b.amount) for b in kasse.kasse_of(group).balances)


# -- the evening list -----------------------------------------------------------------------


def test_the_evening_list_shows_the_latest_first_with_the_evenings_of_my_groups_each_once(world):
    olga, mona = world.users["owner"], world.users["member"]
    earlier, _ = evening(world.group, mona, [], name="Vorwoche", played_on=date(2026, 1, 6))
    evening(world.group, olga, [], name="Spaeter", played_on=date(2026, 1, 6))
    earlier.editors.add(olga)  # owner, editor and member of its group: listed once
    for role in ("owner", "member"):
        page = client_of(role, world).get(reverse("session_list")).content.decode()
        listed = re.findall(r'href="/sessions/(\d+)/"', page)
        names = [Session.objects.get(pk=int(pk)).name for pk in listed]
        expected = ["Dienstag", "Spaeter", "Vorwoche"] + (["Allein"] if role == "owner" else [])
        # today's evenings first (Dienstag, and Olga's Allein opened after it), then 6 January's: latest opened first
        assert sorted(names) == sorted(expected) and len(listed) == len(set(listed)), role
        assert names.index("Spaeter") < names.index("Vorwoche") and names.index("Dienstag") < names.index(
            "Spaeter"
        )
        if role == "owner":
            assert names.index("Allein") < names.index("Dienstag")  # the same day: the one opened last first


def test_a_removed_member_keeps_her_own_evenings_in_her_list_and_loses_the_others(world):
    evening(world.group, world.users["member"], [], name="Monas Abend")
    lists = {
        role: client_of(role, world).get(reverse("session_list")).content.decode()
        for role in ("removed", "editor", "outsider")
    }
    assert "Dienstag" in lists["removed"] and "Monas Abend" not in lists["removed"]
    assert "Dienstag" in lists["editor"] and "Monas Abend" not in lists["editor"]
    assert "Dienstag" not in lists["outsider"] and "Monas Abend" not in lists["outsider"]


# -- Cache-Control --------------------------------------------------------------------------


def test_public_pages_say_what_they_said_before(world, client, settings):
    """The login page, the share link's board and hand, the offline page, the
    manifest and the service worker: the same Cache-Control with the middleware as without."""
    urls = [
        reverse("login"),
        reverse("shared_board", args=[world.evening.share_token]),
        reverse("shared_hand", args=[world.evening.share_token, world.hand.pk]),
        reverse("offline"),
        reverse("manifest"),
        reverse("service_worker"),
    ]
    marked = [client.get(url) for url in urls]
    settings.MIDDLEWARE = [m for m in settings.MIDDLEWARE if m != "plumbing.privacy.PrivatePagesMiddleware"]
    cache.clear()
    unmarked = [client.get(url) for url in urls]
    for url, before, after in zip(urls, unmarked, marked, strict=True):
        assert after.status_code == 200 and after.get("Cache-Control") == before.get("Cache-Control"), url
    assert "private" not in marked[1].get("Cache-Control", "")  # the shared board


def test_a_private_page_that_said_no_store_still_says_it(world):
    response = client_of("member", world).get(reverse("hand_new", args=[world.evening.pk]))
    control = {part.strip() for part in response["Cache-Control"].split(",")}
    assert {"private", "no-store"} <= control
    for url in (reverse("session_list"), reverse("group_list"), reverse("password_change")):
        assert "private" in client_of("member", world).get(url)["Cache-Control"], url
