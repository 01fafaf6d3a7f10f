"""Registration at the door (``TOURNAMENTS.md`` §14.2): the tournament's
registration link, a player registering herself on her phone (found in the
circuit's register and confirmed with her PIN, or new with a number and a PIN
shown once), the desk accepting her before the draw, and the desk adding a
player by her register number in one step.

A player registered at the door is a ``DoorEntry``, not yet an entrant: only
the desk's acceptance makes her one (``door_accept``), so the draw, which seats
entrants, never takes a player the desk has not seen **[decision: the desk stays
in charge of who plays]**. One registration per phone and tournament, one per
register entry; sent twice, stored once. Every write takes the tournament's row
lock first, as every writer of a tournament does.
"""

from __future__ import annotations

import datetime
import secrets

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from scoring.engine import InvalidInput
from scoring.engine.types import invalid
from scoring.models import NAME_LENGTH
from tournaments.core import circuit as rules
from tournaments.core import names
from tournaments.models import (
    Circuit,
    CircuitPinTry,
    CircuitPlayer,
    Cup,
    CupPlayer,
    DoorEntry,
    Entrant,
    Tournament,
    TournamentChange,
)
from tournaments.services import circuit as circuits
from tournaments.services import circuit_final, entrants
from tournaments.services.tournaments import audit, changed, done_already, locked

OPEN_STATUSES = (Tournament.Status.REGISTRATION, Tournament.Status.RUNNING)


def circuit_of(tournament: Tournament) -> Circuit | None:
    """The circuit of the tournament's cup, if it has one (its register is the door's)."""
    if tournament.cup_id is None:
        return None
    cup = Cup.objects.filter(pk=tournament.cup_id, deleted_at__isnull=True).select_related("circuit").first()
    if cup is None or cup.circuit is None or cup.circuit.deleted_at is not None:
        return None
    return cup.circuit


def _circuit(tournament: Tournament, field: str = "door") -> Circuit:
    found = circuit_of(tournament)
    if found is None:
        raise invalid(field, gettext_noop("only a tournament of a cup in a circuit: its register is used"))
    return found


# -- the link -----------------------------------------------------------------------------


@transaction.atomic
def door_open(*, tournament: Tournament, user: User) -> str:
    """Give the tournament a registration link (a new one if it had one: the old one
    answers 410); only for a tournament of a cup in a circuit."""
    row = locked(tournament)
    _circuit(row)
    row.door_token = secrets.token_urlsafe(24)
    row.save(update_fields=["door_token"])
    audit(row, TournamentChange.Action.DOOR, user, after={"open": True})
    changed(row)
    tournament.door_token = row.door_token
    return row.door_token


@transaction.atomic
def door_close(*, tournament: Tournament, user: User) -> None:
    """Take the registration link away: it answers 410 from now on."""
    row = locked(tournament)
    if row.door_token is None:
        return
    row.door_token = None
    row.save(update_fields=["door_token"])
    audit(row, TournamentChange.Action.DOOR, user, after={"open": False})
    changed(row)
    tournament.door_token = None


def door_of(token: str) -> Tournament | None:
    """The tournament behind a registration link, if the link is current."""
    if not token or len(token) > 64:
        return None
    return Tournament.objects.filter(door_token=token, deleted_at__isnull=True).first()


def door_closed(tournament: Tournament) -> InvalidInput | None:
    """Why the link registers no one now (``None`` while it does): open from the
    organiser's opening until round 1 is released, or while ``late_entry`` lets a
    late entry in (``entrants.joins_now``)."""
    if tournament.door_token is None or tournament.status not in OPEN_STATUSES:
        return invalid("door", gettext_noop("registration at the door is closed: please go to the desk"))
    if circuit_of(tournament) is None:
        return invalid("door", gettext_noop("only a tournament of a cup in a circuit: its register is used"))
    try:
        entrants.joins_now(tournament)
    except InvalidInput:
        return invalid("door", gettext_noop("registration at the door is closed: please go to the desk"))
    return None


def _check_open(tournament: Tournament) -> Circuit:
    closed = door_closed(tournament)
    if closed is not None:
        raise closed
    return _circuit(tournament)


# -- the phone ----------------------------------------------------------------------------


def door_mine(tournament: Tournament, phone: str) -> DoorEntry | None:
    """What this phone registered for the tournament, if anything."""
    if not phone:
        return None
    return (
        DoorEntry.objects.filter(tournament=tournament, phone=phone)
        .select_related("player", "entrant")
        .first()
    )


