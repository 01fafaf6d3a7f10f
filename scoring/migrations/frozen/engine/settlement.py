"""Who pays whom at the end: net balances, the fewest transfers, money.

The fewest transfers that settle balances of ``k`` people is ``k − g`` where
``g`` is the largest number of groups the people split into with every group
summing to zero; each group of ``j`` then settles in ``j − 1`` payments. The
split is found exactly over all subsets (cheap for a card table; beyond
``EXACT_LIMIT`` people the greedy payment plan is used).

Money exists only here, as ``Decimal``, rounded to cents once; the rounded
amounts still sum to zero. An evening paid series by series is rounded once per
series, and its money is the sum of the series' money.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import TypeVar

CENT = Decimal("0.01")
EXACT_LIMIT = 14

Amount = TypeVar("Amount", Fraction, int)


@dataclass(frozen=True)
class Transfer:
    payer: str
    payee: str
    points: Fraction


@dataclass(frozen=True)
class MoneyTransfer:
    payer: str
    payee: str
    amount: Decimal


@dataclass(frozen=True)
class Settlement:
    net: Mapping[str, Fraction]
    transfers: tuple[Transfer, ...]
    rate: Decimal | None = None
    money: Mapping[str, Decimal] | None = None
    money_transfers: tuple[MoneyTransfer, ...] = ()


def settle(
    net: Mapping[str, Fraction],
    rate: Decimal | None = None,
    parts: Sequence[Mapping[str, Fraction]] = (),
) -> Settlement:
    """Settle zero-sum ``net`` balances; with a ``rate`` per point, in money too.

    Where the evening is paid part by part (``parts``: each Illustriertes series,
    adding up to ``net``), each part's money is rounded to cents on its own, as
    the table pays it after the series, and the evening's money is the sum of the
    parts' money: no figure of the evening disagrees with its series by a cent."""
    if sum(net.values()) != 0:
        raise ValueError(f"net balances must sum to zero: {dict(net)}")
    transfers = tuple(Transfer(a, b, Fraction(x)) for a, b, x in fewest_transfers(net))
    if rate is None:
        return Settlement(dict(net), transfers)
    if parts:
        if any(
            sum((part.get(name, 0) for part in parts), Fraction(0)) != value for name, value in net.items()
        ):
            raise ValueError(f"the parts must add up to the net balances: {dict(net)}")
        money = dict.fromkeys(net, Decimal("0.00"))
        for part in parts:
            for name, amount in money_amounts(part, rate).items():
                money[name] += amount
    else:
        money = money_amounts(net, rate)
    cents = {name: int(amount / CENT) for name, amount in money.items()}
    money_transfers = tuple(MoneyTransfer(a, b, Decimal(x) * CENT) for a, b, x in fewest_transfers(cents))
    return Settlement(dict(net), transfers, rate, money, money_transfers)


def pairwise_net(totals: Mapping[str, Fraction]) -> dict[str, Fraction]:
    """Each pair of players settles the difference of their totals:
    player i's net is ``n·s_i − Σs`` (Illustriertes Tarock)."""
    n = len(totals)
    whole = sum(totals.values(), Fraction(0))
    return {name: n * total - whole for name, total in totals.items()}


def money_amounts(net: Mapping[str, Fraction], rate: Decimal) -> dict[str, Decimal]:
    """Each net balance times the rate, rounded to cents once, summing to zero.

    Rounding each amount half away from zero can leave a cent or two over;
    those go back from the amounts that were rounded the furthest.
    """
    exact = {name: Decimal(v.numerator) * rate / Decimal(v.denominator) for name, v in net.items()}
    rounded = {name: value.quantize(CENT, rounding=ROUND_HALF_UP) for name, value in exact.items()}
    surplus = int(sum(rounded.values(), Decimal(0)) / CENT)
    order = list(net)
    if surplus:
        step = CENT if surplus < 0 else -CENT
        # Those rounded up the most (for a surplus) give a cent back first.
        by_error = sorted(
            order,
            key=lambda name: ((rounded[name] - exact[name]) * (1 if surplus > 0 else -1), -order.index(name)),
            reverse=True,
        )
        for name in by_error[: abs(surplus)]:
            rounded[name] += step
    return rounded


def fewest_transfers(balances: Mapping[str, Amount]) -> list[tuple[str, str, Amount]]:
    """Payments (payer, payee, amount) settling ``balances`` in as few as possible."""
    people = [(name, amount) for name, amount in balances.items() if amount != 0]
    groups = _zero_sum_groups(people) if len(people) <= EXACT_LIMIT else [people]
    payments: list[tuple[str, str, Amount]] = []
    for group in groups:
        payments += _settle_group(group)
    seat = {name: i for i, name in enumerate(balances)}
    return sorted(payments, key=lambda p: (seat[p[0]], seat[p[1]]))


def _zero_sum_groups(people: Sequence[tuple[str, Amount]]) -> list[list[tuple[str, Amount]]]:
    """Split into as many zero-sum groups as possible (exact, over all subsets)."""
    n = len(people)
    full = (1 << n) - 1
    sums: list[Fraction | int] = [0] * (full + 1)
    best = [0] * (full + 1)  # most zero-sum prefixes an ordering of the subset can have
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + people[low][1]
        best[mask] = max(best[mask & ~(1 << i)] for i in range(n) if mask >> i & 1) + (
            1 if sums[mask] == 0 else 0
        )
    order: list[int] = []
    mask = full
    while mask:
        closes = 1 if sums[mask] == 0 else 0
        for i in range(n):
            if mask >> i & 1 and best[mask & ~(1 << i)] + closes == best[mask]:
                order.append(i)
                mask &= ~(1 << i)
                break
    order.reverse()
    groups: list[list[tuple[str, Amount]]] = []
    current: list[tuple[str, Amount]] = []
    running: Fraction | int = 0
    for i in order:
        current.append(people[i])
        running += people[i][1]
        if running == 0:
            groups.append(current)
            current = []
    if current:  # pragma: no cover - balances sum to zero, so the last group closes
        groups.append(current)
    return groups


def _settle_group(group: Sequence[tuple[str, Amount]]) -> list[tuple[str, str, Amount]]:
    """Largest debtor pays largest creditor until all are square: at most j − 1 payments."""
    rank = {name: i for i, (name, _) in enumerate(group)}
    owed = {name: amount for name, amount in group}
    payments: list[tuple[str, str, Amount]] = []
    while True:
        debtors = sorted((n for n in owed if owed[n] < 0), key=lambda n: (owed[n], rank[n]))
        creditors = sorted((n for n in owed if owed[n] > 0), key=lambda n: (-owed[n], rank[n]))
        if not debtors or not creditors:
            return payments
        payer, payee = debtors[0], creditors[0]
        amount = min(-owed[payer], owed[payee])
        payments.append((payer, payee, amount))
        owed[payer] += amount
        owed[payee] -= amount
