"""The ratings computed after the answer: a mark's transaction, once committed,
wakes one thread of the server process, which follows every mark and waits
for the next wake-up. The answer that closed the evening or signed the table never waits
for it. With ``RATINGS_UPDATE=command`` nothing starts here and
``manage.py update_ratings`` (run from cron) does the same work; it also takes
up marks a server left when it stopped."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connection

log = logging.getLogger(__name__)

# The thread waits this long after a wake-up before it starts: the answer that
# woke it is written to the phone first, not slowed by a thread taking turns with it.
DELAY_SECONDS = 0.25

_lock = threading.Lock()
_wake = threading.Event()
_state: dict[str, Any] = {"running": False, "worker": None}


def kick() -> None:
    """Wake the process's ratings thread (started once, on the first wake-up): an
    event set, never a thread started per answer, whose start would wait for the
    operating system to run it."""
    if settings.RATINGS_UPDATE != "thread":
        return
    with _lock:
        _state["running"] = True
        worker = _state["worker"]
        if worker is None or not worker.is_alive():
            worker = threading.Thread(target=_loop, name="ratings-update", daemon=True)
            _state["worker"] = worker
            worker.start()
        _wake.set()


def _loop() -> None:
    from ratings.services.marks import ratings_update

    while True:
        _wake.wait()
        time.sleep(DELAY_SECONDS)
        _wake.clear()
        try:
            close_old_connections()
            ratings_update()
        except Exception:  # the marks stay: the next wake-up or the command follows them
            log.exception("ratings update failed")
        finally:
            connection.close()  # this thread's own connection, before it counts as idle
        with _lock:
            if not _wake.is_set():
                _state["running"] = False


def running() -> bool:
    """Whether marks woke the thread and it has not yet followed them."""
    with _lock:
        return bool(_state["running"])
