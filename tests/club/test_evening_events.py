"""The regular table follows its evenings through the evenings' events
(``scoring.services.events``): received at once, in the transaction of the
change, and a receiver's refusal undoes the change, as a direct call did."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import transaction

from club.models import Booking, EveningResult, GroupPlayer, RosterSeat
from club.services import groups
from scoring import services
from scoring.models import Hand
from scoring.services import events
from tests.club.regular_table import evening

GARDE = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}


@pytest.fixture
def group(user):
    return groups.group_create(owner=user, name="Dienstag", money_rate=Decimal("0.10"))


def test_the_club_app_hears_every_event_of_an_evening():
    for signal, uid in (
        (events.sheet_changed, "club.sheet_changed"),
        (events.evening_settled, "club.evening_settled"),
        (events.seat_renamed, "club.seat_renamed"),
    ):
        assert uid in {key[0] for key, *_ in signal.receivers}  # connected in ClubConfig.ready


def test_the_statistics_are_written_inside_the_transaction_that_records_the_hand(group, user):
    session, _ = evening(group, user, [])
    with transaction.atomic():
        services.hand_record(session=session, raw=GARDE, user=user)
        # Not yet committed, and already counted: the same transaction.
        assert EveningResult.objects.get(session=session, player__name="Anna").hands == 1
        transaction.set_rollback(True)
    assert not EveningResult.objects.filter(session=session, hands__gt=0).exists()


def test_a_receiver_that_refuses_undoes_the_evenings_change(group, user):
    session, _ = evening(group, user, [])

    def refuse(**_):
        raise RuntimeError("the regular table refuses")

    events.sheet_changed.connect(refuse, dispatch_uid="test.refuse")
    try:
        with pytest.raises(RuntimeError):
            services.hand_record(session=session, raw=GARDE, user=user)
    finally:
        events.sheet_changed.disconnect(dispatch_uid="test.refuse")
    assert not Hand.objects.filter(session=session).exists()  # nothing of the hand was stored


def test_closing_books_and_a_renamed_seat_follows_the_roster(group, user):
    session, _ = evening(group, user, [GARDE], money_rate=Decimal("0.10"))
    services.session_close(session=session, user=user)
    assert Booking.objects.filter(session=session, kind="evening").count() == 1
    services.session_rename_player(session=session, user=user, old="Bert", new="Berta")
    seat = session.seats.get(name="Berta")
    assert RosterSeat.objects.get(seat=seat).player == GroupPlayer.objects.get(group=group, name="Berta")
    assert Booking.objects.filter(session=session, kind="reversal").count() == 1  # booked anew for Berta


def test_an_evening_of_no_group_leaves_the_regular_table_alone(make_session, user):
    session = make_session()
    services.hand_record(session=session, raw=GARDE, user=user)
    services.session_rename_player(session=session, user=user, old="Bert", new="Berta")
    assert not EveningResult.objects.exists() and not Booking.objects.exists()
