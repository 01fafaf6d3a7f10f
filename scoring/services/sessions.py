"""Opening, closing, deleting and restoring a session, its history, and its
version: every change that shows on the sheet goes through ``mark_changed`` in
the same transaction.

``session_close`` and ``session_reopen`` are the one place an evening becomes
final or open again, ``session_delete`` and ``session_restore`` where it leaves
and comes back: each tells the apps built on the evenings that what it books
may have changed (``events.evening_settled``: the regular table's Kasse settles
it), in the same transaction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from plumbing import queries
from scoring.engine import InvalidInput, Line, variant_for
from scoring.engine.session_file import read_players
from scoring.engine.types import gettext_noop
from scoring.games import registry
from scoring.models import Hand, Player, Seat, Session, SessionChange
from scoring.services import events
from scoring.services.games import options_json

# How long a deleted session can be restored; ``purge_sessions`` removes it after that.
RESTORABLE_DAYS = 30


class SessionClosed(Exception):
    """The evening is closed: its hands, house rules and money are final until
    its owner reopens it."""

    def __init__(self, session: Session) -> None:
        self.session = session
        super().__init__(f"session {session.pk} is closed")


class SessionManaged(Exception):
    """The evening is run by something else (``Session.managed``, a tournament's
    table): its options, players and names are fixed, and it is closed, reopened
    or deleted only by what runs it."""

    def __init__(self, session: Session) -> None:
        self.session = session
        super().__init__(f"session {session.pk} is managed")


def check_unmanaged(session: Session, *, managing: bool = False) -> None:
    """Refuse a change of a managed session's settings (``SessionManaged``),
    unless the caller is what manages it (``managing``)."""
    if session.managed and not managing:
        raise SessionManaged(session)


def check_open(session: Session) -> None:
    """Refuse a change of the scores on a closed session (``SessionClosed``)."""
    if session.closed_at is not None:
        raise SessionClosed(session)


def locked(session: Session) -> Session:
    """The session's row, locked until the transaction ends, read afresh."""
    return Session.objects.select_for_update().get(pk=session.pk)


def session_lock(*, session_id: int) -> None:
    """Take a session's row lock for the caller's transaction, by id (what runs a
    managed session takes it first, the order every hand takes: the session's row,
    then the caller's own)."""
    Session.objects.select_for_update().filter(pk=session_id).first()


def record_change(
    session: Session,
    user: User | None,
    action: str,
    *,
    before: Any = None,
    after: Any = None,
    client_token: str = "",
) -> SessionChange:
    """A line of the session's own history (``client_token``: the form's one-time token)."""
    return SessionChange.objects.create(
        session=session, user=user, action=action, before=before, after=after, client_token=client_token
    )


def done_already(session: Session, client_token: str) -> bool:
    """Whether the form with this one-time token changed the session already
    (a double tap, a resend): then it changes nothing more."""
    return (
        bool(client_token)
        and SessionChange.objects.filter(session=session, client_token=client_token).exists()
    )


def mark_changed(session: Session) -> None:
    """The sheet of this session changed: a new version for caches and watchers
    (``new_version``), and what follows every change (``follow_change``)."""
    new_version(session)
    follow_change(session)


def new_version(session: Session, *, open_only: bool = False) -> bool:
    """The session's next version, the one way every change of its sheet is
    counted (``queries.new_version``: in the database, so concurrent changes each
    count; it takes the session's row lock). The object's own ``version`` is exact
    when the caller holds the row lock. ``open_only``: only on an open evening
    (False: closed, nothing written)."""
    now = timezone.now()
    if not queries.new_version(session.pk, now, open_only=open_only):
        return False
    session.version += 1
    session.changed_at = now
    return True


def follow_change(session: Session) -> None:
    """What follows every change of a session's sheet besides its new version:
    the apps built on the evenings hear of it in the same transaction
    (``events.sheet_changed``: a group's statistics are written again)."""
    events.send_sheet_changed(session)


