"""What the organiser prints (TOURNAMENTS.md §6, §4.5): table slips two to an A4
page with the table link's QR code and the blank grid, the seating plan, the
ranking and prize lists, a player card; and the prize list page."""

from __future__ import annotations

import io
from decimal import Decimal

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


def test_the_slips_print_two_tables_to_a_page_with_seats_dealer_code_and_grid(user):
    t = factory.draw(factory.tournament(user))
    factory.release(t)
    pages, text = text_of(printouts.table_slips(factory.fresh(t), base="https://cup.example").data)
    assert pages == 2  # three tables, two to an A4 page
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
