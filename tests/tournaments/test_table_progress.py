"""A table's progress reads the same on every page (TOURNAMENTS.md §3.2): the
hands played toward the target, redeals and deleted hands not counted, at a
five-table too, where each player sits out the hands he deals."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring import services
from scoring.models import Hand
from tests.tournaments import factory
from tests.tournaments.table_support import phone, redeal, rufer
from tournaments.models import TableRound
from tournaments.services import results, tables

pytestmark = pytest.mark.django_db

NINE = ("Anna", "Bernd", "Christa", "Dieter", "Erika", "Franz", "Gerti", "Hans", "Ida")


def five_table_with_five_hands(user):
    """Nine entrants (a four-table and a five-table); at the five-table five
    hands played with the dealer going round, a redeal, and a hand deleted."""
    t = factory.draw(factory.tournament(user, names=NINE))
    factory.release(t)
    five = next(table for table in factory.tables(t, 1) if table.size == 5)
    session = tables.open_table(five)
    names = [seat.name for seat in session.seats.order_by("position")]
    start = names.index(session.first_dealer)

    def record(raw):
        services.hand_record(session=tables.open_table(five), raw=raw, user=user)

    dealers = [names[(start + n) % 5] for n in range(7)]
    for n, dealer in enumerate(dealers[:6]):
        if n == 3:
            record(redeal(dealer))
        others = [name for name in names if name != dealer]
        record(rufer(others[0], others[1], dealer))
    last = (
        Hand.objects.filter(session=session, deleted_at__isnull=True).exclude(type="redeal").latest("number")
    )
    services.hand_delete(hand=last, user=user)
    return factory.fresh(t), TableRound.objects.get(pk=five.pk)


def test_a_five_table_reads_five_of_twenty_played_on_every_page(user, logged_in):
    t, five = five_table_with_five_hands(user)
    assert five.hands_target == 20
    assert tables.played(five) == 5  # 6 played, 1 deleted, the redeal not counted
    token = results.board_share(t)
    board = phone().get(reverse("tournament_board", args=[token])).content.decode()
    table_page = phone().get(reverse("tournament_table", args=[five.link_token])).content.decode()
    signoff = phone().get(reverse("tournament_table_signoff", args=[five.link_token])).content.decode()
    control = logged_in.get(reverse("tournament_detail", args=[t.pk])).content.decode()
    desk_page = logged_in.get(reverse("organiser_table", args=[t.pk, five.pk])).content.decode()
    assert f"Table {five.number}: 5 of 20 played" in board
    assert "Next hand 6 of 20" in table_page and "5 of 20 played" in table_page
    assert "5 of 20 played" in signoff and "Hand 5 of 20" not in signoff
    assert "5 of 20 played" in control
    assert "5 of 20 played" in desk_page
    # No page says another count of this table's hands.
    for page in (board, table_page, signoff, control, desk_page):
        counts = set(re.findall(r"(\d+) of 20 played", page))
        assert counts == {"5"}, counts


def test_a_full_table_says_so_without_a_next_hand(user):
    _, five = five_table_with_five_hands(user)
    TableRound.objects.filter(pk=five.pk).update(hands_target=5)
    results.table_changed(five)
    page = phone().get(reverse("tournament_table", args=[five.link_token])).content.decode()
    assert "5 of 5 played" in page and '<span id="next-hand"></span>' in page
    assert TableRound.objects.get(pk=five.pk).status == "complete"
