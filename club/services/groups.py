"""A regular table ("Runde"): the group, its members and roster, invitations,
house rules for new evenings, seasons, and the evenings themselves.

The owner manages the group (settings, house rules, roster links, invitations,
members); every member records and corrects hands in the group's evenings and
books payments in its Kasse. Each writing function is keyword-only and runs in
one transaction; input the group refuses raises ``InvalidInput`` naming the field,
before anything is written.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from club.models import (
    BookingLine,
    EveningResult,
    Group,
    GroupPlayer,
    Invitation,
    Membership,
    RosterChange,
    RosterSeat,
    Season,
)
from club.services import events, kasse
from club.services.links import evenings_of, group_id_of, group_join, outside_groups, seat_player
from club.services.standings import evening_refresh, statistics_changed
from plumbing import queries
from scoring.engine import InvalidInput
from scoring.engine.schema import check_name, clean, dump, name_problem
from scoring.engine.types import gettext_noop, invalid
from scoring.games import registry
from scoring.models import NAME_LENGTH, Seat, Session
from scoring.services.sessions import locked, session_create

INVITATION_DAYS = (1, 7, 30)  # how long a new invitation link may be valid
MOST_USES = 20  # people one invitation link may let in
GROUP_NAME_LENGTH = 80
LATEST_EVENINGS = 20  # evenings listed on the group's page


def _text(field: str, value: str, longest: int) -> str:
    """A one-line name: stripped, not empty, at most ``longest`` characters, text that shows."""
    value = value.strip()
    if not value or len(value) > longest:
        raise invalid(field, gettext_noop("a name of 1 to {n} characters"), n=longest)
    problem = name_problem(value)
    if problem is not None:
        raise InvalidInput(field, problem)
    return value


def _money_rate(value: Decimal | None) -> Decimal | None:
    if value is not None and (not value.is_finite() or value <= 0 or value >= 10000):
        raise invalid("money_rate", gettext_noop("empty, or more than 0 and less than 10000"))
    return value


def _currency(value: str) -> str:
    value = value.strip()
    if not value or len(value) > CURRENCY_LENGTH or " " in value:
        raise invalid(
            "currency",
            gettext_noop("a sign of 1 to {n} characters, such as €, CHF, $ or £"),
            n=CURRENCY_LENGTH,
        )
    return check_name("currency", value)  # a sign that shows, like a name


@transaction.atomic
def group_create(*, owner: User, name: str, money_rate: Decimal | None = None) -> Group:
    """A new group, with ``owner`` as its owner and first member."""
    group = Group.objects.create(
        name=_text("name", name, GROUP_NAME_LENGTH), money_rate=_money_rate(money_rate)
    )
    Membership.objects.create(group=group, user=owner, role=Membership.Role.OWNER)
    return group


CURRENCY_LENGTH = 3  # €, CHF, $, £, or a sign of the group's own


@transaction.atomic
def group_update(
    *, group: Group, name: str, money_rate: Decimal | None, min_hands: int, currency: str | None = None
) -> Group:
    """The group's name, its money rate for new evenings, the fewest hands a
    player needs to be ranked by average per hand in a season, and the sign its
    money is shown with (``None``: kept)."""
    if not 1 <= min_hands <= 10000:
        raise invalid("min_hands", gettext_noop("a whole number from 1 to 10000"))
    group.name = _text("name", name, GROUP_NAME_LENGTH)
    group.money_rate = _money_rate(money_rate)
    group.min_hands = min_hands
    if currency is not None:
        group.currency = _currency(currency)
    group.save(update_fields=["name", "money_rate", "min_hands", "currency"])
    statistics_changed(group.pk)
    return group


@transaction.atomic
def group_preset(*, group: Group, variant: str, options: Mapping[str, Any]) -> Group:
    """Keep the group's house rules for a game: its new evenings start from them.
    Each rule is checked as a session checks it (``InvalidInput`` naming ``options.<rule>``)."""
    game = registry()[variant]
    values = clean(game.option_fields, dict(options), (), "options.")
    locked = Group.objects.select_for_update().get(pk=group.pk)
    locked.presets = {**locked.presets, variant: dump(game.option_fields, values, defaults=True)}
    locked.save(update_fields=["presets"])
    group.presets = locked.presets
    return group


# -- the roster ----------------------------------------------------------------------------


def roster_player(group: Group, name: str) -> GroupPlayer:
    """The roster's player of that name; a new name joins the roster, and a hidden
    player who sits at a table again is shown again."""
    player, created = GroupPlayer.objects.get_or_create(group=group, name=_text("name", name, NAME_LENGTH))
    if created:
        statistics_changed(group.pk)
    elif player.hidden_at is not None:
        GroupPlayer.objects.filter(pk=player.pk).update(hidden_at=None)
        player.hidden_at = None
    return player


def roster_current(group: Group) -> list[GroupPlayer]:
    """The roster's players offered for new evenings: the hidden ones left out."""
    return list(GroupPlayer.objects.filter(group=group, hidden_at__isnull=True).order_by("name", "id"))


