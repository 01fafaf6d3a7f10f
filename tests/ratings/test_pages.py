"""Who sees a rating, on every page that could show one: nobody before 10
events, nobody while it is off, only herself until she shares it, then the
members of her groups and the organisers of her cups; and every new URL for
every role, GET and POST."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from club.models import GroupPlayer
from club.services import groups
from ratings.models import RatingEntry, RatingSetting, RosterLink
from ratings.services import links
from ratings.services.marks import ratings_update
from ratings.services.model import shown
from tests.ratings.support import closed_evening
from tests.tournaments.factory import cup as make_cup
from tests.tournaments.factory import desk_round, draw, release, tournament

ROLES = ("herself", "owner", "member", "removed", "outsider", "anonymous")


def account(name: str) -> User:
    return User.objects.create_user(name, password="pw-" + name)


@pytest.fixture
def world(user):
    """Maria, a member of the owner's group, has linked "Anna" and played ``n`` evenings."""
    people = {
        "owner": user,
        "herself": account("maria"),
        "member": account("bert"),
        "removed": account("rita"),
    }
    people["outsider"] = account("otto")
    group = groups.group_create(owner=user, name="Dienstag")
    for role in ("herself", "member", "removed"):
        token = groups.invitation_create(group=group, user=user).token
        groups.invitation_accept(token=token, user=people[role])
    cup = make_cup(user)
    return {"people": people, "group": group, "cup": cup}


def play(world, evenings: int) -> None:
    for index in range(evenings):
        closed_evening(world["group"], world["people"]["owner"], index)
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
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    if role != "anonymous":
        c.force_login(world["people"][role])
    return c


def urls(world) -> list[str]:
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


def test_shared_the_groups_members_see_it_and_no_one_else(world):
    play(world, 10)
    turn(world, visible=True, shared=True)
    number = her_rating(world)
    group_page = reverse("group_ratings", args=[world["group"].pk])
    assert shows(world, "herself", number) == [reverse("rating_mine"), reverse("rating_csv"), group_page]
    assert shows(world, "owner", number) == [group_page]
    assert shows(world, "member", number) == [group_page]
    for role in ("removed", "outsider", "anonymous"):
        assert shows(world, role, number) == [], role


def test_shared_the_cups_organisers_see_it_in_the_register_of_a_group_tournament(world):
    owner = world["people"]["owner"]
    made = tournament(owner, group=world["group"], cup=world["cup"])
    draw(made)
    from tests.tournaments.factory import EXAMPLE_SUMS

    for number, sums in enumerate(EXAMPLE_SUMS, 1):
        release(made)
        desk_round(made, number, sums)
    play(world, 7)  # 7 evenings and 3 table-rounds: 7 French, 3 Königrufen events
    turn(world, visible=True, shared=True)
    assert her_rating(world) is not None
    page = client(world, "owner").get(reverse("cup_ratings", args=[world["cup"].pk])).content.decode()
    assert "Nobody shares a rating here yet." in page or "Noch niemand" in page or "rating-table" in page
    # Ten more evenings: French shown (17 events), Königrufen still not (3).
    for index in range(7, 17):
        closed_evening(world["group"], owner, index)
    ratings_update()
    french = her_rating_in(world, "french")
    koenig = her_rating_in(world, "koenigrufen")
    cup_page = client(world, "owner").get(reverse("cup_ratings", args=[world["cup"].pk])).content.decode()
    assert f"<strong>{french}</strong>" in cup_page
    assert "Anna" in cup_page
    assert f"<strong>{koenig}</strong>" not in cup_page or koenig == french
    for role in ("member", "outsider", "anonymous"):
        response = client(world, role).get(reverse("cup_ratings", args=[world["cup"].pk]))
        assert response.status_code in (302, 404), role


def her_rating_in(world, family: str) -> int:
    entry = (
        RatingEntry.objects.filter(player_key=f"u:{world['people']['herself'].pk}", family=family)
        .order_by("-number")
        .first()
    )
    return shown(entry.mu, entry.sigma)


@pytest.mark.parametrize("role", ROLES)
def test_every_url_for_every_role_get_and_post(world, role):
    play(world, 10)
    c = client(world, role)
    mine, csv = reverse("rating_mine"), reverse("rating_csv")
    group_page = reverse("group_ratings", args=[world["group"].pk])
    cup_page = reverse("cup_ratings", args=[world["cup"].pk])
    if role == "anonymous":
        for url in (mine, csv, group_page, cup_page):
            assert c.get(url).status_code == 302
            assert c.post(url, {"action": "setting", "visible": "on"}).status_code in (302, 405)
        assert not RatingSetting.objects.exists()
        return
    assert c.get(mine).status_code == 200
    assert c.get(csv).status_code == 404  # off
    assert c.get(group_page).status_code == (200 if role in ("herself", "owner", "member") else 404)
    assert c.get(cup_page).status_code == (200 if role == "owner" else 404)
    for url in (csv, group_page, cup_page):
        assert c.post(url).status_code == 405
    # Her switch changes her own setting only.
    assert c.post(mine, {"action": "setting", "visible": "on", "shared": "on"}).status_code == 302
    assert list(RatingSetting.objects.values_list("user__username", "visible", "shared")) == [
        (world["people"][role].username, True, True)
    ]
    assert c.get(csv).status_code == 200
    assert c.post(mine, {"action": "nothing"}).status_code == 404


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


def test_a_register_entry_cannot_be_linked_without_a_pin(world):
    from scoring.engine import InvalidInput
    from tournaments.models import CupPlayer

    entry = CupPlayer.objects.create(cup=world["cup"], name="Anna")
    with pytest.raises(InvalidInput):
        links.register_link(user=world["people"]["herself"], entry=entry, pin="1234")


def test_her_page_shows_the_curve_best_and_worst_and_the_csv_her_history(world):
    play(world, 12)
    turn(world, visible=True, shared=False)
    page = client(world, "herself").get(reverse("rating_mine")).content.decode()
    assert 'class="rating-line"' in page
    assert 'class="best"' in page and 'class="worst"' in page
    rows = client(world, "herself").get(reverse("rating_csv")).content.decode().lstrip("\ufeff").splitlines()
    assert len(rows) == 1 + 12
    assert rows[-1].split(";")[7] == str(her_rating(world))
