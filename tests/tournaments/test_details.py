"""Details of the organiser's and the players' pages: the group is not read as a
round, a correction's reason is shown beside the hand it changed, a table typed
in at the desk has no "0 hands" on the player card, the complaint window can be
0 minutes, and the prize page writes a real minus."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring import services as scoring
from scoring.models import Hand
from tests.tournaments import factory
from tests.tournaments.table_support import rufer
from tests.tournaments.test_corrections_after_signoff import signed_table
from tests.tournaments.test_organiser_printouts import text_of
from tournaments.models import Tournament
from tournaments.services import desk, printouts, tables, tournaments

pytestmark = pytest.mark.django_db


def browser_for(user, language: str = "de") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def label_of(page: str, field: str) -> str:
    found = re.search(rf'<label for="id_{field}"[^>]*>(.*?)</label>', page, re.S)
    assert found, field
    return re.sub(r"<[^>]+>", "", found[1]).strip()


def test_the_group_is_not_called_a_round_beside_the_rounds(user):
    page = browser_for(user).get(reverse("tournament_new", args=["koenigrufen"])).content.decode()
    assert label_of(page, "rounds") == "Runden"
    assert label_of(page, "group") == "Tarockrunde/Stammtisch (freiwillig)"
    english = browser_for(user, "en").get(reverse("tournament_new", args=["koenigrufen"])).content.decode()
    assert label_of(english, "group") == "Group (optional)"


def test_a_corrections_reason_is_shown_beside_the_hand_on_the_table_and_organiser_pages(user):
    day, phone, hand = signed_table(user)
    table = day.table(1)
    desk.table_open(tournament=day.tournament, user=user, table_id=table.pk, reason="Partner war Dieter")
    names = tables.players(table)
    scoring.hand_edit(hand=Hand.objects.get(pk=hand.pk), raw=rufer(names[0], names[3], names[0]), user=user)
    found = desk.corrections(day.table(1))
    assert [(c.hand_id, c.number, c.action, c.reason) for c in found] == [
        (hand.pk, hand.number, "edited", "Partner war Dieter")
    ]
    at_the_table = phone.get(reverse("tournament_table", args=[table.link_token])).content.decode()
    corrections = re.search(r'<section class="card" id="corrections".*?</section>', at_the_table, re.S)[0]
    assert re.search(r">(Hand|Spiel) 1</a>", corrections) and "Partner war Dieter" in corrections
    assert f'href="#hand-{hand.pk}"' in corrections
    organiser = browser_for(user).get(reverse("organiser_table", args=[day.tournament.pk, table.pk]))
    page = organiser.content.decode()
    assert "Partner war Dieter" in page
    assert reverse("scoreboard", args=[hand.session_id]) + f"#hand-{hand.pk}" in page


def test_a_hand_corrected_before_sign_off_has_no_reason_to_show(user):
    day, phone, _hand = signed_table(user)
    assert desk.corrections(day.table(1)) == []
    page = phone.get(reverse("tournament_table", args=[day.table(1).link_token])).content.decode()
    assert 'id="corrections"' not in page


def test_a_desk_table_is_not_zero_hands_on_the_player_card(user):
    t = factory.draw(factory.tournament(user))
    factory.release(t)
    factory.desk_round(t, 1, factory.EXAMPLE_SUMS[0])
    t = factory.fresh(t)
    erika = t.entrants.get(name="Erika")
    card = Client(HTTP_ACCEPT_LANGUAGE="de").get(
        reverse("tournament_player_card", args=[t.board_token, erika.number])
    )
    round_1 = re.search(r'<li class="card" id="card-round-1">.*?</li>', card.content.decode(), re.S)[0]
    hands = re.search(r"<dt>Gespielte Spiele</dt><dd>(.*?)</dd>", round_1)[1]
    assert hands == "am Zettel"
    with translation.override("de"):
        _, text = text_of(printouts.player_card(t, erika).data)
    assert "am Zettel" in text


def test_a_played_table_shows_its_hands_on_the_player_card(user):
    t = factory.draw(factory.tournament(user))
    factory.release(t)
    table = factory.tables(t, 1)[0]
    factory.play_hand(table)
    first = table.seats.order_by("position").first().entrant
    card = Client(HTTP_ACCEPT_LANGUAGE="de").get(
        reverse("tournament_player_card", args=[t.board_token, first.number])
    )
    round_1 = re.search(r'<li class="card" id="card-round-1">.*?</li>', card.content.decode(), re.S)[0]
    assert re.search(r"<dt>Gespielte Spiele</dt><dd>(.*?)</dd>", round_1)[1] == "1"
    # The organiser's printed card reads the running table's hands from its session too.
    with translation.override("de"):
        _, text = text_of(printouts.player_card(factory.fresh(t), first).data)
    others = ", ".join(s.entrant.name for s in table.seats.order_by("position")[1:])
    assert f"1 {table.number} 1 {others} 1 –" in text, text
    assert not re.search(r"^2 .* 0 –$", text, re.M)  # a round not yet played: no count


def test_zero_minutes_for_complaints_make_the_ranking_final_at_once(user):
    browser = browser_for(user, "en")
    data = {
        "name": "Blitzturnier", "played_on": "2025-11-21", "rounds": 3, "hands_at_four": 16,
        "money_rate": "0.10", "complaint_minutes": "0", "cup_factor": "1", "tie_break": "better_rounds",
        "kontra_cash": "per_hand", "late_entry": "before_round_1", "withdrawn": "ranked",
        "short_field": "filler", "draw_timing": "upfront", "avoid_repeats": "minimise",
        "table_seating": "slip", "last_round": "drawn", "signoff": "scorer_and_check",
        "options-tariff": "ooe_2023",
    }  # fmt: skip
    answer = browser.post(reverse("tournament_new", args=["koenigrufen"]), data)
    assert answer.status_code == 302, re.findall(r'class="error[^"]*"[^>]*>(.*?)<', answer.content.decode())
    t = Tournament.objects.get(name="Blitzturnier")
    assert t.settings["complaint_minutes"] == 0
    for name in factory.EXAMPLE_NAMES:
        from tournaments.services import entrants

        entrants.entrant_add(tournament=factory.fresh(t), user=user, name=name)
    factory.draw(t, seed=factory.EXAMPLE_SEED)
    for number, sums in enumerate(factory.EXAMPLE_SUMS, 1):
        factory.release(t)
        factory.desk_round(t, number, sums)
    tournaments.tournament_provisional(tournament=factory.fresh(t), user=user)
    assert tournaments.complaint_until(factory.fresh(t)) is None
    final = tournaments.tournament_final(tournament=factory.fresh(t), user=user)  # no window to wait for
    assert final.status == Tournament.Status.FINAL


def test_the_prize_page_writes_a_real_minus_as_every_other_page(user):
    t = factory.play_example(user)
    page = browser_for(user).get(reverse("tournament_prizes", args=[t.pk])).content.decode()
    table = re.search(r'<table class="plain[^"]*" id="ranking">.*?</table>', page, re.S)[0]
    assert "−106" in table and "−139" in table  # Anna's round 1, Josef's total
    assert not re.search(r">-\d", table)
    with translation.override("de"):
        _, text = text_of(printouts.ranking_pdf(t).data)
    assert "−139" in text and "-139" not in text
