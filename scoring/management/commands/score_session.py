"""python manage.py score_session < session.json

Prints the scored session as JSON (docs/session-file.md). Invalid input: exit
status 2, one line on stderr naming the hand and the field, nothing on stdout.
``manage.py`` runs this without starting Django (``scoring.commandline``);
this command is the same for ``call_command`` and Django's own options.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scoring.commandline import score_session_command


class Command(BaseCommand):
    help = "Score a tarockscore/1 session file from standard input (or FILE) and print the result as JSON."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "file", nargs="?", help="read the session file from FILE instead of standard input"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        score_session_command(options["file"])
