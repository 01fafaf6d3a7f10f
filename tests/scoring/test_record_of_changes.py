"""The record shows every change: a hand keeps its number for good, a deleted hand
stays on the sheet struck through, a corrected hand says so on the sheet and its
footnote in the PDF says when, by whom and what it was."""

from __future__ import annotations

import csv
import io
import re

from django.urls import reverse
from django.utils import translation

from scoring import services
from scoring.models import HandChange
from scoring.presentation import render_line
from tests.scoring.test_sheets import pdf_text

GARDE = {"taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}  # Anna +240, the others −80
PRISE = {"taker": "Bert", "contract": "prise", "bouts": 1, "points": 40}  # Bert −108, the others +36


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def row_of(html: str, hand_id: int) -> str:
    return re.search(rf'<tbody id="hand-{hand_id}" class="[^"]*">(.*?)</tbody>', html, re.S).group(1)


def test_a_corrected_hand_carries_a_mark_on_the_sheet_and_a_footnote_in_the_pdf(
    make_session, user, logged_in, client
):
    session = make_session()
    first = services.hand_record(session=session, raw=dict(GARDE), user=user)
    second = services.hand_record(session=session, raw=dict(PRISE), user=user)
    url = reverse("scoreboard", args=[session.pk])
    assert 'class="mark corrected"' not in logged_in.get(url).content.decode()  # and kept, seen once

    services.hand_edit(hand=first, raw={**GARDE, "points": 60}, user=user)  # now Anna +264
    page = logged_in.get(url).content.decode()
    mark = re.search(r'<span class="mark corrected" title="([^"]+)">', row_of(page, first.pk))
    assert mark is not None and "what it was" in mark.group(1)
    hand_page = reverse("hand_detail", args=[session.pk, first.pk])
    assert f'href="{hand_page}"' in row_of(page, first.pk)  # the mark is part of the link to the hand's page
    assert "mark corrected" not in row_of(page, second.pk)
    token = services.session_share(session=session)
    shared = client.get(reverse("shared_board", args=[token])).content.decode()
    assert 'class="mark corrected"' in row_of(shared, first.pk)
    german = logged_in.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "korrigiert" in row_of(german, first.pk)

    change = HandChange.objects.get(hand=first, action=HandChange.Action.EDITED)
    before_line = change.before_line()
    assert before_line is not None
    with translation.override("en"):
        before = render_line(before_line)
    pdf = logged_in.get(reverse("session_export", args=[session.pk, "pdf"]))
    text = flat(pdf_text(pdf.content))
    footnote = re.search(r"Hand 1: corrected on (.*?) by anna; before: (.*?) \((.*?)\)", text)
    assert footnote is not None, text
    assert footnote.group(2) == flat(before)
    assert footnote.group(3) == "Anna +240, Bert \u221280, Carl \u221280, Dora \u221280"
    assert "+264" in text  # the sheet itself shows the hand as it is now
    assert "Hand 2:" not in text  # an uncorrected hand has no footnote


def test_the_pdf_shows_a_deleted_hand_struck_through_with_a_footnote_and_the_csv_leaves_it_out(
    make_session, user, logged_in
):
    session = make_session()
    hands = [services.hand_record(session=session, raw=dict(raw), user=user) for raw in (GARDE, PRISE, GARDE)]
    services.hand_delete(hand=hands[1], user=user)
    pdf = logged_in.get(reverse("session_export", args=[session.pk, "pdf"]))
    text = flat(pdf_text(pdf.content))
    described = hands[1].description_line()
    assert described is not None
    with translation.override("en"):
        prise = render_line(described)
    assert f"2 · {flat(prise)} deleted 1" in text  # in its place, with its footnote's mark
    footnote = re.search(r"Hand 2: deleted on (.*?) by anna; it had scored (.*?)(?: Settlement|$)", text)
    assert footnote is not None, text
    assert footnote.group(2).startswith("Anna +36, Bert \u2212108, Carl +36, Dora +36")
    printed = logged_in.get(reverse("session_print", args=[session.pk])).content.decode()
    assert re.search(r'<tr class="deleted">\s*<td class="what"><s>2 · ', printed)

    data = logged_in.get(reverse("session_export", args=[session.pk, "csv"]) + "?format=comma")
    rows = list(csv.reader(io.StringIO(data.content.decode("utf-8-sig"))))
    # the hands that count, under their numbers on the sheet: the deleted one leaves a gap
    assert [row[0] for row in rows[1:-1]] == ["1", "3"]
    assert rows[-1][rows[0].index("Anna: total")] == "480"
