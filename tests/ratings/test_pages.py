"""Who sees a rating, on every page that could show one: nobody before 10
events, nobody while it is off, only herself until she shares it, then the
members of her groups and the organisers of her cups; and every URL of the
ratings for every role, GET and POST, with the exact answer and, where it is
refused, nothing changed.

The roles: Maria (herself) has linked "Anna" in the owner's group; Bert is a
member; Rita was one and was taken out; Eddi is an editor of one of the group's
evenings without being a member (as ``tests/scoring/test_access_matrix.py`` has
him); Colin co-organises the cup's tournament of the group (an editor of its
tables' evenings); the table link is the phone that claimed the table Anna sits
at in that tournament (its cookie, no account); Otto has nothing to do with any
of it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client
from django.urls import reverse

from club.models import GroupPlayer, Membership
from club.services import groups
from ratings.models import LinkRemoved, RatingEntry, RatingMark, RatingSetting, RegisterLink, RosterLink
from ratings.services import links
from ratings.services.marks import ratings_update
from ratings.services.model import shown
from scoring.models import Session
from tests.ratings.support import closed_evening
from tests.tournaments.factory import EXAMPLE_SUMS, desk_round, draw, release, tables, tournament
from tests.tournaments.factory import cup as make_cup
from tournaments.models import CircuitPinTry, CircuitPlayer
from tournaments.services import circuit as circuits
from tournaments.services import results
from tournaments.services import tables as table_service

ROLES = (
    "herself",
    "owner",
    "member",
    "removed",
    "editor",
    "organiser",
    "table_link",
    "outsider",
    "anonymous",
)
NO_ACCOUNT = ("table_link", "anonymous")


def account(name: str) -> User:
    return User.objects.create_user(name, password="pw-" + name)


@pytest.fixture
def world(user):
    """The group, its cup and the cup's tournament of the group (round 1 released,
    Anna's table claimed by a phone), and everyone of ``ROLES`` with an account."""
    people = {
        "owner": user,
        "herself": account("maria"),
        "member": account("bert"),
        "removed": account("rita"),
        "editor": account("eddi"),
        "organiser": account("colin"),
        "outsider": account("otto"),
    }
    group = groups.group_create(owner=user, name="Dienstag")
    for role in ("herself", "member", "removed"):
        token = groups.invitation_create(group=group, user=user).token
        groups.invitation_accept(token=token, user=people[role])
    cup = make_cup(user)
    made = tournament(user, group=group, cup=cup, organisers=["colin"])
    draw(made)
    release(made)
    [table] = [t for t in tables(made, 1) if t.seats.filter(entrant__name="Anna").exists()]
    phone = table_service.new_phone_cookie()
    assert table_service.claim(table, phone)
    board = results.board_share(made)
    return {
        "people": people,
        "group": group,
        "cup": cup,
        "tournament": made,
        "table": table,
        "phone": phone,
        "board": board,
    }


def play(world, evenings: int) -> None:
    """``evenings`` closed evenings of the group; Eddi an editor of the first, Rita out."""
    for index in range(evenings):
        session = closed_evening(world["group"], world["people"]["owner"], index)
        if index == 0:
            session.editors.add(world["people"]["editor"])
    anna = GroupPlayer.objects.get(group=world["group"], name="Anna")
    if not RosterLink.objects.filter(player=anna).exists():
        links.roster_link(user=world["people"]["herself"], player_id=anna.pk)
    groups.member_remove(group=world["group"], user_id=world["people"]["removed"].pk)
    ratings_update()


def her_rating(world) -> int:
    entry = (
        RatingEntry.objects.filter(player_key=f"u:{world['people']['herself'].pk}")
        .order_by("-number")
        .first()
    )
    return shown(entry.mu, entry.sigma)


