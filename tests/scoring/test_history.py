"""History is read, never re-judged: every page and file of a session shows what
each hand stored when it was scored, and re-scoring is an explicit, audited act."""

from __future__ import annotations

import csv
import io
import re
from fractions import Fraction

import pytest
from django.core.management import call_command
from django.urls import reverse

from scoring import services
from scoring.engine import Line
from scoring.engine.types import line_to_json
from scoring.exports import session_csv, session_export
from scoring.models import Hand, HandChange
from scoring.sheet import build_sheet
from tests.scoring.test_concurrency import HAND as FORM_HAND
from tests.scoring.test_sheets import pdf_text

GARDE = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}  # +240 −80 −80 −80
# Lost by 11 (51 needed): S = −(25 + 11) = −36; Bert 3S = −108, each defender +36.
PRISE = {"taker": "Bert", "contract": "prise", "bouts": 1, "points": 40}


@pytest.fixture
def evening(make_session):
    session = make_session()
    first = services.hand_record(session=session, raw=GARDE)
    second = services.hand_record(session=session, raw=PRISE)
    return session, first, second


def refused_by_today(hand: Hand) -> None:
    """As if a later correction of the rules refused what this hand recorded:
    101 card points cannot happen in French Tarot (at most 91)."""
    Hand.objects.filter(pk=hand.pk).update(inputs={**hand.inputs, "points": 101})