@transaction.atomic
def roster_add(*, group: Group, name: str) -> GroupPlayer:
    return roster_player(group, name)


@transaction.atomic
def roster_link(*, player: GroupPlayer, user_id: int | None) -> GroupPlayer:
    """Link a roster player to a member's account (``None``: unlink). An account
    is linked to at most one player of a group."""
    if user_id is not None:
        if not Membership.objects.filter(group_id=player.group_id, user_id=user_id).exists():
            raise invalid("user", gettext_noop("must be a member of the group"))
        GroupPlayer.objects.filter(group_id=player.group_id, user_id=user_id).exclude(pk=player.pk).update(
            user=None
        )
    player.user_id = user_id
    player.save(update_fields=["user"])
    statistics_changed(player.group_id)
    return player


def _roster_note(
    group: Group, user: User | None, action: str, player: GroupPlayer, into: GroupPlayer | None = None
) -> None:
    RosterChange.objects.create(
        group=group,
        user=user,
        action=action,
        player_id_was=player.pk,
        name=player.name,
        into=into,
        into_name="" if into is None else into.name,
    )


@transaction.atomic
def roster_hide(*, player: GroupPlayer, user: User | None, hidden: bool = True) -> GroupPlayer:
    """Hide a roster player (``hidden=False``: show them again). A hidden player
    keeps their evenings, statistics and Kasse account, but is no longer offered
    for new evenings or payments, nor listed in the Kasse once their balance is
    zero. Hiding a hidden player (or showing a shown one) changes nothing."""
    # The group's row is locked: its roster changes run one after the other.
    group = Group.objects.select_for_update().get(pk=player.group_id)
    stored = GroupPlayer.objects.filter(pk=player.pk, group=group).first()
    if stored is None:
        raise invalid("player", gettext_noop("is no longer on the roster"))
    if (stored.hidden_at is not None) != hidden:
        stored.hidden_at = timezone.now() if hidden else None
        stored.save(update_fields=["hidden_at"])
        action = RosterChange.Action.HIDE if hidden else RosterChange.Action.UNHIDE
        _roster_note(group, user, action, stored)
    player.hidden_at = stored.hidden_at
    return stored


@transaction.atomic
def roster_merge(*, group: Group, player_id: int, into_id: int, user: User | None) -> GroupPlayer:
    """Fold a roster player into another (a misspelt name into the right one):
    their seats, evening results, Kasse lines and account link move to the
    player ``into_id``, the merge is noted on the roster's history, the apps
    built on the roster hear of it (``club.services.events``) and the misspelt
    player goes. The statistics and Kasse then read as if the name had
    been right from the start.

    Refused (``InvalidInput``, nothing written) for two players who sat at the
    same evening (named), two players linked to different accounts, a player of
    another group or the player itself. A player merged already into ``into_id``
    (a merge sent again) changes nothing more."""
    group = Group.objects.select_for_update().get(pk=group.pk)
    stored = GroupPlayer.objects.filter(pk=player_id, group=group).first()
    target = GroupPlayer.objects.filter(pk=into_id, group=group).first()
    if target is None:
        raise invalid("into", gettext_noop("must be a player of this group"))
    if stored is None:
        merged = RosterChange.objects.filter(
            group=group, action=RosterChange.Action.MERGE, player_id_was=player_id, into=target
        )
        if merged.exists():
            return target
        raise invalid("player", gettext_noop("is no longer on the roster"))
    if stored.pk == target.pk:
        raise invalid("into", gettext_noop("must be another player"))
    both = (
        Session.objects.filter(seats__roster_link__player=stored)
        .filter(seats__roster_link__player=target)
        .order_by("played_on", "id")
    ).first()
    if both is not None:
        raise invalid(
            "into",
            gettext_noop("{name} and {other} both sat at the evening “{evening}” of {day}"),
            name=stored.name,
            other=target.name,
            evening=both.name,
            day=both.played_on.isoformat(),
        )
    if stored.user_id is not None and target.user_id not in (None, stored.user_id):
        raise invalid(
            "into",
            gettext_noop("{name} and {other} are linked to different accounts"),
            name=stored.name,
            other=target.name,
        )
    RosterSeat.objects.filter(player=stored).update(player=target)
    EveningResult.objects.filter(player=stored).update(player=target)
    BookingLine.objects.filter(player=stored).update(player=target)
    if stored.user_id is not None and target.user_id is None:
        user_id, stored.user_id = stored.user_id, None
        stored.save(update_fields=["user"])
        target.user_id = user_id
        target.save(update_fields=["user"])
    _roster_note(group, user, RosterChange.Action.MERGE, stored, target)
    events.send_roster_merged(group, stored, target, user)  # the links to the name follow it
    stored.delete()
    statistics_changed(group.pk)
    return target