def client(world, role: str) -> Client:
    """A browser in English: logged in as the role's account, or the phone that
    holds Anna's table (its cookie, no account), or nobody."""
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    if role == "table_link":
        c.cookies[table_service.PHONE_COOKIE] = world["phone"]
    elif role != "anonymous":
        c.force_login(world["people"][role])
    return c


def urls(world) -> list[str]:
    """Every page that could show her rating: the ratings' own, the group's
    statistics, the cup's register, and what her table's link and the
    tournament's board show."""
    anna = world["table"].seats.get(entrant__name="Anna").entrant
    return [
        reverse("rating_mine"),
        reverse("rating_csv"),
        reverse("group_ratings", args=[world["group"].pk]),
        reverse("cup_ratings", args=[world["cup"].pk]),
        reverse("season_table", args=[world["group"].pk]),
        reverse(
            "group_player",
            args=[world["group"].pk, GroupPlayer.objects.get(group=world["group"], name="Anna").pk],
        ),
        reverse("cup_register", args=[world["cup"].pk]),
        reverse("tournament_table", args=[world["table"].link_token]),
        reverse("tournament_board", args=[world["board"]]),
        reverse("tournament_player_card", args=[world["board"], anna.number]),
    ]


def shows(world, role: str, number: int) -> list[str]:
    """The URLs whose answer to ``role`` shows her rating (as the number in bold or a CSV field)."""
    found = []
    for url in urls(world):
        response = client(world, role).get(url)
        body = response.content.decode()
        if response.status_code == 200 and (
            f'<strong class="rating-number">{number}</strong>' in body
            or f"<strong>{number}</strong>" in body
            or re.search(rf";{number};", body)
        ):
            found.append(url)
    return found


def turn(world, *, visible: bool, shared: bool) -> None:
    links.setting_set(user=world["people"]["herself"], visible=visible, shared=shared)


def test_off_by_default_nobody_sees_it_anywhere(world):
    play(world, 10)
    assert not RatingSetting.objects.exists()
    number = her_rating(world)
    for role in ROLES:
        assert shows(world, role, number) == [], role


def test_before_ten_events_nobody_sees_it_even_shared(world):
    play(world, 9)
    turn(world, visible=True, shared=True)
    number = her_rating(world)
    for role in ROLES:
        assert shows(world, role, number) == [], role
    assert "9 events so far" in client(world, "herself").get(reverse("rating_mine")).content.decode()


def test_visible_only_to_herself_until_shared(world):
    play(world, 10)
    turn(world, visible=True, shared=False)
    number = her_rating(world)
    assert shows(world, "herself", number) == [reverse("rating_mine"), reverse("rating_csv")]
    for role in ROLES[1:]:
        assert shows(world, role, number) == [], role


def test_shared_the_groups_members_and_the_cups_organisers_see_it_and_no_one_else(world):
    play(world, 10)
    turn(world, visible=True, shared=True)
    number = her_rating(world)
    group_page = reverse("group_ratings", args=[world["group"].pk])
    cup_page = reverse("cup_ratings", args=[world["cup"].pk])
    assert shows(world, "herself", number) == [reverse("rating_mine"), reverse("rating_csv"), group_page]
    assert shows(world, "owner", number) == [group_page, cup_page]
    assert shows(world, "member", number) == [group_page]
    assert shows(world, "organiser", number) == [cup_page]  # Anna's register entry is Maria
    for role in ("removed", "editor", "table_link", "outsider", "anonymous"):
        assert shows(world, role, number) == [], role
    # Her table's page, the board and her card there are drawn for everyone, without the number.
    for role in ROLES:
        for url in urls(world)[-3:]:
            assert client(world, role).get(url).status_code == 200, (role, url)


