"""The Kasse: closed evenings booked, payments, reversals, balances carried from
evening to evening, the fewest transfers that clear everything."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.urls import reverse

from club.models import Booking, BookingLine, EveningResult, GroupSession, Membership, RosterSeat
from club.services import groups, kasse, stats
from scoring import services
from scoring.engine import InvalidInput
from scoring.models import Session
from tests.club.regular_table import evening, player

# Anna's garde, 2 bouts, 56 points: Anna +240, the others −80 each.
GARDE = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
# Bert's garde, 2 bouts, 56 points: Bert +240, the others −80 each.
BERTS = {"dealer": "Anna", "taker": "Bert", "contract": "garde", "bouts": 2, "points": 56}
RATE = Decimal("0.05")
# Anna's garde, her name misspelt at the table.
ANAS = {**GARDE, "taker": "Ana"}


@pytest.fixture
def group(user):
    return groups.group_create(owner=user, name="Dienstag", money_rate=RATE)


def balances(group) -> dict[str, Decimal]:
    return {b.player.name if b.player else "box": b.amount for b in kasse.kasse_of(group).balances}


def booked_sums() -> set[Decimal]:
    return {
        sum((line.amount for line in booking.lines.all()), Decimal(0)) for booking in Booking.objects.all()
    }


class TestEvenings:
    def test_a_closed_evening_books_each_players_money_summing_to_zero(self, group, user):
        session, _ = evening(group, user, [GARDE], money_rate=RATE)
        services.session_close(session=session, user=user)
        booking = Booking.objects.get()
        assert (booking.kind, booking.session, booking.created_by) == ("evening", session, user)
        assert {line.player.name: line.amount for line in booking.lines.all()} == {
            "Anna": Decimal("12.00"),
            "Bert": Decimal("-4.00"),
            "Carl": Decimal("-4.00"),
            "Dora": Decimal("-4.00"),
        }
        assert booked_sums() == {Decimal(0)}
        assert Session.objects.get(pk=session.pk).closed_at is not None

    def test_money_is_rounded_once_and_still_sums_to_zero(self, group, user):
        # 80 points at 0.0333 a point: −2.664 each, Anna 7.992; rounded to cents the
        # amounts must still sum to zero.
        session, _ = evening(group, user, [GARDE], money_rate=Decimal("0.0333"))
        services.session_close(session=session, user=user)
        amounts = list(BookingLine.objects.values_list("amount", flat=True))
        assert sum(amounts) == 0 and all(a == a.quantize(Decimal("0.01")) for a in amounts)

    def test_an_evening_without_a_money_rate_or_outside_a_group_books_nothing(
        self, group, user, make_session
    ):
        session, _ = evening(group, user, [GARDE])
        services.session_close(session=session, user=user)
        alone = make_session(money_rate=RATE)
        services.hand_record(session=alone, raw=GARDE)
        services.session_close(session=alone, user=user)
        assert not Booking.objects.exists()

    def test_closing_twice_books_once(self, group, user):
        session, _ = evening(group, user, [GARDE], money_rate=RATE)
        services.session_close(session=session, user=user)
        services.session_close(session=session, user=user)
        assert Booking.objects.count() == 1

    def test_reopening_reverses_the_booking_and_closing_again_books_the_corrected_evening(self, group, user):
        session, hands = evening(group, user, [GARDE], money_rate=RATE)
        services.session_close(session=session, user=user)
        services.session_reopen(session=session, user=user)
        reversal = Booking.objects.get(kind="reversal")
        assert reversal.reverses is not None and reversal.reverses.kind == "evening"
        assert set(balances(group).values()) == {Decimal(0)}
        services.hand_edit(hand=hands[0], raw={**GARDE, "taker": "Bert"}, user=user)
        services.session_close(session=session, user=user)
        assert balances(group)["Bert"] == Decimal("12.00") and balances(group)["Anna"] == Decimal("-4.00")
        assert Booking.objects.count() == 3 and booked_sums() == {Decimal(0)}

    def test_balances_carry_over_from_evening_to_evening(self, group, user):
        for hand in (GARDE, BERTS):
            session, _ = evening(group, user, [hand], money_rate=RATE)
            services.session_close(session=session, user=user)
        assert balances(group) == {
            "Anna": Decimal("8.00"),
            "Bert": Decimal("8.00"),
            "Carl": Decimal("-8.00"),
            "Dora": Decimal("-8.00"),
            "box": Decimal(0),
        }


class TestPayments:
    @pytest.fixture
    def closed(self, group, user):
        session, _ = evening(group, user, [GARDE], money_rate=RATE)
        services.session_close(session=session, user=user)
        return session

    def test_a_payment_between_players_and_into_the_box(self, group, user, closed):
        anna, bert, carl = (player(group, name) for name in ("Anna", "Bert", "Carl"))
        kasse.payment_record(
            group=group, payer=bert, payee=anna, amount=Decimal("4.00"), user=user, note="bar"
        )
        kasse.payment_record(group=group, payer=carl, payee=None, amount=Decimal("4.00"), user=user)
        found = balances(group)
        assert (found["Anna"], found["Bert"], found["Carl"], found["Dora"]) == (
            Decimal("8.00"),
            Decimal("0.00"),
            Decimal("0.00"),
            Decimal("-4.00"),
        )
        assert kasse.kasse_of(group).box == Decimal("4.00")
        payment = Booking.objects.filter(kind="payment").order_by("id").first()
        assert payment is not None and (payment.created_by, payment.note) == (user, "bar")

    def test_the_fewest_transfers_clear_every_balance_box_included(self, group, user, closed):
        carl = player(group, "Carl")
        kasse.payment_record(group=group, payer=carl, payee=None, amount=Decimal("4.00"), user=user)
        state = kasse.kasse_of(group)
        after = {b.player.pk if b.player else None: b.amount for b in state.balances}
        for transfer in state.transfers:
            after[transfer.payer.pk if transfer.payer else None] += transfer.amount
            after[transfer.payee.pk if transfer.payee else None] -= transfer.amount
        assert set(after.values()) == {Decimal(0)}
        assert len(state.transfers) == 3  # Bert, Dora and the box each pay Anna

    def test_a_payment_is_reversed_by_a_counter_booking_never_changed_in_place(self, group, user, closed):
        anna, bert = player(group, "Anna"), player(group, "Bert")
        payment = kasse.payment_record(group=group, payer=bert, payee=anna, amount=Decimal("4.00"), user=user)
        before = balances(group)
        reversal = kasse.booking_reverse(booking=payment, user=user, note="wrong")
        assert reversal.reverses == payment and reversal.kind == "reversal"
        assert balances(group)["Bert"] == before["Bert"] - Decimal("4.00")
        assert list(payment.lines.values_list("amount", flat=True)) == [Decimal("4.00"), Decimal("-4.00")]
        with pytest.raises(kasse.KasseRefused):
            kasse.booking_reverse(booking=payment, user=user)
        with pytest.raises(kasse.KasseRefused):
            kasse.booking_reverse(booking=reversal, user=user)
        with pytest.raises(kasse.KasseRefused):
            kasse.booking_reverse(booking=Booking.objects.get(kind="evening"), user=user)
        assert Booking.objects.count() == 3

    @pytest.mark.parametrize(
        ("amount", "same", "field"),
        [
            (Decimal("0"), False, "amount"),
            (Decimal("-1"), False, "amount"),
            (Decimal("1.005"), False, "amount"),
            (Decimal("100000.01"), False, "amount"),
            (Decimal("NaN"), False, "amount"),
            (Decimal("1"), True, "payee"),
        ],
    )
    def test_a_refused_payment_names_the_field_and_books_nothing(
        self, group, user, closed, amount, same, field
    ):
        anna, bert = player(group, "Anna"), player(group, "Bert")
        with pytest.raises(InvalidInput) as refused:
            kasse.payment_record(
                group=group, payer=bert, payee=bert if same else anna, amount=amount, user=user
            )
        assert refused.value.field == field
        assert Booking.objects.count() == 1

    def test_a_player_of_another_group_cannot_be_booked(self, group, user, other_user, closed):
        other = groups.group_create(owner=other_user, name="Freitag")
        stranger = groups.roster_add(group=other, name="Zoe")
        with pytest.raises(InvalidInput) as refused:
            kasse.payment_record(group=group, payer=stranger, payee=None, amount=Decimal(1), user=user)
        assert refused.value.field == "payer" and Booking.objects.count() == 1

    def test_the_page_books_and_reverses_payments_and_refuses_bad_input(self, logged_in, group, closed):
        anna, bert = player(group, "Anna"), player(group, "Bert")
        url = reverse("group_kasse", args=[group.pk])
        response = logged_in.post(url, {"payer": bert.pk, "payee": anna.pk, "amount": "4", "note": ""})
        assert response.status_code == 302
        page = logged_in.get(url).content.decode()
        assert 'id="balances"' in page and "Who pays whom" in page
        refused = logged_in.post(url, {"payer": bert.pk, "payee": "nobody", "amount": "4,001"})
        assert refused.status_code == 400 and 'id="id_payee-error"' in refused.content.decode()
        payment = Booking.objects.get(kind="payment")
        logged_in.post(reverse("kasse_reverse", args=[group.pk, payment.pk]))
        assert Booking.objects.filter(reverses=payment).exists()

    def test_members_close_evenings_and_only_the_owners_reopen_them(
        self, client_for, other_user, group, closed
    ):
        Membership.objects.create(group=group, user=other_user)
        member = client_for(other_user)
        member.post(reverse("group_evening_reopen", args=[group.pk, closed.pk]))
        assert Session.objects.get(pk=closed.pk).closed_at is not None
        assert Booking.objects.count() == 1


def standing(session: Session) -> list[Booking]:
    """The evening's bookings that nothing has reversed."""
    return list(Booking.objects.filter(session=session, kind="evening", reversed_by__isnull=True))


