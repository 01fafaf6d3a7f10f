"""Settlement: net balances to the fewest transfers, money, pairwise nets.

docs/session-file.md: ``transfers`` settle ``net`` with as few payments as possible.
STYLE.md: money only as ``Decimal``, rounded to cents once, still zero-sum.
docs/rules.md §2.9: each pair settles the difference of their totals, ``n·s_i − Σs``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import settle
from scoring.engine.settlement import pairwise_net
from tests.engine.examples import examples

CENT = Decimal("0.01")


# ---------------------------------------------------------------------------
# Oracles worked from the definitions


def partitions(items: list[str]) -> Iterator[list[list[str]]]:
    """Every way to split ``items`` into non-empty groups."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for smaller in partitions(rest):
        yield [[first], *smaller]
        for index in range(len(smaller)):
            yield [*smaller[:index], [first, *smaller[index]], *smaller[index + 1 :]]


def fewest_by_brute_force(balances: Mapping[str, Fraction | Decimal | int]) -> int:
    """The fewest payments: a group of j people summing to zero settles in j − 1
    payments and no fewer, so the minimum is over every split into zero-sum groups."""
    owing = [name for name, amount in balances.items() if amount != 0]
    return min(
        sum(len(group) - 1 for group in split)
        for split in partitions(owing)
        if all(sum(balances[name] for name in group) == 0 for group in split)
    )


def greedy_count(balances: Mapping[str, int]) -> int:
    """Payments made by "the largest debtor pays the largest creditor"."""
    owed = dict(balances)
    count = 0
    while any(owed.values()):
        payer = min(owed, key=lambda name: owed[name])
        payee = max(owed, key=lambda name: owed[name])
        amount = min(-owed[payer], owed[payee])
        owed[payer] += amount
        owed[payee] -= amount
        count += 1
    return count


def seat_order_greedy_count(balances: Mapping[str, int]) -> int:
    """Payments made by "the first debtor pays the first creditor", in seat order."""
    owed = dict(balances)
    count = 0
    while any(owed.values()):
        payer = next(name for name in owed if owed[name] < 0)
        payee = next(name for name in owed if owed[name] > 0)
        amount = min(-owed[payer], owed[payee])
        owed[payer] += amount
        owed[payee] -= amount
        count += 1
    return count


def after_transfers(balances: Mapping[str, Fraction], transfers: object) -> dict[str, Fraction]:
    left = dict(balances)
    for transfer in transfers:  # type: ignore[attr-defined]
        left[transfer.payer] += transfer.points
        left[transfer.payee] -= transfer.points
    return left


def as_set(transfers: object) -> set[tuple[str, str, Fraction]]:
    return {(t.payer, t.payee, t.points) for t in transfers}  # type: ignore[attr-defined]


NAMES = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fritz"]


@st.composite
def zero_sum_balances(draw: st.DrawFn, halves: bool = True) -> dict[str, Fraction]:
    """Up to six players' nets summing to zero, small enough for zero-sum subgroups."""
    count = draw(st.integers(1, 6))
    limit = draw(st.sampled_from([3, 10, 400]))
    step = Fraction(1, 2) if halves and draw(st.booleans()) else Fraction(1)
    values = [step * draw(st.integers(-limit, limit)) for _ in range(count - 1)]
    values.append(-sum(values, Fraction(0)))
    return dict(zip(NAMES, values, strict=False))


# ---------------------------------------------------------------------------
# Fewest transfers


@settings(max_examples=examples(400), deadline=None)
@given(zero_sum_balances())
def test_transfers_are_the_exact_minimum(net: dict[str, Fraction]) -> None:
    assert len(settle(net).transfers) == fewest_by_brute_force(net)


@settings(max_examples=examples(400), deadline=None)
@given(zero_sum_balances())
def test_every_transfer_settles_the_balances_exactly(net: dict[str, Fraction]) -> None:
    transfers = settle(net).transfers
    assert all(t.points > 0 and t.payer != t.payee for t in transfers)
    assert all(amount == 0 for amount in after_transfers(net, transfers).values())


def test_pair_and_triple_settle_in_three_where_largest_first_greedy_needs_four() -> None:
    # Bert +4 / Carl −4 square each other; Anna +6 is paid by Dora and Emil (3 each).
    net = {"Anna": 6, "Bert": 4, "Carl": -4, "Dora": -3, "Emil": -3}
    assert greedy_count(net) == 4
    transfers = settle({k: Fraction(v) for k, v in net.items()}).transfers
    assert as_set(transfers) == {("Carl", "Bert", 4), ("Dora", "Anna", 3), ("Emil", "Anna", 3)}


