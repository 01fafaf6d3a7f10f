"""Money at a tournament table and the Kontra cash (TOURNAMENTS.md §4.6); the
§9 figures are in test_core_example.py."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.core.money import kontra_cash, kontra_points, table_money, transfers

RATE = Decimal("0.10")


def zero_sum(values):
    return [*values, -sum(values)]


def test_no_rate_no_money():
    assert table_money({"a": Fraction(3), "b": Fraction(-3)}, None) is None
    cash = kontra_cash([{"a": Fraction(2), "b": Fraction(-2)}], None, "per_hand")
    assert cash.amounts == {"a": Decimal("0.00"), "b": Decimal("0.00")}
    assert cash.hands == ((),)


def test_half_points_round_once_and_still_sum_to_zero():
    money = table_money({"a": Fraction(1, 2), "b": Fraction(1, 2), "c": Fraction(-1)}, Decimal("0.05"))
    assert money is not None
    assert sum(money.values()) == 0
    assert money["c"] == Decimal("-0.05")


@given(
    st.lists(st.integers(-300, 300), min_size=3, max_size=4), st.sampled_from(["0.10", "0.05", "0.0125", "1"])
)
def test_money_and_transfers_settle_each_table(values, rate):
    names = ["a", "b", "c", "d", "e"][: len(values) + 1]
    sums = dict(zip(names, map(Fraction, zero_sum(values)), strict=True))
    money = table_money(sums, Decimal(rate))
    assert money is not None and sum(money.values()) == 0
    for name in names:
        assert abs(money[name] - Decimal(sums[name].numerator) * Decimal(rate)) <= Decimal("0.02")
    paid = dict.fromkeys(names, Decimal(0))
    payments = transfers(money)
    assert len(payments) <= len([n for n in names if money[n]]) - 1 or not any(money.values())
    for payer, payee, amount in payments:
        assert amount > 0
        paid[payer] -= amount
        paid[payee] += amount
    assert paid == money


def test_transfers_refuse_amounts_that_do_not_sum_to_zero():
    with pytest.raises(ValueError, match="sum to zero"):
        transfers({"a": Decimal("1.00"), "b": Decimal("-0.90")})
    with pytest.raises(ValueError, match="sum to zero"):
        table_money({"a": Fraction(1)}, RATE)


def test_kontra_points_are_money_minus_schrift_and_zero_without_kontra():
    assert kontra_points({"a": Fraction(6), "b": Fraction(-6)}, {"a": Fraction(6), "b": Fraction(-6)}) == {
        "a": 0,
        "b": 0,
    }
    assert kontra_points({"a": Fraction(-12), "b": Fraction(12)}, None) == {"a": 0, "b": 0}
    # Piccolo won, D kontra'd: Schrift +6 −2 −2 −2, money +8 −2 −2 −4 (docs/rules.md §4.17 a #3)
    schrift = dict(zip("ABCD", map(Fraction, (6, -2, -2, -2)), strict=True))
    money = dict(zip("ABCD", map(Fraction, (8, -2, -2, -4)), strict=True))
    assert kontra_points(schrift, money) == {"A": 2, "B": 0, "C": 0, "D": -2}


def test_kontra_cash_modes_over_several_hands():
    hands = [
        {"A": Fraction(2), "B": Fraction(0), "C": Fraction(0), "D": Fraction(-2)},
        {"A": Fraction(-4), "B": Fraction(4), "C": Fraction(0), "D": Fraction(0)},
        {"A": Fraction(0), "B": Fraction(0), "C": Fraction(0), "D": Fraction(0)},
    ]
    per_hand = kontra_cash(hands, RATE, "per_hand")
    assert per_hand.hands == (
        (("D", "A", Decimal("0.20")),),
        (("A", "B", Decimal("0.40")),),
        (),
    )
    assert per_hand.amounts == {"A": Decimal("-0.20"), "B": Decimal("0.40"), "C": 0, "D": Decimal("-0.20")}
    with_round = kontra_cash(hands, RATE, "with_round")
    assert with_round.with_round == per_hand.amounts
    charity = kontra_cash(hands, RATE, "charity")
    # each hand's loser pays the box; A lost in hand 2 though he won in hand 1
    assert charity.box == {"A": Decimal("0.40"), "D": Decimal("0.20")}
    assert charity.box_total == Decimal("0.60")
    with pytest.raises(ValueError, match="kontra_cash: must be one of per_hand, with_round, charity"):
        kontra_cash(hands, RATE, "pocket")
    with pytest.raises(ValueError, match="sum to zero"):
        kontra_cash([{"A": Fraction(1)}], RATE, "per_hand")


@given(st.lists(st.lists(st.integers(-8, 8), min_size=3, max_size=3), min_size=1, max_size=20))
def test_kontra_cash_properties(rows):
    hands = [dict(zip("ABCD", map(Fraction, zero_sum(row)), strict=True)) for row in rows]
    per_hand = kontra_cash(hands, RATE, "per_hand")
    with_round = kontra_cash(hands, RATE, "with_round")
    charity = kontra_cash(hands, RATE, "charity")
    assert sum(per_hand.amounts.values()) == 0
    assert per_hand.amounts == with_round.with_round  # exact at 10 cents a point
    assert charity.box_total == sum(
        (-Decimal(int(v)) * RATE for hand in hands for v in hand.values() if v < 0), Decimal(0)
    )
    assert all(amount > 0 for amount in charity.box.values())