def test_shared_the_cups_organisers_see_it_in_the_register_of_a_group_tournament(world):
    owner, made = world["people"]["owner"], world["tournament"]
    for number, sums in enumerate(EXAMPLE_SUMS, 1):
        if number > 1:  # round 1 is out already
            release(made)
        desk_round(made, number, sums)
    play(world, 7)  # 7 evenings and 3 table-rounds: 7 French, 3 Königrufen events
    turn(world, visible=True, shared=True)
    assert her_rating(world) is not None
    page = client(world, "owner").get(reverse("cup_ratings", args=[world["cup"].pk])).content.decode()
    assert "Nobody shares a rating here yet." in page
    # Ten more evenings: French shown (17 events), Königrufen still not (3).
    for index in range(7, 17):
        closed_evening(world["group"], owner, index)
    ratings_update()
    french = her_rating_in(world, "french")
    koenig = her_rating_in(world, "koenigrufen")
    assert RatingEntry.objects.filter(player_key=f"u:{world['people']['herself'].pk}").count() == 20
    for role in ("owner", "organiser"):
        cup_page = client(world, role).get(reverse("cup_ratings", args=[world["cup"].pk])).content.decode()
        assert f"<strong>{french}</strong>" in cup_page and "Anna" in cup_page, role
        assert f"<strong>{koenig}</strong>" not in cup_page or koenig == french, role
    for role in ("herself", "member", "removed", "editor", "outsider"):
        response = client(world, role).get(reverse("cup_ratings", args=[world["cup"].pk]))
        assert response.status_code == 404, role
    for role in NO_ACCOUNT:
        response = client(world, role).get(reverse("cup_ratings", args=[world["cup"].pk]))
        assert response.status_code == 302 and response["Location"].startswith(reverse("login")), role


def test_shared_the_circuits_organisers_see_it_beside_the_number_she_linked(world):
    """Her circuit number linked with its PIN: the circuit's ratings page (its
    organisers' alone) shows her rating beside that number once she shares it."""
    play(world, 10)
    circuit_joined(world)
    ratings_update()
    page = reverse("circuit_ratings", args=[world["numbers"]["circuit"]])
    turn(world, visible=True, shared=False)
    assert "Nobody shares a rating here yet." in client(world, "owner").get(page).content.decode()
    turn(world, visible=True, shared=True)
    shown_there = client(world, "owner").get(page).content.decode()
    assert f"<strong>{her_rating(world)}</strong>" in shown_there
    hers, berts = world["numbers"]["anna's number"], world["numbers"]["bert's number"]
    assert f"Nr. {hers}" in shown_there
    assert f"Nr. {berts}" not in shown_there  # nobody linked Bert's
    register = client(world, "owner").get(reverse("circuit_register", args=[world["numbers"]["circuit"]]))
    assert f'href="{page}"' in register.content.decode()
    for role in ("herself", "member", "organiser", "outsider"):
        assert client(world, role).get(page).status_code == 404, role


def her_rating_in(world, family: str) -> int:
    entry = (
        RatingEntry.objects.filter(player_key=f"u:{world['people']['herself'].pk}", family=family)
        .order_by("-number")
        .first()
    )
    return shown(entry.mu, entry.sigma)