def test_two_zero_sum_pairs_settle_in_two_where_seat_order_greedy_needs_three() -> None:
    net = {"Anna": 5, "Bert": 3, "Carl": -3, "Dora": -5}
    assert seat_order_greedy_count(net) == 3
    transfers = settle({k: Fraction(v) for k, v in net.items()}).transfers
    assert as_set(transfers) == {("Dora", "Anna", 5), ("Carl", "Bert", 3)}


def test_one_debtor_pays_each_creditor() -> None:
    # The seed table's totals: no two creditors add up to Carl's 380, one group of four.
    net = {"Anna": Fraction(108), "Bert": Fraction(172), "Carl": Fraction(-380), "Dora": Fraction(100)}
    transfers = settle(net).transfers
    assert as_set(transfers) == {("Carl", "Anna", 108), ("Carl", "Bert", 172), ("Carl", "Dora", 100)}


def test_half_points_are_transferred_exactly() -> None:
    net = {"Anna": Fraction(87, 2), "Bert": Fraction(-29), "Carl": Fraction(-29, 2)}
    transfers = settle(net).transfers
    assert as_set(transfers) == {("Bert", "Anna", Fraction(29)), ("Carl", "Anna", Fraction(29, 2))}


def test_square_balances_need_no_transfer() -> None:
    assert settle({"Anna": Fraction(0), "Bert": Fraction(0), "Carl": Fraction(0)}).transfers == ()


def test_balances_that_do_not_sum_to_zero_are_refused() -> None:
    with pytest.raises(ValueError):
        settle({"Anna": Fraction(10), "Bert": Fraction(-9)})


# ---------------------------------------------------------------------------
# Money: Decimal, rounded to cents once, still zero-sum


def exact_money(net: Mapping[str, Fraction], rate: Decimal) -> dict[str, Decimal]:
    return {name: Decimal(v.numerator) * rate / Decimal(v.denominator) for name, v in net.items()}


def check_money(net: Mapping[str, Fraction], rate: Decimal) -> dict[str, Decimal]:
    """The properties every money settlement has; returns the amounts."""
    result = settle(net, rate)
    assert result.money is not None
    money = dict(result.money)
    exact = exact_money(net, rate)
    assert set(money) == set(net)
    assert sum(money.values(), Decimal(0)) == 0
    for name, amount in money.items():
        assert isinstance(amount, Decimal)
        assert amount == amount.quantize(CENT), "whole cents"
        assert abs(amount - exact[name]) < CENT, "rounded, so within a cent"
        assert amount * exact[name] >= 0, "who is owed never pays, who owes never receives"
        if exact[name] == exact[name].quantize(CENT):
            assert amount == exact[name], "an amount in whole cents is not rounded"
    left = dict(money)
    for transfer in result.money_transfers:
        assert transfer.amount > 0
        left[transfer.payer] += transfer.amount
        left[transfer.payee] -= transfer.amount
    assert all(amount == 0 for amount in left.values())
    assert len(result.money_transfers) == fewest_by_brute_force(money)
    return money


def test_money_in_whole_cents_is_exact() -> None:
    net = {"Anna": Fraction(10), "Bert": Fraction(-4), "Carl": Fraction(-6)}
    money = check_money(net, Decimal("0.05"))  # 10 × 0.05 = 0.50; −0.20; −0.30
    assert money == {"Anna": Decimal("0.50"), "Bert": Decimal("-0.20"), "Carl": Decimal("-0.30")}


def test_money_with_half_points_is_exact_where_it_can_be() -> None:
    net = {"Anna": Fraction(87, 2), "Bert": Fraction(-29), "Carl": Fraction(-29, 2)}
    money = check_money(net, Decimal("0.10"))  # 43.5 × 0.10 = 4.35; −2.90; −1.45
    assert money == {"Anna": Decimal("4.35"), "Bert": Decimal("-2.90"), "Carl": Decimal("-1.45")}


def test_money_of_half_a_cent_each_way_still_sums_to_zero() -> None:
    # ±0.5 point at 1 cent a point: ±0.005, which cannot both be rounded the same way.
    money = check_money({"Anna": Fraction(1, 2), "Bert": Fraction(-1, 2)}, CENT)
    assert money["Anna"] == -money["Bert"]


def test_money_of_two_half_cents_against_one_cent() -> None:
    # 1 × 0.005 each for Anna and Bert, −2 × 0.005 = −0.01 for Carl: Carl pays the
    # one cent, which goes to one of them.
    money = check_money({"Anna": Fraction(1), "Bert": Fraction(1), "Carl": Fraction(-2)}, Decimal("0.005"))
    assert money["Carl"] == Decimal("-0.01")
    assert sorted([money["Anna"], money["Bert"]]) == [Decimal("0.00"), Decimal("0.01")]


