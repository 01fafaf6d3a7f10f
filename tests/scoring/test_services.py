"""Services: what is stored, what is refused, and that a refusal writes nothing."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from scoring import services
from scoring.engine import InvalidInput
from scoring.models import Hand, Player, Seat, Session
from scoring.sheet import build_sheet
from tests.conftest import seed

SEED_RUNNING_TOTALS = [
    (240, -80, -80, -80),
    (144, 208, -176, -176),
    (216, 280, -392, -104),
    (186, 250, -302, -134),
    (108, 172, -380, 100),
]


def record_all(session, hands):
    return [services.hand_record(session=session, raw=hand) for hand in hands]


def counts():
    return (Session.objects.count(), Seat.objects.count(), Player.objects.count(), Hand.objects.count())


class TestSessionCreate:
    def test_seats_keep_the_playing_order_and_every_house_rule_is_stored(self, make_session):
        session = make_session(players=("Dora", "Anna", "Carl", "Bert"))
        assert [seat.name for seat in session.seats.all()] == ["Dora", "Anna", "Carl", "Bert"]
        assert session.options == {"five_player_split": "taker_double", "round_to": 1}

    def test_a_name_used_before_is_the_same_player_again(self, make_session, user):
        first = make_session()
        second = make_session(players=("Anna", "Bert", "Emil"))
        assert Player.objects.filter(owner=user).count() == 5
        assert first.seats.get(name="Anna").player == second.seats.get(name="Anna").player

    def test_players_are_per_account(self, make_session, other_user):
        make_session()
        make_session(owner=other_user)
        assert Player.objects.filter(name="Anna").count() == 2

    @pytest.mark.parametrize(
        ("players", "options", "field"),
        [
            (("Anna", "Bert"), {}, "players"),
            (("Anna", "Anna", "Carl"), {}, "players"),
            (("Anna", "Bert", "Carl", "Dora", "Emil", "Fritz", "Gina"), {}, "players"),
            (("Anna", "Bert", "Carl"), {"round_to": 3}, "options.round_to"),
            (("Anna", "Bert", "Carl"), {"five_player_split": "thirds"}, "options.five_player_split"),
            (("Anna", "Bert", "Carl"), {"rounding": 5}, "options.rounding"),
        ],
    )
    def test_refused_input_names_the_field_and_writes_nothing(self, make_session, players, options, field):
        before = counts()
        with pytest.raises(InvalidInput) as caught:
            make_session(players=players, options=options)
        assert caught.value.field == field
        assert counts() == before


class TestHandRecord:
    def test_the_seed_table_is_stored_with_its_deltas_and_breakdown(self, make_session):
        session = make_session()
        hands = record_all(session, seed("french-seed-table.json")["hands"])
        assert [h.number for h in hands] == [1, 2, 3, 4, 5]
        assert hands[0].deltas == {"Anna": 240, "Bert": -80, "Carl": -80, "Dora": -80}
        assert (
            hands[1].breakdown_lines()[0].render() == "(25 + 13 + 10) × 2 = 96 (Garde, petit au bout attack)"
        )
        assert hands[3].note == "Petit lost in the last trick: only 2 bouts"
        sheet = build_sheet(session)
        assert [tuple(int(t) for t in row.totals) for row in sheet.rows] == SEED_RUNNING_TOTALS

    def test_inputs_are_stored_as_the_session_file_writes_them(self, make_session):
        session = make_session()
        hand = services.hand_record(
            session=session,
            raw={"dealer": "Dora", "taker": "Anna", "contract": "petite", "bouts": 1, "points": "55.5"},
        )
        assert hand.inputs == {"taker": "Anna", "contract": "prise", "bouts": 1, "points": 55.5}
        assert hand.as_session_hand() == {"dealer": "Dora", **hand.inputs}

    def test_a_resent_form_is_stored_once(self, make_session):
        session = make_session()
        raw = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
        first = services.hand_record(session=session, raw=raw, client_token="tap-1")
        again = services.hand_record(session=session, raw=raw, client_token="tap-1")
        assert first.pk == again.pk
        assert session.hands.count() == 1

    def test_different_tokens_are_different_hands_numbered_in_order(self, make_session):
        session = make_session()
        raw = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
        numbers = [services.hand_record(session=session, raw=raw, client_token=t).number for t in "abc"]
        assert numbers == [1, 2, 3]

    @pytest.mark.parametrize(
        ("raw", "field"),
        [
            ({"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 3, "points": 10}, "points"),
            ({"dealer": "Dora", "taker": "Zoe", "contract": "garde", "bouts": 2, "points": 50}, "taker"),
            ({"dealer": "Dora", "taker": "Anna", "contract": "triple", "bouts": 2, "points": 50}, "contract"),
            ({"dealer": "Nobody", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 50}, "dealer"),
            ({"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2}, "points"),
            (
                {
                    "dealer": "Dora",
                    "taker": "Anna",
                    "contract": "garde",
                    "bouts": 2,
                    "points": 50,
                    "partner": "Bert",
                },
                "partner",
            ),
            (
                {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 50, "pts": 1},
                "pts",
            ),
        ],
    )
    def test_a_refused_hand_names_the_field_and_writes_nothing(self, make_session, raw, field):
        session = make_session()
        before = counts()
        with pytest.raises(InvalidInput) as caught:
            services.hand_record(session=session, raw=raw, client_token="x")
        assert caught.value.field == field
        assert counts() == before


class TestHandEdit:
    def test_a_corrected_hand_is_scored_again_and_the_totals_follow(self, make_session):
        session = make_session()
        hands = record_all(session, seed("french-seed-table.json")["hands"])
        services.hand_edit(
            hand=hands[0],
            raw={"dealer": "Dora", "taker": "Anna", "contract": "prise", "bouts": 2, "points": 56},
            expected_version=1,
        )
        hands[0].refresh_from_db()
        assert hands[0].deltas == {"Anna": 120, "Bert": -40, "Carl": -40, "Dora": -40}
        assert hands[0].version == 2
        totals = build_sheet(session).summary.totals
        assert totals == {"Anna": -12, "Bert": 212, "Carl": -340, "Dora": 140}

    def test_an_edit_from_a_stale_form_is_a_conflict_and_changes_nothing(self, make_session):
        session = make_session()
        hand = services.hand_record(
            session=session,
            raw={"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56},
        )
        services.hand_edit(
            hand=hand,
            raw={"dealer": "Dora", "taker": "Bert", "contract": "garde", "bouts": 2, "points": 56},
            expected_version=1,
        )
        with pytest.raises(services.HandConflict) as caught:
            services.hand_edit(
                hand=hand,
                raw={"dealer": "Dora", "taker": "Carl", "contract": "garde", "bouts": 2, "points": 56},
                expected_version=1,
            )
        assert caught.value.current.inputs["taker"] == "Bert"
        hand.refresh_from_db()
        assert hand.inputs["taker"] == "Bert"

    def test_a_refused_edit_leaves_the_hand_as_it_was(self, make_session):
        session = make_session()
        hand = services.hand_record(
            session=session,
            raw={"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56},
        )
        with pytest.raises(InvalidInput):
            services.hand_edit(
                hand=hand,
                raw={"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 0, "points": 90},
            )
        hand.refresh_from_db()
        assert (hand.inputs["points"], hand.version, hand.deltas["Anna"]) == (56, 1, 240)


class TestDeleteAndUndo:
    def test_a_deleted_hand_leaves_the_sheet_and_undo_puts_it_back_in_its_place(self, make_session):
        session = make_session()
        hands = record_all(session, seed("french-seed-table.json")["hands"])
        services.hand_delete(hand=hands[1])
        sheet = build_sheet(session)
        assert [row.hand_id for row in sheet.rows] == [h.pk for h in hands if h != hands[1]]
        assert [row.index for row in sheet.rows] == [1, 2, 3, 4]
        assert sheet.summary.totals["Bert"] == 172 - 288
        services.hand_restore(hand=hands[1])
        sheet = build_sheet(session)
        assert [row.hand_id for row in sheet.rows] == [h.pk for h in hands]
        assert sheet.summary.totals == {"Anna": 108, "Bert": 172, "Carl": -380, "Dora": 100}

    def test_a_hand_recorded_after_a_delete_gets_a_new_number(self, make_session):
        session = make_session()
        hands = record_all(session, seed("french-seed-table.json")["hands"][:2])
        services.hand_delete(hand=hands[1])
        newer = services.hand_record(
            session=session,
            raw={"dealer": "Bert", "taker": "Carl", "contract": "garde", "bouts": 2, "points": 56},
        )
        assert newer.number == 3


class TestSheet:
    def test_the_next_dealer_is_the_player_after_the_last_dealer(self, make_session):
        session = make_session()
        assert build_sheet(session).next_dealer == "Dora"
        record_all(session, seed("french-seed-table.json")["hands"][:2])
        assert build_sheet(session).next_dealer == "Bert"

    def test_settlement_with_a_money_rate(self, make_session):
        session = make_session(money_rate=Decimal("0.05"))
        record_all(session, seed("french-seed-table.json")["hands"])
        settlement = build_sheet(session).settlement
        assert settlement.net == {"Anna": 108, "Bert": 172, "Carl": -380, "Dora": 100}
        assert settlement.money == {
            "Anna": Decimal("5.40"),
            "Bert": Decimal("8.60"),
            "Carl": Decimal("-19.00"),
            "Dora": Decimal("5.00"),
        }
        assert {(t.payer, t.payee, t.points) for t in settlement.transfers} == {
            ("Carl", "Anna", Fraction(108)),
            ("Carl", "Bert", Fraction(172)),
            ("Carl", "Dora", Fraction(100)),
        }

    def test_a_redeal_scores_nothing_and_passes_the_deal(self, make_session):
        session = make_session()
        services.hand_record(session=session, raw={"dealer": "Dora", "type": "redeal"})
        sheet = build_sheet(session)
        assert sheet.rows[0].deltas == (0, 0, 0, 0)
        assert sheet.next_dealer == "Anna"

    def test_six_at_the_table_the_dealer_sits_out(self, make_session):
        session = make_session(players=("Anna", "Bert", "Carl", "Dora", "Emil", "Fritz"))
        hand = services.hand_record(
            session=session,
            raw={
                "dealer": "Carl",
                "taker": "Anna",
                "contract": "garde",
                "bouts": 2,
                "points": 56,
                "partner": "Bert",
            },
        )
        assert hand.sitting_out == "Carl"
        assert hand.deltas == {"Anna": 160, "Bert": 80, "Carl": 0, "Dora": -80, "Emil": -80, "Fritz": -80}


def test_a_hand_without_a_dealer_is_dealt_by_the_next_player(make_session):
    session = make_session()
    services.hand_record(session=session, raw={"dealer": "Bert", "type": "redeal"})
    hand = services.hand_record(
        session=session, raw={"taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
    )
    assert hand.dealer == "Carl"
