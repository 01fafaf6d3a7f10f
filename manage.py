#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import itertools
import os
import sys


def engine_only(argv: list[str]) -> bool:
    """Whether this is only ``score_session`` with at most a file name: that needs
    the engine alone, not Django's start-up. Anything else (``--help``, Django's
    options) goes to Django, whose ``score_session`` command does the same."""
    return argv[1:2] == ["score_session"] and (
        len(argv) == 2 or (len(argv) == 3 and not argv[2].startswith("-"))
    )


def prints(argv: list[str]) -> bool:
    """Whether this command draws a PDF (``export_session … --format pdf``): its
    drawing server then starts first, so WeasyPrint loads while Django sets up."""
    words = argv[2:]
    return argv[1:2] == ["export_session"] and (
        "--format=pdf" in words or any(pair == ("--format", "pdf") for pair in itertools.pairwise(words))
    )


def main() -> None:
    if prints(sys.argv):
        from plumbing.pdf import start_drawing_server

        start_drawing_server()
    if engine_only(sys.argv):
        from scoring.commandline import score_session_command

        score_session_command(sys.argv[2] if len(sys.argv) == 3 else None)
        return
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarockscore.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
