"""Who a player is across groups and cups, as she says it herself: a roster
player of a group she belongs to linked to her account, her circuit number
linked with its PIN, and her choice of who
sees her rating (``RatingSetting``). A link made or removed leaves a mark, so
the ratings of every event of that player are computed again from her first.
A merge of two names by a group's owner or a cup's organiser carries the link
to the name kept (``on_roster_merged``, ``on_register_merged``)."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_noop

from club.models import EveningResult, Group, GroupPlayer, Membership
from ratings.models import LinkRemoved, RatingSetting, RegisterLink, RosterLink
from ratings.services.marks import mark
from scoring.engine.types import invalid
from tournaments.core.circuit import PIN_TRIES, PIN_WINDOW_MINUTES
from tournaments.models import Circuit, CircuitPlayer, Cup, CupPlayer, Entrant
from tournaments.services import circuit as circuits


def roster_candidates(user: User) -> list[GroupPlayer]:
    """The roster players she may link: of a group she is a member of and has no
    link in yet, shown, linked to no one else (by the group's owner or here);
    the one the group's owner linked to her account first."""
    groups = Membership.objects.filter(user=user).values("group_id")
    linked_groups = RosterLink.objects.filter(user=user).values("group_id")
    found = (
        GroupPlayer.objects.filter(group_id__in=groups, hidden_at__isnull=True, rating_link__isnull=True)
        .exclude(group_id__in=linked_groups)
        .filter(Q(user__isnull=True) | Q(user=user))
        .select_related("group")
    )
    return sorted(found, key=lambda p: (p.user_id != user.pk, p.group.name, p.name, p.pk))


@transaction.atomic
def roster_link(*, user: User, player_id: int) -> RosterLink:
    """Link a roster player to her account: she must be a member of its group."""
    player = next((p for p in roster_candidates(user) if p.pk == player_id), None)
    if player is None:
        raise invalid("player", gettext_noop("a player of one of your groups, not linked yet"))
    link = RosterLink.objects.create(player=player, group_id=player.group_id, user=user)
    _marked(player.pk)
    return link


@transaction.atomic
def roster_unlink(*, user: User, link_id: int) -> None:
    """Remove one of her links; the roster player's events count for it alone again."""
    link = RosterLink.objects.filter(pk=link_id, user=user).first()
    if link is None:
        raise invalid("link", gettext_noop("one of your links"))
    player_id = link.player_id
    link.delete()
    _marked(player_id)


def register_link(
    *, user: User, circuit_id: int, number: int, pin: str, now: datetime.datetime | None = None
) -> RegisterLink:
    """Her circuit number (§14.1) linked to her account with its PIN (§14.2,
    ``circuit.register_pin_check``): every cup entry of that number counts for her
    from then on. A wrong PIN is counted by the register (three in 15 minutes block
    the number, and a blocked number is refused saying when it takes one again) and
    links nothing; a number linked to another account is refused. Sent again, her
    link is the one she has. The PIN is checked in its own transaction, so that a
    wrong one stays counted though the request is refused."""
    circuit = circuits.circuit_listed(circuit_id)
    entry = circuits.entry_find(circuit, number)
    mine = RegisterLink.objects.filter(circuit_entry=entry, user=user).first()
    if mine is not None:
        return mine
    taken = RegisterLink.objects.filter(circuit_entry=entry).exists()
    if taken or entry.user_id not in (None, user.pk):
        raise invalid(
            "number",
            gettext_noop("a number not linked to another account: Nr. {number} is"),
            number=entry.number,
        )
    free_at = circuits.pin_free_at(entry, now)
    if free_at is not None:
        raise invalid(
            "pin",
            gettext_noop("{tries} wrong PINs within {minutes} minutes: try Nr. {number} again after {time}"),
            tries=PIN_TRIES,
            minutes=PIN_WINDOW_MINUTES,
            number=entry.number,
            time=timezone.localtime(free_at).strftime("%H:%M"),
        )
    if not circuits.register_pin_check(circuit=circuit, number=entry.number, pin=pin, now=now):
        raise invalid("pin", gettext_noop("the PIN of Nr. {number}: this one is not it"), number=entry.number)
    with transaction.atomic():
        link, made = RegisterLink.objects.get_or_create(circuit_entry=entry, defaults={"user": user})
        if link.user_id != user.pk:  # linked by another account meanwhile
            raise invalid(
                "number",
                gettext_noop("a number not linked to another account: Nr. {number} is"),
                number=entry.number,
            )
        if made:
            _circuit_marked(entry)
    return link


@transaction.atomic
def register_unlink(*, user: User, link_id: int) -> None:
    """Remove a register entry's link to her account (a cup's entry or a circuit's number)."""
    link = RegisterLink.objects.filter(pk=link_id, user=user).select_related("circuit_entry").first()
    if link is None:
        raise invalid("link", gettext_noop("one of your links"))
    entry_id, circuit_entry = link.entry_id, link.circuit_entry
    link.delete()
    if circuit_entry is not None:
        _circuit_marked(circuit_entry)
        return
    for entrant in Entrant.objects.filter(cup_player_id=entry_id).values_list("pk", flat=True):
        mark(f"source:e:{entrant}")


def _circuit_marked(entry: CircuitPlayer) -> None:
    """Marks for every entrant of every cup entry of this circuit number."""
    entrants = Entrant.objects.filter(cup_player_id__in=circuits.cup_entries_of(entry))
    mark(*(f"source:e:{pk}" for pk in entrants.values_list("pk", flat=True)))


def circuit_links(user: User) -> list[RegisterLink]:
    """Her circuit numbers, with their circuits."""
    return list(
        RegisterLink.objects.filter(user=user, circuit_entry__isnull=False).select_related(
            "circuit_entry__circuit"
        )
    )


def _marked(*player_ids: int) -> None:
    """Marks for every source that stands for these roster players: themselves, and
    the tournaments' entrants the desk picked from the roster or whose register
    entry the organiser tied to one of them."""
    entrants = Entrant.objects.filter(Q(roster_id__in=player_ids) | Q(cup_player__roster_id__in=player_ids))
    mark(
        *(f"source:g:{pk}" for pk in player_ids),
        *(f"source:e:{pk}" for pk in entrants.values_list("pk", flat=True)),
    )


def on_roster_merged(*, group: Group, player: GroupPlayer, into: GroupPlayer, **_: Any) -> None:
    """A group's owner merged ``player`` into ``into`` (its evening results are
    ``into``'s already; ``player`` is deleted next): her link to the merged name
    follows it, unless another account linked ``into`` (that link stays, hers
    goes, and her page says so). Every evening of ``into`` is read again and the
    ratings of both names computed again from their first event."""
    _follow(RosterLink.objects.all(), "player", player, into, where=group.name)
    RegisterLink.objects.filter(roster=player).update(roster=into)
    evenings = EveningResult.objects.filter(player=into).values_list("session_id", flat=True).distinct()
    mark(*(f"evening:{pk}" for pk in evenings))
    _marked(player.pk, into.pk)


def on_register_merged(*, cup: Cup, player: CupPlayer, into: CupPlayer, **_: Any) -> None:
    """A cup's organiser merged the register entry ``player`` into ``into`` (its
    entrants are ``into``'s already): a link of the merged entry follows it, unless
    ``into`` has one (that stays; hers goes, and her page says so). The ratings
    of every entrant of ``into`` are computed again from the first."""
    _follow(RegisterLink.objects.all(), "entry", player, into, where=cup.name)
    entrants = Entrant.objects.filter(cup_player=into).values_list("pk", flat=True)
    mark(*(f"source:e:{pk}" for pk in entrants))


def on_circuit_merged(*, circuit: Circuit, entry: CircuitPlayer, into: CircuitPlayer, **_: Any) -> None:
    """A circuit's organiser merged the number ``entry`` into ``into`` (the cups'
    entries of ``entry`` are ``into``'s already): a link of the merged number
    follows it, unless ``into`` has one (that stays; hers goes, and her page says
    so). The ratings of every entrant of ``into`` are computed again from the first."""
    names = (
        f"Nr. {entry.number} {entry.family} {entry.given}".strip(),
        f"Nr. {into.number} {into.family} {into.given}".strip(),
    )
    _follow(RegisterLink.objects.all(), "circuit_entry", entry, into, where=str(circuit), names=names)
    _circuit_marked(into)


def _follow(
    links: QuerySet[Any],
    field: str,
    merged: Any,
    into: Any,
    *,
    where: str,
    names: tuple[str, str] | None = None,
) -> None:
    """A link to the merged name (``field`` of ``links``) follows it to ``into``,
    unless ``into`` has one: that stays, the merged name's goes, and its account's
    page says so."""
    found = {
        getattr(link, f"{field}_id"): link
        for link in links.filter(**{f"{field}_id__in": (merged.pk, into.pk)})
    }
    gone, kept = found.get(merged.pk), found.get(into.pk)
    if gone is None:
        return
    if kept is None:
        links.filter(pk=gone.pk).update(**{field: into})
        return
    if gone.user_id is not None:
        name, into_name = names or (merged.name, into.name)
        LinkRemoved.objects.create(user_id=gone.user_id, name=name, into_name=into_name, where=where)
    gone.delete()


def removed_links(user: User) -> list[LinkRemoved]:
    """Her links a merge removed, that she has not marked as read."""
    return list(LinkRemoved.objects.filter(user=user))


def removed_read(*, user: User, notice_id: int) -> None:
    """She read that a merge removed one of her links: it is no longer shown."""
    LinkRemoved.objects.filter(pk=notice_id, user=user).delete()


def setting_of(user: User) -> RatingSetting:
    """Her choice; off and unsaved until she makes one."""
    return RatingSetting.objects.filter(user=user).first() or RatingSetting(user=user)


def setting_set(*, user: User, visible: bool, shared: bool) -> RatingSetting:
    """Show her rating to herself (``visible``) and in her groups' statistics and
    the cups' registers (``shared``, only with ``visible``)."""
    setting, _ = RatingSetting.objects.update_or_create(
        user=user, defaults={"visible": visible, "shared": shared and visible}
    )
    return setting
