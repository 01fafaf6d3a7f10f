"""Which groups a user may open: a group exists for its members only
(``DoesNotExist`` for anyone else), and its owner alone manages it."""

from __future__ import annotations

from django.contrib.auth.models import User

from club.models import Group
from plumbing import queries


def group_for(user: User, pk: int, *, owner_only: bool = False) -> Group:
    """A group the user is a member of (its owner, with ``owner_only``): one query."""
    group, owner = group_and_role(user, pk)
    if owner_only and not owner:
        raise Group.DoesNotExist
    return group


def group_and_role(user: User, pk: int) -> tuple[Group, bool]:
    """A group the user is a member of, and whether they own it: one query."""
    found = queries.group_of_member(user.pk, pk)
    if found is None:
        raise Group.DoesNotExist
    return found.group, found.owner
