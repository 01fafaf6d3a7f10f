"""HTML → PDF bytes, nothing else.

WeasyPrint is given a URL fetcher that refuses everything but ``data:`` URLs,
so nothing a player typed can make it fetch a file; the stylesheet comes
inlined in the HTML.

Each PDF is drawn in a process of its own, within bounds: the request's worker
waits at most ``seconds`` for it (then it is killed), the drawing process gets
a bounded amount of memory, and whatever it used goes back to the system when
it ends, so one big sheet never leaves a worker bloated, and the worker's own
garbage collection is never touched.

That process is forked from a drawing server (``python -m plumbing.pdf --serve
<socket>``), which has WeasyPrint imported and its fonts loaded once, before the
first request, and answers on a Unix socket. Under gunicorn there is one for the
machine's server: the master starts it as it starts (gunicorn.conf.py), before
its workers import Django, and every worker, and every worker that replaces one,
draws through it (``SOCKET_ENV`` names its socket). A process without one (the
development server, a command, a test) starts a server of its own with its first
PDF, or earlier when asked (``start_drawing_server``: ``manage.py`` does for a
command that prints, so WeasyPrint loads while Django sets up). Importing
WeasyPrint in a fresh process for every PDF cost half a second or more; a fork
costs a few milliseconds. The server draws nothing itself: a PDF that crashes,
runs out of memory or is killed at its time limit takes only its own forked
process with it.
"""

from __future__ import annotations

import gc
import os
import resource
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

# The most a PDF request takes, its wait for a turn included: a 500-hand sheet
# (the most a PDF shows) draws in a few seconds on a small machine, three at
# once on two busy cores within this.
SECONDS = 40.0
# Address space of the drawing process, all of it: what it shares with the
# drawing server it was forked from (about 150 MB) counts within it.
MEMORY_BYTES = 1536 * 1024 * 1024
# PDFs drawn at once by one server process; more requests wait for a turn.
AT_ONCE = 1
# PDFs drawn at once by one drawing server (the machine's, under gunicorn: one per
# worker of gunicorn.conf.py); more wait for a turn, within their time.
SERVER_AT_ONCE = 3
# The environment variable that names the machine's drawing server's socket (set by
# the gunicorn master for its workers).
SOCKET_ENV = "TAROCKSCORE_PDF_SOCKET"
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
    """Start this process's drawing server now (unless the machine has one), so that
    the first PDF does not wait for WeasyPrint's import."""
    _server.start()


def stop_drawing_server() -> None:
    """Stop this process's own drawing server (it also ends by itself when this process does)."""
    _server.stop()


def start_machine_server() -> subprocess.Popen[bytes]:
    """The machine's drawing server, started now (by the gunicorn master as it starts):
    its socket is named in ``SOCKET_ENV`` for the processes started after this."""
    path = _new_socket_path()
    process = _spawn(path)
    os.environ[SOCKET_ENV] = path
    return process


def stop_machine_server(process: subprocess.Popen[bytes]) -> None:
    path = os.environ.pop(SOCKET_ENV, "")
    process.kill()
    process.wait()
    if path:
        with suppress(OSError):
            os.unlink(path)
        with suppress(OSError):
            os.rmdir(os.path.dirname(path))


def _new_socket_path() -> str:
    """Where a new drawing server listens: a socket in a private temporary folder."""
    return os.path.join(tempfile.mkdtemp(prefix="tarockscore-pdf-"), "drawing.sock")


def _spawn(path: str) -> subprocess.Popen[bytes]:
    """A drawing server on ``path``; it binds the socket before anything else, so a
    request made while it still loads WeasyPrint waits for it (within its time)."""
    process = subprocess.Popen([sys.executable, "-m", "plumbing.pdf", "--serve", path], cwd=ROOT)
    deadline = time.monotonic() + 10
    while not os.path.exists(path) and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    return process


