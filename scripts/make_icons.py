"""Draw the app's home-screen icons as PNG files, with the standard library only.

A playing card on the app's green, marked with two red bars. The maskable icon
keeps everything inside the middle 80 %, the safe zone Android may cut any
shape from.

    .venv/bin/python scripts/make_icons.py     # writes static/icons/*.png
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

ICONS = Path(__file__).resolve().parents[1] / "static" / "icons"
GREEN = (0x0B, 0x5D, 0x4B)  # the header's --accent
CARD = (0xFB, 0xF8, 0xF0)
INK = (0x8B, 0x1E, 0x2D)
# Each icon: file name, size in pixels, the card's share of the side (the rest is green).
SIZES = [
    ("icon-192.png", 192, 0.72),
    ("icon-512.png", 512, 0.72),
    ("maskable-512.png", 512, 0.56),
    ("apple-touch-icon.png", 180, 0.72),
]


def colour_at(x: float, y: float, card: float) -> tuple[int, int, int]:
    """The colour at (x, y) in a unit square: green, the card, or its mark."""
    half_w, half_h = card * 0.36, card / 2
    dx, dy = abs(x - 0.5), abs(y - 0.5)
    radius = card * 0.06
    inside_x, inside_y = dx <= half_w, dy <= half_h
    corner = dx > half_w - radius and dy > half_h - radius
    if corner:
        cx, cy = dx - (half_w - radius), dy - (half_h - radius)
        inside = cx * cx + cy * cy <= radius * radius
    else:
        inside = inside_x and inside_y
    if not inside:
        return GREEN
    bar = card * 0.09
    left = abs(x - (0.5 - card * 0.12)) <= bar / 2 and dy <= card * 0.3
    right = abs(x - (0.5 + card * 0.12)) <= bar / 2 and dy <= card * 0.3
    return INK if left or right else CARD


def png(size: int, card: float) -> bytes:
    rows = bytearray()
    for row in range(size):
        rows.append(0)  # no filter
        for column in range(size):
            rows.extend(colour_at((column + 0.5) / size, (row + 0.5) / size, card))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(rows), 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    for name, size, card in SIZES:
        (ICONS / name).write_bytes(png(size, card))
        print(f"{ICONS / name}: {size}×{size}")


if __name__ == "__main__":
    main()