LOGIN = "login"  # sent to the login page: a table's link is no account
G, P = "GET", "POST"
# What each POST to her page sends: her switch, "this name is me" for Bert (a name
# of the group), and the removal of Maria's own link.
POSTS: dict[str, dict[str, str]] = {
    "setting": {"action": "setting", "visible": "on", "shared": "on"},
    "link": {"action": "link", "player": "<bert>"},
    "unlink": {"action": "unlink", "link": "<maria's link>"},
    "read": {"action": "read", "notice": "<maria's notice>"},
    # A circuit number with its right PIN: Bert's (free), Anna's (Maria's already), and
    # the removal of Maria's link to Anna's number.
    "link_circuit": {
        "action": "link_register",
        "circuit": "<circuit>",
        "number": "<bert's number>",
        "pin": "<bert's pin>",
    },
    "link_taken": {
        "action": "link_register",
        "circuit": "<circuit>",
        "number": "<anna's number>",
        "pin": "<anna's pin>",
    },
    "unlink_circuit": {"action": "unlink_register", "link": "<maria's number link>"},
    "nothing": {"action": "nothing"},
    "": {"action": "setting", "visible": "on", "shared": "on"},
}
# fmt: off
# Maria's rating on and shared after 10 evenings. Every account has a page of its
# own; the group's ratings are its members' (as its statistics: the editor of one
# evening and the removed member see neither); the cup's are its organisers' (as
# its register).
# url name       method  post       herself owner member removed editor organiser table_link outsider anonymous
ROWS: list[tuple[Any, ...]] = [
    ("rating_mine",   G, "",        200, 200, 200, 200, 200, 200, LOGIN, 200, LOGIN),
    ("rating_mine",   P, "setting", 302, 302, 302, 302, 302, 302, LOGIN, 302, LOGIN),
    ("rating_mine",   P, "link",    302, 302, 302, 302, 302, 302, LOGIN, 302, LOGIN),
    ("rating_mine",   P, "unlink",  302, 302, 302, 302, 302, 302, LOGIN, 302, LOGIN),
    ("rating_mine",   P, "read",    302, 302, 302, 302, 302, 302, LOGIN, 302, LOGIN),
    ("rating_mine",   P, "link_circuit",   302, 302, 302, 302, 302, 302, LOGIN, 302, LOGIN),
    ("rating_mine",   P, "link_taken",     302, 302, 302, 302, 302, 302, LOGIN, 302, LOGIN),
    ("rating_mine",   P, "unlink_circuit", 302, 302, 302, 302, 302, 302, LOGIN, 302, LOGIN),
    ("rating_mine",   P, "nothing", 404, 404, 404, 404, 404, 404, LOGIN, 404, LOGIN),
    ("rating_csv",    G, "",        200, 404, 404, 404, 404, 404, LOGIN, 404, LOGIN),
    ("rating_csv",    P, "",        405, 405, 405, 405, 405, 405, LOGIN, 405, LOGIN),
    ("group_ratings", G, "",        200, 200, 200, 404, 404, 404, LOGIN, 404, LOGIN),
    ("group_ratings", P, "",        405, 405, 405, 405, 405, 405, LOGIN, 405, LOGIN),
    ("cup_ratings",   G, "",        404, 200, 404, 404, 404, 200, LOGIN, 404, LOGIN),
    ("cup_ratings",   P, "",        405, 405, 405, 405, 405, 405, LOGIN, 405, LOGIN),
    ("circuit_ratings", G, "",      404, 200, 404, 404, 404, 404, LOGIN, 404, LOGIN),
    ("circuit_ratings", P, "",      405, 405, 405, 405, 405, 405, LOGIN, 405, LOGIN),
]
# fmt: on
# The POSTs that do their work, and for whom; every other request changes nothing.
# Her switch is every account's own; Bert is offered to the group's members who have
# no name linked there yet (Maria has Anna); Maria's link is hers alone to remove.
CHANGES = {
    "setting": {"herself", "owner", "member", "removed", "editor", "organiser", "outsider"},
    "link": {"owner", "member"},
    "unlink": {"herself"},
    "read": {"herself"},
    # Whoever has a number's PIN links it; Anna's is Maria's (sent again by her: no change).
    "link_circuit": {"herself", "owner", "member", "removed", "editor", "organiser", "outsider"},
    "unlink_circuit": {"herself"},
}


def test_the_matrix_names_every_url_of_the_ratings():
    from ratings import urls as rating_urls

    names = {pattern.name for pattern in rating_urls.urlpatterns}
    assert {(name, method) for name, method, *_ in ROWS} == {(n, m) for n in names for m in (G, P)}
    assert all(len(row) == 3 + len(ROLES) for row in ROWS)


