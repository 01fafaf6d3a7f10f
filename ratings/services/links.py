"""Who a player is across groups and cups, as she says it herself: a roster
player of a group she belongs to linked to her account, and her choice of who
sees her rating (``RatingSetting``). A link made or removed leaves a mark, so
the ratings of every event of that player are computed again from her first."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_noop

from club.models import GroupPlayer, Membership
from ratings.models import RatingSetting, RegisterLink, RosterLink
from ratings.services.marks import mark
from scoring.engine.types import invalid
from tournaments.models import CupPlayer, Entrant


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


def register_link(*, user: User, entry: CupPlayer, pin: str) -> RegisterLink:
    """A register entry linked to her account needs her PIN (§14.2), and the
    register has no PINs yet: refused, always. An entry the organiser tied to a
    roster player she linked is hers already (``sources.Resolver``)."""
    raise invalid("pin", gettext_noop("the register has no PINs yet"))


@transaction.atomic
def register_unlink(*, user: User, link_id: int) -> None:
    """Remove a register entry's link to her account."""
    link = RegisterLink.objects.filter(pk=link_id, user=user).first()
    if link is None:
        raise invalid("link", gettext_noop("one of your links"))
    entry_id = link.entry_id
    link.delete()
    for entrant in Entrant.objects.filter(cup_player_id=entry_id).values_list("pk", flat=True):
        mark(f"source:e:{entrant}")


def _marked(player_id: int) -> None:
    """Marks for every source that stands for this roster player: itself, and the
    tournaments' entrants the desk picked from the roster or whose register entry
    the organiser tied to it."""
    mark(f"source:g:{player_id}")
    entrants = Entrant.objects.filter(Q(roster_id=player_id) | Q(cup_player__roster_id=player_id))
    for entrant in entrants.values_list("pk", flat=True):
        mark(f"source:e:{entrant}")


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