def test_money_in_thirds_of_a_cent() -> None:
    # A third of a cent a point: three creditors of 1 point each (0.00333…) and one
    # debtor of 3 points (exactly 0.01).
    rate = Decimal(1) / Decimal(300)
    net = {"Anna": Fraction(1), "Bert": Fraction(1), "Carl": Fraction(1), "Dora": Fraction(-3)}
    money = check_money(net, rate)
    assert money["Dora"] == Decimal("-0.01")
    assert sorted(money[name] for name in ("Anna", "Bert", "Carl")) == [
        Decimal("0.00"),
        Decimal("0.00"),
        Decimal("0.01"),
    ]


def test_money_in_thirds_of_a_cent_with_two_debtors() -> None:
    # Anna +2 (0.00666…), Bert and Carl −1 each (−0.00333…): one cent changes hands.
    rate = Decimal("0.01") / Decimal(3)
    money = check_money({"Anna": Fraction(2), "Bert": Fraction(-1), "Carl": Fraction(-1)}, rate)
    # Either nobody pays or one cent goes from Bert or Carl to Anna: both are within a cent.
    assert money["Anna"] in (Decimal("0.00"), Decimal("0.01"))
    assert sum(amount for amount in money.values() if amount > 0) <= CENT


@settings(max_examples=examples(300), deadline=None)
@given(
    zero_sum_balances(),
    st.decimals(min_value=Decimal("0.001"), max_value=Decimal("5"), places=3)
    | st.sampled_from([Decimal(1) / Decimal(3), Decimal(1) / Decimal(300), Decimal(2) / Decimal(7)]),
)
def test_money_is_rounded_to_cents_and_still_sums_to_zero(net: dict[str, Fraction], rate: Decimal) -> None:
    check_money(net, rate)


def test_without_a_rate_there_is_no_money() -> None:
    result = settle({"Anna": Fraction(5), "Bert": Fraction(-5)})
    assert result.money is None
    assert result.money_transfers == ()


# ---------------------------------------------------------------------------
# Pairwise nets (docs/rules.md §2.9)


def test_pairwise_net_of_the_illustrated_seed_series() -> None:
    # Totals A 120, B 34, C 28; Σ = 182; n·s − Σ: 360 − 182, 102 − 182, 84 − 182.
    net = pairwise_net({"A": Fraction(120), "B": Fraction(34), "C": Fraction(28)})
    assert net == {"A": 178, "B": -80, "C": -98}


def test_pairwise_net_of_two_players_is_their_difference() -> None:
    assert pairwise_net({"A": Fraction(30), "B": Fraction(12)}) == {"A": 18, "B": -18}


@given(st.lists(st.integers(0, 500), min_size=1, max_size=6))
def test_pairwise_net_is_the_sum_of_differences_with_each_other_player(totals: list[int]) -> None:
    scores = {name: Fraction(total) for name, total in zip(NAMES, totals, strict=False)}
    net = pairwise_net(scores)
    assert sum(net.values()) == 0
    for name, own in scores.items():
        assert net[name] == sum(own - other for other in scores.values())


# ---------------------------------------------------------------------------
# An evening paid series by series (Illustriertes): rounded per series


def test_money_paid_series_by_series_is_the_sum_of_each_series_money() -> None:
    # Each series alone: A wins 6 points, 0.015 at 0.0025, paid as 0.02. Rounding the
    # evening as a whole would give A 0.03 where the two series paid 0.04.
    series = {"A": Fraction(6), "B": Fraction(-3), "C": Fraction(-3)}
    net = {name: 2 * value for name, value in series.items()}
    settled = settle(net, Decimal("0.0025"), parts=[series, series])
    each = settle(series, Decimal("0.0025"))
    assert each.money == {"A": Decimal("0.02"), "B": Decimal("-0.01"), "C": Decimal("-0.01")}
    assert settled.money == {"A": Decimal("0.04"), "B": Decimal("-0.02"), "C": Decimal("-0.02")}
    assert sum(t.amount for t in settled.money_transfers) == Decimal("0.04")


def test_parts_that_do_not_add_up_to_the_net_are_refused() -> None:
    with pytest.raises(ValueError, match="add up"):
        settle(
            {"A": Fraction(1), "B": Fraction(-1)},
            Decimal("0.01"),
            parts=[{"A": Fraction(2), "B": Fraction(-2)}],
        )