# -- members and invitations --------------------------------------------------------------


class InvitationRefused(Exception):
    """An invitation link that no longer lets anyone in, and why."""

    def __init__(self, reason: str) -> None:
        self.reason = reason  # unknown, revoked, expired, used
        super().__init__(reason)


@transaction.atomic
def invitation_create(*, group: Group, user: User, days: int = 7, max_uses: int = 1) -> Invitation:
    """A new unguessable link that lets ``max_uses`` people join within ``days`` days."""
    if days not in INVITATION_DAYS:
        raise invalid("days", gettext_noop("one of {allowed}"), allowed=", ".join(map(str, INVITATION_DAYS)))
    if not 1 <= max_uses <= MOST_USES:
        raise invalid("max_uses", gettext_noop("a whole number from 1 to {most}"), most=MOST_USES)
    return Invitation.objects.create(
        group=group,
        token=secrets.token_urlsafe(32),
        created_by=user,
        expires_at=timezone.now() + timedelta(days=days),
        max_uses=max_uses,
    )


@transaction.atomic
def invitation_revoke(*, invitation: Invitation) -> None:
    """The link stops working at once; whoever joined through it stays."""
    Invitation.objects.filter(pk=invitation.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())


def invitation_check(invitation: Invitation) -> None:
    """``InvitationRefused`` unless the link still lets someone in."""
    if invitation.revoked_at is not None:
        raise InvitationRefused("revoked")
    if invitation.expires_at <= timezone.now():
        raise InvitationRefused("expired")
    if invitation.uses >= invitation.max_uses:
        raise InvitationRefused("used")


def invitation_by_token(token: str) -> Invitation:
    """The invitation behind a link, whatever its state (``InvitationRefused`` if none)."""
    invitation = Invitation.objects.filter(token=token).select_related("group").first() if token else None
    if invitation is None:
        raise InvitationRefused("unknown")
    return invitation


@transaction.atomic
def invitation_accept(*, token: str, user: User) -> Membership:
    """Join the group behind the link. A member who opens it again stays a member
    and uses nothing up; anyone else needs a link that is open (not revoked,
    expired or used up), and takes one of its uses."""
    found = invitation_by_token(token)
    invitation = Invitation.objects.select_for_update().get(pk=found.pk)
    existing = Membership.objects.filter(group_id=invitation.group_id, user=user).first()
    if existing is not None:
        return existing
    invitation_check(invitation)
    invitation.uses += 1
    invitation.save(update_fields=["uses"])
    return Membership.objects.create(group_id=invitation.group_id, user=user, role=Membership.Role.MEMBER)


@transaction.atomic
def member_remove(*, group: Group, user_id: int) -> None:
    """Take a member out of the group (never its owner); their roster link goes too."""
    removed, _ = Membership.objects.filter(group=group, user_id=user_id, role=Membership.Role.MEMBER).delete()
    if removed:
        GroupPlayer.objects.filter(group=group, user_id=user_id).update(user=None)


# -- seasons ------------------------------------------------------------------------------


@transaction.atomic
def season_create(*, group: Group, name: str, starts_on: date, ends_on: date) -> Season:
    if ends_on < starts_on:
        raise invalid("ends_on", gettext_noop("must not be before the first day"))
    name = _text("name", name, 80)
    if Season.objects.filter(group=group, name=name).exists():
        raise invalid("name", gettext_noop("the group has a season of that name already"))
    season = Season.objects.create(group=group, name=name, starts_on=starts_on, ends_on=ends_on)
    statistics_changed(group.pk)
    return season


# -- evenings -----------------------------------------------------------------------------


def last_seating(group: Group, variant: str) -> list[str]:
    """The players of the group's last evening of this game, in their seat order
    (of any game if it has none yet): a new evening starts from them."""
    evenings = evenings_of(group).filter(deleted_at__isnull=True).order_by("-played_on", "-created_at", "-id")
    last = evenings.filter(variant=variant).first() or evenings.first()
    if last is None:
        return []
    seats = (
        Seat.objects.filter(session=last)
        .exclude(roster_link__player__hidden_at__isnull=False)
        .order_by("position")
    )
    return list(seats.values_list("name", flat=True))


