"""A QR code of a link as SVG, drawn on the server (segno): the phones at the
table scan it from the owner's screen. Black on white with its quiet zone, sized
by the page's CSS; no style attribute, so the Content-Security-Policy allows it."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe

SCALE = 4  # units per module; the page scales the drawing as a whole


def qr_svg(link: str, title: str) -> SafeString:
    code = segno.make(link, error="m")
    svg = code.svg_inline(scale=SCALE, omitsize=True, svgclass="qr", title=title, dark="#000", light="#fff")
    return mark_safe(svg)  # segno escapes the title; the rest is drawing instructions
