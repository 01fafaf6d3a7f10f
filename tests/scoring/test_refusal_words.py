"""A refusal of the rules reads in the players' words and language on every
path: the hand form, the session-file import and the service the commands use.
The hand form offers no choice that the house rules then refuse."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.urls import reverse
from django.utils import translation

from scoring import services
from scoring.engine import InvalidInput
from scoring.models import Hand
from scoring.presentation import render_words
from tests.scoring.test_illustrated_web import PLAYERS, hand_post
from tests.scoring.test_words import client_in

GRAZ = {"profile": "graz"}
# What a player never reads in a refusal: JSON literals, keys, "allowed: 0".
RAW = re.compile(r"\b(true|false|null|after_talon|before_talon|graz|beck)\b|: 0\b")


def alerts(html: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", text) for text in re.findall(r'role="alert">(.*?)</', html, re.S)]


@pytest.mark.parametrize(
    ("language", "says"),
    [
        ("de", "Valat, Gemacht: ein stiller Valat wird nur eingetragen, wenn er gemacht ist"),
        ("en", "Valat, Made: a silent valat is recorded only when made"),
        ("fr", "un Valat tacite ne se note que s’il est réussi"),
    ],
)
def test_a_silent_valat_marked_not_made_is_refused_in_words(user, make_session, language, says):
    session = make_session(variant="illustrated", players=PLAYERS, options=GRAZ)
    data = hand_post({"declarer": "A", "game": "dreiblatt", "bid": "announced", "points": 70}, "t")
    data |= {"valat.by": "declarer", "valat.announced": "silent"}  # "made" left unticked
    html = client_in(user, language).post(reverse("hand_new", args=[session.pk]), data).content.decode()
    refusals = alerts(html)
    assert any(says in text for text in refusals), refusals
    assert not [text for text in refusals if RAW.search(text)]
    assert Hand.objects.count() == 0


KOEPFE_AFTER_THE_TALON = {
    "dealer": "C",
    "declarer": "A",
    "game": "dreiblatt",
    "bid": "announced",
    "points": 40,
    "premiums": [{"type": "koepfe", "player": "A", "announced": "after_talon"}],
}


@pytest.mark.parametrize(
    ("language", "says"),
    [
        (
            "de",
            "Prämien 1, Angesagt: nach den Regeln Graz darf Köpfe so angesagt werden: still "
            "(angegeben: nach dem Talon)",
        ),
        (
            "fr",
            "selon les règles Graz, Köpfe peut être annoncé : tacite (reçu : après le talon)",
        ),
    ],
)
def test_the_graz_rules_refuse_an_announcement_by_its_name(make_session, language, says):
    session = make_session(variant="illustrated", players=PLAYERS, options=GRAZ)
    with pytest.raises(InvalidInput) as caught:
        services.hand_record(session=session, raw=KOEPFE_AFTER_THE_TALON)
    with translation.override(language):
        words = render_words(caught.value)
    assert says in words
    assert not RAW.search(words)


def test_an_imported_file_keeps_the_field_path_and_adds_the_words(user):
    text = json.dumps(
        {
            "variant": "illustrated",
            "players": list(PLAYERS),
            "options": GRAZ,
            "hands": [KOEPFE_AFTER_THE_TALON],
        }
    )
    upload = io.BytesIO(text.encode())
    upload.name = "evening.json"
    response = client_in(user, "de").post(reverse("session_import"), {"file": upload})
    assert response.status_code == 400
    assert (
        "Spiel 1, premiums[1].announced: Prämien 1, Angesagt: nach den Regeln Graz darf Köpfe so "
        "angesagt werden: still (angegeben: nach dem Talon)" in response.content.decode()
    )


def test_the_graz_form_offers_an_announcement_only_for_an_ultimo(user, make_session):
    session = make_session(variant="illustrated", players=PLAYERS, options=GRAZ)
    html = client_in(user, "de").get(reverse("hand_new", args=[session.pk])).content.decode()
    # A premium's announcement and its Kontra show only for the choices the rules allow
    # them: drawn "off" while no player has the premium, and for a premium chosen as it is.
    assert (
        '<div class="when off" data-shown-when="premiums.pagat.who" data-shown-for="A B C">'
        '\n\n<fieldset class="field seg" id="f-premiums-pagat-how">' in html
    )
    assert (
        '<div class="when off" data-shown-when="premiums.pagat.how" data-shown-for="after_talon after_talon-failed">'
        in html
    )
    assert 'name="premiums.koepfe.how" value="after_talon"' not in html  # Graz: Köpfe only silent
    pagat = hand_post({"premiums": [{"type": "pagat", "player": "A", "announced": "after_talon"}]}, "p")
    preview = client_in(user, "de").post(reverse("hand_new", args=[session.pk]), pagat).content.decode()
    assert '<div class="when" data-shown-when="premiums.pagat.who" data-shown-for="A B C">' in preview
    assert (
        '<div class="when" data-shown-when="premiums.pagat.how" data-shown-for="after_talon after_talon-failed">'
        in preview
    )
    beck = make_session(variant="illustrated", players=PLAYERS)
    assert (
        'data-shown-when="premiums.pagat.how"'
        not in client_in(user, "de").get(reverse("hand_new", args=[beck.pk])).content.decode()
    )


def test_an_announcement_left_behind_by_a_changed_premium_is_not_sent(user, make_session):
    """Pagat after the talon with a Kontra, then tapped back to silent: the page
    hides the Kontra, and the hand is saved with a silent Pagat, not refused."""
    session = make_session(variant="illustrated", players=PLAYERS, options=GRAZ)
    premium = {"type": "pagat", "player": "A", "announced": "silent", "kontra": 1}
    data = hand_post(
        {"declarer": "A", "game": "dreiblatt", "bid": "announced", "points": 40, "premiums": [premium]}, "t"
    )
    response = client_in(user, "de").post(reverse("hand_new", args=[session.pk]), data)
    assert response.status_code == 302, alerts(response.content.decode())
    assert Hand.objects.get().inputs["premiums"] == [{"type": "pagat", "player": "A"}]


def test_a_hand_refused_names_its_field_once_on_its_page_and_to_the_outbox(user, make_session):
    """The field's error already names its field; the summary by the thumb repeats
    it on the page, marked. A phone's outbox (static/js/outbox.js) is told the
    same as data, once."""
    session = make_session()
    client = client_in(user, "de")
    posted = {"token": "t", "action": "save", "dealer": "Dora", "taker": "Anna", "bouts": "2", "points": "56"}
    html = client.post(reverse("hand_new", args=[session.pk]), posted).content.decode()
    assert re.findall(r'id="f-contract-error" role="alert">([^<]+)<', html) == ["Kontrakt: nicht angegeben"]
    drawn = re.sub(r"<template\b.*?</template>", "", html, flags=re.S)  # not the rows the phone draws offline
    summary = re.findall(r"<p ([^>]*)><span class=\"lead\">Nicht gespeichert:</span>", drawn)
    assert summary == ['class="open" data-summary role="alert"']
    outbox = client.post(reverse("hand_new", args=[session.pk]), posted, HTTP_X_TAROCK_OUTBOX="1")
    assert outbox.status_code == 422 and outbox.json()["reasons"] == ["Kontrakt: nicht angegeben"]