class DrawingServer:
    """A process's way to its drawing server: the machine's (``SOCKET_ENV``), or one
    of its own, started once and again if it ended."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None  # this process's own server
        self.path = ""
        self.lock = threading.Lock()  # starting and stopping

    def start(self) -> None:
        if os.environ.get(SOCKET_ENV):
            return
        self._own()

    def _own(self) -> str:
        with self.lock:
            if self.process is None or self.process.poll() is not None:
                self.path = _new_socket_path()
                self.process = _spawn(self.path)
            return self.path

    def stop(self) -> None:
        with self.lock:
            if self.process is not None:
                self.process.kill()
                self.process.wait()
                self.process = None

    def draw(self, html: bytes, seconds: float, memory: int) -> tuple[int, bytes]:
        """Ask the server for a PDF: it forks a process that draws it within what
        is left of ``seconds`` (a server still starting, or busy with others, counts
        against them) and ``memory``. When the machine's server cannot be reached, or
        this process's own has ended, a server of its own is started, once."""
        deadline = time.monotonic() + seconds
        machine = os.environ.get(SOCKET_ENV, "")
        for path in (machine or self._own(), None):
            if path is None:
                self.stop()
                path = self._own()
            try:
                connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                connection.connect(path)
            except OSError:
                connection.close()
                continue
            with connection:
                try:
                    connection.sendall(
                        REQUEST.pack(max(deadline - time.monotonic(), 0.0), memory, len(html)) + html
                    )
                    # The server kills the drawing at its time limit and answers at
                    # once; waiting longer only guards against a server that hangs.
                    status, size = ANSWER.unpack(_receive(connection, ANSWER.size, deadline + 10))
                    return status, _receive(connection, size, deadline + 10)
                except TimeoutError:
                    return TOO_LONG, b""
                except (OSError, EOFError):
                    if time.monotonic() >= deadline:
                        return TOO_LONG, b""
                    continue
        return FAILED, b"the drawing server did not answer"


def _receive(connection: socket.socket, size: int, deadline: float) -> bytes:
    """Exactly ``size`` bytes from the server, or ``TimeoutError`` at ``deadline``
    (``EOFError`` if it closed first)."""
    data = bytearray()
    while len(data) < size:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        connection.settimeout(left)
        chunk = connection.recv(min(size - len(data), 1 << 20))  # TimeoutError at the deadline
        if not chunk:
            raise EOFError
        data += chunk
    return bytes(data)


_turns = threading.BoundedSemaphore(AT_ONCE)
_server = DrawingServer()


# -- the drawing server ----------------------------------------------------------------------


def serve(path: str) -> None:
    """The drawing server on the Unix socket ``path``: WeasyPrint loaded once, then
    for each connection a process forked to read its request and answer it, the
    PDF drawn by a process forked from that within its limits; at most
    ``SERVER_AT_ONCE`` at a time, the others wait in the socket's queue. Ends when
    the process that started it has ended."""
    parent = os.getppid()
    listening = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listening.bind(path)  # first: requests made while WeasyPrint loads wait in the queue
    listening.listen(64)
    # Pages before PDFs: starting and drawing take what CPU the server's requests leave.
    os.nice(NICENESS)
    render("<p>Tarock</p>")  # the import, and the fonts found and loaded, once
    gc.freeze()  # what is loaded now is never collected: the forks leave it shared and unscanned
    drawing: set[int] = set()
    while os.getppid() == parent:
        while drawing:  # the turns given back
            done, _ = os.waitpid(-1, os.WNOHANG)
            if not done:
                break
            drawing.discard(done)
        if len(drawing) >= SERVER_AT_ONCE:
            try:
                drawing.discard(os.waitpid(-1, 0)[0])
            except ChildProcessError:
                drawing.clear()
            continue
        if not select.select([listening], [], [], 1.0)[0]:
            continue
        connection, _ = listening.accept()
        child = os.fork()
        if child == 0:
            listening.close()
            os._exit(_answer(connection))
        connection.close()
        drawing.add(child)
    with suppress(OSError):
        os.unlink(path)


def _answer(connection: socket.socket) -> int:
    """One request on ``connection``, answered (in a process forked from the server)."""
    try:
        connection.settimeout(10)  # a request is sent whole at once
        header = _receive_all(connection, REQUEST.size)
        seconds, memory, size = REQUEST.unpack(header)
        html = _receive_all(connection, size)
        status, answer = _draw_forked(html, seconds, memory)
        connection.settimeout(None)
        connection.sendall(ANSWER.pack(status, len(answer)) + answer)
        return 0
    except (OSError, EOFError, struct.error):
        return 1


def _receive_all(connection: socket.socket, size: int) -> bytes:
    data = bytearray()
    while len(data) < size:
        chunk = connection.recv(min(size - len(data), 1 << 20))
        if not chunk:
            raise EOFError
        data += chunk
    return bytes(data)


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
    """``--serve PATH``: the drawing server on that socket. ``MEMORY``: draw once, in this process with
    that much address space: HTML on standard input, the PDF on standard output
    (what the benchmark runs to see a drawing's peak memory)."""
    if sys.argv[1:2] == ["--serve"] and len(sys.argv) == 3:
        serve(sys.argv[2])
        return
    memory = int(sys.argv[1])
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    sys.stdout.buffer.write(render(sys.stdin.buffer.read().decode()))


if __name__ == "__main__":
    main()
