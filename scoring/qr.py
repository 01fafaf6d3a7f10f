"""A QR code as inline SVG, drawn on the server (no script, no image request)."""

from __future__ import annotations

import segno
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


def qr_svg(text: str, *, label: str) -> SafeString:
    """``text`` (a link) as a QR code a phone camera reads off the screen."""
    svg = segno.make(text, error="m").svg_inline(
        scale=4, svgclass="qr", lineclass=None, omitsize=True, light="#fff"
    )
    labelled = svg.replace("<svg ", f'<svg role="img" aria-label="{escape(label)}" ', 1)
    return mark_safe(labelled)  # segno's own markup; the only text in it is escaped above
