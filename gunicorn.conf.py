"""gunicorn's settings for tarockscore, used by the production command in docs/deployment.md
and by the load test (scripts/load_test.py). Options given on the command line
(--bind, --workers, ...) take precedence over these.

Why these values:

- 3 workers × 4 threads: a worker per core and one more; the threads let a phone's
  save go on while another request waits for the database.
- max_requests 20000 (+ up to 2000 at random): a worker is replaced now and then,
  in case something in it grows, but not during a cup day's rush: at a round's end
  a worker answers some 20 requests a second (every phone polling the board), and a
  replacement costs a second or two of CPU and the worker's kept pages and
  standings. PDFs are drawn in processes of their own (plumbing.pdf), so a big
  sheet never leaves a worker bloated. The random part keeps the workers from
  restarting all at the same moment.
- keepalive 5 s (gunicorn's own: 2 s): a browser's connection is kept open this
  long after an answer, waiting for its next request. The hall screen asks every
  2 s (``HALL_POLL_SECONDS``): with 2 s its connection was closed by the server
  just as it asked again, about one poll in twenty, and that poll waited for a
  new connection, in a worker that may be busy (the slowest of the hall's polls
  in the cup-day benchmark, docs/performance.md). An idle kept connection holds
  no thread, only a socket in the worker's poller.
- timeout 30 s: a worker that stops reporting to gunicorn's master for 30 s is
  killed and replaced. With threads this is the worker's heartbeat, not a limit on
  one request: a slow request in one thread does not stop it.
- graceful_timeout 60 s: how long a worker that is ending (after max_requests, or
  on a restart) may take to finish the requests it has started.
- One PDF drawing server for the machine (plumbing.pdf), started by the master as
  it starts, before the workers load Django, so WeasyPrint loads beside them and
  the first PDF after a restart does not wait for it; workers and the workers that
  replace them all draw through it; it ends with the master.
- Each worker settles before its first request (``post_worker_init``,
  ``plumbing.workers.settle``): its URLconf loaded and what it then holds frozen
  out of the garbage collector's full collections, which otherwise stopped every
  thread of the worker for up to 200 ms every few seconds at a cup day's rate
  (now at most about 40 ms). Its threads take turns with the interpreter every
  0.5 ms, not Python's 5 ms: a hall's poll that needs the interpreter a few times
  (reading the request, the database's answer, sending) waited up to 5 ms each
  time behind a thread drawing a board, 23 ms in the app for 1.2 ms of work.
- No control socket: gunicorn's runtime control (gunicornc) is not used, and two
  servers on one machine (a load test beside the app) would share its one path.
"""

import sys
from pathlib import Path
from typing import Any

chdir = str(Path(__file__).resolve().parent)  # the project, wherever the command is started
wsgi_app = "tarockscore.wsgi"
worker_class = "gthread"
workers = 3
threads = 4
max_requests = 20_000
max_requests_jitter = 2_000
keepalive = 5  # more than the hall screen's poll (tournaments.views.board.HALL_POLL_SECONDS) and its answer
timeout = 30
graceful_timeout = 60
control_socket_disable = True


_drawing_server = None


def on_starting(server: object) -> None:
    from plumbing.pdf import start_machine_server

    global _drawing_server
    _drawing_server = start_machine_server()


def post_worker_init(worker: Any) -> None:
    from plumbing.workers import settle

    frozen = settle()
    worker.log.info(
        "Worker settled: %d objects kept out of the collector's full collections, threads switched every %.1f ms",
        frozen,
        sys.getswitchinterval() * 1000,
    )


def on_exit(server: object) -> None:
    from plumbing.pdf import stop_machine_server

    if _drawing_server is not None:
        stop_machine_server(_drawing_server)
