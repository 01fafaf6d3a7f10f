"""Königrufen where the other games are: the new evening explains the tariff and every
option, five at the table (the dealer sits out and writes 0, the next dealer proposed
in playing order), and each hand's breakdown read in German, English and French."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from scoring import services
from scoring.engine import read_session, score_session
from scoring.engine.koenigrufen import OPTION_FIELDS
from scoring.models import Session
from scoring.presentation import render_line
from tests.engine.support import FIXTURES
from tests.scoring.test_i18n import client_in
from tests.scoring.test_views import sheet_totals

FIVE = ("Anna", "Bert", "Carl", "Dora", "Emil")
DEFAULT_WORD = {"de": "Standard", "en": "the default", "fr": "par défaut"}


def house_rules(html: str) -> str:
    start = html.index('id="house-rules"')
    return html[start : html.index('id="id_money_rate"', start)]


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


# -- the new evening ------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["de", "en", "fr"])
def test_the_new_evening_explains_the_tariff_and_every_option_with_its_default(user, language):
    html = (
        client_in(user, language).get(reverse("session_new_variant", args=["koenigrufen"])).content.decode()
    )
    rules = house_rules(html)
    with translation.override(language):
        for field in OPTION_FIELDS:
            assert escape(translation.gettext(field.label)) in rules, field.name
            assert field.help is not None, f"{field.name} is not explained"
            explained = translation.gettext(field.help)
            assert explained != field.help or language == "en", f"{field.name}: help not translated"
            assert f'<small class="help">{escape(explained)}</small>' in rules
            # Each explanation names the default in the reader's words.
            assert DEFAULT_WORD[language] in explained, field.name
    # The defaults as the form starts: OÖ 4/2023, Kontra in the score, 35/2, the tariff's
    # Trischaken, no doubled Radl, a failed silent bird counts nothing.
    assert re.search(r'name="options.tariff" value="ooe_2023" checked', rules)
    assert re.search(r'name="options.kontra_in_score" value="true" checked', rules)
    assert re.search(r'name="options.silent_failure_counts" value="true">', rules)
    assert re.search(r'name="options.win_threshold" value="35/2" checked', rules)
    assert re.search(r'<option value="" selected>', rules)
    assert re.search(r'name="options.doubled_radl" value="true">', rules)
    # The Austrian game words stay Austrian in every language.
    words = text(rules)
    for word in ("Trischaken", "Bürgermeister", "Jungfrau", "Subkontra", "Valat", "Blatt", "Radl"):
        assert word in words, word


TRISCHAKEN_DEFAULT = {"de": "wie der Tarif", "en": "as the tariff says", "fr": "selon le barème"}


@pytest.mark.parametrize("tariff", ["wtc_2020", "tirol_2020", "sauwald_2019"])
def test_a_new_evening_under_another_tariff_pays_trischaken_its_cups_way(logged_in, tariff):
    data = {"name": "Cup", "options.tariff": tariff, "options.kontra_in_score": "true"}
    data |= {"options.win_threshold": "35/2", "options.trischaken": ""}
    data |= {f"seat_{n}": name for n, name in enumerate(FIVE[:4], start=1)}
    assert logged_in.post(reverse("session_new_variant", args=["koenigrufen"]), data).status_code == 302
    session = Session.objects.get(name="Cup")
    assert session.options["tariff"] == tariff
    assert session.options["trischaken"] == tariff.split("_")[0]


def test_the_trischaken_option_starts_at_as_the_tariff_says(user):
    for language, words in TRISCHAKEN_DEFAULT.items():
        html = (
            client_in(user, language)
            .get(reverse("session_new_variant", args=["koenigrufen"]))
            .content.decode()
        )
        assert f'<option value="" selected>{words}</option>' in house_rules(html)


# -- five at the table ----------------------------------------------------------------------


def five_at_the_table(make_session: Any) -> Session:
    session = make_session(variant="koenigrufen", players=FIVE, first_dealer="Emil")
    hands: list[dict[str, Any]] = [
        {"dealer": "Emil", "declarer": "Anna", "game": "rufer", "partner": "Bert", "points": "40"},
        {"declarer": "Bert", "game": "dreier", "points": "30"},
        {
            "declarer": "Anna",
            "game": "trischaken",
            "points": {"Anna": "20", "Carl": "30/1", "Dora": "19/2", "Emil": "0"},
        },
    ]
    for hand in hands:
        services.hand_record(session=session, raw=hand)
    return session


def test_at_five_the_dealer_sits_out_shows_a_dash_and_the_next_dealer_is_proposed_in_playing_order(
    user, make_session
):
    session = five_at_the_table(make_session)
    client = client_in(user, "de")
    board = client.get(reverse("scoreboard", args=[session.pk])).content.decode()
    rows = re.findall(r'<tbody id="hand-\d+" class="hand">(.*?)</tbody>', board, re.S)
    assert len(rows) == 3
    # Emil, Anna, Bert dealt in turn (the hands without a dealer follow the playing order).
    for row, dealer, seat in zip(rows, ("Emil", "Anna", "Bert"), (4, 0, 1), strict=True):
        assert f"{dealer} gibt und setzt aus" in row
        deltas = re.findall(r'<span class="delta[^"]*">(.*?)</span><span class="total">', row, re.S)
        assert len(deltas) == 5 and "—" in deltas[seat] and "setzt aus" in deltas[seat]
        assert all(re.fullmatch(r"[+−]?\d+", d) for i, d in enumerate(deltas) if i != seat)
    # Rufer: Anna and Bert +1, Carl and Dora −1 (Emil 0). Dreier lost: Bert −12, Carl, Dora,
    # Emil +4 (Anna 0). Trischaken (OÖ): Carl has the most, below 35/2, and pays 3 to Emil,
    # the Jungfrau (Bert 0).
    assert sheet_totals(board) == {"Anna": 1, "Bert": -11, "Carl": 0, "Dora": 3, "Emil": 7}
    assert "Als Nächstes gibt: Carl" in text(board)
    form = client.get(reverse("hand_new", args=[session.pk])).content.decode()
    dealers = re.search(r'<select id="f-dealer".*?</select>', form, re.S)
    assert dealers and '<option value="Carl" selected' in dealers.group(0)
    assert "Carl setzt in diesem Spiel aus." in form
    declarers = re.search(
        r'<fieldset class="field seg seat-source" id="f-declarer">.*?</fieldset>', form, re.S
    )
    assert declarers and re.findall(r'name="declarer" value="(\w+)"', declarers.group(0)) == [
        "Anna",
        "Bert",
        "Dora",
        "Emil",
    ]
    printed = text(client.get(reverse("session_print", args=[session.pk])).content.decode())
    assert "1 · Emil: Anna · Rufer · mit Bert · 40/0 +1 +1 −1 −1 —" in printed
    assert "2 · Anna: Bert · Dreier · 30/0 — −12 +4 +4 +4" in printed
    hand = session.hands.get(number=2)
    detail = text(client.get(reverse("hand_detail", args=[session.pk, hand.pk])).content.decode())
    assert "Anna gibt und setzt aus: 0" in detail


# -- the breakdown, read -------------------------------------------------------------------


BREAKDOWN = {
    # Hand 10 of the worked settlements: a Dreier with a silent Valat and a Pagat beside it.
    "de": [
        "Dreier, stiller Valat der Spielerpartei (4 × 4): 16 für die Spielerpartei",
        "Pagat still der Spielerpartei: zählt neben dem Valat nicht",
        "1 gegen 3: Anna bekommt oder zahlt 3 × die Posten, jeder Gegenspieler einmal",
        "Schrift: Anna +54 (3 × 18), Bert −18, Carl −18, Dora −18",
    ],
    "en": [
        "Dreier with a silent Valat of the declarer's side (4 × 4): 16 for the declarer's side",
        "silent Pagat of the declarer's side: does not count beside the Valat",
        "Schrift: Anna +54 (3 × 18), Bert −18, Carl −18, Dora −18",
    ],
    "fr": [
        "Dreier avec Valat tacite de l'équipe du déclarant (4 × 4) : 16 pour l'équipe du déclarant",
        "Pagat tacite de l'équipe du déclarant : ne compte pas à côté du Valat",
        "Schrift : Anna +54 (3 × 18), Bert −18, Carl −18, Dora −18",
    ],
}
RENONCE = {
    "de": "Anna bekommt 12 (Dreier)",
    "en": "Anna is paid Dreier: 12",
    "fr": "Anna reçoit 12 (Dreier)",
}


@pytest.mark.parametrize("language", ["de", "en", "fr"])
def test_the_breakdown_reads_in_each_language(user, language):
    client = client_in(user, language)

    def imported(name: str) -> Session:
        return services.session_import(owner=user, text=(FIXTURES / name).read_text(encoding="utf-8"))

    def page(session: Session, number: int) -> str:
        hand = session.hands.get(number=number)
        html = client.get(reverse("hand_detail", args=[session.pk, hand.pk])).content.decode()
        return text(html).replace("&#x27;", "'")

    valat = page(imported("koenigrufen-ooe-settlements.json"), 10)
    for line in BREAKDOWN[language]:
        assert line in valat
    assert RENONCE[language] in page(imported("koenigrufen-ooe-renonce.json"), 2)
    # A Trischaken writes its deltas once.
    trischaken = page(imported("koenigrufen-ooe-trischaken.json"), 1)
    assert trischaken.count("Anna 0, Bert −3, Carl 0, Dora +3") == 1


def test_the_tariffs_own_trischaken_scheme_is_its_default_on_the_evenings_rules(user, make_session):
    wtc = make_session(variant="koenigrufen", options={"tariff": "wtc_2020"})
    tirol_paid_as_wtc = make_session(
        variant="koenigrufen", options={"tariff": "tirol_2020", "trischaken": "wtc"}
    )
    client = client_in(user, "de")
    rules = text(client.get(reverse("scoreboard", args=[wtc.pk])).content.decode())
    assert "Trischaken wird bezahlt Wiener Tarockcup (Standard)" in rules
    rules = text(client.get(reverse("scoreboard", args=[tirol_paid_as_wtc.pk])).content.decode())
    assert "Trischaken wird bezahlt Wiener Tarockcup Wer" in rules


def test_changing_the_rules_brings_the_new_tariffs_trischaken_and_keeps_the_values_of_the_file(
    logged_in, make_session
):
    session = make_session(variant="koenigrufen", options={"game_values": {"dreier": 5}})
    services.hand_record(
        session=session, raw={"dealer": "Dora", "declarer": "Anna", "game": "dreier", "points": "40"}
    )
    url = reverse("session_rules", args=[session.pk])
    assert '<option value="" selected>' in house_rules_form(logged_in.get(url).content.decode())
    data = {"options.tariff": "wtc_2020", "options.kontra_in_score": "true"}
    data |= {"options.win_threshold": "35/2", "options.trischaken": ""}
    assert logged_in.post(url, data).status_code == 302
    session.refresh_from_db()
    assert session.options["tariff"] == "wtc_2020" and session.options["trischaken"] == "wtc"
    assert session.options["game_values"] == {"dreier": 5}
    # The Dreier is still worth the session file's 5: Anna +15, each opponent −5.
    assert session.hands.get().deltas == {"Anna": 15, "Bert": -5, "Carl": -5, "Dora": -5}


def house_rules_form(html: str) -> str:
    start = html.index('id="house-rules"')
    return html[start : html.index("</fieldset>\n", html.index('id="f-options-trischaken"', start))]


def test_a_fixed_valat_writes_its_value_once_and_its_doubling_in_a_solo_game():
    hands = [
        {
            "dealer": "Dora",
            "declarer": "Anna",
            "game": "dreier",
            "points": "70",
            "valat": {"side": "declarer", "announced": True},
        },
        {"declarer": "Anna", "game": "solodreier", "points": "70", "valat": {"side": "declarer"}},
    ]
    document = {
        "variant": "koenigrufen",
        "players": list(FIVE[:4]),
        "options": {"tariff": "wtc_2020"},
        "hands": hands,
    }
    result = score_session(read_session(document))
    with translation.override("de"):
        dreier, solo = ([render_line(line) for line in score.breakdown] for score in result.hands)
    assert "Valat angesagt von der Spielerpartei, gemacht: 20 für die Spielerpartei" in dreier
    assert "stiller Valat der Spielerpartei (10 × 2): 20 für die Spielerpartei" in solo
