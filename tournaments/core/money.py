"""Money at a tournament table (TOURNAMENTS.md §4.6): the round's Schrift at
the money rate, settled with the fewest transfers, and the Kontra cash.

Everything is the settlement engine's (``scoring.engine.settlement``): money is
``Decimal``, rounded to cents once per amount, and still sums to zero.

With ``kontra_in_score`` off (every tournament) a Königrufen hand's ``deltas``
are the Kontra-free Schrift and its ``money`` the same items with every Kontra;
their difference is the Kontra, which never enters a result. ``kontra_cash``
says how it is paid:

- ``per_hand``: after each hand, rounded per hand, with that hand's transfers;
- ``with_round``: summed over the round and added to the round's money;
- ``charity``: each player's Kontra loss in a hand goes into the box, winners
  receive nothing (TOURNAMENTS.md §4.6 [decision on who pays]).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from scoring.engine.settlement import CENT, fewest_transfers, money_amounts

KONTRA_CASH = ("per_hand", "with_round", "charity")
ZERO = Decimal("0.00")

Payment = tuple[str, str, Decimal]


def table_money(sums: Mapping[str, Fraction], rate: Decimal | None) -> dict[str, Decimal] | None:
    """Each player's money for his round result at ``rate`` per point (``None``
    without a rate), rounded to cents once, summing to zero."""
    if rate is None:
        return None
    _check_zero_sum(sums)
    return money_amounts({name: Fraction(value) for name, value in sums.items()}, rate)


def transfers(amounts: Mapping[str, Decimal]) -> list[Payment]:
    """Who pays whom (payer, payee, amount), as few payments as possible,
    ordered by the payer's then the payee's seat (the order of ``amounts``)."""
    if sum(amounts.values(), ZERO) != 0:
        raise ValueError(f"amounts must sum to zero: {dict(amounts)}")
    cents = {name: int(amount / CENT) for name, amount in amounts.items()}
    return [(payer, payee, Decimal(value) * CENT) for payer, payee, value in fewest_transfers(cents)]


def kontra_points(
    schrift: Mapping[str, Fraction], money_points: Mapping[str, Fraction] | None
) -> dict[str, Fraction]:
    """A hand's Kontra in points, per player: its money minus its Schrift. A hand
    without money of its own (``HandScore.money`` is ``None``: a redeal, a
    Trischaken) has no Kontra."""
    if money_points is None:
        return {name: Fraction(0) for name in schrift}
    return {name: Fraction(money_points.get(name, 0)) - Fraction(value) for name, value in schrift.items()}


@dataclass(frozen=True)
class KontraCash:
    """The Kontra money of one table-round under ``mode``.

    ``amounts``: each player's Kontra money over the round (+ receives, − pays);
    under ``charity`` what each paid into the box, as a negative amount.
    ``hands``: under ``per_hand``, each hand's payments (an empty tuple for a hand
    without Kontra). ``with_round``: under ``with_round``, the amounts to add to
    the round's money (else empty). ``box``: under ``charity``, each player's
    payment into the box (only those who lost a Kontra), and ``box_total``."""

    mode: str
    amounts: dict[str, Decimal]
    hands: tuple[tuple[Payment, ...], ...] = ()
    with_round: dict[str, Decimal] = field(default_factory=dict)
    box: dict[str, Decimal] = field(default_factory=dict)

    @property
    def box_total(self) -> Decimal:
        return sum(self.box.values(), ZERO)


def kontra_cash(per_hand: Sequence[Mapping[str, Fraction]], rate: Decimal | None, mode: str) -> KontraCash:
    """The Kontra cash of a table-round from each hand's Kontra points
    (``kontra_points``), at ``rate`` per point. Without a rate nothing is paid."""
    if mode not in KONTRA_CASH:
        raise ValueError(f"kontra_cash: must be one of {', '.join(KONTRA_CASH)} (got {mode!r})")
    names: list[str] = []
    for hand in per_hand:
        _check_zero_sum(hand)
        names += [name for name in hand if name not in names]
    if rate is None:
        return KontraCash(
            mode, dict.fromkeys(names, ZERO), tuple(() for _ in per_hand) if mode == "per_hand" else ()
        )
    if mode == "with_round":
        summed = {
            name: sum((Fraction(hand.get(name, 0)) for hand in per_hand), Fraction(0)) for name in names
        }
        amounts = money_amounts(summed, rate)
        return KontraCash(mode, amounts, with_round=dict(amounts))
    each = [money_amounts({name: Fraction(value) for name, value in hand.items()}, rate) for hand in per_hand]
    if mode == "per_hand":
        amounts = {name: sum((paid.get(name, ZERO) for paid in each), ZERO) for name in names}
        return KontraCash(mode, amounts, hands=tuple(tuple(transfers(paid)) for paid in each))
    box = dict.fromkeys(names, ZERO)
    for paid in each:
        for name, amount in paid.items():
            if amount < 0:
                box[name] -= amount
    box = {name: amount for name, amount in box.items() if amount}
    return KontraCash(mode, {name: -box.get(name, ZERO) for name in names}, box=box)


def _check_zero_sum(values: Mapping[str, Fraction | int]) -> None:
    if sum(values.values(), Fraction(0)) != 0:
        raise ValueError(f"must sum to zero: {dict(values)}")
