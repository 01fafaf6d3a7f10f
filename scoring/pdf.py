"""HTML → PDF bytes, nothing else.

WeasyPrint is given a URL fetcher that refuses everything but ``data:`` URLs,
so nothing a player typed can make it fetch a file; the stylesheet comes
inlined in the HTML.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


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
    The threshold is raised while rendering, never switched off, so other threads'
    garbage is still collected."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], 50_000), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def html_to_pdf(html: str) -> bytes:
    from weasyprint import HTML  # imported here: loading it takes half a second

    with _fewer_cycle_collections():
        return bytes(HTML(string=html, url_fetcher=url_fetcher()).write_pdf())
