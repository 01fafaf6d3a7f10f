"""The ratings against OpenSkill's own computation, step by step; ties; a
correction recomputing only what follows it, equal to a recomputation from
scratch; the order the marks are followed in changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from openskill.models import PlackettLuce

from club.models import GroupPlayer
from club.services import groups
from ratings.models import RatingEntry, RatingEvent, RatingMark
from ratings.services.marks import ratings_update
from ratings.services.model import ranks_of, shown
from ratings.services.recompute import family_recompute
from scoring import services
from scoring.models import Session
from tests.ratings.support import PLAYERS, closed_evening, order, ranks_of_evening


@pytest.fixture
def group(user):
    return groups.group_create(owner=user, name="Dienstag")


def stored(group) -> dict[tuple[int, str], tuple[float, float, int]]:
    """Every entry: (event's session, player's name) → (μ, σ, rank)."""
    names = dict(GroupPlayer.objects.filter(group=group).values_list("pk", "name"))
    return {
        (entry.event.source_id, names[int(entry.player_key[2:])]): (entry.mu, entry.sigma, entry.rank)
        for entry in RatingEntry.objects.select_related("event")
    }


def test_shown_number_rounds_half_up_from_a_thousand():
    assert shown(25.0, 25 / 3) == 1000  # a new player: μ − 3σ = 0
    assert shown(10.0, 2.0) == 1016  # 100 · (10 − 6) / 25 = 16
    assert shown(0.125, 0) == 1001  # 100 · 0.125 / 25 = 0.5: a half goes up
    assert shown(0.12, 0) == 1000  # 0.48
    assert shown(-0.125, 0) == 999  # −0.5: Decimal's ROUND_HALF_UP, the half away from zero
    assert shown(1.0, 3.0) == 968  # 100 · (1 − 9) / 25 = −32


def test_competition_ranks_share_ties():
    assert ranks_of({"a": 5, "b": 7, "c": 5, "d": -1}) == {"b": 1, "a": 2, "c": 2, "d": 4}


def test_a_hand_made_sequence_equals_openskill_step_by_step(group, user):
    sessions = [closed_evening(group, user, index) for index in range(6)]
    assert ratings_update() == 6
    model = PlackettLuce()
    ratings = {name: model.rating() for name in PLAYERS}
    found = stored(group)
    for index, session in enumerate(sessions):
        ranks = ranks_of_evening(*order(index))
        teams = model.rate([[ratings[name]] for name in PLAYERS], ranks=[ranks[name] for name in PLAYERS])
        for name, team in zip(PLAYERS, teams, strict=True):
            ratings[name] = team[0]
            assert found[(session.pk, name)] == (team[0].mu, team[0].sigma, ranks[name])
    assert RatingEntry.objects.filter(player_key__startswith="g:").count() == 24
    assert not RatingMark.objects.exists()


def test_ties_share_a_rank_and_move_alike(group, user):
    session = closed_evening(group, user, 0)  # Anna wins, Bert loses, Carl and Dora tie
    ratings_update()
    found = stored(group)
    assert found[(session.pk, "Carl")] == found[(session.pk, "Dora")]
    assert found[(session.pk, "Carl")][2] == 2
    assert found[(session.pk, "Anna")][0] > found[(session.pk, "Carl")][0] > found[(session.pk, "Bert")][0]


def test_a_correction_of_the_third_of_ten_recomputes_three_to_ten_as_from_scratch(group, user):
    sessions = [closed_evening(group, user, index) for index in range(10)]
    ratings_update()
    kept = {e.event.source_id: e.pk for e in RatingEntry.objects.select_related("event")}
    before = stored(group)
    third = sessions[2]
    # Reopen the third evening, correct its first hand (Carl's garde now lost), close it again.
    services.session_reopen(session=third, user=user)
    hand = third.hands.order_by("number")[0]
    services.hand_edit(
        hand=hand,
        raw={"dealer": "Dora", "taker": "Carl", "contract": "garde", "bouts": 2, "points": 40},
        user=user,
    )
    services.session_close(session=Session.objects.get(pk=third.pk), user=user)
    assert ratings_update() == 1
    after = stored(group)
    # Events 1 and 2 were not touched: the same rows, the same numbers.
    ids = {e.event.source_id: e.pk for e in RatingEntry.objects.select_related("event")}
    for session in sessions[:2]:
        assert ids[session.pk] == kept[session.pk]
        for name in PLAYERS:
            assert after[(session.pk, name)] == before[(session.pk, name)]
    # The third event keeps its place in the order, and its numbers changed.
    event = RatingEvent.objects.get(kind="evening", source_id=third.pk)
    assert list(RatingEvent.objects.filter(family="french").order_by("at", "id")).index(event) == 2
    assert after[(third.pk, "Carl")] != before[(third.pk, "Carl")]
    # Events 3–10 as a recomputation of everything from scratch gives them.
    family_recompute("french", None)
    assert stored(group) == after


def test_the_order_marks_are_followed_in_changes_nothing(group, user, other_user):
    sessions = [closed_evening(group, user, index) for index in range(5)]
    ratings_update()
    at_once = stored(group)
    RatingEntry.objects.all().delete()
    RatingEvent.objects.all().delete()
    # The same evenings' marks followed one at a time, the last first.
    for session in reversed(sessions):
        assert session.closed_at is not None
        RatingMark.objects.create(source=f"evening:{session.pk}", marked_at=session.closed_at)
        ratings_update()
    assert stored(group) == at_once


def test_a_reopened_evening_counts_for_nothing_until_it_is_closed_again(group, user):
    sessions = [closed_evening(group, user, index) for index in range(3)]
    ratings_update()
    services.session_reopen(session=sessions[1], user=user)
    ratings_update()
    assert not RatingEntry.objects.filter(event__source_id=sessions[1].pk).exists()
    assert (
        RatingEntry.objects.get(
            event__source_id=sessions[2].pk,
            player_key__endswith=str(GroupPlayer.objects.get(group=group, name="Anna").pk),
            source__startswith="g:",
        ).number
        == 2
    )
    services.session_close(session=Session.objects.get(pk=sessions[1].pk), user=user)
    ratings_update()
    assert RatingEntry.objects.filter(event__source_id=sessions[1].pk).count() == 4


def test_closing_leaves_a_mark_in_its_transaction_and_computes_nothing(group, user):
    closed_evening(group, user, 0)
    assert RatingMark.objects.filter(source__startswith="evening:").count() == 1
    assert not RatingEntry.objects.exists()


def test_an_open_evening_and_one_outside_a_group_are_not_rated(group, user, make_session):
    from tests.club.regular_table import evening
    from tests.ratings.support import hands

    evening(group, user, hands("Anna", "Bert"))  # open
    lone = make_session()
    services.session_close(session=lone, user=user)
    ratings_update()
    assert not RatingEvent.objects.filter(counted=True).exists()


def test_closing_time_orders_the_events_not_the_day_played(group, user):
    first = closed_evening(group, user, 0)
    second = closed_evening(group, user, 1)
    Session.objects.filter(pk=first.pk).update(played_on=second.played_on + timedelta(days=3))
    ratings_update()
    assert [e.source_id for e in RatingEvent.objects.order_by("at", "id")] == [first.pk, second.pk]


def test_closing_costs_the_answer_one_statement_of_the_ratings_however_many_events(group, user):
    """The answer's share of the ratings is the mark, one statement, at the 1st and at the 11th evening."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.club.regular_table import evening
    from tests.ratings.support import hands

    counts = []
    for index in range(11):
        session, _ = evening(group, user, hands(*order(index)), name=f"Abend {index}")
        with CaptureQueriesContext(connection) as queries:
            services.session_close(session=session, user=user)
        counts.append(sum("ratings_" in query["sql"] for query in queries.captured_queries))
        if index == 9:
            ratings_update()
    assert counts == [1] * 11
