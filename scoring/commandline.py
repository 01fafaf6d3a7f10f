"""What the command-line tools share: reading their input, and refusing it.

A refusal is one line on stderr naming the field, and exit status 2
(``score_session``, ``import_session``). Standard library only.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

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
