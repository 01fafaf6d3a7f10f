"""A group's Kasse: money carried from evening to evening.

Each closed evening of the group with a money rate books its settlement — each
player's money, rounded once by the settlement engine and summing to zero — however
it came to be closed in the group (closed there, or brought in closed). Payments
between players, or into and out of the common box, are booked as they are made.
A booking is never changed: a mistake is put right by a counter-booking, and
reopening or deleting an evening reverses what it booked (restoring it books it
again). Every booking keeps who made it
and when. A player's open balance is the sum of the player's lines; the fewest
transfers that clear every balance come from the settlement engine.

Sign: a positive balance is owed to the player, a negative one the player owes.
A payment from Bert to Anna moves Bert's balance up and Anna's down.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from club.models import Booking, BookingLine, Group, GroupPlayer
from club.services.links import group_id_of, players_at
from club.services.standings import evening_of
from scoring.engine import InvalidInput
from scoring.engine.schema import text_problem
from scoring.engine.settlement import CENT, fewest_transfers
from scoring.engine.types import gettext_noop, invalid
from scoring.models import Seat, Session

MAX_AMOUNT = Decimal("100000.00")  # one payment at a card table
NOTE_LENGTH = 200
BOX = "box"  # the common box, where a player's id would stand


class KasseRefused(Exception):
    """A booking the Kasse does not take, with the reason for the page."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


def _book(
    *,
    group: Group,
    kind: str,
    lines: Sequence[tuple[GroupPlayer | None, Decimal]],
    user: User | None,
    session: Session | None = None,
    reverses: Booking | None = None,
    note: str = "",
    once: tuple[str, str] = ("", ""),
) -> Booking:
    if sum((amount for _, amount in lines), Decimal(0)) != 0:
        raise AssertionError(f"a booking must sum to zero: {lines}")
    client_token, client_digest = once
    booking = Booking.objects.create(
        group=group,
        kind=kind,
        session=session,
        reverses=reverses,
        note=note,
        created_by=user,
        client_token=client_token,
        client_digest=client_digest,
    )
    BookingLine.objects.bulk_create(
        BookingLine(booking=booking, group=group, player=player, amount=amount) for player, amount in lines
    )
    return booking


def evening_settle(*, session: Session, user: User | None) -> None:
    """Make the Kasse hold what the evening books now: its settlement (each
    player's money) while it is a closed evening of a group with a money rate, not
    deleted; nothing otherwise. A booking that no longer holds (the evening
    reopened or deleted, a seat moved to another player of the roster) is reversed
    by a counter-booking, never changed, and what holds now is booked anew; what
    still holds stays as it is. Called, with the session's row locked, by every
    change that can alter it: closing, reopening, deleting, restoring, bringing
    an evening into a group, correcting a player's name."""
    standing = list(
        Booking.objects.filter(session=session, kind=Booking.Kind.EVENING, reversed_by__isnull=True)
        .select_related("group")
        .prefetch_related("lines")
    )
    wanted = _evening_lines(session)
    if wanted is not None and len(standing) == 1 and _amounts(standing[0]) == _by_player(wanted):
        return
    for booking in standing:
        _reverse(booking, user, note="")
    group_id = group_id_of(session)
    if wanted is not None and group_id is not None:
        group = Group.objects.get(pk=group_id)
        _book(group=group, kind=Booking.Kind.EVENING, lines=wanted, user=user, session=session)


def _evening_lines(session: Session) -> list[tuple[GroupPlayer | None, Decimal]] | None:
    """What the evening books now, or None when it books nothing."""
    booked = session.closed_at is not None and session.deleted_at is None
    if not booked or session.money_rate is None or group_id_of(session) is None:
        return None
    seats = list(Seat.objects.filter(session=session).order_by("position"))
    players = players_at(seats)
    money = evening_of(session, seats).settlement.money or {}
    return [(players[seat.pk], money.get(seat.name, Decimal("0.00"))) for seat in seats if seat.pk in players]


