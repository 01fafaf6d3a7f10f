"""A name merged into another, a register entry merged, a tournament or an evening
deleted: the link follows the name kept, the ratings are marked in the same
transaction, and once the marks are followed every number is what a
recomputation from scratch (``update_ratings --all``) gives."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from club.models import Group, GroupPlayer
from club.services import groups
from ratings.models import LinkRemoved, RatingEntry, RatingEvent, RatingMark, RegisterLink, RosterLink
from ratings.services import links
from ratings.services.marks import ratings_update
from ratings.services.recompute import ratings_rebuild
from scoring import services
from scoring.models import Session
from tests.club.regular_table import evening, player
from tests.ratings.support import PLAYERS, hands, order
from tests.tournaments.factory import EXAMPLE_NAMES, EXAMPLE_SUMS, cup, desk_round, draw, release, tournament
from tournaments.models import CupPlayer, Entrant, Tournament
from tournaments.services import cups

Entries = list[tuple[str, int, str, int, int, float, float]]


def entries() -> Entries:
    """Every stored entry: (event kind, its evening or table, player key, her
    event number, rank, μ, σ)."""
    return sorted(
        (e.event.kind, e.event.source_id, e.player_key, e.number, e.rank, e.mu, e.sigma)
        for e in RatingEntry.objects.select_related("event")
    )


def as_from_scratch() -> Entries:
    """The entries the marks gave, checked against ``update_ratings --all``'s."""
    followed = entries()
    ratings_rebuild()
    assert entries() == followed
    return followed


def numbers(key: str) -> list[int]:
    return list(
        RatingEntry.objects.filter(player_key=key).order_by("number").values_list("number", flat=True)
    )


def member(group: Group, owner: User, name: str) -> User:
    account = User.objects.create_user(name, password="a-long-test-password")
    groups.invitation_accept(token=groups.invitation_create(group=group, user=owner).token, user=account)
    return account


def played(group: Group, owner: User, index: int, anna: str) -> Session:
    """Evening ``index`` of ``support``'s sequence, closed, with Anna's seat under the name ``anna``."""

    def named(name: str) -> str:
        return anna if name == "Anna" else name

    raw = [{key: named(value) if key in ("dealer", "taker") else value for key, value in hand.items()}
           for hand in hands(*order(index))]  # fmt: skip
    session, _ = evening(group, owner, raw, players=[named(p) for p in PLAYERS], name=f"Abend {index + 1}")
    services.session_close(session=session, user=owner)
    return session


@pytest.fixture
def group(user: User) -> Group:
    """Eight evenings: Anna's seat is "Anna" at the odd ones, "Anna B." at the even ones
    (a misspelling the owner merges later); the ratings followed."""
    made = groups.group_create(owner=user, name="Dienstag")
    for index in range(8):
        played(made, user, index, "Anna" if index % 2 == 0 else "Anna B.")
    ratings_update()
    return made


def merge(group: Group, owner: User) -> GroupPlayer:
    return groups.roster_merge(
        group=group, player_id=player(group, "Anna").pk, into_id=player(group, "Anna B.").pk, user=owner
    )


def test_her_link_on_the_merged_name_follows_it_and_all_her_evenings_count_for_her(group, user):
    maria = member(group, user, "maria")
    links.roster_link(user=maria, player_id=player(group, "Anna").pk)
    ratings_update()
    assert numbers(f"u:{maria.pk}") == [1, 2, 3, 4]
    kept = merge(group, user)
    assert RatingMark.objects.exists()  # marked with the merge, nothing left for a command
    ratings_update()
    assert list(RosterLink.objects.values_list("player_id", "user_id")) == [(kept.pk, maria.pk)]
    assert numbers(f"u:{maria.pk}") == list(range(1, 9))
    assert numbers(f"g:{kept.pk}") == []
    as_from_scratch()
    assert not LinkRemoved.objects.exists()


def test_her_link_on_the_name_kept_takes_the_merged_names_evenings(group, user):
    maria = member(group, user, "maria")
    kept = player(group, "Anna B.")
    links.roster_link(user=maria, player_id=kept.pk)
    ratings_update()
    merged_away = player(group, "Anna")
    assert numbers(f"u:{maria.pk}") == [1, 2, 3, 4]
    assert numbers(f"g:{merged_away.pk}") == [1, 2, 3, 4]
    merge(group, user)
    ratings_update()
    assert list(RosterLink.objects.values_list("player_id", "user_id")) == [(kept.pk, maria.pk)]
    assert numbers(f"u:{maria.pk}") == list(range(1, 9))
    assert not RatingEntry.objects.filter(player_key=f"g:{merged_away.pk}").exists()
    as_from_scratch()


