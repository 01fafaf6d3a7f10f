"""A table-round at the table (TOURNAMENTS.md §1.5, §3.1–3.3): its session,
opened on first sight of its link; the phone that claims it, hands it over or
has its claim released; its seats before the first hand; its sign-off.

A phone is known by a random cookie it was given (``PHONE_COOKIE``); a table
stores only the SHA-256 of the cookie of the phone that holds it
(``claim_digest``), and of a hand-over code only its SHA-256 and when it ends.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from scoring import services as scoring
from scoring.engine import InvalidInput
from scoring.models import Hand, Seat, Session
from tournaments.models import TableRound, TableSeat, Tournament, TournamentChange
from tournaments.services import results
from tournaments.services.tournaments import forced_options

PHONE_COOKIE = "tarock_phone"
HANDOVER_MINUTES = 2
Saved = TypeVar("Saved")


class TableRefused(Exception):
    """What was asked of a table cannot be done; ``reason`` says why in the players' words."""

    def __init__(self, reason: str, *, field: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.field = field


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def new_phone_cookie() -> str:
    return secrets.token_urlsafe(24)


def device_label(cookie: str) -> str:
    """The short name a phone goes by on its hands: "Handy 3F2A"."""
    return _("Phone %(code)s") % {"code": digest(cookie)[:4].upper()}


def table_by_token(token: str) -> TableRound:
    """The table-round behind a table link (``TableRound.DoesNotExist`` for an
    unknown or reissued link); its round, tournament and session read with it."""
    if not token or len(token) > 64:
        raise TableRound.DoesNotExist
    return TableRound.objects.select_related("round__tournament", "session").get(
        link_token=token, round__tournament__deleted_at__isnull=True
    )


def is_organiser(tournament: Tournament, user: User | AnonymousUser | None) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return tournament.owner_id == user.pk or tournament.organisers.filter(pk=user.pk).exists()


def is_released(table: TableRound) -> bool:
    return table.status != TableRound.Status.WAITING


# --------------------------------------------------------------------------
# The session


def open_table(table: TableRound) -> Session:
    """The table's session, created the first time (in a transaction, with the
    table's row locked, so two phones opening it at once get the same one):
    the tournament's game and house rules, its players in seat order, the first
    dealer of the draw, the money rate and the hand target; managed, owned by
    the tournament's owner, its organisers as editors."""
    if table.session_id is not None:
        return table.session  # type: ignore[return-value]
    with transaction.atomic():
        locked = (
            TableRound.objects.select_for_update(of=("self",))
            .select_related("round__tournament")
            .get(pk=table.pk)
        )
        if locked.session_id is None:
            locked.session = _session_for(locked)
            locked.save(update_fields=["session"])
        table.session = locked.session
        table.session_id = locked.session_id
    return table.session  # type: ignore[return-value]


def _session_for(table: TableRound) -> Session:
    tournament = table.round.tournament
    seats = list(table.seats.select_related("entrant__player").order_by("position"))
    names = [seat.entrant.name for seat in seats]
    options = {**(tournament.options or {}), **forced_options(tournament.variant)}  # §1.1
    dealer = names[table.first_dealer - 1] if 0 < table.first_dealer <= len(names) else None
    return scoring.session_create(
        owner=tournament.owner,
        name=session_name(table),
        variant=tournament.variant,
        players=names,
        options=options,
        money_rate=tournament.money_rate,
        played_on=tournament.played_on,
        first_dealer=dealer,
        hands_target=table.hands_target,
        managed=True,
        seat_players={
            seat.entrant.name: seat.entrant.player for seat in seats
        },  # as the organiser knows them
        editors=list(tournament.organisers.all()),
    )


def session_name(table: TableRound) -> str:
    """ "<tournament> · Runde r · Tisch t", within a session name's 80 characters."""
    with translation.override(settings.LANGUAGE_CODE):  # stored: in the app's first language
        tail = _(" · Round %(round)s · Table %(table)s") % {
            "round": table.round.number,
            "table": table.number,
        }
    return table.round.tournament.name[: 80 - len(tail)] + tail


def title(table: TableRound) -> str:
    """The header of the table's pages: "Turnier · Runde 2 · Tisch 7"."""
    return _("Tournament · Round %(round)s · Table %(table)s") % {
        "round": table.round.number,
        "table": table.number,
    }


def played(table: TableRound) -> int:
    """Played hands at the table so far (redeals and deleted hands not counted),
    as every page shows them (``results.live_played``)."""
    return results.live_played([table])[table.pk]


def has_hands(table: TableRound) -> bool:
    return table.session_id is not None and Hand.objects.filter(session_id=table.session_id).exists()


# --------------------------------------------------------------------------
# Claim, hand-over, release


@dataclass(frozen=True)
class Claim:
    """Who writes at a table: ``mine`` (this phone), ``free`` or another phone since ``since``."""

    mine: bool
    free: bool
    since: Any


def claim_of(table: TableRound, cookie: str) -> Claim:
    if not table.claim_digest:
        return Claim(False, True, None)
    return Claim(bool(cookie) and table.claim_digest == digest(cookie), False, table.claimed_at)


def table_save(table: TableRound, *, cookie: str, save: Callable[[], Saved]) -> Saved:
    """A change of the table's hands (``save``: a new hand, a correction, a
    deletion, a restore) from the phone with ``cookie``. The first change stored
    at a free table claims it for that phone, in the transaction that stores it
    (``on_sheet_changed``, after the save has taken the session's row, the order
    every write at a table takes): a save that stores nothing (refused, a
    preview, a count of cards, a resent hand stored before) claims nothing, and
    of phones saving at a free table at once the first claims it while the
    others store nothing and are told who writes (``TableRefused``). Opening the
    table, its forms or a preview never claims."""
    state = claim_of(table, cookie)
    if not state.free:
        if not state.mine:
            raise TableRefused(watching(table))
        return save()
    if not cookie:
        raise TableRefused(_("This phone does not accept cookies, so it cannot write at a table."))
    pending = _CLAIMING.set(_Claiming(table, cookie))
    try:
        return save()
    finally:
        _CLAIMING.reset(pending)


@dataclass(frozen=True)
class _Claiming:
    """A save at a free table: the table and the phone that claims it if the save stores anything."""

    table: TableRound
    cookie: str


_CLAIMING: ContextVar[_Claiming | None] = ContextVar("table_claiming", default=None)


def on_sheet_changed(sender: object, *, session: Session, **kwargs: object) -> None:
    """A session's sheet changed (``scoring.services.events``), in the transaction
    that changed it. A save at a free table (``table_save``) claims the table
    here, so a save that stores nothing claims nothing, and one that lost the
    claim to another phone is undone. Nothing else follows: a hand at a running
    table moves nothing of the ranking (``results``), and what does move it
    (sign-off, end, desk entry, confirmation, opening) calls
    ``results.table_changed`` itself."""
    pending = _CLAIMING.get()
    if pending is None or pending.table.session_id not in (None, session.pk) or not session.managed:
        return
    if not claim(pending.table, pending.cookie):
        raise TableRefused(watching(pending.table))  # another phone claimed it first: this save is undone


def watching(table: TableRound) -> str:
    """Who writes at a claimed table, for the phones that watch it:
    "wird auf einem anderen Handy geschrieben, seit 14:12"."""
    since = table.claimed_at
    time = formats.time_format(timezone.localtime(since), "TIME_FORMAT") if since else ""
    return _("This table is being written on another phone, since %(time)s.") % {"time": time}


def claim(table: TableRound, cookie: str) -> bool:
    """The phone with ``cookie`` writes at the table: it claims a free table;
    whether it holds the claim now. Called once a change is stored (``table_save``),
    never for a page, a form or a preview. One conditional update: of phones
    claiming at once, the database lets one through."""
    if not cookie:
        return False
    mine = digest(cookie)
    if table.claim_digest:
        return table.claim_digest == mine
    now = timezone.now()
    with transaction.atomic(savepoint=False):  # inside a save: its transaction, no savepoint
        if TableRound.objects.filter(pk=table.pk, claim_digest="").update(claim_digest=mine, claimed_at=now):
            table.claim_digest, table.claimed_at = mine, now
            _audit(table, TournamentChange.Action.CLAIM, device=device_label(cookie))
            return True
    held = TableRound.objects.filter(pk=table.pk).values_list("claim_digest", "claimed_at").first()
    if held is not None:
        table.claim_digest, table.claimed_at = held
    return table.claim_digest == mine


def handover_code(table: TableRound, cookie: str) -> str:
    """A one-time four-digit code, valid ``HANDOVER_MINUTES``, with which another
    phone takes the table over; only the phone holding the claim gets one."""
    if not claim_of(table, cookie).mine:
        raise TableRefused(_("Only the phone that writes at this table can hand it over."))
    code = f"{secrets.randbelow(10_000):04d}"
    table.handover_digest = digest(f"{table.pk}:{code}")
    table.handover_until = timezone.now() + timedelta(minutes=HANDOVER_MINUTES)
    table.handover_wrong = 0
    table.save(update_fields=["handover_digest", "handover_until", "handover_wrong"])
    return code


HANDOVER_TRIES = 3
CLAIM_FIELDS = ("claim_digest", "claimed_at", "handover_digest", "handover_until")


def take_over(table: TableRound, cookie: str, code: str) -> None:
    """The phone with ``cookie`` takes the table over with the code the other
    phone shows; an expired code changes nothing, and after ``HANDOVER_TRIES``
    wrong ones the code is used up (four digits must not be guessed). The wrong
    tries are counted under the table's row lock with the comparison, so however
    many guesses arrive at once, at most ``HANDOVER_TRIES`` are compared."""
    if not cookie:
        raise TableRefused(_("This phone does not accept cookies, so it cannot write at a table."))
    with transaction.atomic():
        locked = TableRound.objects.select_for_update().get(pk=table.pk)
        expired = locked.handover_until is None or locked.handover_until <= timezone.now()
        if expired or not locked.handover_digest or locked.handover_wrong >= HANDOVER_TRIES:
            raise TableRefused(
                _("The code has expired: ask for a new one on the phone that writes."), field="code"
            )
        right = secrets.compare_digest(locked.handover_digest, digest(f"{locked.pk}:{code.strip()}"))
        if right:
            locked.claim_digest, locked.claimed_at = digest(cookie), timezone.now()
            locked.handover_digest, locked.handover_until, locked.handover_wrong = "", None, 0
            _audit(locked, TournamentChange.Action.CLAIM, device=device_label(cookie), reason="handover")
        else:
            locked.handover_wrong += 1
            if locked.handover_wrong >= HANDOVER_TRIES:  # the code is used up
                locked.handover_digest, locked.handover_until = "", None
        locked.save(update_fields=[*CLAIM_FIELDS, "handover_wrong"])
    if not right:
        raise TableRefused(_("Code: four digits, as the writing phone shows them."), field="code")
    table.claim_digest, table.claimed_at = locked.claim_digest, locked.claimed_at
    table.handover_digest, table.handover_until = "", None


# --------------------------------------------------------------------------
# Seats before the first hand


def change_seats(table: TableRound, *, order: Sequence[str], first_dealer: str) -> None:
    """The scorer's seat order and first dealer, until the first hand is recorded
    (TOURNAMENTS.md §2.3): ``order`` names every player once."""
    session = open_table(table)
    with transaction.atomic():
        try:
            locked = scoring.session_reseat(
                session=session, order=order, first_dealer=first_dealer, managing=True
            )
        except scoring.SeatsFixed:
            raise TableRefused(
                _("The seats are fixed once the first hand is recorded."), field="order"
            ) from None
        except InvalidInput as error:
            if error.field == "first_dealer":
                allowed = ", ".join(order)
                why = _("First dealer: one of %(names)s.") % {"names": allowed}
                raise TableRefused(why, field="first_dealer") from None
            allowed = ", ".join(sorted(players(table)))
            raise TableRefused(
                _("Seats: each of %(names)s once.") % {"names": allowed}, field="order"
            ) from None
        TableRound.objects.filter(pk=table.pk).update(first_dealer=order.index(first_dealer) + 1)
        _draw_seats_follow(table, order)
    table.session = locked


def _draw_seats_follow(table: TableRound, order: Sequence[str]) -> None:
    """The table's ``TableSeat`` rows take the scorer's order, so the round plan,
    the slips and the player cards show the seats and first dealer as played."""
    by_name = {seat.entrant.name: seat for seat in table.seats.select_related("entrant")}
    moved = [by_name[name] for name in order if name in by_name]
    for index, seat in enumerate(moved):  # out of the way first: (table, position) is unique
        TableSeat.objects.filter(pk=seat.pk).update(position=100 + index)
    for index, seat in enumerate(moved, start=1):
        TableSeat.objects.filter(pk=seat.pk).update(position=index)


# --------------------------------------------------------------------------
# Sign-off


def signoff_mode(table: TableRound) -> str:
    return str(results.setting(table.round.tournament, "signoff"))


def signed_where(table: TableRound) -> str:
    """Where and by whom the table is signed, by the tournament's ``signoff``
    (§3.3), for the phones that do not write."""
    mode = signoff_mode(table)
    if mode == "organiser":
        return _(
            "After the last hand the scorer signs on the writing phone, and the organiser confirms the table at the desk."
        )
    if mode == "scorer":
        return _("The scorer signs the table on the writing phone after the last hand.")
    return _(
        "The scorer signs the table on the writing phone after the last hand, with another player of the table who checked it."
    )


def sign_off(
    table: TableRound,
    *,
    cookie: str = "",
    user: User | AnonymousUser | None = None,
    scorer: str,
    checker: str = "",
    client_token: str = "",
) -> TableRound:
    """The scorer signs the table (TOURNAMENTS.md §3.3), once however often the
    form is sent (``client_token``): under ``scorer_and_check`` with one other
    player of the table, under ``scorer`` alone, under ``organiser`` the table then
    waits for the organiser (``desk.table_confirm``). After the last hand, or at any
    time by an organiser. Signed, the table is locked and counts."""
    tournament = table.round.tournament
    organiser = is_organiser(tournament, user)
    with transaction.atomic():
        locked = _locked(table)
        if (
            client_token
            and TournamentChange.objects.filter(tournament=tournament, client_token=client_token).exists()
        ):
            return locked
        _check_signable(locked, cookie=cookie, organiser=organiser)
        names = _names(locked)
        scorer = scorer.strip()
        if not scorer or len(scorer) > 40:
            raise TableRefused(_("Scorer: the name of whoever wrote the sheet."), field="scorer")
        mode = signoff_mode(locked)
        if mode == "scorer_and_check" and (checker not in names or checker == scorer):
            allowed = ", ".join(name for name in names if name != scorer)
            why = _("Checked by: one other player of the table, %(names)s.") % {"names": allowed}
            raise TableRefused(why, field="checker")
        locked.scorer_name = scorer
        locked.checker_name = checker if mode == "scorer_and_check" else ""
        if mode == "organiser" and not organiser:
            locked.status = TableRound.Status.COMPLETE
            locked.save(update_fields=["scorer_name", "checker_name", "status"])
            _audit(locked, TournamentChange.Action.SIGN, user=user, reason="waiting", token=client_token)
        else:
            _signed(locked, user=user, token=client_token)
        results.table_changed(locked)
    return locked


def awaits_organiser(table: TableRound) -> bool:
    """Signed by the scorer under ``signoff: organiser``, not yet confirmed."""
    return (
        bool(table.scorer_name)
        and table.status == TableRound.Status.COMPLETE
        and signoff_mode(table) == "organiser"
    )


def _locked(table: TableRound) -> TableRound:
    """The table's row locked, its session's first: the order every hand takes
    (the session's row, then, through ``results.table_changed``, the table's),
    so a sign-off and a hand sent at the same moment queue, never deadlock."""
    if table.session_id is not None:
        scoring.session_lock(session_id=table.session_id)
    return (
        TableRound.objects.select_for_update(of=("self",))
        .select_related("round__tournament", "session")
        .get(pk=table.pk)
    )


def _check_signable(table: TableRound, *, cookie: str, organiser: bool) -> None:
    if table.is_locked:
        raise TableRefused(_("This table is signed already."))
    if not is_released(table):
        raise TableRefused(_("This round is not released yet."))
    if not organiser:
        if table.opened_by_organiser:
            raise TableRefused(_("The organisers opened this table to correct it: they sign it again."))
        if not claim_of(table, cookie).mine:
            raise TableRefused(_("Only the phone that writes at this table can sign it."))
        count = played(table)
        if count < table.hands_target:
            why = _("Not complete yet: %(played)s of %(target)s hands played.")
            raise TableRefused(why % {"played": count, "target": table.hands_target})


def _signed(table: TableRound, *, user: User | AnonymousUser | None, token: str) -> None:
    table.status = TableRound.Status.SIGNED
    table.signed_at = timezone.now()
    table.save(update_fields=["scorer_name", "checker_name", "status", "signed_at"])
    if table.session_id is not None:
        table.session = scoring.session_close(session=table.session, user=_account(user), managing=True)  # type: ignore[arg-type]
    _audit(table, TournamentChange.Action.SIGN, user=user, token=token)


def _names(table: TableRound) -> list[str]:
    if table.session_id is not None:
        return list(
            Seat.objects.filter(session_id=table.session_id)
            .order_by("position")
            .values_list("name", flat=True)
        )
    return [seat.entrant.name for seat in table.seats.select_related("entrant").order_by("position")]


def players(table: TableRound) -> list[str]:
    """The table's players in playing order."""
    return _names(table)


def _account(user: User | AnonymousUser | None) -> User | None:
    return user if isinstance(user, User) else None


def _audit(
    table: TableRound,
    action: str,
    *,
    user: User | AnonymousUser | None = None,
    device: str = "",
    reason: str = "",
    token: str = "",
) -> None:
    TournamentChange.objects.create(
        tournament_id=table.round.tournament_id,
        action=action,
        user=_account(user),
        device=device,
        round_number=table.round.number,
        table_number=table.number,
        reason=reason,
        client_token=token,
    )
