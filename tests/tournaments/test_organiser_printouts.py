"""What the organiser prints (TOURNAMENTS.md §6, §4.5): table slips, an A4 for
each table, with the table link's QR code and a blank grid to write in by hand,
the seating plan, the ranking and prize lists, a player card; and the prize list
page."""

from __future__ import annotations

import io
from dataclasses import dataclass
from decimal import Decimal
from itertools import pairwise
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from plumbing.pdf import PdfFailed
from tests.tournaments import factory
from tournaments.models import TableRound, TournamentChange
from tournaments.services import desk, printouts, tournaments

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def german():
    """The printouts in the app's first language, whatever an earlier test left active."""
    with translation.override("de"):
        yield


def text_of(data: bytes) -> tuple[int, str]:
    reader = PdfReader(io.BytesIO(data))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


def test_the_slips_print_each_table_on_a_page_with_seats_dealer_code_and_grid(user):
    t = factory.draw(factory.tournament(user))
    factory.release(t)
    pages, text = text_of(printouts.table_slips(factory.fresh(t), base="https://cup.example").data)
    assert pages == 3  # three tables, an A4 each
    table = factory.tables(t, 1)[0]
    assert table.short_code in text and "Auslosung 482915" in text
    assert "1. Erika (5)" in text and "Erster Geber: Erika" in text
    assert "Summe = 0?" in text and "Schreiber" in text and "Geprüft von" in text
    assert printouts.table_link(table) == f"/t/{table.link_token}/"


def test_a_five_tables_slip_says_who_deals_and_sits_out_in_each_hand(user):
    t = factory.draw(factory.tournament(user, names=[f"S{n}" for n in range(1, 10)]))
    five = next(table for table in factory.tables(t, 1) if table.size == 5)
    slip = printouts._slip(five, "")
    names = [s.entrant.name for s in five.seats.order_by("position")]
    assert len(slip.rows) == 20
    assert [dealer for _, dealer in slip.rows[:6]] == [
        names[(five.first_dealer - 1 + h) % 5] for h in range(6)
    ]
    _, text = text_of(printouts.table_slips(t, table_id=five.pk).data)
    assert "Geber (setzt aus)" in text


MM = 72 / 25.4  # PDF points in a millimetre


@dataclass(frozen=True)
class Run:
    """A text drawn on the page, where it starts (PDF points from the bottom left)."""

    text: str
    x: float
    y: float


def runs_of(data: bytes, page: int = 0) -> list[Run]:
    found: list[Run] = []

    def visit(text: str, cm: Any, tm: Any, font: Any, size: Any) -> None:
        if text.strip():
            x = float(tm[4]) * float(cm[0]) + float(cm[4])
            y = float(tm[5]) * float(cm[3]) + float(cm[5])
            found.append(Run(text.strip(), x, y))

    PdfReader(io.BytesIO(data)).pages[page].extract_text(visitor_text=visit)
    return found


