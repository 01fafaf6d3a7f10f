"""python manage.py import_session FILE --owner USERNAME  → prints the new session's id.

A refused file (or owner, or name): exit status 2 and one line on stderr naming
the field, as ``score_session`` does; nothing is created."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandParser

from scoring import services
from scoring.commandline import read_input, refuse
from scoring.engine import InvalidInput


class Command(BaseCommand):
    help = "Import a tarockscore/1 session file for a user; print the new session's id."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the session file (JSON, UTF-8)")
        parser.add_argument("--owner", required=True, help="the user name the session belongs to")
        parser.add_argument(
            "--name", help="the session's name (default: the name in the file, else the file's name)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            owner = User.objects.get(username=options["owner"])
        except User.DoesNotExist:
            refuse(f"owner: no user named {options['owner']!r}")
        data = read_input(str(path))
        try:
            session = services.session_import(
                owner=owner, text=data, name=options["name"] or "", filename=path.name
            )
        except InvalidInput as error:
            refuse(error.describe())
        self.stdout.write(str(session.pk))
