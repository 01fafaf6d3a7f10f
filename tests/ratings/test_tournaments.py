"""Table-rounds as events: ranked by round result when they lock, withdrawn when
opened again; a player of a group and a cup is one person once she links her
name; and the ratings never touch a tournament's ranking or seating."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from club.services import groups
from ratings.models import RatingEntry, RatingEvent
from ratings.services import links
from ratings.services.marks import ratings_update
from ratings.services.model import ranks_of
from tests.sources import parsed
from tests.tournaments.factory import (
    EXAMPLE_SUMS,
    desk_round,
    draw,
    fresh,
    play_example,
    release,
    tables,
    tournament,
)
from tournaments.models import Entrant, RoundResult, TournamentPlace
from tournaments.services import desk

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("package", ["tournaments", "club", "scoring"])
def test_no_app_below_reads_the_ratings(package):
    """The ranking, the draw and the statistics cannot use a rating: nothing there imports it."""
    for path in (ROOT / package).rglob("*.py"):
        for node in ast.walk(parsed(path)):
            if isinstance(node, ast.ImportFrom):
                assert not (node.module or "").startswith("ratings"), path
            if isinstance(node, ast.Import):
                assert not any(alias.name.startswith("ratings") for alias in node.names), path


def test_each_locked_table_round_is_an_event_ranked_by_round_result(user):
    t = play_example(user)
    places = list(TournamentPlace.objects.filter(tournament=t).values_list("entrant__name", "place", "total"))
    assert ratings_update() == 9
    events = list(RatingEvent.objects.filter(kind="table", counted=True))
    assert len(events) == 9
    assert {e.family for e in events} == {"koenigrufen"}
    names = dict(Entrant.objects.filter(tournament=t).values_list("pk", "name"))
    for event in events:
        sums = EXAMPLE_SUMS[int(event.label.split(" · ")[1].split("/")[0]) - 1]
        ranked = {names[int(source[2:])]: rank for source, rank in event.players}
        assert ranked == ranks_of({name: sums[name] for name in ranked})
    assert RatingEntry.objects.count() == 36
    # The ranking is as it was: the ratings wrote nothing of the tournament's.
    assert (
        list(TournamentPlace.objects.filter(tournament=t).values_list("entrant__name", "place", "total"))
        == places
    )


def test_a_table_opened_again_counts_for_nothing_until_it_locks_again(user):
    t = play_example(user)
    ratings_update()
    table = tables(t, 2)[0]
    desk.table_open(tournament=fresh(t), user=user, table_id=table.pk, reason="Tippfehler")
    ratings_update()
    event = RatingEvent.objects.get(kind="table", source_id=table.pk)
    assert not event.counted
    assert not event.entries.exists()
    assert RatingEntry.objects.count() == 32
    assert RoundResult.objects.filter(table=table, counted=False).count() == 4
    # Typed in again, it counts where it was first locked, before every table of round 3.
    order_before = [e.pk for e in RatingEvent.objects.filter(kind="table").order_by("at", "id")]
    by_number = {
        s.entrant.number: EXAMPLE_SUMS[1][s.entrant.name] for s in table.seats.select_related("entrant")
    }
    desk.desk_enter(tournament=fresh(t), user=user, table_id=table.pk, sums=by_number)
    ratings_update()
    assert [e.pk for e in RatingEvent.objects.filter(kind="table").order_by("at", "id")] == order_before
    event.refresh_from_db()
    assert event.counted and event.entries.count() == 4
    assert order_before.index(event.pk) < 6  # rounds 1 and 2 come before round 3's three tables


def test_her_name_in_a_group_and_its_tournaments_is_one_player_once_linked(user, other_user):
    group = groups.group_create(owner=user, name="Dienstag")
    groups.invitation_accept(token=groups.invitation_create(group=group, user=user).token, user=other_user)
    made = tournament(user, group=group)
    draw(made)
    for number, round_sums in enumerate(EXAMPLE_SUMS, 1):
        release(made)
        desk_round(made, number, round_sums)
    anna = Entrant.objects.get(tournament=made, name="Anna")
    assert anna.roster is not None
    ratings_update()
    assert RatingEntry.objects.filter(player_key=f"g:{anna.roster_id}").count() == 3
    links.roster_link(user=other_user, player_id=anna.roster.pk)
    ratings_update()
    assert not RatingEntry.objects.filter(player_key=f"g:{anna.roster_id}").exists()
    assert list(
        RatingEntry.objects.filter(player_key=f"u:{other_user.pk}")
        .order_by("number")
        .values_list("number", flat=True)
    ) == [1, 2, 3]
