"""The words on the pages, in German, English and French: each game's own terms,
help that speaks of what the page shows, French typography."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from scoring import services

LOCALE = Path(__file__).resolve().parents[2] / "locale"
FIVE = ("Anna", "Bert", "Carl", "Dora", "Emil")


def client_in(user, language: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def radio_labels(html: str, name: str) -> list[str]:
    return re.findall(
        rf'<input type="radio" name="{re.escape(name)}" value="[^"]*"[^>]*><span>([^<]+)</span>', html
    )


def help_of(html: str, fieldset_id: str) -> str:
    block = re.search(rf'id="{fieldset_id}".*?</fieldset>', html, re.S).group()
    return re.search(r'<small class="help">([^<]+)</small>', block).group(1)


def test_the_french_taker_is_the_angreifer_in_german_never_the_alleinspieler(user, make_session):
    session = make_session(players=FIVE)
    html = client_in(user, "de").get(reverse("hand_new", args=[session.pk])).content.decode()
    assert "<legend>Angreifer</legend>" in html
    assert "Alleinspieler" not in (LOCALE / "de/LC_MESSAGES/django.po").read_text(encoding="utf-8")
    french = client_in(user, "fr").get(reverse("hand_new", args=[session.pk])).content.decode()
    assert "<legend>Preneur</legend>" in french


@pytest.mark.parametrize(
    ("language", "back"),
    [("de", "Zurück zum Blatt"), ("en", "Back to the sheet"), ("fr", "Retour à la feuille")],
)
def test_the_way_back_to_the_sheet_says_so(user, make_session, language, back):
    session = make_session()
    html = client_in(user, language).get(reverse("settlement", args=[session.pk])).content.decode()
    assert f'href="/sessions/{session.pk}/">{back}</a>' in html


def test_kontra_is_explained_by_its_buttons_not_by_numbers(user, make_session):
    session = make_session(variant="illustrated", players=("A", "B", "C"))
    html = client_in(user, "de").get(reverse("hand_new", args=[session.pk])).content.decode()
    assert radio_labels(html, "kontra") == ["ohne", "Kontra", "Rekontra", "Subkontra"]
    assert (
        help_of(html, "f-kontra") == "Kontra verdoppelt, Rekontra ×4, Subkontra ×8 (Beck: das ganze Spiel)."
    )


@pytest.mark.parametrize(
    ("language", "buttons"),
    [
        ("de", ["Dreieransage", "Unterer", "gehalten"]),
        ("en", ["Dreieransage", "Unterer", "gehalten"]),
        ("fr", ["Dreieransage", "Unterer", "gehalten"]),
    ],
)
def test_the_illustriertes_bid_buttons_say_the_games_words_in_every_language(
    user, make_session, language, buttons
):
    session = make_session(variant="illustrated", players=("A", "B", "C"))
    html = client_in(user, language).get(reverse("hand_new", args=[session.pk])).content.decode()
    assert radio_labels(html, "bid") == buttons


def test_a_chambery_solo_asks_for_2_1_or_0_cards_with_no_empty_choice_beside_0(user, make_session):
    session = make_session(variant="chambery", players=FIVE)
    url = reverse("hand_new", args=[session.pk])
    client = client_in(user, "de")
    solo = client.post(
        url, {"token": "t", "action": "refresh", "dealer": "Emil", "mode": "solo"}
    ).content.decode()
    assert radio_labels(solo, "cards_requested") == ["2 Karten", "1 Karte", "0: à point"]
    call = client.post(
        url, {"token": "t", "action": "refresh", "dealer": "Emil", "mode": "call"}
    ).content.decode()
    # "Nobody" is an answer of its own, after the players, and says when it applies.
    assert radio_labels(call, "partner")[-1].startswith("niemand: der Geber allein (gerufene Karte")


def test_with_six_at_the_table_the_sheet_says_the_dealer_deals_and_sits_out(user, make_session):
    session = make_session(players=("Anna", "Bert", "Carl", "Dora", "Emil", "Friedrich"))
    services.hand_record(
        session=session,
        raw={
            "dealer": "Friedrich",
            "taker": "Anna",
            "partner": "Carl",
            "contract": "garde",
            "bouts": 2,
            "points": 56,
        },
        user=user,
    )
    html = client_in(user, "de").get(reverse("scoreboard", args=[session.pk])).content.decode()
    assert "Friedrich gibt und setzt aus" in html and "Friedrich gibt, Friedrich setzt aus" not in html


def test_the_redeal_form_shows_what_a_redeal_scores_instead_of_asking_to_fill_it_in(user, make_session):
    session = make_session()
    html = client_in(user, "de").get(reverse("hand_new", args=[session.pk]) + "?type=redeal").content.decode()
    preview = re.search(r'<section id="preview".*?</section>', html, re.S).group()
    assert "Neu geben" in preview and "ausfüllen" not in preview


def test_the_series_notation_is_explained_where_it_is_shown(user):
    from tests.web.test_sheets import imported

    session = imported(user, "illustrated-seed-series.json")
    html = client_in(user, "de").get(reverse("scoreboard", args=[session.pk])).content.decode()
    assert re.search(
        r'<p class="help" id="notation-help">Wie der Block eine Serie schreibt: [^<]+Strich', html
    )
    printed = client_in(user, "de").get(reverse("session_print", args=[session.pk])).content.decode()
    assert "Wie der Block eine Serie schreibt" in printed


def test_french_asks_who_pays_whom_and_spaces_its_colons(user, make_session):
    session = make_session()
    services.hand_record(
        session=session, raw={"taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}, user=user
    )
    html = client_in(user, "fr").get(reverse("settlement", args=[session.pk])).content.decode()
    assert "<h2>Qui paie à qui</h2>" in html
    assert re.search(r"</strong>\u00a0: \d", html)
    assert not re.search(r"</strong>: \d", html)
    german = client_in(user, "de").get(reverse("settlement", args=[session.pk])).content.decode()
    assert re.search(r"</strong>: \d", german)


def test_the_hand_forms_folded_fields_are_listed_after_a_french_colon(user, make_session):
    session = make_session()
    url = reverse("hand_new", args=[session.pk])
    french = client_in(user, "fr").get(url).content.decode()
    assert re.search(r"<summary>Plus\u00a0: Chelem", french)
    german = client_in(user, "de").get(url).content.decode()
    assert re.search(r"<summary>Mehr: ", german)


def colons_outside_translations(template: str) -> list[str]:
    """Label colons a template writes itself (``{% translate "More" %}:``),
    where French needs its space: translated texts and ``{% colon %}`` aside."""
    text = re.sub(r"\{%\s*blocktranslate.*?%\}.*?\{%\s*endblocktranslate\s*%\}", " ", template, flags=re.S)
    text = re.sub(r"\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}|\{#.*?#\}", " ", text, flags=re.S)
    text = re.sub(r"<(style|script)\b.*?</\1>", " ", text, flags=re.S)
    text = re.sub(r"\{%.*?%\}|\{\{.*?\}\}", "\x00", text, flags=re.S)  # tags and values: placeholders
    text = re.sub(r"<[^>]*>", " ", text, flags=re.S)
    return [m.group(0).replace("\x00", "…") for m in re.finditer(r"\S{0,20}[^\s:]:(?=\s|$)", text)]


def test_the_app_pages_write_label_colons_as_the_language_sets_them():
    templates = Path(__file__).resolve().parents[2] / "templates"
    pages = [templates / "base.html", *sorted((templates / "scoring").rglob("*.html"))]
    found = {
        str(page.relative_to(templates)): colons
        for page in pages
        if (colons := colons_outside_translations(page.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_new_session_form_asks_who_deals_first_in_german(user):
    html = client_in(user, "de").get(reverse("session_new_variant", args=["french"])).content.decode()
    assert "Gibt das erste Spiel" in html and '<option value="1" selected>Platz 1</option>' in html
