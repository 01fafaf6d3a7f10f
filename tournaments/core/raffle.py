"""The prize raffle of a tournament day (TOURNAMENTS.md §4.5, ``prize_raffle``).

With the raffle on, a prize that carries an amount goes by place as without it;
the material prizes (a text and no amount, one per place of their range: 4–25
"Sachpreis" is 22 prizes) are drawn among the entrants present at the ceremony
who are not fillers and did not win a money prize. Those are drawn in ascending
hex SHA-256 of ``"{seed}:raffle:{start number}"`` (as the lots of
``ranking.lots_key``): the first drawn gets the first material prize in the
list's order, and so on. With more prizes than people the rest stay undrawn.
The draw depends on the seed, the prize list, the places and who is present,
nothing else: the same inputs draw the same winners.

Standard library only: no Django, no I/O, no clock.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any


@dataclass(frozen=True)
class Prize:
    """One line of the prize list: places ``first`` to ``last`` each get ``text``
    and/or ``amount``; with an amount it is a money prize, else a material one."""

    first: int
    last: int
    text: str = ""
    amount: Decimal | None = None

    @property
    def money(self) -> bool:
        return self.amount is not None


@dataclass(frozen=True)
class Candidate:
    """An entrant as the raffle sees him: his start number, his place (``None``:
    not ranked) and whether he is a filler."""

    number: int
    place: int | None
    filler: bool = False


@dataclass(frozen=True)
class Won:
    """One material prize in the list's order: ``order`` counts from 1, ``place``
    is the place the list gave it, ``number`` the start number drawn for it
    (``None``: more prizes than people, not drawn)."""

    order: int
    place: int
    text: str
    number: int | None


def prizes_of(settings: Sequence[Mapping[str, Any]]) -> tuple[Prize, ...]:
    """The ``prizes`` setting (``[{"from": 1, "to": 1, "text": "", "amount": "120.00"}, …]``)
    as ``Prize`` values. Raises ``ValueError`` naming ``prizes`` on a malformed line."""
    prizes = []
    for line in settings:
        try:
            first, last = int(line["from"]), int(line.get("to", line["from"]))
            amount = line.get("amount")
            prizes.append(
                Prize(first, last, str(line.get("text") or ""), None if amount is None else Decimal(amount))
            )
        except (KeyError, TypeError, ValueError, InvalidOperation) as error:
            raise ValueError(f"prizes: each prize needs places and a text or an amount ({error})") from None
    return tuple(prizes)


def money_places(prizes: Iterable[Prize]) -> frozenset[int]:
    """The places that win a money prize (given by place even with the raffle on)."""
    return frozenset(place for prize in prizes if prize.money for place in range(prize.first, prize.last + 1))


def material(prizes: Iterable[Prize]) -> tuple[tuple[int, str], ...]:
    """Every material prize as (place, text), one per place of its range, in the list's order."""
    return tuple(
        (place, prize.text)
        for prize in prizes
        if not prize.money
        for place in range(prize.first, prize.last + 1)
    )


def raffle_key(seed: str, number: int) -> str:
    """Start number ``number``'s ticket: the hex SHA-256 of ``"{seed}:raffle:{number}"``
    (ascending: the lower ticket is drawn first)."""
    return hashlib.sha256(f"{seed}:raffle:{number}".encode()).hexdigest()


def eligible(candidates: Iterable[Candidate], prizes: Iterable[Prize]) -> tuple[int, ...]:
    """The start numbers a material prize may go to, ascending: not fillers and
    not placed on a money prize."""
    paid = money_places(prizes)
    return tuple(
        sorted(c.number for c in candidates if not c.filler and (c.place is None or c.place not in paid))
    )


def draw(
    *, seed: str, prizes: Sequence[Prize], candidates: Sequence[Candidate], present: Iterable[int]
) -> tuple[Won, ...]:
    """The material prizes in the list's order, each with the start number drawn
    for it among ``present`` (fillers and money-prize winners skipped), or ``None``
    once everyone present has one. Raises ``ValueError`` naming ``present`` for a
    start number not among ``candidates`` or given twice, and ``seed`` when empty."""
    if not seed:
        raise ValueError("seed: the draw needs the tournament's seed")
    numbers = [c.number for c in candidates]
    if len(set(numbers)) != len(numbers):
        raise ValueError("candidates: each start number may be given once")
    there = list(present)
    if len(set(there)) != len(there):
        raise ValueError("present: each start number may be given once")
    unknown = sorted(set(there) - set(numbers))
    if unknown:
        raise ValueError(f"present: {unknown[0]} is not an entrant")
    allowed = set(eligible(candidates, prizes)) & set(there)
    order = sorted(allowed, key=lambda number: (raffle_key(seed, number), number))
    return tuple(
        Won(index, place, text, order[index - 1] if index <= len(order) else None)
        for index, (place, text) in enumerate(material(prizes), 1)
    )
