"""Create the first account on an empty database and say how to log in (make run)."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

USERNAME = "tarock"


class Command(BaseCommand):
    help = "Create a first user if there is none, and print how to log in."

    def handle(self, *args: Any, **options: Any) -> None:
        users = get_user_model().objects
        note = Path(settings.BASE_DIR) / "var" / "first-user.txt"
        if not users.exists():
            password = secrets.token_urlsafe(9)
            users.create_superuser(USERNAME, "", password)
            note.parent.mkdir(parents=True, exist_ok=True)
            note.write_text(f"{USERNAME}\n{password}\n", encoding="utf-8")
            note.chmod(0o600)
        if note.exists():
            username, password = note.read_text(encoding="utf-8").split()[:2]
            self.stdout.write(
                self.style.SUCCESS(
                    f"\n  Open http://127.0.0.1:8000/ and log in as '{username}' with password '{password}'"
                    f"\n  (kept in {note.relative_to(settings.BASE_DIR)}).\n"
                )
            )
        else:
            self.stdout.write(
                "\n  Log in with your existing account at http://127.0.0.1:8000/"
                "\n  (forgot the password? python manage.py changepassword NAME).\n"
            )
