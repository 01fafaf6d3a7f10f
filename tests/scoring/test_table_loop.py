"""The hand form at the table and the board on a phone, through the real views:
nothing that changes the score is preset, every problem is listed at once in
the players' words and language, points count for either side, and the board
keeps names, totals and balances where they can be read."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from scoring import services
from scoring.models import Session
from tests.scoring.test_views import form_data

FIVE = ("Anna", "Bert", "Carl", "Dora", "Emil")


def post_hand(client, session: Session, hand: dict, token: str = "t"):
    return client.post(reverse("hand_new", args=[session.pk]), form_data(hand, token))


def errors_beside(html: str) -> dict[str, str]:
    """Each input's error as the page shows it beside the input."""
    return dict(re.findall(r'id="f-([\w-]+)-error" role="alert">([^<]+)<', html))


def summary(html: str) -> list[str]:
    """What the bar beside the save button lists as still open."""
    found = re.search(r'<p class="open"[^>]*>(.*?)</p>', html, re.S)
    assert found, "the bar lists what is open"
    return [unescape(text) for text in re.findall(r'<a href="#f-[\w-]+">([^<]+)</a>', found.group(1))]


class TestNothingPreset:
    def test_five_players_saving_without_the_partner_is_refused_and_saves_nothing(
        self, logged_in, make_session
    ):
        session = make_session(players=FIVE)
        hand = {"dealer": "Emil", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 47}
        response = post_hand(logged_in, session, hand)
        assert response.status_code == 200
        html = response.content.decode()
        assert errors_beside(html) == {"partner": "Partner (called king) missing"}
        assert summary(html) == ["Partner (called king) missing"]
        assert session.hands.count() == 0

    def test_alone_is_a_choice_of_its_own_and_scores_the_taker_alone(self, logged_in, make_session):
        session = make_session(players=FIVE)
        hand = {
            "dealer": "Emil",
            "taker": "Anna",
            "contract": "garde",
            "bouts": 2,
            "points": 47,
            "partner": "",
        }
        assert post_hand(logged_in, session, hand).status_code == 302
        # Garde, 2 bouts, 47 of 41: (25 + 6) × 2 = 62, the taker alone 4 × 62.
        assert session.hands.get().delta_points() == {
            "Anna": 248,
            "Bert": -62,
            "Carl": -62,
            "Dora": -62,
            "Emil": -62,
        }

    def test_the_form_offers_alone_as_a_button_and_checks_nothing_before_it_is_chosen(
        self, logged_in, make_session
    ):
        session = make_session(players=FIVE)
        html = logged_in.get(reverse("hand_new", args=[session.pk])).content.decode()
        partner = re.search(
            r'<fieldset class="field seg seat-other" id="f-partner">(.*?)</fieldset>', html, re.S
        )
        assert partner, "the partner is a row of buttons that never offers the taker"
        assert re.findall(r'value="([^"]*)"', partner.group(1)) == [
            "Anna",
            "Bert",
            "Carl",
            "Dora",
            "Emil",
            "",
        ]
        assert "checked" not in partner.group(1)
        assert "alone (called card in the talon or own hand)" in partner.group(1)
        assert re.search(r'<fieldset class="field seg seat-source" id="f-taker">', html)

    def test_correcting_a_hand_played_alone_shows_alone_chosen(self, logged_in, make_session):
        session = make_session(players=FIVE)
        hand = services.hand_record(
            session=session,
            raw={"dealer": "Emil", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 47},
        )
        html = logged_in.get(reverse("hand_edit", args=[session.pk, hand.pk])).content.decode()
        assert re.search(r'<input type="radio" name="partner" value="" checked>', html)

    def test_chambery_the_dealer_alone_is_said_or_the_call_is_refused(self, logged_in, make_session):
        session = make_session(variant="chambery", players=FIVE)
        call = {"dealer": "Emil", "mode": "call", "points": 40}
        html = post_hand(logged_in, session, call).content.decode()
        assert errors_beside(html) == {"partner": "Partner (holder of the called card) missing"}
        assert session.hands.count() == 0
        assert post_hand(logged_in, session, {**call, "partner": ""}, "t2").status_code == 302
        assert session.hands.get().inputs == {"mode": "call", "points": 40}


