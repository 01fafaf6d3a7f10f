"""python manage.py purge_sessions

Removes for good the sessions deleted more than ``RESTORABLE_DAYS`` days ago,
with their hands and history. Run it daily (cron, a systemd timer); until it
runs, such a session is no longer offered for restoring but still stored.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from scoring.services import RESTORABLE_DAYS, sessions_purge


class Command(BaseCommand):
    help = f"Remove sessions deleted more than {RESTORABLE_DAYS} days ago, with their hands."

    def handle(self, *args: Any, **options: Any) -> None:
        count = sessions_purge()
        self.stdout.write(f"Removed {count} session(s) deleted more than {RESTORABLE_DAYS} days ago.")