def _amounts(booking: Booking) -> dict[int | None, Decimal]:
    return {line.player_id: line.amount for line in booking.lines.all()}


def _by_player(lines: Sequence[tuple[GroupPlayer | None, Decimal]]) -> dict[int | None, Decimal]:
    return {None if player is None else player.pk: amount for player, amount in lines}


def _reverse(booking: Booking, user: User | None, note: str, once: tuple[str, str] = ("", "")) -> Booking:
    lines = [(line.player, -line.amount) for line in booking.lines.select_related("player")]
    return _book(
        group=booking.group,
        kind=Booking.Kind.REVERSAL,
        lines=lines,
        user=user,
        session=booking.session,
        reverses=booking,
        note=note,
        once=once,
    )


def check_note(note: str) -> str:
    note = note.strip()
    if len(note) > NOTE_LENGTH:
        raise invalid("note", gettext_noop("at most {n} characters"), n=NOTE_LENGTH)
    problem = text_problem(note)
    if problem is not None:
        raise InvalidInput("note", problem)
    return note


def _once(group: Group, client_token: str, *held: object) -> tuple[tuple[str, str], Booking | None]:
    """The token and digest a form's booking is stored under, and the booking
    stored under them already (the same form sent again), if any. The same token
    with other inputs (a form brought back and filled in again) is a new booking,
    under the token joined to its digest (as a hand is, ``hand_record``)."""
    if not client_token:
        return ("", ""), None
    digest = hashlib.sha256(repr(held).encode()).hexdigest()[:32]
    found = Booking.objects.filter(group=group, client_token=client_token).first()
    if found is not None and found.client_digest != digest:
        client_token = f"{client_token[:31]}~{digest}"
        found = Booking.objects.filter(group=group, client_token=client_token).first()
    return (client_token, digest), found


def _book_once(group: Group, once: tuple[str, str], book: Callable[[], Booking]) -> Booking:
    """``book()``, or what a form with the same token booked at the same moment:
    the database's unique token decides which of two concurrent posts books."""
    if not once[0]:
        return book()
    try:
        with transaction.atomic():
            return book()
    except IntegrityError:
        found = Booking.objects.filter(group=group, client_token=once[0]).first()
        if found is None:
            raise
        return found


@transaction.atomic
def payment_record(
    *,
    group: Group,
    payer: GroupPlayer | None,
    payee: GroupPlayer | None,
    amount: Decimal,
    user: User,
    note: str = "",
    client_token: str = "",
) -> Booking:
    """Book a payment: ``payer`` gave ``payee`` ``amount`` (either may be the
    common box, ``None``). Refused with ``InvalidInput`` naming the field. A form
    sent again (same ``client_token``, same inputs: a double tap, a resend, twenty
    at once) is booked once: the booking made the first time is returned."""
    if payer is not None and payer.group_id != group.pk:
        raise invalid("payer", gettext_noop("must be a player of this group or the box"))
    if payee is not None and payee.group_id != group.pk:
        raise invalid("payee", gettext_noop("must be a player of this group or the box"))
    if payer == payee:
        raise invalid("payee", gettext_noop("must not be the payer"))
    if not amount.is_finite() or amount <= 0 or amount > MAX_AMOUNT or amount != amount.quantize(CENT):
        raise invalid(
            "amount", gettext_noop("must be more than 0 and at most {most}, in cents"), most=int(MAX_AMOUNT)
        )
    note = check_note(note)
    held = (
        None if payer is None else payer.pk,
        None if payee is None else payee.pk,
        amount.normalize(),
        note,
    )
    once, found = _once(group, client_token, "payment", *held)
    if found is not None:
        return found
    lines = [(payer, amount), (payee, -amount)]
    return _book_once(
        group,
        once,
        lambda: _book(group=group, kind=Booking.Kind.PAYMENT, lines=lines, user=user, note=note, once=once),
    )