def state() -> dict[str, list[tuple[Any, ...]]]:
    """Everything a request to the ratings could change, and what they read."""
    return {
        "settings": list(RatingSetting.objects.order_by("pk").values_list("user_id", "visible", "shared")),
        "roster_links": list(RosterLink.objects.order_by("pk").values_list("pk", "player_id", "user_id")),
        "register_links": list(
            RegisterLink.objects.order_by("pk").values_list("pk", "entry_id", "circuit_entry_id", "user_id")
        ),
        "pin_tries": list(CircuitPinTry.objects.order_by("pk").values_list("pk", "entry_id", "at")),
        "marks": list(RatingMark.objects.order_by("pk").values_list("pk")),
        "entries": list(RatingEntry.objects.order_by("pk").values_list("pk", "player_key", "mu", "sigma")),
        "members": list(Membership.objects.order_by("pk").values_list("group_id", "user_id", "role")),
        "roster": list(GroupPlayer.objects.order_by("pk").values_list("pk", "name", "user_id", "hidden_at")),
        "editors": list(Session.editors.through.objects.order_by("pk").values_list("session_id", "user_id")),
        "notices": list(LinkRemoved.objects.order_by("pk").values_list("pk", "user_id")),
    }


def request(world, role: str, name: str, method: str, post: str) -> Any:
    args = {
        "group_ratings": [world["group"].pk],
        "cup_ratings": [world["cup"].pk],
        "circuit_ratings": [world.get("numbers", {}).get("circuit")],
    }.get(name, [])
    url = reverse(name, args=args)
    if method == G:
        return client(world, role).get(url)
    bert = GroupPlayer.objects.get(group=world["group"], name="Bert")
    hers = RosterLink.objects.get(user=world["people"]["herself"])
    notice = LinkRemoved.objects.get(user=world["people"]["herself"])
    numbers = world.get("numbers", {})
    values = {
        "<bert>": str(bert.pk),
        "<maria's link>": str(hers.pk),
        "<maria's notice>": str(notice.pk),
        **{f"<{key}>": str(value) for key, value in numbers.items()},
    }
    data = {key: values.get(value, value) for key, value in POSTS[post].items()}
    return client(world, role).post(url, data)


def changed_as_allowed(world, role: str, post: str, before: dict, after: dict) -> bool:
    """Whether the one change a POST may make is the change it made, and no other."""
    user = world["people"][role]
    kept = {
        "setting": ("settings",),
        "link": ("roster_links", "marks"),
        "unlink": ("roster_links", "marks"),
        "read": ("notices",),
        "link_circuit": ("register_links", "marks"),
        "unlink_circuit": ("register_links", "marks"),
    }
    if any(before[key] != after[key] for key in before if key not in kept[post]):
        return False
    if post == "setting":
        others = [
            [row for row in rows if row[0] != user.pk] for rows in (before["settings"], after["settings"])
        ]
        return others[0] == others[1] and (user.pk, True, True) in after["settings"]
    if post == "read":
        return [row for row in before["notices"] if row not in after["notices"]] == [
            row for row in before["notices"] if row[1] == user.pk
        ] and all(row in before["notices"] for row in after["notices"])
    if post.endswith("_circuit"):
        return circuit_changed_as_allowed(world, user, post, before, after)
    added = [row[1:] for row in after["roster_links"] if row not in before["roster_links"]]
    gone = [row[1:] for row in before["roster_links"] if row not in after["roster_links"]]
    if post == "link":
        bert = GroupPlayer.objects.get(group=world["group"], name="Bert").pk
        return added == [(bert, user.pk)] and not gone and len(after["marks"]) > len(before["marks"])
    return not added and [row[1] for row in gone] == [world["people"]["herself"].pk]


def circuit_changed_as_allowed(world, user: User, post: str, before: dict, after: dict) -> bool:
    """Linking Bert's number adds her one link to it (and marks); unlinking takes Maria's away."""
    added = [row[1:] for row in after["register_links"] if row not in before["register_links"]]
    gone = [row[1:] for row in before["register_links"] if row not in after["register_links"]]
    numbers = world["numbers"]
    if post == "link_circuit":
        grew = len(after["marks"]) > len(before["marks"])
        return added == [(None, numbers["bert's entry"], user.pk)] and not gone and grew
    return not added and gone == [(None, numbers["anna's entry"], world["people"]["herself"].pk)]