def test_both_names_linked_the_kept_names_link_stays_and_she_is_told_hers_went(
    group, user, client_for: Callable[[User], Client]
):
    maria, ola = member(group, user, "maria"), member(group, user, "ola")
    links.roster_link(user=maria, player_id=player(group, "Anna").pk)
    links.roster_link(user=ola, player_id=player(group, "Anna B.").pk)
    ratings_update()
    kept = merge(group, user)
    ratings_update()
    assert list(RosterLink.objects.values_list("player_id", "user_id")) == [(kept.pk, ola.pk)]
    assert numbers(f"u:{ola.pk}") == list(range(1, 9))
    assert numbers(f"u:{maria.pk}") == []
    as_from_scratch()
    notice = LinkRemoved.objects.get()
    assert (notice.user_id, notice.name, notice.into_name, notice.where) == (
        maria.pk,
        "Anna",
        "Anna B.",
        "Dienstag",
    )
    page = client_for(maria).get(reverse("rating_mine"))
    text = "“Anna” (Dienstag) was merged into “Anna B.”, which another account had linked: your link was removed."
    assert text in page.content.decode()
    assert text not in client_for(ola).get(reverse("rating_mine")).content.decode()
    # Ola cannot take Maria's notice away; Maria can, once read.
    client_for(ola).post(reverse("rating_mine"), {"action": "read", "notice": notice.pk})
    assert LinkRemoved.objects.filter(pk=notice.pk).exists()
    client_for(maria).post(reverse("rating_mine"), {"action": "read", "notice": notice.pk})
    assert not LinkRemoved.objects.exists()
    assert text not in client_for(maria).get(reverse("rating_mine")).content.decode()


def test_the_merged_names_tournament_entries_stay_hers(user):
    """A group's tournament picked "Anna" from the roster: merged into "Anna B.", the
    entrant follows the name kept, and so her tables keep counting for her."""
    made = groups.group_create(owner=user, name="Dienstag")
    maria = member(made, user, "maria")
    played(made, user, 0, "Anna B.")
    t = tournament(user, group=made)
    draw(t)
    for number, round_sums in enumerate(EXAMPLE_SUMS, 1):
        release(t)
        desk_round(t, number, round_sums)
    entrant = Entrant.objects.get(tournament=t, name="Anna")
    links.roster_link(user=maria, player_id=player(made, "Anna").pk)
    ratings_update()
    assert numbers(f"u:{maria.pk}") == [1, 2, 3]
    kept = groups.roster_merge(
        group=made, player_id=player(made, "Anna").pk, into_id=player(made, "Anna B.").pk, user=user
    )
    ratings_update()
    entrant.refresh_from_db()
    assert entrant.roster_id == kept.pk
    assert list(RosterLink.objects.values_list("player_id", "user_id")) == [(kept.pk, maria.pk)]
    assert sorted(
        RatingEntry.objects.filter(player_key=f"u:{maria.pk}").values_list("event__kind", "number")
    ) == [
        ("evening", 1),
        ("table", 1),
        ("table", 2),
        ("table", 3),
    ]
    as_from_scratch()


# -- a cup's register ------------------------------------------------------------------------


def renamed(names: Any, old: str, new: str) -> Any:
    if isinstance(names, dict):
        return {new if name == old else name: value for name, value in names.items()}
    return tuple(new if name == old else name for name in names)


def cup_evening(owner: User, the_cup: Any, name: str, day: date, anna: str = "Anna") -> Tournament:
    """§9's tournament in the cup, typed in at the desk, with Anna entered as ``anna``."""
    names = renamed(EXAMPLE_NAMES, "Anna", anna)
    t = tournament(owner, names=names, cup=the_cup, name=name, played_on=day)
    draw(t)
    for number, round_sums in enumerate(EXAMPLE_SUMS, 1):
        release(t)
        desk_round(t, number, renamed(round_sums, "Anna", anna))
    return t


@pytest.fixture
def two_cup_evenings(user):
    """Two tournaments of one cup: Anna entered as "Anna", then as "Anna M."."""
    made = cup(user)
    cup_evening(user, made, "Cupabend 1", date(2025, 11, 21))
    cup_evening(user, made, "Cupabend 2", date(2025, 12, 5), anna="Anna M.")
    ratings_update()
    return made


def test_merged_register_entries_are_rated_as_one_player(two_cup_evenings, user):
    anna = CupPlayer.objects.get(cup=two_cup_evenings, name="Anna")
    misspelt = CupPlayer.objects.get(cup=two_cup_evenings, name="Anna M.")
    assert numbers(f"c:{anna.pk}") == [1, 2, 3] and numbers(f"c:{misspelt.pk}") == [1, 2, 3]
    cups.cup_player_merge(cup=two_cup_evenings, user=user, player_id=misspelt.pk, into_id=anna.pk)
    ratings_update()
    assert numbers(f"c:{anna.pk}") == [1, 2, 3, 4, 5, 6]
    assert numbers(f"c:{misspelt.pk}") == []
    as_from_scratch()