def test_a_hand_todays_rules_refuse_still_shows_with_its_stored_numbers(logged_in, evening):
    session, first, _second = evening
    refused_by_today(first)
    sheet = build_sheet(session)
    assert [row.deltas[0] for row in sheet.rows] == [240, 36]  # Anna, as stored
    assert sheet.summary.totals == {"Anna": 276, "Bert": -188, "Carl": -44, "Dora": -44}
    for url in (
        reverse("scoreboard", args=[session.pk]),
        reverse("settlement", args=[session.pk]),
        reverse("session_print", args=[session.pk]),
        reverse("hand_detail", args=[session.pk, first.pk]),
    ):
        response = logged_in.get(url)
        assert response.status_code == 200, url
    assert "+276" in logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode()
    for kind in ("csv", "json"):
        assert logged_in.get(reverse("session_export", args=[session.pk, kind])).status_code == 200, kind
    pdf = logged_in.get(reverse("session_export", args=[session.pk, "pdf"]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    text = pdf_text(pdf.content)
    # the hand as it was stored (56 points, +240 for Anna), not the 101 today's rules refuse
    assert re.search(r"1 · Dora: Anna · Garde · 2 bouts · 56\s+\+240\s+−80\s+−80\s+−80", text), text
    assert re.search(r"Total\s+\+276\s+−188\s+−44\s+−44", text), text
    assert "Bert → Anna: 188" in text


def test_the_shared_board_and_the_csv_of_a_refused_hand_show_what_was_stored(client, evening):
    session, first, _second = evening
    refused_by_today(first)
    token = services.session_share(session=session)
    response = client.get(reverse("shared_board", args=[token]))
    assert response.status_code == 200
    assert "+276" in response.content.decode()
    rows = list(
        csv.reader(io.StringIO(session_csv(build_sheet(session), csv_format="comma").decode("utf-8-sig")))
    )
    assert rows[1][-8:] == ["240", "240", "-80", "-80", "-80", "-80", "-80", "-80"]
    assert rows[-1][-8:] == ["", "276", "", "-188", "", "-44", "", "-44"]


def test_the_session_file_writes_the_inputs_as_stored(evening):
    session, first, _second = evening
    refused_by_today(first)
    text = session_export(session, "json").data.decode()
    assert '"points": 101' in text


def test_a_dry_run_lists_what_would_change_and_writes_nothing(evening):
    session, first, _second = evening
    # As if an older version of the engine had scored the first hand differently.
    Hand.objects.filter(pk=first.pk).update(deltas={"Anna": 3, "Bert": -1, "Carl": -1, "Dora": -1})
    session.refresh_from_db()
    before = session.version
    result = services.session_rescore(session=session, dry_run=True)
    assert [hand.hand.pk for hand in result.changed] == [first.pk]
    assert result.changed[0].before["Anna"] == 3 and result.changed[0].after == {
        "Anna": 240,
        "Bert": -80,
        "Carl": -80,
        "Dora": -80,
    }
    assert not result.stored
    first.refresh_from_db()
    session.refresh_from_db()
    assert first.deltas["Anna"] == 3 and first.version == 1
    assert session.version == before
    assert HandChange.objects.filter(action=HandChange.Action.RESCORED).count() == 0


def test_a_rescore_stores_the_new_scores_with_one_history_entry_per_changed_hand(user, evening):
    session, first, second = evening
    Hand.objects.filter(pk=first.pk).update(deltas={"Anna": 3, "Bert": -1, "Carl": -1, "Dora": -1})
    result = services.session_rescore(session=session, user=user)
    assert result.stored
    first.refresh_from_db()
    assert first.delta_points() == {"Anna": 240, "Bert": -80, "Carl": -80, "Dora": -80}
    assert first.version == 2
    changes = HandChange.objects.filter(action=HandChange.Action.RESCORED)
    assert [(c.hand_id, c.user_id) for c in changes] == [(first.pk, user.pk)]
    assert changes[0].before["deltas"]["Anna"] == 3 and changes[0].after["deltas"]["Anna"] == 240
    second.refresh_from_db()
    assert second.version == 1, "an unchanged hand is left alone"
    assert build_sheet(session).summary.totals["Anna"] == Fraction(240 + 36)


def test_a_hand_the_rules_refuse_is_listed_with_its_reason_and_left_alone(evening):
    session, first, second = evening
    refused_by_today(first)
    Hand.objects.filter(pk=second.pk).update(deltas={"Anna": 0, "Bert": 0, "Carl": 0, "Dora": 0})
    result = services.session_rescore(session=session)
    assert [(hand.number, hand.refused.field) for hand in result.refused if hand.refused] == [(1, "points")]
    assert [hand.number for hand in result.changed] == [2]
    first.refresh_from_db()
    assert first.inputs["points"] == 101 and first.delta_points()["Anna"] == 240 and first.version == 1
    second.refresh_from_db()
    assert second.delta_points()["Bert"] == -108


def test_the_rescore_command_shows_changes_and_stores_them_only_when_confirmed(evening, capsys, monkeypatch):
    session, first, _second = evening
    Hand.objects.filter(pk=first.pk).update(deltas={"Anna": 3, "Bert": -1, "Carl": -1, "Dora": -1})
    call_command("rescore_session", str(session.pk), "--dry-run")
    out = capsys.readouterr().out
    assert "hand 1: Anna +3, Bert −1, Carl −1, Dora −1 → Anna +240, Bert −80, Carl −80, Dora −80" in out
    assert "1 changed, 0 refused, 1 unchanged." in out
    monkeypatch.setattr("builtins.input", lambda prompt: "n")
    call_command("rescore_session", str(session.pk))
    assert "Nothing stored." in capsys.readouterr().out
    first.refresh_from_db()
    assert first.deltas["Anna"] == 3
    monkeypatch.setattr("builtins.input", lambda prompt: "y")
    call_command("rescore_session", str(session.pk))
    assert "Stored: 1 hand(s) re-scored" in capsys.readouterr().out
    first.refresh_from_db()
    assert first.deltas["Anna"] == 240


def test_the_rescore_command_lists_a_refused_hand(evening, capsys):
    session, first, _second = evening
    refused_by_today(first)
    call_command("rescore_session", str(session.pk), "--yes")
    out = capsys.readouterr().out
    assert "hand 1: refused, left as it was: points:" in out
    assert "0 changed, 1 refused, 1 unchanged." in out


def test_a_hand_whose_wording_alone_changes_is_listed_with_the_old_and_new_wording(evening, capsys):
    session, first, _second = evening
    today = str(first.description_line())
    # As if an older engine had worded the hand otherwise, with the same numbers.
    Hand.objects.filter(pk=first.pk).update(description=line_to_json(Line("Anna plays a garde")))
    (changed,) = services.session_rescore(session=session, dry_run=True).changed
    assert changed.differences == ("description",) and not changed.numbers_changed
    call_command("rescore_session", str(session.pk), "--dry-run")
    out = capsys.readouterr().out
    assert f"hand 1: wording only: “Anna plays a garde” → “{today}”\n" in out
    assert "Anna +240, Bert −80" not in out, "the numbers are the same: they are not listed as a change"
    assert "1 changed, 0 refused, 1 unchanged." in out


def test_a_hand_whose_numbers_and_wording_change_shows_both(evening, capsys):
    session, first, _second = evening
    today = str(first.description_line())
    Hand.objects.filter(pk=first.pk).update(
        deltas={"Anna": 3, "Bert": -1, "Carl": -1, "Dora": -1},
        description=line_to_json(Line("Anna plays a garde")),
    )
    call_command("rescore_session", str(session.pk), "--dry-run")
    assert (
        "hand 1: Anna +3, Bert −1, Carl −1, Dora −1 → Anna +240, Bert −80, Carl −80, Dora −80; "
        f"wording: “Anna plays a garde” → “{today}”\n"
    ) in capsys.readouterr().out


def test_a_hand_whose_breakdown_alone_changes_says_so(evening, capsys):
    session, first, _second = evening
    Hand.objects.filter(pk=first.pk).update(breakdown=[line_to_json(Line("Garde: 240"))])
    call_command("rescore_session", str(session.pk), "--dry-run")
    assert "hand 1: same numbers and wording, changed: the breakdown\n" in capsys.readouterr().out


def correction(reason: str, version: int) -> dict[str, str]:
    """The correction form of the Garde, made a Garde with 60 points, as a phone posts it."""
    return {**FORM_HAND, "points": "60", "token": str(version), "reason": reason}


def test_a_corrections_reason_is_kept_and_shown_with_the_hand(logged_in, evening):
    session, first, _ = evening
    url = reverse("hand_edit", args=[session.pk, first.pk])
    form = logged_in.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'name="reason"' in form and "Warum korrigiert wird" in form
    response = logged_in.post(url, correction("  Punkte falsch gezählt  ", first.version))
    assert response.status_code == 302
    change = HandChange.objects.get(hand=first, action=HandChange.Action.EDITED)
    assert change.reason == "Punkte falsch gezählt"
    page = logged_in.get(reverse("hand_detail", args=[session.pk, first.pk]), HTTP_ACCEPT_LANGUAGE="de")
    html = page.content.decode()
    assert re.search(
        r'class="muted correction-reason">.*?Korrigiert am .*?Punkte falsch gezählt</p>', html, re.S
    )
    assert '<span class="reason">Punkte falsch gezählt</span>' in html  # in its history too
    printed = logged_in.get(reverse("session_print", args=[session.pk]), HTTP_ACCEPT_LANGUAGE="de")
    assert "warum: Punkte falsch gezählt" in printed.content.decode()


def test_a_reason_too_long_or_not_text_is_refused_beside_it_and_nothing_changes(logged_in, evening):
    session, first, _ = evening
    url = reverse("hand_edit", args=[session.pk, first.pk])
    for reason in ("x" * 201, "zwei\nZeilen"):
        response = logged_in.post(url, correction(reason, first.version), HTTP_ACCEPT_LANGUAGE="en")
        html = response.content.decode()
        assert response.status_code == 200
        assert re.search(
            r"id=\"f-reason-error\"[^>]*>[^<]*(at most 200 characters|without control characters)", html
        ), re.findall(r"f-reason-error[^<]*<", html)
    assert not HandChange.objects.filter(hand=first, action=HandChange.Action.EDITED).exists()
    first.refresh_from_db()
    assert first.inputs["points"] == 56
