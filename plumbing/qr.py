"""A QR code of a link as inline SVG, drawn on the server (segno): the phones at
the table scan it from the owner's screen. Black on white with its quiet zone,
sized by the page's CSS; no script, no image request, no style attribute, so the
Content-Security-Policy allows it."""

from __future__ import annotations

from functools import lru_cache

import segno
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

SCALE = 4  # units per module; the page scales the drawing as a whole
# Links drawn lately, kept in each process: a code takes about 9 ms to draw, and the
# hall screen draws its board's code again at every change (each about 2 KB of markup).
KEPT_CODES = 256


def qr_svg(text: str, *, label: str) -> SafeString:
    """``text`` (a link) as a QR code a phone camera reads off the screen, named ``label``."""
    labelled = _drawn(text).replace("<svg ", f'<svg role="img" aria-label="{escape(label)}" ', 1)
    return mark_safe(labelled)  # segno's own markup; the only text in it is escaped above


@lru_cache(maxsize=KEPT_CODES)
def _drawn(text: str) -> str:
    """The code's drawing, the same for every reader and language."""
    svg: str = segno.make(text, error="m").svg_inline(
        scale=SCALE, svgclass="qr", lineclass=None, omitsize=True, dark="#000", light="#fff"
    )
    return svg