@pytest.mark.parametrize("size", [4, 5])
def test_a_slips_rows_are_high_enough_to_write_in_and_every_column_says_whose_it_is(user, size):
    """Each hand's row is at least 7 mm high, measured on the drawn page between the
    hand numbers; each player's name heads two columns, labelled "Punkte" and
    "Kontra", so every Kontra column says whose it is; the whole grid of a table
    of four (16 hands) and of five (20) is on its one A4."""
    t = factory.draw(factory.tournament(user, names=[f"Spielerin Nummer {n}" for n in range(1, 10)]))
    table = next(table for table in factory.tables(t, 1) if table.size == size)
    data = printouts.table_slips(t, table_id=table.pk).data
    pages, _ = text_of(data)
    assert pages == 1
    runs = runs_of(data)
    column = min(run.x for run in runs if run.text == "1")  # the hand numbers' column, leftmost
    assert table.hands_target == (16 if size == 4 else 20)
    hands = range(1, table.hands_target + 1)
    rows = [next(run for run in runs if run.text == str(n) and abs(run.x - column) < 1) for n in hands]
    heights = [(above.y - below.y) / MM for above, below in pairwise(rows)]
    assert min(heights) >= 7, heights
    # The heads: the hand, its dealer, then each player's name over his points and his Kontra.
    labels = [run for run in runs if run.y > rows[0].y]
    dealers = min(run.x for run in runs if abs(run.y - rows[0].y) < 1 and run.x > column + 1)
    dealer = "Geber (setzt aus)" if size == 5 else "Geber"
    assert any(run.text == "Spiel" and abs(run.x - column) < 1 for run in labels)
    assert any(run.text == dealer and abs(run.x - dealers) < 1 for run in labels)
    points = sorted((run for run in labels if run.text == "Punkte"), key=lambda run: run.x)
    kontra = sorted((run for run in labels if run.text == "Kontra"), key=lambda run: run.x)
    seats = list(table.seats.select_related("entrant").order_by("position"))
    names = [
        next(
            run
            for run in labels
            if run.text.startswith(f"{seat.position}. ") and 0 < run.y - points[0].y < 10 * MM
        )
        for seat in seats
    ]
    assert len(points) == len(kontra) == len(names) == size
    edges = [name.x for name in names] + [PdfReader(io.BytesIO(data)).pages[0].mediabox.width]
    for n, name in enumerate(names):
        assert f"{seats[n].entrant.name}".startswith(name.text.split(". ", 1)[1].split()[0])
        assert abs(points[n].x - name.x) < 1  # his points under his name …
        assert name.x < kontra[n].x < edges[n + 1]  # … and his Kontra too, before the next player's
        assert name.y > kontra[n].y


def test_a_grid_longer_than_a_page_goes_on_over_the_next_with_its_head(user):
    t = factory.draw(factory.tournament(user, settings={"hands_at_four": 40}))
    table = factory.tables(t, 1)[0]
    data = printouts.table_slips(t, table_id=table.pk).data
    pages, _ = text_of(data)
    assert pages == 2
    second = [run.text for run in runs_of(data, 1)]
    assert "Punkte" in second and "Kontra" in second and "40" in second and "Summe" in second


def test_the_seating_plan_lists_everyone_a_to_z_with_a_table_per_round(user):
    t = factory.draw(factory.tournament(user))
    lines, per_round = printouts.seating_plan(t)
    assert [line.entrant.name for line in lines] == sorted(factory.EXAMPLE_NAMES)
    erika = next(line for line in lines if line.entrant.name == "Erika")
    assert erika.tables == ("1", "1", "1")
    first_round, tables = per_round[0]
    assert first_round.number == 1 and [s.entrant.name for s in tables[0][1]] == [
        "Erika",
        "Hans",
        "Bernd",
        "Anna",
    ]
    _, text = text_of(printouts.plan_pdf(t).data)
    assert "Sitzplan" in text and "Runde 3" in text


def test_the_prize_list_gives_the_prizes_by_place_skips_fillers_and_sums_the_fees(user):
    settings = {"prizes": [{"from": 1, "to": 1, "amount": "120"}, {"from": 2, "to": 3, "text": "Sachpreis"}],
                "entry_fee": "12"}  # fmt: skip
    t = factory.play_example(user, settings=settings)
    for entrant in t.entrants.all()[:5]:
        entrant.fee_paid = True
        entrant.save()
    with translation.override("de"):  # money as the reader writes it, as everywhere else: 120,00 €
        listed = printouts.prize_list(t)
    assert [(r.place, r.entrant.name, r.prize) for r in listed.rows[:4]] == [
        (1, "Erika", "120,00\u00a0€"),
        (2, "Franz", "Sachpreis"),
        (3, "Karin", "Sachpreis"),
        (4, "Christa", ""),
    ]
    assert listed.fees == Decimal("60.00") and listed.fees_paid == 5
    _, text = text_of(printouts.prizes_pdf(t).data)
    assert "Erika" in text and "Christa" not in text


def test_the_ranking_list_pdf_says_provisional_then_final(user):
    t = factory.play_example(user)
    _, text = text_of(printouts.ranking_pdf(t).data)
    assert "vorläufig" in text and "Erika" in text and "111" in text
    factory.make_final(t)
    _, text = text_of(printouts.ranking_pdf(factory.fresh(t)).data)
    assert "Endstand" in text


