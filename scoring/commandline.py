"""Scoring a session file from the command line, without Django.

``python manage.py score_session [FILE]`` needs nothing but the engine, so
``manage.py`` hands it to ``score_session_command`` before Django is imported
(Django's start-up would be nearly all of its time); the management command of
the same name calls the same function, so ``call_command("score_session")``
behaves the same. Standard library and the engine only.

A refusal is one line on stderr naming the field, and exit status 2: the
command-line tools share that (``refuse``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import NoReturn

from scoring.engine import InvalidInput, read_session, score_session

REFUSED = 2


def refuse(message: str) -> NoReturn:
    """One line on stderr, exit status 2."""
    sys.stderr.write(" ".join(message.split()) + "\n")
    sys.stderr.flush()
    raise SystemExit(REFUSED)


def read_input(file: str | None) -> bytes:
    """The bytes of ``file``, or of standard input without one."""
    try:
        return Path(file).read_bytes() if file else sys.stdin.buffer.read()
    except OSError as error:
        refuse(f"file: cannot be read: {error.strerror}")


def scored(data: bytes) -> bytes:
    """The document ``score_session`` prints (docs/session-file.md), as UTF-8 JSON.
    Raises ``InvalidInput`` for a file the rules refuse."""
    result = score_session(read_session(data))
    return (json.dumps(result.to_json(), ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def score_session_command(file: str | None) -> None:
    """Score the session file ``file`` (or standard input) and print the result."""
    data = read_input(file)
    try:
        out = scored(data)
    except InvalidInput as error:
        refuse(error.describe())
    sys.stdout.buffer.write(out)
    sys.stdout.buffer.flush()