def door_find(*, tournament: Tournament, family: str, given: str, place: str) -> tuple[CircuitPlayer, ...]:
    """The register's entries the typed name matches (§14.1's key), offered to her."""
    circuit = _check_open(tournament)
    return circuits.register_offer(circuit, family, given, place)


def pin_tries_left(entry: CircuitPlayer, now: datetime.datetime | None = None) -> int:
    """Wrong PINs the number may still take before it registers only at the desk."""
    now = now or timezone.now()
    since = now - datetime.timedelta(minutes=rules.PIN_WINDOW_MINUTES)
    return max(0, rules.PIN_TRIES - CircuitPinTry.objects.filter(entry=entry, at__gt=since).count())


def _phone(phone: str) -> str:
    if not phone:
        raise invalid(
            "phone", gettext_noop("this phone keeps no cookie for the link: please register at the desk")
        )
    return phone


def door_known(*, tournament: Tournament, phone: str, number: int, pin: str) -> DoorEntry:
    """She is Nr. ``number`` of the register and proves it with her PIN. A wrong PIN
    is counted by the register (``circuit.register_pin_check``, in a transaction of
    its own, so the refusal keeps the count); three within 15 minutes and the
    number registers only at the desk. Sent again from her phone: her registration."""
    _phone(phone)
    mine = door_mine(tournament, phone)
    if mine is not None:
        return _same(mine, number)
    circuit = _check_open(tournament)
    entry = circuits.entry_find(circuit, number)
    if not circuits.register_pin_check(circuit=circuit, number=number, pin=pin):
        left = pin_tries_left(entry)
        if left == 0:
            raise circuits.pin_blocked_refusal(entry)
        raise invalid(
            "pin",
            gettext_noop("not the PIN of Nr. {number}: {left} more tries, then only at the desk"),
            number=entry.number,
            left=left,
        )
    return _write(tournament, phone, entry, new=False)


def _same(mine: DoorEntry, number: int) -> DoorEntry:
    """A phone's second registration: the first one again if it is the same number."""
    if (
        mine.player.number == number
        or CircuitPlayer.objects.filter(merged_into=mine.player, number=number).exists()
    ):
        return mine
    raise invalid(
        "phone",
        gettext_noop("this phone registered Nr. {number} already: one registration per phone"),
        number=mine.player.number,
    )


@transaction.atomic
def door_new(
    *, tournament: Tournament, phone: str, family: str, given: str, place: str
) -> tuple[DoorEntry, str | None]:
    """She is new to the register: the next number and a PIN (returned once: shown
    with "Foto machen oder notieren"), and her registration. Sent twice from her
    phone: her registration, without the PIN (it is not shown again)."""
    _phone(phone)
    row = locked(tournament)
    mine = door_mine(row, phone)
    if mine is not None:
        return mine, None
    circuit = _check_open(row)
    circuits.register_names(family, given, place)  # refused before a number is taken
    circuit_final.refuse_unqualified_at_door(row, None, f"{family} {given}".strip())
    entry, pin = circuits.register_at_door(circuit=circuit, family=family, given=given, place=place)
    return _write(row, phone, entry, new=True), pin


@transaction.atomic
def _write(tournament: Tournament, phone: str, entry: CircuitPlayer, *, new: bool) -> DoorEntry:
    row = locked(tournament)
    mine = door_mine(row, phone)
    if mine is not None:
        return _same(mine, entry.number)
    _check_open(row)
    if DoorEntry.objects.filter(tournament=row, player=entry).exists():
        raise invalid(
            "number",
            gettext_noop("Nr. {number} is registered for this tournament already: please go to the desk"),
            number=entry.number,
        )
    already = entrant_of(row, entry)
    if already is not None:
        raise invalid(
            "number",
            gettext_noop("Nr. {number} is entered already, with start number {start}"),
            number=entry.number,
            start=already.number,
        )
    circuit_final.refuse_unqualified_at_door(row, entry, f"Nr. {entry.number}")
    try:
        with transaction.atomic():
            door = DoorEntry.objects.create(tournament=row, player=entry, phone=phone, new=new)
    except IntegrityError:  # the same phone or number at the same moment
        raise invalid(
            "number",
            gettext_noop("Nr. {number} is registered for this tournament already: please go to the desk"),
            number=entry.number,
        ) from None
    audit(row, TournamentChange.Action.DOOR, None, after={"number": entry.number, "new": new})
    changed(row)
    return door


# -- the desk -----------------------------------------------------------------------------


def door_pending(tournament: Tournament) -> list[DoorEntry]:
    """Players registered at the door the desk has not accepted yet, first come first."""
    return list(
        DoorEntry.objects.filter(tournament=tournament, entrant__isnull=True)
        .select_related("player")
        .order_by("created_at", "pk")
    )


