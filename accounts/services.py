"""Making an account: on the open sign-up page, or through a group's invitation link."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from club.services.groups import invitation_accept


@transaction.atomic
def account_create(*, username: str, password: str, invitation: str = "") -> User:
    """A new account (the user name and password already checked by the sign-up
    form). With an ``invitation`` token the account joins its group in the same
    step: an invitation that no longer lets anyone in (``InvitationRefused``)
    makes no account either."""
    user = User.objects.create_user(username=username, password=password)
    if invitation:
        invitation_accept(token=invitation, user=user)
    return user
