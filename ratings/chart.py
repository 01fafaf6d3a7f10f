"""A player's rating over her events as SVG, drawn on the server in the manner
of the evening's running totals (``scoring.chart``: its size, colours and
markers): one line, the events counted from 1 along the bottom, the shown
rating up the side, the first event where it was shown marked."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from scoring.public import CHART_COLOURS as COLOURS
from scoring.public import CHART_HEIGHT as HEIGHT
from scoring.public import CHART_MARKER_SHAPES as MARKER_SHAPES
from scoring.public import CHART_WIDTH as WIDTH

LEFT, RIGHT, TOP, BOTTOM = 52, 16, 14, 28
MOST_MARKERS = 40


def _ticks(low: int, high: int) -> list[int]:
    """A few round ratings between low and high."""
    raw = (high - low) / 5
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000) if s >= raw)
    return list(range(-(-low // step) * step, high + 1, step))


def rating_svg(numbers: Sequence[int], ratings: Sequence[int], title: str) -> str:
    """``ratings[i]``: the rating after her event ``numbers[i]``."""
    if not ratings:
        return ""
    low, high = min(ratings), max(ratings)
    if high - low < 20:
        low, high = low - 10, high + 10
    span_x, span_y = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    first, last = numbers[0], numbers[-1]

    def x(number: int) -> float:
        return LEFT + (span_x * (number - first) / (last - first) if last > first else span_x / 2)

    def y(value: int) -> float:
        return TOP + (high - value) * span_y / (high - low)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" class="chart" role="img"'
        f' aria-label="{escape(title)}" font-family="sans-serif" font-size="14">',
        f"<title>{escape(title)}</title>",
        f'<rect x="{LEFT}" y="{TOP}" width="{span_x}" height="{span_y}" fill="none" stroke="#bbb"/>',
    ]
    for value in _ticks(low, high):
        parts.append(
            f'<line x1="{LEFT}" x2="{LEFT + span_x}" y1="{y(value):.1f}" y2="{y(value):.1f}" stroke="#ddd"'
            f' stroke-width="0.6"/><text x="{LEFT - 4}" y="{y(value) + 4:.1f}" text-anchor="end">{value}</text>'
        )
    step = max(1, (last - first) // 10)
    for number in range(first, last + 1, step):
        parts.append(f'<text x="{x(number):.1f}" y="{HEIGHT - 8}" text-anchor="middle">{number}</text>')
    points = " ".join(f"{x(n):.1f},{y(v):.1f}" for n, v in zip(numbers, ratings, strict=True))
    colour = COLOURS[0]
    parts.append(
        f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2" class="rating-line"/>'
    )
    every = max(1, len(ratings) // MOST_MARKERS)
    marker = MARKER_SHAPES["circle"]
    parts.extend(
        marker.format(x=f"{x(n):.1f}", y=f"{y(v):.1f}", colour=colour)
        for n, v in list(zip(numbers, ratings, strict=True))[::every]
    )
    parts.append("</svg>")
    return "".join(parts)
