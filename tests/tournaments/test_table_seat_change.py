"""The scorer's seat order and first dealer (TOURNAMENTS.md §2.3) are the
table's seats everywhere: the session's seats, the table's first dealer and its
``TableSeat`` rows, which the round plan, the slips and the player cards read."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Seat
from tests.tournaments.table_support import claimed_phone, tournament_day
from tournaments.models import TableRound, TableSeat, Tournament
from tournaments.services import printouts, results

pytestmark = pytest.mark.django_db


def test_a_new_seat_order_moves_the_draws_seats_and_first_dealer(user, logged_in):
    day = tournament_day(user, tables_count=2, hands=16)
    table = day.table(1)
    client = claimed_phone(table)
    order = ["Dieter", "Christa", "Anna", "Bernd"]
    posted = {f"seat{n}": name for n, name in enumerate(order, 1)} | {"first_dealer": "Anna"}
    answer = client.post(reverse("tournament_table_seats", args=[table.link_token]), posted)
    assert answer.status_code == 302
    table = TableRound.objects.select_related("session").get(pk=table.pk)
    session_order = list(
        Seat.objects.filter(session=table.session).order_by("position").values_list("name", flat=True)
    )
    draw_order = list(
        TableSeat.objects.filter(table=table).order_by("position").values_list("entrant__name", flat=True)
    )
    positions = list(
        TableSeat.objects.filter(table=table).order_by("position").values_list("position", flat=True)
    )
    assert session_order == draw_order == order and positions == [1, 2, 3, 4]
    assert table.first_dealer == 3 and table.session.first_dealer == "Anna"
    assert draw_order[table.first_dealer - 1] == "Anna"
    # The organiser's table page, the slip and the player card read the same seats.
    page = logged_in.get(reverse("organiser_table", args=[day.tournament.pk, table.pk])).content.decode()
    shown = [page.index(f"{n}. {name}") for n, name in enumerate(order, 1)]
    assert shown == sorted(shown)
    slip = printouts._slip(table, "")
    assert [seat.entrant.name for seat in slip.seats] == order and slip.dealer == "Anna"
    token = results.board_share(Tournament.objects.get(pk=day.tournament.pk))
    anna = next(e for e in day.entrants if e.name == "Anna")
    card = logged_in.get(reverse("tournament_player_card", args=[token, anna.number])).content.decode()
    assert "Table 1, seat 3" in card and "Dieter, Christa, Bernd" in card
    # The other table is as drawn.
    other = list(
        TableSeat.objects.filter(table=day.tables[1])
        .order_by("position")
        .values_list("entrant__name", flat=True)
    )
    assert other == ["Erika", "Franz", "Gerti", "Hans"]
