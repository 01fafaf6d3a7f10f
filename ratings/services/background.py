"""The ratings computed after the answer: a mark's transaction, once committed,
starts (or wakes) one thread of the server process, which follows every mark
and ends. The answer that closed the evening or signed the table never waits
for it. With ``RATINGS_UPDATE=command`` nothing starts here and
``manage.py update_ratings`` (run from cron) does the same work; it also takes
up marks a server left when it stopped."""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.db import close_old_connections, connection

log = logging.getLogger(__name__)

# The thread waits this long before it starts: the answer that woke it is
# written to the phone first, not slowed by a thread taking turns with it.
DELAY_SECONDS = 0.25

_lock = threading.Lock()
_state = {"running": False, "again": False}


def kick() -> None:
    """Start the thread, or tell the running one to look again before it ends."""
    if settings.RATINGS_UPDATE != "thread":
        return
    with _lock:
        if _state["running"]:
            _state["again"] = True
            return
        _state["running"], _state["again"] = True, False
    threading.Thread(target=_run, name="ratings-update", daemon=True).start()


def _run() -> None:
    from ratings.services.marks import ratings_update

    time.sleep(DELAY_SECONDS)
    while True:
        try:
            close_old_connections()
            ratings_update()
        except Exception:  # the marks stay: the next kick or the command follows them
            log.exception("ratings update failed")
        finally:
            connection.close()  # this thread's own connection, before it counts as ended
        with _lock:
            if not _state["again"]:
                _state["running"] = False
                return
            _state["again"] = False


def running() -> bool:
    with _lock:
        return _state["running"]
