"""Which groups a user may open: a group exists for its members only
(``DoesNotExist`` for anyone else), and its owner alone manages it."""

from __future__ import annotations

from django.contrib.auth.models import User

from club.models import Group, Membership
from plumbing import queries


def group_for(user: User, pk: int, *, owner_only: bool = False) -> Group:
    """A group the user is a member of (its owner, with ``owner_only``): one query."""
    group, owner = group_and_role(user, pk)
    if owner_only and not owner:
        raise Group.DoesNotExist
    return group


def group_and_role(user: User, pk: int) -> tuple[Group, bool]:
    """A group the user is a member of, and whether they own it: one query."""
    row = queries.fetch_one(_GROUP_OF_MEMBER, [user.pk, pk])
    if row is None:
        raise Group.DoesNotExist
    return queries.from_row(Group, row[:-1]), row[-1] == Membership.Role.OWNER.value


_GROUP_OF_MEMBER = (
    f'SELECT {queries.columns(Group, "g")}, m."role" FROM "{Group._meta.db_table}" g'
    f' INNER JOIN "{Membership._meta.db_table}" m ON m."group_id" = g."id" AND m."user_id" = %s'
    ' WHERE g."id" = %s'
)
