"""python manage.py score_tournament < tournament.json

Prints the scored tournament as JSON (docs/tournament-file.md): every round's
tables, the ranking and the cup points. Invalid input: exit status 2, one line
on stderr naming the round, the table and the field, nothing on stdout. It reads
no database: the file is the whole tournament (``tournaments.core``).
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scoring.commandline import read_input, refuse
from scoring.games import for_tournaments
from tournaments.core.tournament_file import InvalidTournament, dumps, read_tournament, score_tournament


def scored(data: bytes) -> bytes:
    """The document ``score_tournament`` prints, as UTF-8 JSON. Raises
    ``InvalidTournament`` for a file the rules refuse."""
    return dumps(score_tournament(read_tournament(data, for_tournaments()))).encode("utf-8")


def score_tournament_command(file: str | None) -> None:
    """Score the tournament file ``file`` (or standard input) and print the result."""
    data = read_input(file)
    try:
        out = scored(data)
    except InvalidTournament as error:
        refuse(error.describe())
    sys.stdout.buffer.write(out)
    sys.stdout.buffer.flush()


class Command(BaseCommand):
    help = "Score a tarockscore-tournament/1 file from standard input (or FILE) and print the result as JSON."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "file", nargs="?", help="read the tournament file from FILE instead of standard input"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        score_tournament_command(options["file"])
