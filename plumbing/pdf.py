"""HTML → PDF bytes, nothing else.

WeasyPrint is given a URL fetcher that refuses everything but ``data:`` URLs,
so nothing a player typed can make it fetch a file; the stylesheet comes
inlined in the HTML.

Each PDF is drawn in a process of its own, within bounds: the request's worker
waits at most ``seconds`` for it (then it is killed), the drawing process gets
a bounded amount of memory, and whatever it used goes back to the system when
it ends, so one big sheet never leaves a worker bloated, and the worker's own
garbage collection is never touched.

That process is forked from a drawing server, one per server process
(``python -m plumbing.pdf --serve``), which has WeasyPrint imported and its
fonts loaded once, before the first request (gunicorn.conf.py starts it with
each worker; elsewhere the first PDF starts it). Importing WeasyPrint in a
fresh process for every PDF cost half a second or more; a fork costs a few
milliseconds. The server draws nothing itself: a PDF that crashes, runs out of
memory or is killed at its time limit takes only its own forked process with it.
"""

from __future__ import annotations

import gc
import os
import resource
import select
import signal
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

# The most a PDF request takes, its wait for a turn included: a 500-hand sheet
# (the most a PDF shows) draws in a few seconds on a small machine, three at
# once on two busy cores within this.
SECONDS = 40.0
# Address space of the drawing process, all of it: what it shares with the
# drawing server it was forked from (about 150 MB) counts within it.
MEMORY_BYTES = 1536 * 1024 * 1024
# PDFs drawn at once by one server process; more requests wait for a turn.
AT_ONCE = 1
# How much lower than the server's requests the drawing server and its PDFs run.
NICENESS = 10
# How long a drawing server may take to start (WeasyPrint's import, its fonts).
STARTING_SECONDS = 60.0

ROOT = Path(__file__).resolve().parent.parent

# What the worker sends the drawing server: the time limit, the memory limit,
# the length of the HTML (then the HTML); and what it answers: whether the PDF
# was drawn (DRAWN, FAILED, TOO_LONG), the length of what follows (the PDF, or
# why it was not drawn).
REQUEST = struct.Struct("!dQQ")
ANSWER = struct.Struct("!BQ")
DRAWN, FAILED, TOO_LONG = 0, 1, 2
READY = b"ready\n"


class PdfFailed(RuntimeError):
    """The PDF could not be drawn within its time or memory."""


def url_fetcher() -> Any:
    """WeasyPrint's own fetcher, allowed only ``data:`` URLs: they carry their content
    and fetch nothing. Any other URL (``file:``, ``http:``, ...) is refused, so nothing
    a player typed can make the PDF read a file or reach the network; WeasyPrint
    leaves a refused image or stylesheet out and draws the rest."""
    from weasyprint.urls import URLFetcher

    return URLFetcher(allowed_protocols={"data"}, allow_redirects=False)


@contextmanager
def _fewer_cycle_collections() -> Iterator[None]:
    """Layout allocates hundreds of thousands of short-lived objects; a cycle
    collection after every few hundred of them costs a third of the render time.
    The threshold is raised while rendering, never switched off."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], 50_000), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def render(html: str) -> bytes:
    """The PDF, drawn in this process."""
    from weasyprint import HTML  # imported here: loading it takes half a second

    with _fewer_cycle_collections():
        return bytes(HTML(string=html, url_fetcher=url_fetcher()).write_pdf())


def html_to_pdf(html: str, *, seconds: float | None = None, memory: int | None = None) -> bytes:
    """The PDF of ``html``, drawn in a process of its own within ``seconds`` (the
    wait for a turn included; default ``SECONDS``) and ``memory`` bytes (default
    ``MEMORY_BYTES``); ``PdfFailed`` otherwise."""
    seconds = SECONDS if seconds is None else seconds
    memory = MEMORY_BYTES if memory is None else memory
    started = time.monotonic()
    if not _turns.acquire(timeout=seconds):
        raise PdfFailed("no turn to draw a PDF")
    try:
        left = seconds - (time.monotonic() - started)
        status, answer = _server.draw(html.encode(), max(left, 0.0), memory)
    finally:
        _turns.release()
    if status == TOO_LONG:
        raise PdfFailed(f"the PDF took longer than {seconds:g} s")
    if status != DRAWN or not answer.startswith(b"%PDF"):
        raise PdfFailed(f"the PDF could not be drawn: {answer.decode(errors='replace')[-500:]}")
    return answer


def start_drawing_server() -> None:
    """Start this process's drawing server now, so that the first PDF does not wait
    for WeasyPrint's import (gunicorn.conf.py calls it as each worker starts)."""
    _server.start()


def stop_drawing_server() -> None:
    """Stop this process's drawing server (it also ends by itself when this process does)."""
    _server.stop()


