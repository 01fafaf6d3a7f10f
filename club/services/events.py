"""What other apps hear of a group's roster, in the transaction that changes it.

As ``scoring.services.events`` for the evenings: the regular table knows
nothing of what is built on it (the tournaments' entrants and register entries
picked from its roster, the ratings' links to a roster name), so rather than
calling those apps it sends a Django signal they connect in their
``AppConfig.ready``. ``send`` (never ``send_robust``): a receiver runs at once,
in the caller's transaction with the group's row locked, and an exception it
raises rolls the change back. Every argument is keyword-only.

- ``roster_merged(group, player, into, user)``: the owner merged the roster
  player ``player`` into ``into``; sent after the seats, evening results and
  Kasse lines moved to ``into`` and before ``player`` is deleted, so a receiver
  can move what still points at it.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.dispatch import Signal

from club.models import Group, GroupPlayer

roster_merged = Signal()


def send_roster_merged(group: Group, player: GroupPlayer, into: GroupPlayer, user: User | None) -> None:
    roster_merged.send(sender=GroupPlayer, group=group, player=player, into=into, user=user)