def _seat_roster(session: Session, group: Group) -> None:
    """Each seat of the evening sits a player of the roster; new names join it."""
    for seat in Seat.objects.filter(session=session):
        seat_player(seat, roster_player(group, seat.name))


@transaction.atomic
def group_session_create(
    *,
    group: Group,
    owner: User,
    name: str,
    variant: str,
    players: Sequence[str],
    options: dict[str, Any],
    money_rate: Decimal | None = None,
    first_dealer: str | None = None,
) -> Session:
    """Open an evening of the group: its players are the roster's (new names join
    the roster), and it counts in the group's statistics and Kasse."""
    session = session_create(
        owner=owner,
        name=name,
        variant=variant,
        players=players,
        options=options,
        money_rate=money_rate,
        first_dealer=first_dealer,
    )
    group_join(session, group)
    _seat_roster(session, group)
    evening_refresh(session)
    return session


@transaction.atomic
def group_session_add(*, group: Group, session: Session, user: User | None = None) -> Session:
    """Bring an evening played before (one of the user's own, in no group yet)
    into the group: its hands count in the statistics as they were stored, and
    one closed already with a money rate is booked into the Kasse as if it had
    been closed in the group. A deleted session is refused."""
    row = locked(session)  # the evenings' own lock, taken as every change of the evening takes it
    if group_id_of(row) is not None:
        raise invalid("session", gettext_noop("this session belongs to a group already"))
    if row.deleted_at is not None:
        raise invalid("session", gettext_noop("this session was deleted"))
    if row.managed:
        raise invalid("session", gettext_noop("this session is a tournament's table"))
    group_join(row, group)
    _seat_roster(row, group)
    evening_refresh(row)
    kasse.evening_settle(session=row, user=user)
    return row


def groups_of(user: User) -> list[Group]:
    return list(Group.objects.filter(memberships__user=user).order_by("name", "id"))


def player_of(group: Group, pk: int) -> GroupPlayer:
    """A player of the group's roster; ``GroupPlayer.DoesNotExist`` otherwise. Read on
    every view of a player's page: written out once (``plumbing.queries``)."""
    player: GroupPlayer | None = queries.player_of_group(pk, group.pk)
    if player is None:
        raise GroupPlayer.DoesNotExist
    player.group = group
    return player


@dataclass(frozen=True)
class Overview:
    """What the group's page shows."""

    group: Group
    owner: bool  # the user viewing it owns the group
    memberships: tuple[Membership, ...]
    roster: tuple[GroupPlayer, ...]
    evenings: tuple[Session, ...]  # the latest evenings, newest first
    evening_count: int
    addable: tuple[Session, ...]  # the user's own sessions in no group, not deleted
    me: GroupPlayer | None  # the roster player linked to the user
    roster_changes: tuple[RosterChange, ...] = ()  # the latest players hidden, shown again, merged

    @property
    def shown(self) -> tuple[GroupPlayer, ...]:
        return tuple(player for player in self.roster if player.hidden_at is None)

    @property
    def hidden(self) -> tuple[GroupPlayer, ...]:
        return tuple(player for player in self.roster if player.hidden_at is not None)


ROSTER_CHANGES = 20  # roster changes listed on the group's page


def group_overview(group: Group, user: User) -> Overview:
    """The group's page: members, roster, the latest evenings (a few queries, bounded)."""
    memberships = tuple(
        Membership.objects.filter(group=group).select_related("user").order_by("joined_at", "id")
    )
    roster = tuple(GroupPlayer.objects.filter(group=group).select_related("user"))
    evenings = evenings_of(group).filter(deleted_at__isnull=True).order_by("-played_on", "-created_at", "-id")
    own = outside_groups().filter(owner=user, deleted_at__isnull=True, managed=False)
    return Overview(
        group=group,
        owner=any(m.user_id == user.pk and m.role == Membership.Role.OWNER for m in memberships),
        memberships=memberships,
        roster=roster,
        evenings=tuple(evenings.prefetch_related("seats")[:LATEST_EVENINGS]),
        evening_count=evenings.count(),
        addable=tuple(own.order_by("-played_on", "-id")[:LATEST_EVENINGS]),
        me=next((player for player in roster if player.user_id == user.pk), None),
        roster_changes=tuple(
            RosterChange.objects.filter(group=group).select_related("user")[:ROSTER_CHANGES]
        ),
    )