def test_a_player_card_shows_each_round_with_table_opponents_and_result(user):
    t = factory.play_example(user)
    erika = t.entrants.get(name="Erika")
    _, text = text_of(printouts.player_card(t, erika).data)
    assert "Hans, Bernd, Anna" in text and "92" in text and "9,20" in text
    assert "Summe 111, Platz 1" in text


def test_the_printouts_download_from_the_control_page(logged_in, user):
    t = factory.play_example(user)
    for kind in printouts.KINDS:
        answer = logged_in.get(reverse("tournament_print", args=[t.pk, kind]))
        assert answer.status_code == 200 and answer.content.startswith(b"%PDF")
        assert answer["Content-Disposition"].startswith("attachment")
    assert logged_in.get(reverse("tournament_print", args=[t.pk, "nothing"])).status_code == 404
    assert logged_in.get(reverse("tournament_card", args=[t.pk, 1])).content.startswith(b"%PDF")


def test_ending_a_table_and_making_final_are_done_once_however_often_sent(user):
    t = factory.draw(factory.tournament(user))
    factory.release(t)
    table = factory.tables(t, 1)[0]
    for _ in range(3):
        desk.table_end(
            tournament=factory.fresh(t), user=user, table_id=table.pk, reason="Zeit", client_token="end-1"
        )
    assert TournamentChange.objects.filter(tournament=t, action="end").count() == 1
    done = factory.complaints_over(factory.play_example(user))
    for _ in range(3):
        tournaments.tournament_final(tournament=factory.fresh(done), user=user, client_token="final-1")
    assert TournamentChange.objects.filter(tournament=done, action="final").count() == 1
    assert TableRound.objects.get(pk=table.pk).status == "ended"


def test_a_final_tournament_is_reopened_with_a_reason_before_a_table_is_opened(user):
    t = factory.play_example(user)
    factory.make_final(t)
    table = factory.tables(t, 3)[0]
    with pytest.raises(Exception) as refused:
        desk.table_open(tournament=factory.fresh(t), user=user, table_id=table.pk, reason="Fehler")
    assert "reopen" in str(refused.value)
    tournaments.tournament_reopen(tournament=factory.fresh(t), user=user, reason="Reklamation Tisch 1")
    desk.table_open(tournament=factory.fresh(t), user=user, table_id=table.pk, reason="Fehler")
    assert factory.fresh(t).status == "running"
    assert TournamentChange.objects.get(tournament=t, action="reopen").reason == "Reklamation Tisch 1"


def test_the_prize_page_shows_the_ranking_with_its_notes(logged_in, user):
    t = factory.play_example(user)
    html = logged_in.get(reverse("tournament_prizes", args=[t.pk])).content.decode()
    assert "Erika" in html and "better rounds" in html and "provisional" in html


def _not_drawn(*args, **kwargs):
    raise PdfFailed("the PDF took longer than 40 s")


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("tournament_print", lambda t, cup: [t.pk, "slips"]),
        ("tournament_print", lambda t, cup: [t.pk, "plan"]),
        ("tournament_print", lambda t, cup: [t.pk, "ranking"]),
        ("tournament_print", lambda t, cup: [t.pk, "prizes"]),
        ("tournament_card", lambda t, cup: [t.pk, 1]),
        ("cup_pdf", lambda t, cup: [cup.pk]),
    ],
    ids=["slips", "plan", "ranking", "prizes", "card", "season"],
)
def test_a_printout_not_drawn_in_time_says_so_with_503_and_retry_after(
    user, logged_in, monkeypatch, name, args
):
    """As a session's PDF: "could not be drawn just now", never a server error."""
    cup = factory.cup(user)
    t = factory.draw(factory.tournament(user, cup=cup))
    monkeypatch.setattr(printouts, "html_to_pdf", _not_drawn)
    answer = logged_in.get(reverse(name, args=args(t, cup)), HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 503 and answer["Retry-After"] == "5"
    page = answer.content.decode()
    assert "The PDF could not be drawn just now" in page and "attachment" not in answer.get(
        "Content-Disposition", ""
    )
