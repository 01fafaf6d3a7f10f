"""The printed sheet's last numbers: inside the page, and never contradicting the
settlement printed beside them."""

from __future__ import annotations

from typing import Any

from django.utils import translation
from weasyprint import HTML

from scoring import exports, services
from scoring.sheet import build_sheet
from tests.scoring.test_sheets import imported

FIVE = ("Annabella", "Bert", "Carl", "Dora", "Emil")


def boxes(box: Any) -> Any:
    yield box
    for child in getattr(box, "children", []):
        yield from boxes(child)


def text_right_edges(document: Any, row_class: str) -> list[tuple[float, float]]:
    """(right edge of each line of text, right edge of its table) in the rows of this class."""
    found = []
    for page in document.pages:
        for table in (b for b in boxes(page._page_box) if getattr(b, "element_tag", None) == "table"):
            right = table.position_x + table.margin_width()
            for row in boxes(table):
                element = getattr(row, "element", None)
                if getattr(row, "element_tag", None) == "tr" and row_class in (element.get("class") or ""):
                    for line in boxes(row):
                        if type(line).__name__ == "TextBox":
                            found.append((line.position_x + line.width, right))
    return found


def test_the_closing_totals_of_a_long_five_player_evening_stay_inside_the_table(make_session, user):
    """Sixty hands at five: totals of four digits and a half. The closing row's
    figures are drawn at the size their column was made for, not cut off."""
    session = make_session(players=FIVE)
    for index in range(60):
        taker, partner = FIVE[index % 5], FIVE[(index + 2) % 5]
        points = 30 + (index * 7) % 40 + (0.5 if index % 3 == 0 else 0)
        hand = {"taker": taker, "partner": partner, "contract": "garde_sans", "bouts": 1, "points": points}
        services.hand_record(session=session, raw={**hand, "dealer": FIVE[(index + 4) % 5]}, user=user)
    with translation.override("de"):
        html = exports.print_html({**exports.printed(build_sheet(session)), "for_pdf": True})
    edges = text_right_edges(HTML(string=html).render(), "final")
    assert edges, "the closing row is drawn"
    assert all(text <= table + 0.5 for text, table in edges), edges


def test_one_series_ends_with_its_totals_and_what_it_alone_settles(logged_in, user):
    session = imported(user, "illustrated-seed-series.json")
    with translation.override("en"):
        context = exports.printed(build_sheet(session), series=1)
    labels = [str(label) for label, _figures in context["closing"]]
    assert labels == ["Series 1", "Balance"]
    # docs/rules.md §2.9's first series: A 120 (bonus included), B 34, C 28; settled pair by
    # pair: A 3 × 120 − 182 = +178, B 3 × 34 − 182 = −80, C 3 × 28 − 182 = −98.
    assert context["closing"][0][1].split() == ["+120", "+34", "+28"]
    assert context["closing"][1][1].split() == ["+178", "\u221280", "\u221298"]
    assert [context["settlement"].net[name] for name in "ABC"] == [178, -80, -98]


def test_the_csv_shows_a_series_bonus_on_the_hand_that_ends_the_series(logged_in, user):
    session = imported(user, "illustrated-seed-series.json")
    data = logged_in.get(f"/sessions/{session.pk}/export/csv/?format=comma").content.decode("utf-8-sig")
    rows = [line.split(",") for line in data.splitlines()]
    header = rows[0]
    a_total = header.index("A: total")
    # docs/rules.md §2.9: A reaches 110 with the series' last hand and gets the bonus of 10.
    ends = [row for row in rows[1:-1] if row[a_total] == "120"]
    assert len(ends) == 1
    assert rows[-1][0] == "Balance" and rows[-1][a_total] == "178"