class TestADeletedEvening:
    @pytest.fixture
    def closed(self, group, user):
        session, _ = evening(group, user, [GARDE], money_rate=RATE)
        services.session_close(session=session, user=user)
        return session

    def test_deleting_a_booked_evening_reverses_its_booking_by_a_counter_booking(self, group, user, closed):
        booked = Booking.objects.get(kind="evening")
        services.session_delete(session=closed, user=user)
        reversal = Booking.objects.get(kind="reversal")
        assert (reversal.reverses, reversal.session, reversal.created_by) == (booked, closed, user)
        assert list(booked.lines.order_by("player__name").values_list("amount", flat=True)) == [
            Decimal("12.00"),
            Decimal("-4.00"),
            Decimal("-4.00"),
            Decimal("-4.00"),
        ]  # the booking itself stays as it was
        assert set(balances(group).values()) == {Decimal(0)} and kasse.kasse_of(group).transfers == ()
        assert booked_sums() == {Decimal(0)} and standing(closed) == []

    def test_restoring_it_books_it_again_and_balances_and_transfers_follow(self, group, user, closed):
        services.session_delete(session=closed, user=user)
        services.session_restore(session=closed, user=user)
        [again] = standing(closed)
        assert Booking.objects.count() == 3 and again.kind == "evening"
        assert balances(group)["Anna"] == Decimal("12.00") and balances(group)["Bert"] == Decimal("-4.00")
        assert len(kasse.kasse_of(group).transfers) == 3  # Bert, Carl and Dora each pay Anna

    def test_deleting_and_restoring_twice_keeps_one_standing_booking(self, group, user, closed):
        for _ in range(2):
            services.session_delete(session=closed, user=user)
            services.session_delete(session=closed, user=user)
            services.session_restore(session=closed, user=user)
            services.session_restore(session=closed, user=user)
        assert len(standing(closed)) == 1 and Booking.objects.count() == 5
        assert balances(group)["Anna"] == Decimal("12.00")

    def test_an_open_evening_deleted_and_restored_books_nothing(self, group, user):
        session, _ = evening(group, user, [GARDE], money_rate=RATE)
        services.session_delete(session=session, user=user)
        services.session_restore(session=session, user=user)
        assert not Booking.objects.exists()

    def test_a_deleted_evening_cannot_be_closed_reopened_or_brought_in_through_the_group(
        self, logged_in, group, user, make_session
    ):
        session, _ = evening(group, user, [GARDE], money_rate=RATE)
        services.session_delete(session=session, user=user)
        response = logged_in.post(reverse("group_evening_close", args=[group.pk, session.pk]))
        assert response.status_code == 404 and not Booking.objects.exists()
        closed, _ = evening(group, user, [GARDE], money_rate=RATE)
        services.session_close(session=closed, user=user)
        services.session_delete(session=closed, user=user)
        response = logged_in.post(reverse("group_evening_reopen", args=[group.pk, closed.pk]))
        assert response.status_code == 404 and Session.objects.get(pk=closed.pk).closed_at is not None
        alone = make_session(money_rate=RATE)
        services.session_delete(session=alone, user=user)
        response = logged_in.post(reverse("group_evening_add", args=[group.pk]), {"session": alone.pk})
        assert response.status_code == 404 and not GroupSession.objects.filter(session=alone).exists()
        with pytest.raises(InvalidInput):
            groups.group_session_add(group=group, session=alone)

    def test_the_groups_page_lists_no_deleted_evening(self, logged_in, group, user, make_session):
        session, _ = evening(group, user, [GARDE], money_rate=RATE, name="Gelöschter Abend")
        services.session_delete(session=session, user=user)
        alone = make_session(money_rate=RATE)
        Session.objects.filter(pk=alone.pk).update(name="Weggeworfen")
        services.session_delete(session=alone, user=user)
        page = logged_in.get(reverse("group_detail", args=[group.pk])).content.decode()
        assert "Gelöschter Abend" not in page and "Weggeworfen" not in page


