"""The QR code of a link (plumbing.qr): drawn once per link in a process, named per call."""

from __future__ import annotations

from typing import Any

import segno

from plumbing import qr


def test_a_link_is_drawn_once_and_named_for_each_reader(monkeypatch: Any) -> None:
    made = []
    draw = segno.make

    def make(text: str, **options: Any) -> Any:
        made.append(text)
        return draw(text, **options)

    monkeypatch.setattr(segno, "make", make)
    link = "https://tarock.example/b/a-board-link-drawn-once/"
    german = qr.qr_svg(link, label="QR-Code der Rangliste")
    english = qr.qr_svg(link, label="QR code of the board")
    assert made == [link]  # the second reader's code is the first one's drawing
    assert 'aria-label="QR-Code der Rangliste"' in german and 'aria-label="QR code of the board"' in english
    assert german.replace("QR-Code der Rangliste", "QR code of the board") == english
    other = qr.qr_svg(link + "x", label="<board>")
    assert made == [link, link + "x"] and 'aria-label="&lt;board&gt;"' in other


def test_the_drawing_is_segnos_own_for_that_link() -> None:
    link = "https://tarock.example/t/a-table-link/"
    drawn = qr.qr_svg(link, label="QR")
    expected = segno.make(link, error="m").svg_inline(
        scale=qr.SCALE, svgclass="qr", lineclass=None, omitsize=True, dark="#000", light="#fff"
    )
    assert drawn == expected.replace("<svg ", '<svg role="img" aria-label="QR" ', 1)