@transaction.atomic
def booking_reverse(*, booking: Booking, user: User, note: str = "", client_token: str = "") -> Booking:
    """Cancel a payment by a counter-booking. An evening's booking is reversed by
    reopening or deleting the evening; a reversal is not reversed again (book anew
    instead). The same form sent again (same ``client_token``) returns the reversal
    it made, with no refusal."""
    locked = (
        Booking.objects.select_for_update(of=("self",)).select_related("group", "session").get(pk=booking.pk)
    )
    once, found = _once(locked.group, client_token, "reversal", locked.pk)
    if found is not None:
        return found
    if locked.kind != Booking.Kind.PAYMENT:
        raise KasseRefused(
            gettext_noop("An evening is taken out of the Kasse by reopening it.")
            if locked.kind == Booking.Kind.EVENING
            else gettext_noop("A reversal is not reversed: book the payment again.")
        )
    if Booking.objects.filter(reverses=locked).exists():
        raise KasseRefused(gettext_noop("This booking was reversed already."))
    note = check_note(note)
    return _book_once(locked.group, once, lambda: _reverse(locked, user, note, once=once))


# -- reading ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Balance:
    player: GroupPlayer | None  # None: the common box
    amount: Decimal


@dataclass(frozen=True)
class Payment:
    payer: GroupPlayer | None
    payee: GroupPlayer | None
    amount: Decimal


@dataclass(frozen=True)
class Kasse:
    balances: tuple[Balance, ...]  # every roster player, then the box
    transfers: tuple[Payment, ...]  # the fewest payments that clear every balance now

    @property
    def box(self) -> Decimal:
        """What the common box holds (what it owes the players)."""
        return -next((b.amount for b in self.balances if b.player is None), Decimal(0))


def kasse_of(group: Group) -> Kasse:
    """Open balances and the fewest transfers that clear them (two queries).
    Summed here as ``Decimal``: a database sum of a decimal column is a float on
    SQLite (0.3 + 0.3 + 0.3 − 0.9 is not 0 there)."""
    sums: dict[int | None, Decimal] = {}
    for player_id, amount in BookingLine.objects.filter(group=group).values_list("player_id", "amount"):
        sums[player_id] = sums.get(player_id, Decimal("0.00")) + amount
    roster = list(GroupPlayer.objects.filter(group=group).order_by("name", "id"))
    balances = [Balance(player, sums.get(player.pk) or Decimal("0.00")) for player in roster]
    balances.append(Balance(None, sums.get(None) or Decimal("0.00")))
    by_key = {_key(b.player): b.player for b in balances}
    cents = {_key(b.player): int(b.amount / CENT) for b in balances}
    # fewest_transfers pays from negative to positive balances: whoever owes pays.
    transfers = tuple(
        Payment(by_key[payer], by_key[payee], Decimal(amount) * CENT)
        for payer, payee, amount in fewest_transfers(cents)
    )
    return Kasse(tuple(balances), transfers)


def _key(player: GroupPlayer | None) -> str:
    return BOX if player is None else str(player.pk)


LATEST_BOOKINGS = 50  # bookings listed on the Kasse page


def bookings_of(group: Group) -> list[Booking]:
    """The latest bookings with their lines, newest first (three queries)."""
    return list(
        Booking.objects.filter(group=group)
        .select_related("created_by", "session", "reverses")
        .prefetch_related("lines__player", "reversed_by")[:LATEST_BOOKINGS]
    )


def statement_of(player: GroupPlayer) -> list[tuple[Booking, Decimal, Decimal]]:
    """A player's account: each booking that moved it, the amount, the balance after."""
    lines = (
        BookingLine.objects.filter(player=player)
        .select_related("booking", "booking__session", "booking__created_by")
        .order_by("booking__created_at", "booking_id")
    )
    rows: list[tuple[Booking, Decimal, Decimal]] = []
    balance = Decimal("0.00")
    for line in lines:
        balance += line.amount
        rows.append((line.booking, line.amount, balance))
    return rows
