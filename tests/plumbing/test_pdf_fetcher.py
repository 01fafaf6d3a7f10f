"""The PDF score sheet fetches nothing: a ``data:`` image is drawn, every other URL
in the sheet's HTML or CSS is refused before anything is read from disk or network."""

from __future__ import annotations

import base64
import http.server
import io
import logging
import struct
import threading
import urllib.request
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from pypdf import PdfReader

from plumbing.pdf import render
from scoring import exports, services
from scoring.sheet import build_sheet

HAND = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}


def png(width: int, height: int) -> bytes:
    """A grey image of the given size, as a PNG file."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    pixels = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(pixels))
        + chunk(b"IEND", b"")
    )


@pytest.fixture
def web_server() -> Iterator[tuple[str, list[str]]]:
    """A server on loopback that would answer with an image, recording every request."""
    requested: list[str] = []
    body = png(9, 9)

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            requested.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", requested
    finally:
        server.shutdown()
        server.server_close()


def foreign_urls(base: str, tmp_path: Path) -> tuple[str, str, list[str]]:
    """CSS and HTML that name a ``data:`` image and URLs on disk and on the network,
    and the URLs that must be refused."""
    on_disk = tmp_path / "secret.png"
    on_disk.write_bytes(png(7, 5))
    (tmp_path / "evil.css").write_text("body { color: red }", encoding="utf-8")
    disk = on_disk.as_uri()
    data_url = "data:image/png;base64," + base64.b64encode(png(3, 2)).decode()
    css = (
        f'@import url("{base}/import.css"); @import url("{(tmp_path / "evil.css").as_uri()}");'
        f" body {{ background-image: url({disk}); }}"
        f' h1 {{ background-image: url("{base}/background.png"); }}'
        f" @font-face {{ font-family: Evil; src: url({base}/font.woff); }} p {{ font-family: Evil; }}"
    )
    html = (
        f'<img src="{data_url}" alt="data"><img src="{disk}" alt="disk"><img src="{base}/image.png" alt="net">'
        f'<link rel="stylesheet" href="{base}/linked.css">'
    )
    refused = [
        disk,
        f"{base}/image.png",
        f"{base}/linked.css",
        f"{base}/import.css",
        f"{base}/background.png",
        (tmp_path / "evil.css").as_uri(),
    ]
    return css, html, refused


def with_urls(page: str, css: str, html: str) -> str:
    page = page.replace("</head>", f"<style>{css}</style></head>", 1)
    return page.replace("</h1>", f"</h1>{html}", 1)


def images_of(pdf: bytes) -> list[tuple[int, int]]:
    return [image.image.size for page in PdfReader(io.BytesIO(pdf)).pages for image in page.images]


def test_a_downloaded_sheet_with_a_data_image_and_foreign_urls_draws_and_fetches_nothing(
    logged_in, make_session, monkeypatch, tmp_path: Path, web_server
):
    """Through the download, in the separate process that draws every PDF."""
    base, requested = web_server
    css, html, _refused = foreign_urls(base, tmp_path)
    drawn = exports.print_html
    monkeypatch.setattr(exports, "print_html", lambda context: with_urls(drawn(context), css, html))
    session = make_session()
    services.hand_record(session=session, raw=HAND)

    response = logged_in.get(reverse("session_export", args=[session.pk, "pdf"]))

    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert images_of(response.content) == [(3, 2)], "only the data: image is drawn"
    assert requested == [], "nothing asked of the network"


def test_the_fetcher_refuses_every_url_but_data_and_says_so(
    make_session, monkeypatch, tmp_path: Path, web_server, caplog
):
    """The drawing itself (``plumbing.pdf.render``, what the drawing process runs), watched in this process."""
    base, requested = web_server
    css, html, refused = foreign_urls(base, tmp_path)
    opened: list[str] = []
    original_open = urllib.request.OpenerDirector.open

    def spy(self: Any, request: Any, *args: Any, **kwargs: Any) -> Any:
        opened.append(request if isinstance(request, str) else request.full_url)
        return original_open(self, request, *args, **kwargs)

    monkeypatch.setattr(urllib.request.OpenerDirector, "open", spy)
    session = make_session()
    services.hand_record(session=session, raw=HAND)
    page = exports.print_html({**exports.printed(build_sheet(session)), "for_pdf": True})

    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        pdf = render(with_urls(page, css, html))

    assert images_of(pdf) == [(3, 2)]
    assert requested == []
    assert all(url.startswith("data:") for url in opened), opened
    for url in refused:
        assert url in caplog.text, f"{url} refused"
    assert "disallowed protocol" in caplog.text