def entrant_of(tournament: Tournament, entry: CircuitPlayer) -> Entrant | None:
    """The tournament's entrant who is this register entry (through the cup's register)."""
    return Entrant.objects.filter(
        tournament=tournament, cup_player_id__in=circuits.cup_entries_of(entry)
    ).first()


def _pending(tournament: Tournament, number: int, field: str) -> tuple[CircuitPlayer, DoorEntry | None]:
    entry = circuits.entry_find(_circuit(tournament, field), number, field)
    return entry, DoorEntry.objects.filter(tournament=tournament, player=entry).first()


@transaction.atomic
def door_accept(
    *, tournament: Tournament, user: User, number: int, fee_paid: bool = False, client_token: str = ""
) -> Entrant:
    """The desk accepts a player registered at the door (ticking the fee where there
    is one): she becomes an entrant with the next start number, and is drawn."""
    row = locked(tournament)
    entry, door = _pending(row, number, "register_number")
    if door is None:
        raise invalid(
            "register_number", gettext_noop("Nr. {number} is not registered at the door"), number=number
        )
    if door.entrant_id is not None:
        return Entrant.objects.get(pk=door.entrant_id)
    return _enter(row, user, entry, door, fee_paid, client_token)


@transaction.atomic
def door_strike(*, tournament: Tournament, user: User, number: int) -> None:
    """The desk strikes a registration at the door it does not accept (the phone may
    register again). An accepted one is an entrant: struck or withdrawn as one."""
    row = locked(tournament)
    entry, door = _pending(row, number, "register_number")
    if door is None or door.entrant_id is not None:
        return
    door.delete()
    audit(row, TournamentChange.Action.DOOR, user, before={"number": entry.number}, after=None)
    changed(row)


@transaction.atomic
def entrant_by_number(
    *, tournament: Tournament, user: User, number: int, fee_paid: bool = False, client_token: str = ""
) -> Entrant:
    """The desk types a register number (or the player card's QR fills it in): that
    player is an entrant in one step, with the next start number. A registration of
    hers at the door is accepted with it."""
    row = locked(tournament)
    found = done_already(row, client_token)
    if found is not None and found.after and "number" in found.after:
        return row.entrants.get(number=found.after["number"])
    entry, door = _pending(row, number, "register_number")
    already = entrant_of(row, entry)
    if already is not None:
        raise invalid(
            "register_number",
            gettext_noop("Nr. {number} is entered already, with start number {start}"),
            number=entry.number,
            start=already.number,
        )
    return _enter(row, user, entry, door, fee_paid, client_token)


def entrant_name(tournament: Tournament, entry: CircuitPlayer) -> str:
    """Her name as an entrant: "Huber Maria" as the register writes it; where another
    entrant reads the same, "Huber Maria, Linz", then "Huber Maria (4711)" **[decision]**."""
    base = f"{entry.family} {entry.given}".strip()
    taken = list(tournament.entrants.values_list("name", flat=True))
    for name in (base, f"{base}, {entry.place}" if entry.place else "", f"{base} ({entry.number})"):
        if name and len(name) <= NAME_LENGTH and names.same_as(name, taken) is None:
            return name
    return f"{entry.family[:30]} ({entry.number})"


def _cup_entry(cup: Cup, entry: CircuitPlayer, name: str, place: str) -> CupPlayer:
    """The cup register's entry of this number (made, linked to it, when new)."""
    found = (
        CupPlayer.objects.filter(cup=cup, pk__in=circuits.cup_entries_of(entry), merged_into__isnull=True)
        .order_by("pk")
        .first()
    )
    return found or CupPlayer.objects.create(cup=cup, name=name, place=place, circuit_player=entry)


def _enter(
    row: Tournament,
    user: User,
    entry: CircuitPlayer,
    door: DoorEntry | None,
    fee_paid: bool,
    client_token: str,
) -> Entrant:
    joins = entrants.joins_now(row)
    assert row.cup is not None  # a circuit's register is reached through the cup
    name, place = entrant_name(row, entry), entry.place[: entrants.PLACE_LENGTH]
    new = entrants.NewEntrant(name, place, fee_paid=fee_paid, roster=False)
    entrant = entrants._add(row, new, joins, _cup_entry(row.cup, entry, name, place))
    if door is not None:
        DoorEntry.objects.filter(pk=door.pk).update(entrant=entrant, accepted_at=timezone.now())
    after = {"number": entrant.number, "name": entrant.name, "round": joins, "register": entry.number}
    audit(row, TournamentChange.Action.ENTER, user, after=after, client_token=client_token)
    changed(row)
    return entrant