def circuit_joined(world) -> None:
    """The cup joins a circuit; Anna's and Bert's numbers get PINs, and Maria links Anna's."""
    owner = world["people"]["owner"]
    circuit = circuits.circuit_create(owner=owner, name="Tarock Österreich", season="2025/26")
    circuits.cup_join(circuit=circuit, user=owner, cup_id=world["cup"].pk)
    anna = CircuitPlayer.objects.get(circuit=circuit, family="Anna", merged_into__isnull=True)
    bert = CircuitPlayer.objects.filter(circuit=circuit, merged_into__isnull=True).exclude(pk=anna.pk).first()
    pins = {
        row.pk: circuits.register_pin_new(circuit=circuit, user=owner, number=row.number)
        for row in (anna, bert)
    }
    link = links.register_link(
        user=world["people"]["herself"], circuit_id=circuit.pk, number=anna.number, pin=pins[anna.pk]
    )
    world["numbers"] = {
        "circuit": circuit.pk,
        "anna's number": anna.number,
        "anna's pin": pins[anna.pk],
        "anna's entry": anna.pk,
        "bert's number": bert.number,
        "bert's pin": pins[bert.pk],
        "bert's entry": bert.pk,
        "maria's number link": link.pk,
    }


@pytest.mark.parametrize("role", ROLES)
def test_every_url_for_every_role_get_and_post(world, role):
    """Each cell: the exact answer; a refused request changes nothing and names
    no group; an allowed POST makes its one change. Each request is undone after
    it is checked, so that each starts from the same world."""
    play(world, 10)
    turn(world, visible=True, shared=True)
    # A merge removed another link of hers: a notice on her page until she reads it.
    LinkRemoved.objects.create(
        user=world["people"]["herself"], name="Maria", into_name="Maria B.", where="Cup"
    )
    circuit_joined(world)
    ratings_update()
    column = 3 + ROLES.index(role)
    wrong = []
    for row in ROWS:
        name, method, post, expected = row[0], row[1], row[2], row[column]
        cell = f"{method} {name} {post} as {role}"
        before = state()
        with transaction.atomic():
            point = transaction.savepoint()
            response = request(world, role, name, method, post)
            after = state()
            transaction.savepoint_rollback(point)
        if expected == LOGIN:
            if response.status_code != 302 or not response["Location"].startswith(reverse("login")):
                wrong.append(f"{cell}: {response.status_code}, not sent to log in")
        elif response.status_code != expected:
            wrong.append(f"{cell}: {response.status_code}, expected {expected}")
        if method == P and role in CHANGES.get(post, ()):
            if not changed_as_allowed(world, role, post, before, after):
                wrong.append(f"{cell}: did not make its one change")
        elif after != before:
            wrong.append(f"{cell}: changed {[key for key in before if before[key] != after[key]]}")
        if expected in (404, 405, LOGIN) and b"Dienstag" in response.content:
            wrong.append(f"{cell}: refused but named the group")
        private = "private" in response.get("Cache-Control", "")
        if (role in NO_ACCOUNT) == private:
            wrong.append(f"{cell}: Cache-Control {response.get('Cache-Control')!r}")
    assert not wrong, "\n".join(wrong)


