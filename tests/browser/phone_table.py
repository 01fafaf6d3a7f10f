"""A phone at a table, as the browser tests and the phone's benchmark
(scripts/bench_phone.py) both drive it: Debian's Chromium launched the same way,
a phone's screen, the ten French hands they tap, and how they see that the
service worker keeps a page. Plain data and scripts: no Django, no pytest."""

from __future__ import annotations

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
# The same Chromium build without the browser's own windowing layer (Debian's package
# chromium-headless-shell, what Playwright itself runs headless): the browser tests run
# in it where it is installed, as it draws the same pages on about 40 % less processor.
HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}

PLAYERS = ["Anna", "Bert", "Carl", "Dora"]
# Ten hands of French Tarot, as tapped: each taker in turn, contracts and points varied.
HANDS = [
    {"taker": PLAYERS[i % 4], "contract": contract, "bouts": str(bouts), "points": str(points)}
    for i, (contract, bouts, points) in enumerate(
        [
            ("prise", 1, 52),
            ("garde", 2, 38),
            ("garde_sans", 3, 40),
            ("prise", 0, 60),
            ("garde_contre", 2, 45),
            ("prise", 1, 50),
            ("garde", 1, 49),
            ("prise", 2, 41),
            ("garde", 3, 36),
            ("prise", 0, 55.5),
        ]
    )
]

# True once the service worker keeps a copy of the page at ``path`` for offline.
KEPT = """async (path) => {
    for (const name of await caches.keys()) {
        if (name.startsWith("pages-") && await (await caches.open(name)).match(path)) return true;
    }
    return false;
}"""