@transaction.atomic
def session_create(
    *,
    owner: User,
    name: str,
    variant: str,
    players: Sequence[str],
    options: dict[str, Any],
    money_rate: Decimal | None = None,
    played_on: date | None = None,
    first_dealer: str | None = None,
    hands_target: int | None = None,
    managed: bool = False,
    seat_players: Mapping[str, Player] | None = None,
    editors: Sequence[User] = (),
) -> Session:
    """Open a session; players are found by name among the owner's or created
    (``seat_players``: a seat's player where the caller knows him already).
    It was played today unless ``played_on`` says otherwise; ``first_dealer``
    deals the first hand (unasked: the last in playing order). A session run by
    another app (a tournament's table) is ``managed`` and played to ``hands_target``,
    its ``editors`` named with it: all in the one call that creates it."""
    game_variant = variant_for(variant, registry())
    names = read_players(list(players), game_variant)
    parsed = game_variant.parse_options(options, names)
    if first_dealer is not None and first_dealer not in names:
        raise InvalidInput(
            "first_dealer",
            Line(gettext_noop("must be one of the players: {allowed}"), {"allowed": ", ".join(names)}),
        )
    session = Session.objects.create(
        owner=owner,
        name=name,
        variant=variant,
        options=options_json(parsed),
        money_rate=money_rate,
        played_on=played_on or timezone.localdate(),
        first_dealer=first_dealer or "",
        changed_at=timezone.now(),
        hands_target=hands_target,
        managed=managed,
    )
    known = seat_players or {}
    for position, player_name in enumerate(names):
        player = known.get(player_name) or Player.objects.get_or_create(owner=owner, name=player_name)[0]
        Seat.objects.create(session=session, player=player, position=position, name=player_name)
    if editors:
        session.editors.set(editors)
    return session


def player_of(*, owner: User, name: str) -> Player:
    """The owner's player of that name, created the first time it is named."""
    return Player.objects.get_or_create(owner=owner, name=name)[0]


class SeatsFixed(Exception):
    """The seats of a session are fixed once its first hand is recorded."""


@transaction.atomic
def session_reseat(
    *,
    session: Session,
    order: Sequence[str],
    first_dealer: str,
    managing: bool = False,
    user: User | None = None,
) -> Session:
    """The seat order and the first dealer, until the first hand is recorded (a
    tournament table's scorer seats the players as they sit, TOURNAMENTS.md §2.3):
    ``order`` names every player once. The session's row is locked first; a new
    version, as every change of the sheet, and a line of the session's history
    (``reseated``: the order and first dealer before and after) when anything
    changed. Raises ``SeatsFixed`` once a hand is recorded, ``InvalidInput``
    (``order``, ``first_dealer``) for an order that is not the players or a dealer
    who does not sit at the table."""
    row = locked(session)
    check_unmanaged(row, managing=managing)
    seats = {seat.name: seat for seat in Seat.objects.filter(session=row).order_by("position")}
    if row.hands.exists():
        raise SeatsFixed(row)
    if sorted(order) != sorted(seats) or len(order) != len(seats):
        raise InvalidInput(
            "order", Line(gettext_noop("every player once: {allowed}"), {"allowed": ", ".join(seats)})
        )
    if first_dealer not in seats:
        raise InvalidInput(
            "first_dealer",
            Line(gettext_noop("must be one of the players: {allowed}"), {"allowed": ", ".join(order)}),
        )
    before = {"order": list(seats), "first_dealer": row.first_dealer}
    after = {"order": list(order), "first_dealer": first_dealer}
    for index, name in enumerate(order):  # out of the way first: positions are unique
        Seat.objects.filter(pk=seats[name].pk).update(position=100 + index)
    for index, name in enumerate(order):
        Seat.objects.filter(pk=seats[name].pk).update(position=index)
    row.first_dealer = first_dealer
    row.save(update_fields=["first_dealer"])
    if after != before:
        record_change(row, user, SessionChange.Action.RESEATED, before=before, after=after)
    mark_changed(row)
    return row


