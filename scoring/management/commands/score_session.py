"""python manage.py score_session < session.json

Prints the scored session as JSON (SESSION_FORMAT.md). Invalid input: exit
status 2, one line on stderr naming the hand and the field, nothing on stdout.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scoring.commandline import read_input, refuse
from scoring.engine import InvalidInput, read_session, score_session


class Command(BaseCommand):
    help = "Score a tarockscore/1 session file from standard input (or FILE) and print the result as JSON."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "file", nargs="?", help="read the session file from FILE instead of standard input"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        data = read_input(options["file"])
        try:
            # The bytes as they are: the engine reads UTF-8 alone, as for an import.
            result = score_session(read_session(data))
        except InvalidInput as error:
            refuse(error.describe())
        out = json.dumps(result.to_json(), ensure_ascii=False, indent=2) + "\n"
        sys.stdout.buffer.write(out.encode("utf-8"))
        sys.stdout.buffer.flush()