class TestAClosedEveningBroughtIn:
    def test_a_session_closed_before_it_joined_the_group_is_booked_as_it_joins(
        self, logged_in, group, user, make_session
    ):
        alone = make_session(money_rate=RATE)
        services.hand_record(session=alone, raw=GARDE)
        services.session_close(session=alone, user=user)
        response = logged_in.post(reverse("group_evening_add", args=[group.pk]), {"session": alone.pk})
        assert response.status_code == 302
        [booking] = standing(alone)
        assert (booking.group, booking.created_by) == (group, user)
        assert balances(group)["Anna"] == Decimal("12.00") and booked_sums() == {Decimal(0)}
        # Reopened and closed again inside the group, it stays booked once.
        services.session_reopen(session=alone, user=user)
        services.session_close(session=alone, user=user)
        assert len(standing(alone)) == 1 and balances(group)["Anna"] == Decimal("12.00")

    def test_an_open_session_or_one_without_a_money_rate_books_nothing_as_it_joins(
        self, group, user, make_session
    ):
        open_one = make_session(money_rate=RATE)
        services.hand_record(session=open_one, raw=GARDE)
        groups.group_session_add(group=group, session=open_one)
        in_points = make_session()
        services.hand_record(session=in_points, raw=GARDE)
        services.session_close(session=in_points, user=user)
        groups.group_session_add(group=group, session=in_points)
        assert not Booking.objects.exists()
        services.session_close(session=open_one, user=user)
        assert len(standing(open_one)) == 1

    def test_an_imported_session_closed_and_brought_in_is_booked(self, group, user):
        text = json.dumps(
            {
                "format": "tarockscore/1",
                "variant": "french",
                "players": ["Anna", "Bert", "Carl", "Dora"],
                "money_rate": "0.05",
                "hands": [GARDE],
            }
        )
        imported = services.session_import(owner=user, text=text)
        services.session_close(session=imported, user=user)
        groups.group_session_add(group=group, session=imported)
        assert balances(group)["Anna"] == Decimal("12.00")


