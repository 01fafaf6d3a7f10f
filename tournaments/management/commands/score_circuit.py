"""python manage.py score_circuit < circuit.json

Prints the scored circuit season as JSON (docs/circuit.md): per cup its season
ranking, side rankings and qualification list, the circuit's qualified list and
the final's Gesamtwertung. Invalid input: exit status 2, one line on stderr
naming the cup, the tournament and the field, nothing on stdout. It reads no
database: the file is the whole season (``tournaments.core.circuit_file``).
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scoring.commandline import read_input, refuse
from tournaments.core.circuit_file import InvalidCircuit, dumps, read_circuit, score_circuit


def scored(data: bytes) -> bytes:
    """The document ``score_circuit`` prints, as UTF-8 JSON. Raises
    ``InvalidCircuit`` for a file the rules refuse."""
    return dumps(score_circuit(read_circuit(data))).encode("utf-8")


def score_circuit_command(file: str | None) -> None:
    """Score the circuit file ``file`` (or standard input) and print the result."""
    data = read_input(file)
    try:
        out = scored(data)
    except InvalidCircuit as error:
        refuse(error.describe())
    sys.stdout.buffer.write(out)
    sys.stdout.buffer.flush()


class Command(BaseCommand):
    help = "Score a tarockscore-circuit/1 file from standard input (or FILE) and print the result as JSON."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "file", nargs="?", help="read the circuit file from FILE instead of standard input"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        score_circuit_command(options["file"])
