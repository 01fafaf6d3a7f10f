"""HTML → PDF bytes, nothing else.

WeasyPrint is given a URL fetcher that refuses everything but ``data:`` URLs,
so nothing a player typed can make it fetch a file; the stylesheet comes
inlined in the HTML.

Each PDF is drawn in a process of its own (``python -m scoring.pdf``): the
request's worker waits at most ``seconds`` for it (then it is stopped), the
drawing process gets a bounded amount of memory, and whatever it used goes
back to the system when it ends, so one big sheet never leaves a worker
bloated, and the worker's own garbage collection is never touched. Starting
it (WeasyPrint's import included) costs about half a second; each version of
a sheet is drawn once (``scoring.caching``).
"""

from __future__ import annotations

import gc
import resource
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

# The most a PDF request takes, its wait for a turn included: a 500-hand sheet
# (the most a PDF shows) draws in a few seconds on a small machine, three at
# once on two busy cores within this.
SECONDS = 40.0
MEMORY_BYTES = 1536 * 1024 * 1024  # address space of the drawing process
# PDFs drawn at once by one server process; more requests wait for a turn.
AT_ONCE = 1


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
    if not _turns.acquire(timeout=seconds):
        raise PdfFailed("no turn to draw a PDF")
    try:
        drawing = subprocess.run(
            [sys.executable, "-m", "scoring.pdf", str(memory)],
            input=html.encode(),
            capture_output=True,
            timeout=seconds,
            cwd=ROOT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise PdfFailed(f"the PDF took longer than {seconds:g} s") from None
    finally:
        _turns.release()
    if drawing.returncode != 0 or not drawing.stdout.startswith(b"%PDF"):
        raise PdfFailed(f"the PDF could not be drawn: {drawing.stderr.decode(errors='replace')[-500:]}")
    return drawing.stdout


_turns = threading.BoundedSemaphore(AT_ONCE)
ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    """The drawing process: HTML on standard input, the PDF on standard output."""
    memory = int(sys.argv[1])
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    sys.stdout.buffer.write(render(sys.stdin.buffer.read().decode()))


if __name__ == "__main__":
    main()