class TestARenamedPlayer:
    """Correcting a name moves the seat to the roster's player of that name."""

    def test_the_seat_moves_to_the_roster_player_of_the_new_name_and_a_misspelt_one_goes(self, group, user):
        session, _ = evening(group, user, [ANAS], money_rate=RATE, players=("Ana", "Bert", "Carl", "Dora"))
        evening(group, user, [GARDE], money_rate=RATE)  # Anna played before
        services.session_rename_player(session=session, user=user, old="Ana", new="Anna")
        seat = session.seats.get(name="Anna")
        assert RosterSeat.objects.get(seat=seat).player == player(group, "Anna")
        assert not group.roster.filter(name="Ana").exists()  # only this seat knew the misspelt name
        anna = stats.player_stats(player(group, "Anna"))
        assert (anna.evenings, anna.hands) == (2, 2)
        assert EveningResult.objects.filter(session=session, player=player(group, "Anna")).count() == 1

    def test_a_new_name_joins_the_roster(self, group, user):
        session, _ = evening(group, user, [GARDE], money_rate=RATE)
        services.session_rename_player(session=session, user=user, old="Dora", new="Doris")
        assert RosterSeat.objects.get(seat=session.seats.get(name="Doris")).player == player(group, "Doris")
        assert stats.player_stats(player(group, "Doris")).hands == 1
        assert not group.roster.filter(name="Dora").exists()

    def test_a_closed_evening_is_booked_again_for_the_right_player_by_counter_bookings(self, group, user):
        before, _ = evening(group, user, [BERTS], money_rate=RATE)  # Anna −4.00
        services.session_close(session=before, user=user)
        session, _ = evening(group, user, [ANAS], money_rate=RATE, players=("Ana", "Bert", "Carl", "Dora"))
        services.session_close(session=session, user=user)
        assert balances(group)["Ana"] == Decimal("12.00")
        services.session_rename_player(session=session, user=user, old="Ana", new="Anna")
        found = balances(group)
        assert (found["Anna"], found["Ana"], found["Bert"]) == (
            Decimal("8.00"),
            Decimal("0.00"),  # kept on the roster: its bookings are never deleted
            Decimal("8.00"),
        )
        assert sum(found.values()) == 0 and booked_sums() == {Decimal(0)}
        assert [b.kind for b in Booking.objects.filter(session=session).order_by("id")] == [
            "evening",
            "reversal",
            "evening",
        ]
        # Statistics and Kasse agree: each roster player once per evening, money as booked.
        for name in ("Anna", "Bert", "Carl", "Dora"):
            assert stats.player_stats(player(group, name)).money == found[name]
        assert EveningResult.objects.filter(player=player(group, "Ana")).count() == 0
        table = stats.season_table(group, stats.season_range(group, str(session.played_on.year)))
        [game] = table.games
        assert sorted(r.name for r in game.rows) == ["Anna", "Bert", "Carl", "Dora"]
        assert sum(r.money or 0 for r in game.rows) == 0

    def test_renaming_in_an_open_evening_books_nothing(self, group, user):
        session, _ = evening(group, user, [GARDE], money_rate=RATE)
        services.session_rename_player(session=session, user=user, old="Anna", new="Annie")
        assert not Booking.objects.exists()
