"""What the tournament day's browser test needs beside the evenings' helpers:
browser contexts of their own (each phone its own cookies), the engine's score
of the hands a table plays, a PDF read back and drawn as a picture, and the
hall screen's and the sign-off page's numbers read as numbers."""

from __future__ import annotations

import re
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

from scoring.engine import HandRecord, HandType, Table, score_hand
from scoring.games import registry
from tests.browser.support import MINUS, SCREENSHOTS
from tests.scoring.test_sheets import pdf_text

HALL = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}


class Contexts:
    """Browser contexts opened by one test, each with its own cookies (a phone, the
    organiser's laptop, the hall's screen), closed at the end; a JavaScript error
    or a blocked resource on any of their pages fails the test."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def page(self, viewport: Mapping[str, int] = PHONE, *, mobile: bool = True, locale: str = "de-DE") -> Any:
        from playwright.sync_api import expect

        expect.set_options(timeout=30_000)
        context = self.browser.new_context(
            viewport=dict(viewport), is_mobile=mobile, has_touch=mobile, locale=locale, accept_downloads=True
        )
        context.set_default_timeout(45_000)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))

        def refused(message: Any) -> None:
            if message.type == "error" and "Content Security Policy" in message.text:
                self.errors.append(message.text)

        page.on("console", refused)
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()
        assert not self.errors, f"JavaScript errors or blocked content on the pages: {self.errors}"


def engine_hand(
    options: Mapping[str, Any], players: Sequence[str], dealer: str, raw: Mapping[str, Any]
) -> dict[str, int]:
    """What the engine scores for one Königrufen hand written as the session file
    writes it, at a table of these players under the tournament's house rules."""
    variant = registry()["koenigrufen"]
    rules = variant.parse_options(dict(options), tuple(players))
    table = Table(tuple(players), dealer, variant.sitting_out(tuple(players), dealer))
    play = variant.parse_play(HandType.PLAYED, dict(raw), table, rules)
    score = score_hand(variant, HandRecord(HandType.PLAYED, table, play), rules)
    return {name: int(value) for name, value in score.deltas.items()}


def engine_sums(
    options: Mapping[str, Any], players: Sequence[str], hands: Sequence[tuple[str, Mapping[str, Any]]]
) -> dict[str, int]:
    """Each player's column sum of these hands (dealer, hand), scored by the engine."""
    sums = dict.fromkeys(players, 0)
    for dealer, raw in hands:
        for name, delta in engine_hand(options, players, dealer, raw).items():
            sums[name] += delta
    assert sum(sums.values()) == 0, sums
    return sums


def number(text: str) -> int:
    """A total as the pages write it (+41, −12, 0) as a number."""
    cleaned = text.strip().replace(MINUS, "-").replace("+", "").replace("\u202f", "").replace(".", "")
    return int(cleaned)


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else (f"{MINUS}{-value}" if value < 0 else "0")


def hall_totals(page: Any) -> dict[int, str]:
    """The hall screen's total per start number, as shown."""
    rows = page.locator("tr.hall-row")
    return {
        int(rows.nth(i).get_attribute("data-number")): rows.nth(i).locator("td.total").inner_text().strip()
        for i in range(rows.count())
    }


def pdf_of(page: Any, url: str) -> bytes:
    """A PDF the logged-in page's account downloads (its cookies, not a new login)."""
    response = page.request.get(url)
    assert response.ok, (url, response.status)
    assert response.headers["content-type"] == "application/pdf", response.headers
    return response.body()


def read_pdf(data: bytes) -> str:
    return pdf_text(data)


def pdf_png(data: bytes, name: str) -> Path:
    """The PDF's first page drawn as a PNG (pdftoppm) beside the screenshots."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    target = SCREENSHOTS / name
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "printout.pdf"
        source.write_bytes(data)
        subprocess.run(
            ["pdftoppm", "-png", "-r", "90", "-f", "1", "-l", "1", "-singlefile", str(source), str(target)],
            check=True,
            timeout=60,
        )
    return target.with_suffix(".png")


def money_of(points: int, rate: Decimal) -> Decimal:
    return (Decimal(points) * rate).quantize(Decimal("0.01"))


def lines_with(text: str, pattern: str) -> list[str]:
    return [line for line in text.splitlines() if re.search(pattern, line)]


def text_heights(data: bytes) -> dict[str, float]:
    """Each text run of the PDF's first page and how high on the page it starts
    (PDF points from the bottom; the first such run of each text)."""
    import io

    from pypdf import PdfReader

    page = PdfReader(io.BytesIO(data)).pages[0]
    found: dict[str, float] = {}

    def visit(text: str, cm: Any, tm: Any, font: Any, size: Any) -> None:
        text = text.strip()
        if text and text not in found:
            found[text] = float(tm[5]) * float(cm[3]) + float(cm[5])

    page.extract_text(visitor_text=visit)
    return found
