"""The running-total chart as SVG, drawn on the server (no JavaScript needed).

One line per player, each with its own dash pattern and marker as well as its
colour, so the chart still reads when printed in black and white; each line is
labelled with the player's name at its end. Series and round breaks are dashed
verticals. For paper (``monochrome``) the colours give way to black and greys
that stay apart on a black-and-white printer, the dashes and markers still
telling the lines apart where two greys are close.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from html import escape

from scoring.presentation import number
from scoring.sheet.model import column_heads

LABEL_LETTERS = 9  # the most letters of a line's end label

WIDTH, HEIGHT = 520, 300  # narrow enough that the labels stay legible on a phone
LEFT, RIGHT, TOP, BOTTOM = 48, 118, 14, 28
LABEL_GAP = 16  # the least vertical distance between two end labels
LABEL_CHAR = 8.4  # room for one character of a label at the font's size (14), wide letters included
COLOURS = ("#1b5e20", "#b71c1c", "#0d47a1", "#e65100", "#4a148c", "#37474f")
GREYS = ("#000000", "#6e6e6e", "#000000", "#6e6e6e", "#3a3a3a", "#9a9a9a")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4")
MARKERS = ("circle", "square", "diamond", "triangle", "cross", "ring")
MOST_POINTS = 180
# Each marker drawn around its point (x, y), about 3 px from it: the point's own
# coordinates and steps relative to it, so each marker costs no arithmetic.
MARKER_SHAPES = {
    "circle": '<circle cx="{x}" cy="{y}" r="3" fill="{colour}"/>',
    "ring": '<circle cx="{x}" cy="{y}" r="3" fill="#fff" stroke="{colour}"/>',
    "square": '<path d="M{x},{y}m-3,-3h6v6h-6z" fill="{colour}"/>',
    "diamond": '<path d="M{x},{y}m0,-4l4,4l-4,4l-4,-4z" fill="{colour}"/>',
    "triangle": '<path d="M{x},{y}m0,-4l4,7h-8z" fill="{colour}"/>',
    "cross": '<path d="M{x},{y}m-3,-3l6,6m-6,0l6,-6" stroke="{colour}" stroke-width="1.5"/>',
}


def running_total_svg(
    players: Sequence[str],
    totals: Sequence[Sequence[Fraction | int]],
    breaks: Sequence[int] = (),
    title: str = "",
    *,
    monochrome: bool = False,
    whole_labels: bool = False,
) -> str:
    """``totals[h][p]``: player p's total after hand h (hand 0 is the start, all 0).
    ``breaks``: hand numbers after which a series or round ended. The x axis
    counts these hands from 0, whatever their numbers on the whole sheet.
    A line's label is its name as a column head of nine letters at most
    (``scoring.sheet.column_heads``: "Bernhard K.", "B. Kurz"), or with ``whole_labels``
    (a few lines named after games) the whole name, the drawing leaving room for it."""
    palette = GREYS if monochrome else COLOURS
    series: list[list[Fraction | int]] = [[0] * len(players), *[list(t) for t in totals]]
    count = len(series) - 1
    low = min(min(row) for row in series)
    high = max(max(row) for row in series)
    if low == high:
        low, high = low - 10, high + 10
    heads = {} if whole_labels else column_heads(players, room=LABEL_LETTERS)
    labels = [
        f"{heads.get(name, name)} {number(total)}" for name, total in zip(players, series[-1], strict=True)
    ]
    right = max(RIGHT, label_room(labels))
    span_x = WIDTH - LEFT - right
    span_y = HEIGHT - TOP - BOTTOM
    # Positions in floats: a drawing needs no exact arithmetic, and a long
    # evening has thousands of points.
    top_value, scale = float(high), span_y / float(high - low)

    def x(hand: int) -> float:
        return LEFT + (span_x * hand / count if count else 0)

    def y(value: Fraction | int) -> float:
        return TOP + (top_value - float(value)) * scale

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" class="chart" role="img"'
        f' aria-label="{escape(title)}" font-family="sans-serif" font-size="14">',
        f"<title>{escape(title)}</title>",
        f'<rect x="{LEFT}" y="{TOP}" width="{span_x}" height="{span_y}" fill="none" stroke="#bbb"/>',
    ]
    for value in _ticks(low, high):
        parts.append(
            f'<line x1="{LEFT}" x2="{LEFT + span_x}" y1="{y(value):.1f}" y2="{y(value):.1f}"'
            f' stroke="{"#555" if value == 0 else "#ddd"}" stroke-width="{1.2 if value == 0 else 0.6}"/>'
            f'<text x="{LEFT - 4}" y="{y(value) + 4:.1f}" text-anchor="end">{escape(number(value))}</text>'
        )
    for hand in breaks:
        parts.append(
            f'<line x1="{x(hand):.1f}" x2="{x(hand):.1f}" y1="{TOP}" y2="{TOP + span_y}"'
            ' stroke="#777" stroke-dasharray="4 3" class="break"/>'
        )
    step = max(1, count // 12)
    for hand in range(0, count + 1, step):
        parts.append(f'<text x="{x(hand):.1f}" y="{HEIGHT - 8}" text-anchor="middle">{hand}</text>')
    marker_every = max(1, count // 30)
    marked = range(0, count + 1, marker_every)
    # At most one point every two pixels or so: a long evening's lines keep their
    # shape, and the page (and the PDF) do not carry thousands of points.
    every = -(-count // MOST_POINTS) if count > MOST_POINTS else 1
    drawn = sorted({*range(0, count + 1, every), count})
    # Each shown hand's x and each player's y formatted once: a line's points
    # and its markers share them.
    shown = sorted({*drawn, *marked})
    x_text = {h: f"{x(h):.1f}" for h in shown}
    label_ys = spread_labels([y(total) for total in series[-1]], TOP + 4, TOP + span_y + BOTTOM - 8)
    for index, name in enumerate(players):
        colour, dash = palette[index % len(palette)], DASHES[index % len(DASHES)]
        y_text = {h: f"{y(series[h][index]):.1f}" for h in shown}
        points = " ".join(f"{x_text[h]},{y_text[h]}" for h in drawn)
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"{dash_attr}'
            f' class="player-line" data-player="{escape(name)}"/>'
        )
        marker = MARKER_SHAPES[MARKERS[index % len(MARKERS)]]
        parts.extend(marker.format(x=x_text[h], y=y_text[h], colour=colour) for h in marked)
        parts.append(
            f'<text x="{x(count) + 8:.1f}" y="{label_ys[index] + 5:.1f}" fill="{colour}">'
            f"{escape(labels[index])}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def label_room(labels: Sequence[str]) -> int:
    """The width right of the lines that the longest end label needs."""
    return 8 + int(LABEL_CHAR * max((len(label) for label in labels), default=0)) + 1


def spread_labels(wanted: Sequence[float], top: float, bottom: float, gap: float = LABEL_GAP) -> list[float]:
    """Where each line's end label goes: as near its line's end as it can be, at
    least ``gap`` from every other label and within ``top``..``bottom``.

    Labels are placed from the top, each pushed below the one above it; then
    from the bottom, each lifted above the one below it where the column ran
    past the bottom."""
    order = sorted(range(len(wanted)), key=lambda i: (wanted[i], i))
    placed: dict[int, float] = {}
    floor = top
    for i in order:
        placed[i] = max(wanted[i], floor)
        floor = placed[i] + gap
    ceiling = bottom
    for i in reversed(order):
        placed[i] = max(min(placed[i], ceiling), top)
        ceiling = placed[i] - gap
    return [placed[i] for i in range(len(wanted))]


def _ticks(low: Fraction | int, high: Fraction | int) -> list[Fraction]:
    """A few round values between low and high, 0 among them when in range."""
    span = float(high - low)
    raw = span / 5
    magnitude = 10 ** max(0, len(str(int(raw))) - 1) if raw >= 1 else 1
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    first = -(-int(low) // step) * step
    return [Fraction(v) for v in range(first, int(high) + 1, step)]