@transaction.atomic
def sessions_discard_unplayed(*, session_ids: Sequence[int]) -> int:
    """Remove for good sessions opened by another app that hold no hand (a tournament
    round drawn again before its first hand; a hand recorded and deleted again counts
    as none): one with a hand standing is kept. How many went."""
    standing = Hand.objects.filter(session_id__in=list(session_ids), deleted_at__isnull=True)
    unplayed = Session.objects.filter(pk__in=list(session_ids), managed=True).exclude(
        pk__in=standing.values("session_id")
    )
    return int(unplayed.delete()[1].get(Session._meta.label, 0))


def sessions_version(session_ids: Any) -> int:
    """The sum of the sessions' versions (``session_ids``: ids, or a query of them, read
    in the same statement): it moves with every change of any of their sheets."""
    found = Session.objects.filter(pk__in=session_ids).aggregate(changes=Sum("version"))
    return int(found["changes"] or 0)


@transaction.atomic
def session_close(
    *, session: Session, user: User | None, client_token: str = "", managing: bool = False
) -> Session:
    """Close the evening: no more hands, no change of house rules or money rate,
    until ``session_reopen``. An evening of a group with a money rate books its
    settlement into the group's Kasse. Closing a closed session changes nothing,
    and nor does the same form sent again (``client_token``), even after the
    evening was reopened in between."""
    row = locked(session)
    check_unmanaged(row, managing=managing)
    if row.closed_at is None and not done_already(row, client_token):
        _stamp(row, user, "closed_at", timezone.now(), SessionChange.Action.CLOSED, client_token)
        events.send_evening_settled(row, user)  # a group's evening with a money rate is booked
    return row


@transaction.atomic
def session_reopen(
    *, session: Session, user: User | None, client_token: str = "", managing: bool = False
) -> Session:
    """Open a closed evening again for hands and corrections; what it booked into
    the Kasse is reversed by a counter-booking. The same form sent again
    (``client_token``) changes nothing, even after the evening was closed in between."""
    row = locked(session)
    check_unmanaged(row, managing=managing)
    if row.closed_at is not None and not done_already(row, client_token):
        _stamp(row, user, "closed_at", None, SessionChange.Action.REOPENED, client_token)
        events.send_evening_settled(row, user)  # a counter-booking; closing again books anew
    return row


@transaction.atomic
def session_delete(*, session: Session, user: User | None, managing: bool = False) -> Session:
    """Take a session off every page (its share link stops working); its owner
    can restore it for ``RESTORABLE_DAYS`` days, after which it is purged. What a
    closed evening booked into its group's Kasse is reversed by a counter-booking."""
    row = locked(session)
    check_unmanaged(row, managing=managing)
    if row.deleted_at is None:
        _stamp(row, user, "deleted_at", timezone.now(), SessionChange.Action.DELETED)
        events.send_evening_settled(row, user)
    return row


class NotRestorable(Exception):
    """The session was deleted longer ago than ``RESTORABLE_DAYS``."""


def restorable_since() -> datetime:
    """Sessions deleted after this moment can still be restored."""
    return timezone.now() - timedelta(days=RESTORABLE_DAYS)


@transaction.atomic
def session_restore(*, session: Session, user: User | None, managing: bool = False) -> Session:
    """Bring a deleted session back, as it was: a closed evening of a group with
    a money rate is booked into the Kasse again."""
    row = locked(session)
    check_unmanaged(row, managing=managing)
    if row.deleted_at is not None:
        if row.deleted_at <= restorable_since():
            raise NotRestorable(f"session {row.pk} was deleted more than {RESTORABLE_DAYS} days ago")
        _stamp(row, user, "deleted_at", None, SessionChange.Action.RESTORED)
        events.send_evening_settled(row, user)
    return row


def _stamp(
    row: Session, user: User | None, field: str, value: datetime | None, action: str, client_token: str = ""
) -> None:
    """Set or clear when the session was closed or deleted, with its history line and a new version."""
    setattr(row, field, value)
    row.save(update_fields=[field])
    record_change(row, user, action, client_token=client_token)
    mark_changed(row)


@transaction.atomic
def sessions_purge() -> int:
    """Remove for good the sessions deleted more than ``RESTORABLE_DAYS`` days
    ago, with their hands and history; how many."""
    expired = Session.objects.filter(deleted_at__lte=restorable_since())
    count = expired.count()
    expired.delete()
    return count