class DrawingServer:
    """The worker's side of its drawing server: started once, restarted if it ended."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        self.ready = False
        self.lock = threading.Lock()  # starting and stopping
        self.exchange = threading.Lock()  # one request and its answer at a time

    def start(self) -> None:
        with self.lock:
            if self.process is None or self.process.poll() is not None:
                self.process = subprocess.Popen(
                    [sys.executable, "-m", "plumbing.pdf", "--serve"],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    cwd=ROOT,
                )
                self.ready = False

    def stop(self) -> None:
        with self.lock:
            if self.process is not None:
                self.process.kill()
                self.process.wait()
                self.process = None

    def draw(self, html: bytes, seconds: float, memory: int) -> tuple[int, bytes]:
        """Ask the server for a PDF: it forks a process that draws it within what
        is left of ``seconds`` (a server still starting counts against them) and
        ``memory``. A server that ended is started again, once."""
        deadline = time.monotonic() + seconds
        with self.exchange:
            for _attempt in (1, 2):
                self.start()
                process = self.process
                assert process is not None and process.stdin is not None and process.stdout is not None
                try:
                    if not self.ready:
                        _read(process.stdout, len(READY), min(deadline, time.monotonic() + STARTING_SECONDS))
                        self.ready = True
                except TimeoutError:
                    return TOO_LONG, b""  # still starting: the next PDF finds it ready
                except (OSError, EOFError):
                    self.stop()
                    continue
                left = max(deadline - time.monotonic(), 0.0)
                try:
                    process.stdin.write(REQUEST.pack(left, memory, len(html)) + html)
                    process.stdin.flush()
                    # The server kills the drawing at its time limit and answers at
                    # once; waiting longer only guards against a server that hangs.
                    status, size = ANSWER.unpack(_read(process.stdout, ANSWER.size, deadline + 10))
                    return status, _read(process.stdout, size, deadline + 10)
                except (OSError, EOFError, TimeoutError):
                    self.stop()
            return FAILED, b"the drawing server did not answer"


def _read(stream: IO[bytes], size: int, deadline: float) -> bytes:
    """Exactly ``size`` bytes from a pipe, or ``TimeoutError`` at ``deadline``
    (``EOFError`` if it closed first)."""
    fd, data = stream.fileno(), bytearray()
    while len(data) < size:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            raise TimeoutError
        chunk = os.read(fd, min(size - len(data), 1 << 20))
        if not chunk:
            raise EOFError
        data += chunk
    return bytes(data)


_turns = threading.BoundedSemaphore(AT_ONCE)
_server = DrawingServer()


# -- the drawing server ----------------------------------------------------------------------


def serve() -> None:
    """The drawing server: WeasyPrint loaded once, then for each request on
    standard input a forked process draws the PDF within its limits; the answer
    goes to standard output. Ends when the worker closes standard input (the
    worker ended)."""
    # Pages before PDFs: starting (with every worker that replaces one) and
    # drawing take what CPU the server's requests leave.
    os.nice(NICENESS)
    render("<p>Tarock</p>")  # the import, and the fonts found and loaded, once
    gc.freeze()  # what is loaded now is never collected: the forks leave it shared and unscanned
    requests, answers = sys.stdin.buffer, sys.stdout.buffer
    answers.write(READY)
    answers.flush()
    while True:
        header = requests.read(REQUEST.size)
        if len(header) < REQUEST.size:
            return
        seconds, memory, size = REQUEST.unpack(header)
        html = requests.read(size)
        status, answer = _draw_forked(html, seconds, memory)
        answers.write(ANSWER.pack(status, len(answer)) + answer)
        answers.flush()


def _draw_forked(html: bytes, seconds: float, memory: int) -> tuple[int, bytes]:
    """Draw in a forked process, killed at ``seconds``, its address space ``memory``."""
    deadline = time.monotonic() + seconds
    readable, writable = os.pipe()
    child = os.fork()
    if child == 0:  # the drawing process
        os.close(readable)
        status = 1
        try:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
            out = render(html.decode())
            status = 0
        except BaseException as error:  # whatever it was, the answer says so
            out = f"{type(error).__name__}: {error}".encode()
        with os.fdopen(writable, "wb") as pipe:
            pipe.write(out)
        os._exit(status)
    os.close(writable)
    data = bytearray()
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([readable], [], [], left)[0]:
                os.kill(child, signal.SIGKILL)
                os.waitpid(child, 0)
                return TOO_LONG, b""
            chunk = os.read(readable, 1 << 20)
            if not chunk:
                break
            data += chunk
    finally:
        os.close(readable)
    _, status = os.waitpid(child, 0)
    if status != 0:
        return FAILED, bytes(data) or f"the drawing process ended with status {status}".encode()
    return DRAWN, bytes(data)


def main() -> None:
    """``--serve``: the drawing server. ``MEMORY``: draw once, in this process with
    that much address space: HTML on standard input, the PDF on standard output
    (what the benchmark runs to see a drawing's peak memory)."""
    if sys.argv[1:] == ["--serve"]:
        serve()
        return
    memory = int(sys.argv[1])
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    sys.stdout.buffer.write(render(sys.stdin.buffer.read().decode()))


if __name__ == "__main__":
    main()