def test_a_link_is_hers_to_make_and_to_remove(world):
    play(world, 1)
    people, group = world["people"], world["group"]
    bert = GroupPlayer.objects.get(group=group, name="Bert")
    anna_link = RosterLink.objects.get(user=people["herself"])
    # The outsider and the removed member may not link a name of a group they are not in.
    for role in ("outsider", "removed"):
        response = client(world, role).post(
            reverse("rating_mine"), {"action": "link", "player": bert.pk}, follow=True
        )
        assert response.status_code == 200
        assert not RosterLink.objects.filter(player=bert).exists()
    # Nor may anyone take a name already linked, or unlink someone else's.
    client(world, "member").post(reverse("rating_mine"), {"action": "link", "player": anna_link.player_id})
    client(world, "member").post(reverse("rating_mine"), {"action": "unlink", "link": anna_link.pk})
    assert RosterLink.objects.get(player_id=anna_link.player_id).user == people["herself"]
    # A second name in the same group is refused; her own unlink works.
    client(world, "herself").post(reverse("rating_mine"), {"action": "link", "player": bert.pk})
    assert not RosterLink.objects.filter(player=bert).exists()
    client(world, "herself").post(reverse("rating_mine"), {"action": "unlink", "link": anna_link.pk})
    assert not RosterLink.objects.exists()
    ratings_update()
    assert not RatingEntry.objects.filter(player_key__startswith="u:").exists()
    # The member links Bert: his events move to her account.
    client(world, "member").post(reverse("rating_mine"), {"action": "link", "player": bert.pk})
    ratings_update()
    assert RatingEntry.objects.filter(player_key=f"u:{people['member'].pk}").count() == 1


def test_a_name_the_owner_gave_another_account_is_not_offered(world):
    play(world, 1)
    carl = GroupPlayer.objects.get(group=world["group"], name="Carl")
    groups.roster_link(player=carl, user_id=world["people"]["member"].pk)
    offered = {p.pk for p in links.roster_candidates(world["people"]["herself"])}
    assert carl.pk not in offered
    assert links.roster_candidates(world["people"]["member"])[0] == carl  # hers first


def test_her_page_shows_the_curve_best_and_worst_and_the_csv_her_history(world):
    play(world, 12)
    turn(world, visible=True, shared=False)
    page = client(world, "herself").get(reverse("rating_mine")).content.decode()
    assert 'class="rating-line"' in page
    assert 'class="best"' in page and 'class="worst"' in page
    rows = client(world, "herself").get(reverse("rating_csv")).content.decode().lstrip("\ufeff").splitlines()
    assert len(rows) == 1 + 12
    assert rows[-1].split(";")[7] == str(her_rating(world))


def test_after_she_leaves_the_group_her_evenings_stay_hers_and_its_members_no_longer_see_her(world):
    """Access follows membership: out of the group she no longer sees its ratings
    nor do its members see hers; her own evenings there still count for her, her
    page and her CSV still show them, and the link is still hers to remove."""
    play(world, 10)
    turn(world, visible=True, shared=True)
    number = her_rating(world)
    herself = world["people"]["herself"]
    group_page = reverse("group_ratings", args=[world["group"].pk])
    cup_page = reverse("cup_ratings", args=[world["cup"].pk])
    assert shows(world, "member", number) == [group_page]
    groups.member_remove(group=world["group"], user_id=herself.pk)
    ratings_update()
    assert her_rating(world) == number
    assert shows(world, "herself", number) == [reverse("rating_mine"), reverse("rating_csv")]
    assert client(world, "herself").get(group_page).status_code == 404
    rows = client(world, "herself").get(reverse("rating_csv")).content.decode().lstrip("\ufeff").splitlines()
    assert len(rows) == 1 + 10
    for role in ("member", "removed", "editor", "table_link", "outsider", "anonymous"):
        assert shows(world, role, number) == [], role
    # The cup's organisers keep the register of the tournament she played in.
    assert shows(world, "owner", number) == [cup_page]
    assert shows(world, "organiser", number) == [cup_page]
    link = RosterLink.objects.get(user=herself)
    assert link.player.name in client(world, "herself").get(reverse("rating_mine")).content.decode()
    client(world, "herself").post(reverse("rating_mine"), {"action": "unlink", "link": link.pk})
    assert not RosterLink.objects.filter(user=herself).exists()
