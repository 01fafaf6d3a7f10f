"""Königrufen's Schrift and money on the web (docs/rules.md §4.10): with
``kontra_in_score`` off each hand stores its money beside its Schrift, the sheet
writes the Schrift and shows the money where it differs, the settlement pays the
money; and doubled Radl (§4.15) scores each hand in its place. Every figure is
checked against the engine's ``score_session`` of the same file."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from scoring import services
from scoring.engine import read_session, score_session
from scoring.engine.types import points_to_json
from scoring.exports import session_json
from scoring.models import Hand, HandChange
from scoring.presentation import money as money_text
from scoring.presentation import signed
from scoring.sheet import build_sheet
from tests.scoring.test_sheets import pdf_text

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
RATE = Decimal("0.10")


def fixture_text(name: str, **changes: Any) -> str:
    document = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    document.update(changes)
    return json.dumps(document, ensure_ascii=False)


def as_json(values: Any) -> dict[str, Any]:
    return {name: points_to_json(Fraction(value)) for name, value in values.items()}


@pytest.fixture
def cup(user):
    """The OÖ settlements imported with a money rate: Kontras paid beside the Schrift."""
    text = fixture_text("koenigrufen-ooe-settlements.json", money_rate="0.10")
    session = services.session_import(owner=user, text=text)
    return session, score_session(read_session(text), RATE)


def test_each_imported_hand_stores_the_engines_money_beside_its_schrift(cup):
    session, result = cup
    hands = list(Hand.objects.filter(session=session).order_by("number"))
    assert len(hands) == len(result.hands)
    for hand, score in zip(hands, result.hands, strict=True):
        assert hand.deltas == as_json(score.deltas)
        assert score.money is not None and hand.money == as_json(score.money)
        assert hand.stored().money == score.money  # read back as the engine sums it
    assert any(hand.money != hand.deltas for hand in hands)  # the fixture has Kontras


def test_the_sheet_writes_the_schrift_and_pays_the_money(cup):
    session, result = cup
    sheet = build_sheet(session)
    assert dict(zip(sheet.players, sheet.totals, strict=True)) == result.summary.totals
    assert sheet.money_totals == tuple(result.summary.money_totals[name] for name in sheet.players)
    assert sheet.summary.totals != sheet.summary.money_totals
    assert sheet.settlement.net == result.settlement.net == result.summary.money_totals
    assert sheet.settlement.money == result.settlement.money
    assert sheet.settlement.money_transfers == result.settlement.money_transfers
    for row, score in zip(sheet.rows, result.hands, strict=True):
        assert row.deltas == tuple(score.deltas[name] for name in sheet.players)
        paid = tuple(score.money[name] for name in sheet.players) if score.money else row.deltas
        assert row.money == (None if paid == row.deltas else paid)
    assert [row.key for row in sheet.head_rows] == ["totals", "money"]
    assert sheet.head_rows[1].values == sheet.money_totals


def test_the_board_shows_each_hands_money_and_the_money_totals(logged_in, cup):
    session, result = cup
    page = logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode()
    differ = sum(1 for score in result.hands if score.money is not None and score.money != score.deltas)
    assert 0 < differ < len(result.hands)
    assert page.count('<tr class="money"') == differ + 1  # each such hand, and the money's totals
    head = page[page.index('<tr class="money" data-head-row="money">') : page.index("</thead>")]
    for name in result.session.players:
        assert f'data-player="{name}">{signed(result.summary.money_totals[name])}<' in head
    assert "each Kontra is paid in money" in page


def test_the_settlement_page_pays_the_money(logged_in, cup):
    session, result = cup
    page = logged_in.get(reverse("settlement", args=[session.pk])).content.decode()
    for transfer in result.settlement.money_transfers:
        assert money_text(transfer.amount) in page
    assert money_text(result.settlement.money["Anna"]).lstrip("-−") in page
    assert 'id="money-help"' in page  # the points paid are not the sheet's totals: said so


def test_in_german_the_money_row_is_geld(client_for, user, cup):
    session, _ = cup
    client = client_for(user)
    page = client.get(reverse("scoreboard", args=[session.pk]), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert ">Geld<" in page and "jedes Kontra wird in Geld bezahlt" in page


def test_the_csv_has_money_columns_whose_sums_are_the_money_totals(logged_in, cup):
    session, result = cup
    response = logged_in.get(reverse("session_export", args=[session.pk, "csv"]))
    text = response.content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    header, hands, closing = rows[0], rows[1:-2], rows[-2:]
    players = list(result.session.players)
    money_at = [header.index(f"{name}: money") for name in players]
    total_at = [header.index(f"{name}: total") for name in players]
    assert len(hands) == len(result.hands)
    for name, at in zip(players, money_at, strict=True):
        assert sum(Fraction(row[at]) for row in hands) == result.summary.money_totals[name]
    assert [Fraction(closing[0][at]) for at in total_at] == [result.summary.totals[n] for n in players]
    assert [Fraction(closing[1][at]) for at in total_at] == [result.summary.money_totals[n] for n in players]
    assert closing[1][0] == "Money"


def test_the_pdf_prints_the_schrift_the_money_and_who_pays_whom(logged_in, cup):
    session, result = cup
    response = logged_in.get(reverse("session_export", args=[session.pk, "pdf"]))
    text = pdf_text(response.content)
    lines = text.splitlines()
    total = next(line for line in lines if line.startswith("Total"))
    paid = next(line for line in lines if line.startswith("Money "))
    players = result.session.players
    assert total.split()[1:] == [signed(result.summary.totals[name]) for name in players]
    assert paid.split()[1:] == [signed(result.summary.money_totals[name]) for name in players]
    assert "last line: money, Kontras included" in text
    for transfer in result.settlement.money_transfers:
        assert money_text(transfer.amount) in text


def test_with_kontra_in_score_there_is_one_number(user, client_for):
    text = fixture_text("koenigrufen-ooe-settlements.json", options={"tariff": "ooe_2023"})
    session = services.session_import(owner=user, text=text)
    result = score_session(read_session(text))
    assert not Hand.objects.filter(session=session, money__isnull=False).exists()
    sheet = build_sheet(session)
    assert sheet.money_totals is None and [row.key for row in sheet.head_rows] == ["totals"]
    assert all(row.money is None for row in sheet.rows)
    assert (
        sheet.settlement.net == result.summary.totals == dict(zip(sheet.players, sheet.totals, strict=True))
    )
    client = client_for(user)
    assert '<tr class="money"' not in client.get(reverse("scoreboard", args=[session.pk])).content.decode()
    assert 'id="money-help"' not in client.get(reverse("settlement", args=[session.pk])).content.decode()


def test_a_recorded_and_corrected_hand_stores_its_money(make_session):
    session = make_session(
        variant="koenigrufen",
        players=["Anna", "Bert", "Carl", "Dora"],
        options={"tariff": "ooe_2023", "kontra_in_score": False},
    )
    kontrad = {
        "dealer": "Anna",
        "declarer": "Anna",
        "game": "besserrufer",
        "bird": "pagat",
        "partner": "Bert",
        "points": "47/0",
        "premiums": [{"type": "pagat", "side": "declarer", "announced": True, "kontra": 1}],
    }
    hand = services.hand_record(session=session, raw=kontrad)
    assert hand.deltas == {"Anna": 3, "Bert": 3, "Carl": -3, "Dora": -3}  # docs/rules.md §4.10
    assert hand.money == {"Anna": 5, "Bert": 5, "Carl": -5, "Dora": -5}
    plain = {**kontrad, "premiums": [{"type": "pagat", "side": "declarer", "announced": True}]}
    hand = services.hand_edit(hand=hand, raw=plain, expected_version=1)
    hand.refresh_from_db()
    assert hand.money == hand.deltas  # still stored: the money of a cup's table, here the Schrift
    change = HandChange.objects.filter(hand=hand, action=HandChange.Action.EDITED).get()
    assert change.before["money"] == {"Anna": 5, "Bert": 5, "Carl": -5, "Dora": -5}


# -- doubled Radl --------------------------------------------------------------------------

RADL = {"tariff": "ooe_2023", "doubled_radl": True}
TRISCHAKEN = {
    "dealer": "Dora",
    "declarer": "Anna",
    "game": "trischaken",
    "points": {"Anna": "20/0", "Bert": "30/1", "Carl": "19/2", "Dora": 0},
}


def rufer(dealer: str) -> dict[str, Any]:
    return {"dealer": dealer, "declarer": "Bert", "game": "rufer", "partner": "Carl", "points": "41/2"}


def radl_session(make_session):
    session = make_session(variant="koenigrufen", players=["Anna", "Bert", "Carl", "Dora"], options=RADL)
    hands = [
        services.hand_record(session=session, raw=raw)
        for raw in (rufer("Carl"), TRISCHAKEN, rufer("Anna"), rufer("Bert"))
    ]
    return session, hands


def engine_result(session) -> Any:
    """The engine's ``score_session`` of the evening's live hands, as its session file has them."""
    return score_session(read_session(session_json(session)))


def test_doubled_radl_doubles_the_hands_after_a_trischaken_when_recorded(make_session):
    session, hands = radl_session(make_session)
    single = hands[0].delta_points()
    for hand in hands[2:]:
        assert hand.delta_points() == {name: 2 * value for name, value in single.items()}
        assert hand.breakdown[-1]["text"].startswith("Doubled Radl")
    result = engine_result(session)
    stored = [hand.delta_points() for hand in Hand.objects.filter(session=session).order_by("number")]
    assert stored == [dict(score.deltas) for score in result.hands]


def test_an_imported_evening_is_scored_hand_by_hand_as_score_session_does(user):
    document = json.loads((FIXTURES / "koenigrufen-ooe-trischaken.json").read_text(encoding="utf-8"))
    document["options"] = {**document["options"], "doubled_radl": True}
    text = json.dumps(document)
    session = services.session_import(owner=user, text=text)
    result = score_session(read_session(text))
    stored = [hand.delta_points() for hand in Hand.objects.filter(session=session).order_by("number")]
    assert stored == [dict(score.deltas) for score in result.hands]
    assert any(score.deltas != stored[0] for score in result.hands[1:])
    assert services.session_rescore(session=session, dry_run=True).changed == []  # rescore agrees


def test_correcting_the_trischaken_rescores_the_hands_of_its_radl_with_history(make_session, user):
    session, hands = radl_session(make_session)
    services.hand_edit(hand=hands[1], raw=rufer("Dora"), user=user, expected_version=1)
    later = list(Hand.objects.filter(session=session, number__gt=2).order_by("number"))
    assert [hand.delta_points() for hand in later] == [hands[0].delta_points()] * 2  # no longer doubled
    for hand in later:
        change = hand.changes.get(action=HandChange.Action.RESCORED)
        assert change.before["deltas"] != change.after["deltas"] and hand.version == 2
    result = engine_result(session)
    assert [dict(s.deltas) for s in result.hands] == [
        h.delta_points() for h in Hand.objects.filter(session=session).order_by("number")
    ]


def test_deleting_and_restoring_the_trischaken_moves_the_radl_with_it(make_session, user):
    session, hands = radl_session(make_session)
    services.hand_delete(hand=hands[1], user=user)
    later = list(Hand.objects.filter(session=session, number__gt=2).order_by("number"))
    assert [hand.delta_points() for hand in later] == [hands[0].delta_points()] * 2
    services.hand_restore(hand=hands[1], user=user)
    again = list(Hand.objects.filter(session=session, number__gt=2).order_by("number"))
    assert [hand.delta_points() for hand in again] == [h.delta_points() for h in hands[2:]]  # doubled again
    assert [hand.changes.filter(action=HandChange.Action.RESCORED).count() for hand in again] == [2, 2]


def test_without_doubled_radl_a_correction_touches_no_other_hand(make_session, user):
    session = make_session(variant="koenigrufen", players=["Anna", "Bert", "Carl", "Dora"])
    first = services.hand_record(session=session, raw=TRISCHAKEN)
    second = services.hand_record(session=session, raw=rufer("Anna"))
    services.hand_edit(hand=first, raw=rufer("Dora"), user=user, expected_version=1)
    second.refresh_from_db()
    assert second.version == 1 and not second.changes.filter(action=HandChange.Action.RESCORED).exists()


def test_the_live_preview_of_a_hand_in_a_radl_shows_it_doubled(logged_in, make_session):
    session, hands = radl_session(make_session)
    response = logged_in.post(
        reverse("hand_preview", args=[session.pk]),
        {"dealer": "Carl", "declarer": "Bert", "game": "rufer", "partner": "Carl", "points": "41/2"},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert "Doubled Radl" in html  # the fifth hand, the Trischaken second: inside its Radl
    edited = logged_in.post(
        reverse("hand_edit_preview", args=[session.pk, hands[0].pk]),
        {"dealer": "Carl", "declarer": "Bert", "game": "rufer", "partner": "Carl", "points": "41/2"},
        HTTP_HX_REQUEST="true",
    )
    assert "Doubled Radl" not in edited.content.decode()  # the first hand: before the Trischaken


def test_turning_kontra_in_score_off_stores_each_hands_money_and_on_again_drops_it(make_session, user):
    session = make_session(variant="koenigrufen", players=["Anna", "Bert", "Carl", "Dora"])
    kontrad = {
        "dealer": "Anna",
        "declarer": "Anna",
        "game": "besserrufer",
        "bird": "pagat",
        "partner": "Bert",
        "points": "47/0",
        "premiums": [{"type": "pagat", "side": "declarer", "announced": True, "kontra": 1}],
    }
    hand = services.hand_record(session=session, raw=kontrad)
    assert hand.deltas == {"Anna": 5, "Bert": 5, "Carl": -5, "Dora": -5} and hand.money is None
    services.session_change_rules(session=session, user=user, options={"kontra_in_score": False})
    hand.refresh_from_db()
    assert hand.deltas == {"Anna": 3, "Bert": 3, "Carl": -3, "Dora": -3}
    assert hand.money == {"Anna": 5, "Bert": 5, "Carl": -5, "Dora": -5}
    assert build_sheet(session).settlement.net == {"Anna": 5, "Bert": 5, "Carl": -5, "Dora": -5}
    services.session_change_rules(session=session, user=user, options={"kontra_in_score": True})
    hand.refresh_from_db()
    assert hand.deltas == {"Anna": 5, "Bert": 5, "Carl": -5, "Dora": -5} and hand.money is None


def test_kontras_that_cancel_out_still_show_their_money_and_its_totals(make_session):
    session = make_session(
        variant="koenigrufen",
        players=["Anna", "Bert", "Carl", "Dora"],
        options={"tariff": "ooe_2023", "kontra_in_score": False},
    )
    kontrad = {
        "dealer": "Anna",
        "declarer": "Anna",
        "game": "besserrufer",
        "bird": "pagat",
        "partner": "Bert",
        "points": "47/0",
        "premiums": [{"type": "pagat", "side": "declarer", "announced": True, "kontra": 1}],
    }
    back = {**kontrad, "dealer": "Bert", "declarer": "Carl", "partner": "Dora"}
    services.hand_record(session=session, raw=kontrad)
    services.hand_record(session=session, raw=back)
    sheet = build_sheet(session)
    assert sheet.totals == [0, 0, 0, 0] and all(row.money is not None for row in sheet.rows)
    assert sheet.money_totals == (0, 0, 0, 0)
    assert [row.key for row in sheet.head_rows] == ["totals", "money"]