def test_a_register_entrys_link_follows_its_merge(two_cup_evenings, user, other_user):
    """A link of the merged entry moves to the one kept (made here as the PIN of
    §14.2 will make it: ``links.register_link`` refuses every one until then)."""
    anna = CupPlayer.objects.get(cup=two_cup_evenings, name="Anna")
    misspelt = CupPlayer.objects.get(cup=two_cup_evenings, name="Anna M.")
    RegisterLink.objects.create(entry=misspelt, user=other_user)
    cups.cup_player_merge(cup=two_cup_evenings, user=user, player_id=misspelt.pk, into_id=anna.pk)
    ratings_update()
    assert list(RegisterLink.objects.values_list("entry_id", "user_id")) == [(anna.pk, other_user.pk)]
    assert numbers(f"u:{other_user.pk}") == [1, 2, 3, 4, 5, 6]
    as_from_scratch()


def test_both_register_entries_linked_the_kept_entrys_link_stays(two_cup_evenings, user, other_user):
    anna = CupPlayer.objects.get(cup=two_cup_evenings, name="Anna")
    misspelt = CupPlayer.objects.get(cup=two_cup_evenings, name="Anna M.")
    ola = User.objects.create_user("ola", password="a-long-test-password")
    RegisterLink.objects.create(entry=anna, user=ola)
    RegisterLink.objects.create(entry=misspelt, user=other_user)
    cups.cup_player_merge(cup=two_cup_evenings, user=user, player_id=misspelt.pk, into_id=anna.pk)
    ratings_update()
    assert list(RegisterLink.objects.values_list("entry_id", "user_id")) == [(anna.pk, ola.pk)]
    assert numbers(f"u:{ola.pk}") == [1, 2, 3, 4, 5, 6]
    assert numbers(f"u:{other_user.pk}") == []
    notice = LinkRemoved.objects.get()
    assert (notice.user_id, notice.name, notice.into_name, notice.where) == (
        other_user.pk,
        "Anna M.",
        "Anna",
        two_cup_evenings.name,
    )
    as_from_scratch()


# -- a tournament or an evening deleted --------------------------------------------------------


def test_a_deleted_tournaments_tables_stop_counting(two_cup_evenings):
    """Deleted with its tables (as with its owner's account): the cup's other
    tournament is rated as if the deleted one had never been played."""
    first = Tournament.objects.get(name="Cupabend 1")
    tables = set(RatingEvent.objects.filter(kind="table").values_list("source_id", flat=True))
    anna = CupPlayer.objects.get(cup=two_cup_evenings, name="Anna M.")
    erika = CupPlayer.objects.get(cup=two_cup_evenings, name="Erika")
    assert numbers(f"c:{erika.pk}") == [1, 2, 3, 4, 5, 6]
    first.delete()
    assert RatingMark.objects.count() == 9  # marked with the deletion: its nine tables
    ratings_update()
    gone = tables - set(
        RatingEvent.objects.filter(kind="table", counted=True).values_list("source_id", flat=True)
    )
    assert len(gone) == 9
    assert not RatingEntry.objects.filter(event__source_id__in=gone, event__kind="table").exists()
    assert numbers(f"c:{erika.pk}") == [1, 2, 3]
    assert numbers(f"c:{anna.pk}") == [1, 2, 3]
    as_from_scratch()


def test_a_deleted_evening_stops_counting_and_counts_again_when_restored(group, user):
    anna = player(group, "Anna")
    third = Session.objects.get(group_link__group=group, name="Abend 3")
    services.session_delete(session=third, user=user)
    ratings_update()
    assert not RatingEvent.objects.get(kind="evening", source_id=third.pk).counted
    assert numbers(f"g:{anna.pk}") == [1, 2, 3]
    as_from_scratch()
    services.session_restore(session=Session.objects.get(pk=third.pk), user=user)
    ratings_update()
    assert numbers(f"g:{anna.pk}") == [1, 2, 3, 4]
    as_from_scratch()


def test_an_evening_removed_for_good_while_it_counted_stops_counting(group, user):
    """Removed with its owner's account, without being deleted first."""
    anna = player(group, "Anna")
    third = Session.objects.get(group_link__group=group, name="Abend 3")
    Session.objects.filter(pk=third.pk).delete()
    ratings_update()
    assert not RatingEvent.objects.get(kind="evening", source_id=third.pk).counted
    assert numbers(f"g:{anna.pk}") == [1, 2, 3]
    as_from_scratch()