class TestEveryProblemAtOnce:
    def test_an_empty_save_lists_every_missing_field_in_the_forms_order(self, logged_in, make_session):
        session = make_session(players=FIVE)
        html = post_hand(logged_in, session, {"dealer": "Emil"}).content.decode()
        assert summary(html) == [
            "Taker missing",
            "Contract missing",
            "Partner (called king) missing",
            "Bouts missing",
            "Points missing",
        ]
        assert set(errors_beside(html)) == {"taker", "contract", "partner", "bouts", "points"}
        assert 'role="alert"><span class="lead">Not saved:</span>' in html
        assert session.hands.count() == 0

    def test_in_german_in_the_players_words_with_a_decimal_comma(self, client_for, user, make_session):
        session = make_session()
        client = client_for(user)
        client.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
        html = post_hand(
            client, session, {"dealer": "Dora", "taker": "Anna", "bouts": 1, "points": "95"}
        ).content.decode()
        assert summary(html) == [
            "Kontrakt: nicht angegeben",
            'Punkte: 0 bis 91, halbe Punkte erlaubt (angegeben: "95")',
        ]
        refused = post_hand(
            client,
            session,
            {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 1, "points": "90"},
        ).content.decode()
        assert errors_beside(refused) == {
            "points": "Punkte: mit 1 Bout hat der Alleinspieler 4,5 bis 82,5 Punkte (angegeben: 90)"
        }
        shown = " ".join([*summary(html), *errors_beside(html).values(), *errors_beside(refused).values()])
        for path in ("contract", "points", "bouts"):
            assert path not in shown  # the field's words, never its path


class TestEitherSide:
    def test_points_counted_for_the_defence_are_stored_as_the_attacks(self, logged_in, make_session):
        session = make_session()
        hand = form_data(
            {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 44}, "t"
        )
        hand["points.side"] = "other"
        assert logged_in.post(reverse("hand_new", args=[session.pk]), hand).status_code == 302
        stored = session.hands.get()
        assert stored.inputs["points"] == 47
        # Garde, 2 bouts, 47 of 41: (25 + 6) × 2 = 62, the taker 3 × 62.
        assert stored.delta_points()["Anna"] == 186

    def test_the_preview_says_what_the_defences_points_make_for_the_attack(self, logged_in, make_session):
        session = make_session()
        data = {
            "dealer": "Dora",
            "taker": "Anna",
            "contract": "garde",
            "bouts": "2",
            "points": "44",
            "points.side": "other",
        }
        html = logged_in.post(reverse("hand_preview", args=[session.pk]), data).content.decode()
        assert '<p class="conversion">Defence 44 → Attack 47</p>' in html
        assert "+186" in html

    @pytest.mark.parametrize(
        ("variant", "players", "keypad"),
        [
            ("french", FIVE[:4], "decimal"),
            ("illustrated", ("A", "B", "C"), "numeric"),
            ("chambery", FIVE, "numeric"),
        ],
    )
    def test_whole_points_get_the_digits_keypad_and_french_half_points_the_decimal_one(
        self, logged_in, make_session, variant, players, keypad
    ):
        session = make_session(variant=variant, players=players)
        html = logged_in.get(reverse("hand_new", args=[session.pk])).content.decode()
        assert re.search(rf'name="points"[^>]* inputmode="{keypad}"', html)
        assert 'name="points.side"' in html


class TestTheFormsOrder:
    @pytest.mark.parametrize(
        ("variant", "players", "order"),
        [
            (
                "french",
                FIVE,
                ["taker", "contract", "partner", "bouts", "points", "petit_au_bout", "poignees"],
            ),
            ("chambery", FIVE, ["mode", "partner", "soloist", "cards_requested", "points"]),
            ("illustrated", ("A", "B", "C"), ["declarer", "game", "bid", "points", "kontra", "premiums"]),
        ],
    )
    def test_fields_come_in_the_order_the_table_decides_them(
        self, logged_in, make_session, variant, players, order
    ):
        session = make_session(variant=variant, players=players)
        html = logged_in.get(reverse("hand_new", args=[session.pk])).content.decode()
        drawn = re.findall(r'id="f-(\w+)"', html)
        assert [name for name in drawn if name in order] == order
