"""Illustriertes Tarock at the table: the hand form, series on the sheet, settlement."""

from __future__ import annotations

import json
import re
from decimal import Decimal

import pytest
from django.urls import reverse

from scoring import services
from scoring.engine import InvalidInput
from scoring.models import Hand, Session
from tests.conftest import seed
from tests.engine.support import FIXTURES
from tests.scoring.test_commands import score_session
from tests.scoring.test_views import head_row

PLAYERS = ("A", "B", "C")


def hand_post(hand: dict, token: str) -> dict[str, str]:
    """A played hand as the Illustriertes hand form posts it."""
    data = {
        "token": token,
        "type": hand.get("type", "played"),
        "action": "save",
        "dealer": hand.get("dealer", "C"),
    }
    for key in ("declarer", "game", "bid", "points", "kontra", "renonce", "talon_rest"):
        if key in hand:
            data[key] = str(hand[key])
    # The premium grid: a row per premium, its player and how it went.
    for premium in hand.get("premiums", []):
        row = f"premiums.{premium['type']}"
        data[f"{row}.who"] = premium["player"]
        how = premium.get("announced", "silent")
        data[f"{row}.how"] = how if premium.get("made", True) else f"{how}-failed"
        if "kontra" in premium:
            data[f"{row}.kontra"] = str(premium["kontra"])
    return data


@pytest.fixture
def series_session(make_session):
    return make_session(
        variant="illustrated",
        players=PLAYERS,
        options={"game_points": {"announced": 3, "unterer": 4, "held": 4}},
    )


def test_the_seed_series_entered_through_the_forms(logged_in):
    response = logged_in.post(
        reverse("session_new_variant", args=["illustrated"]),
        {
            "name": "Seed",
            "seat_1": "A",
            "seat_2": "B",
            "seat_3": "C",
            "options.profile": "beck",
            "options.game_points.announced": "3",
            "options.game_points.unterer": "4",
            "options.game_points.held": "4",
            "options.valat_scoring": "beck_additive",
            "options.silent_ultimo_loss_counts": "true",
            "options.all_pass": "redeal",
            "options.series_target": "100",
            "options.series_bonus": "10",
        },
    )
    assert response.status_code == 302
    session = Session.objects.get(name="Seed")
    for index, hand in enumerate(seed("illustrated-seed-series.json")["hands"]):
        response = logged_in.post(reverse("hand_new", args=[session.pk]), hand_post(hand, f"t{index}"))
        assert response.status_code == 302, re.findall(r'role="alert">([^<]+)<', response.content.decode())
    html = logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode()
    # The head: the next series starts at 0, and each player's balance is what
    # the settlement pays (a sum of series would not be).
    assert head_row(html, "series") == {"A": "0", "B": "0", "C": "0"}
    assert head_row(html, "balance") == {"A": "+178", "B": "\u221280", "C": "\u221298"}
    assert "Series 2" in html
    notation = re.search(r'<div class="section-summary" id="section-1">.*?</ul>', html, re.S).group(0)
    assert re.sub(r"<[^>]+>", " ", notation).split() == [
        "Series",
        "1",
        "A:",
        "18,",
        "26,",
        "110",
        "|",
        "120",
        "B:",
        "28,",
        "34",
        "C:",
        "6,",
        "28",
    ]
    assert "bonus +10" in html
    settlement = logged_in.get(reverse("settlement", args=[session.pk])).content.decode()
    net = dict(
        re.findall(
            r'<tr data-player="(\w)"><th scope="row">\w</th><td class="r \w+">([^<]+)</td>', settlement
        )
    )
    assert net == {"A": "+178", "B": "\u221280", "C": "\u221298"}


def test_score_session_prints_the_series():
    out = json.loads(score_session((FIXTURES / "illustrated-seed-series.json").read_bytes()).stdout)
    assert out["series"] == [{"hands": [0, 4], "totals": {"A": 120, "B": 34, "C": 28}, "bonus": {"A": 10}}]
    assert out["totals"] == {"A": 120, "B": 34, "C": 28}
    assert out["settlement"]["net"] == {"A": 178, "B": -80, "C": -98}


def test_premium_rows_offer_only_what_the_profile_allows(logged_in, make_session):
    beck = make_session(variant="illustrated", players=PLAYERS)
    html = logged_in.get(reverse("hand_new", args=[beck.pk])).content.decode()
    # The premium grid: a row per premium these rules know, how it went as they allow.
    assert 'name="premiums.vierzig.who"' in html
    assert 'name="premiums.uhu.who"' not in html  # Uhu is off by default
    assert 'name="premiums.pagat.kontra"' not in html  # beck: one kontra for the whole hand
    assert 'name="premiums.pagat.how" value="before_talon"' in html
    graz = make_session(variant="illustrated", players=PLAYERS, options={"profile": "graz", "uhu": True})
    html = logged_in.get(reverse("hand_new", args=[graz.pk])).content.decode()
    assert 'name="premiums.vierzig.who"' not in html
    assert 'name="premiums.uhu.who"' in html
    assert 'name="premiums.pagat.kontra"' in html
    assert 'name="premiums.pagat.how" value="before_talon"' not in html
    assert 'name="premiums.koepfe.how" value="after_talon"' not in html  # Graz: only ultimos announced
    assert 'name="mondfang.captured_by"' in html


def test_an_empty_premium_row_is_not_a_premium(logged_in, series_session):
    data = hand_post({"declarer": "A", "game": "dreiblatt", "bid": "announced", "points": 40}, "t")
    response = logged_in.post(reverse("hand_new", args=[series_session.pk]), data)
    assert response.status_code == 302
    assert Hand.objects.get().inputs.get("premiums") is None


def test_the_preview_explains_each_line(logged_in, series_session):
    data = hand_post(
        {
            "declarer": "C",
            "game": "zweiblatt",
            "bid": "announced",
            "points": 39,
            "premiums": [{"type": "koepfe", "player": "C", "announced": "before_talon"}],
        },
        "t",
    )
    data.pop("action")
    html = logged_in.post(reverse("hand_preview", args=[series_session.pk]), data).content.decode()
    assert "+22" in html
    assert html.count("<li>") >= 3


def test_the_card_counter_fills_in_the_points_by_the_three_card_method(logged_in, series_session):
    data = hand_post({"declarer": "A", "game": "dreiblatt", "bid": "announced"}, "t")
    # 4 kings and the Sküs (5 each), 2 queens, 1 cavall, 3 jacks, 9 others: 25 + 8 + 3 + 6 + 9 = 51
    # over 19 cards: 51 − 2/3·19 = 38.33 → 38
    data.update(
        {
            "action": "count",
            "count.fives": "5",
            "count.queens": "2",
            "count.cavalls": "1",
            "count.jacks": "3",
            "count.others": "9",
        }
    )
    response = logged_in.post(reverse("hand_new", args=[series_session.pk]), data)
    html = response.content.decode()
    assert response.status_code == 200
    assert re.search(r'name="points" value="38"', html)
    assert Hand.objects.count() == 0


def test_the_card_counter_refuses_more_cards_than_the_deck_has(logged_in, series_session):
    data = hand_post({"declarer": "A", "game": "dreiblatt", "bid": "announced"}, "t")
    data.update({"action": "count", "count.fives": "8"})
    html = logged_in.post(reverse("hand_new", args=[series_session.pk]), data).content.decode()
    assert re.search(
        r'id="f-count-fives-error" role="alert">Kings, Pagat, Mond, Sküs \(5\): a whole number from 0 to 7',
        html,
    )


def opponents_valat_count(game: str, **cards: int) -> dict[str, str]:
    data = hand_post({"declarer": "A", "game": game, "bid": "announced"}, "t")
    data.update(
        {"valat.by": "opponents", "valat.announced": "silent", "valat.made": "true", "action": "count"}
    )
    data.update({f"count.{kind}": str(number) for kind, number in cards.items()})
    return data


def test_in_an_opponents_valat_the_card_counter_counts_the_declarers_discard(logged_in, series_session):
    # docs/rules.md §2.6: the declarer's points are his discard. A Dreiblatt discards three cards:
    # a king (5) and two plain cards (1 each): 7 − 2 = 5
    data = opponents_valat_count("dreiblatt", fives=1, others=2)
    html = logged_in.post(reverse("hand_new", args=[series_session.pk]), data).content.decode()
    assert "count the declarer&#x27;s discard, 3 cards in this Dreiblatt" in html
    assert re.search(r'name="points" value="5"', html)
    # and the hand is scored with it: each opponent (3 + 30) × 1 and the silent valat 12
    data["action"] = "save"
    data["points"] = "5"
    assert logged_in.post(reverse("hand_new", args=[series_session.pk]), data).status_code == 302
    assert Hand.objects.get().deltas == {"A": 0, "B": 45, "C": 45}


def test_in_an_opponents_valat_the_card_counter_wants_as_many_cards_as_the_discard(logged_in, series_session):
    data = opponents_valat_count("einblatt", fives=1, others=1)
    html = logged_in.post(reverse("hand_new", args=[series_session.pk]), data).content.decode()
    assert "count the declarer&#x27;s discard, 1 card in this Einblatt" in html
    assert re.search(
        r'id="card-counter-error">the declarer&#x27;s discard in this Einblatt is 1 card \(counted: 2\)',
        html,
    )
    assert not re.search(r'name="points" value="\d', html)
    html = logged_in.post(
        reverse("hand_new", args=[series_session.pk]), opponents_valat_count("solo")
    ).content.decode()
    assert "a Solo has no discard: the declarer has 0" in html
    assert re.search(r'name="points" value="0"', html)
    assert Hand.objects.count() == 0


@pytest.mark.parametrize(
    ("game", "words"),
    [
        ("solo", "The opponents took every trick and a Solo has no discard: the declarer has 0."),
        ("einblatt", "count the declarer&#x27;s discard, 1 card in this Einblatt; his points are 0 to 4."),
        ("zweiblatt", "count the declarer&#x27;s discard, 2 cards in this Zweiblatt; his points are 1 to 9."),
        (
            "dreiblatt",
            "count the declarer&#x27;s discard, 3 cards in this Dreiblatt; his points are 1 to 13.",
        ),
    ],
)
def test_once_the_opponents_made_a_valat_the_preview_tells_the_counter_what_to_count(
    logged_in, series_session, game, words
):
    """docs/rules.md §2.6: the declarer's points are his own discard. Each change of the form
    brings the counter's help with the preview, so it says so before anything is counted."""
    data = opponents_valat_count(game)
    data.pop("action")
    html = logged_in.post(reverse("hand_preview", args=[series_session.pk]), data).content.decode()
    help_text = re.search(r'<small class="help" id="counter-help">([^<]*)</small>', html)
    assert help_text is not None and words in help_text.group(1)
    plain = hand_post({"declarer": "A", "game": game, "bid": "announced"}, "t")
    html = logged_in.post(reverse("hand_preview", args=[series_session.pk]), plain).content.decode()
    assert "Count the cards by kind; the points are counted for you and filled in." in html


def test_trischaken_is_offered_only_when_the_house_rule_says_so(logged_in, make_session):
    plain = make_session(variant="illustrated", players=PLAYERS)
    assert "?type=trischaken" not in logged_in.get(reverse("hand_new", args=[plain.pk])).content.decode()
    assert logged_in.get(reverse("hand_new", args=[plain.pk]) + "?type=trischaken").status_code == 404
    table = make_session(variant="illustrated", players=PLAYERS, options={"all_pass": "trischaken"})
    html = logged_in.get(reverse("hand_new", args=[table.pk]) + "?type=trischaken").content.decode()
    assert 'name="points.A"' in html and 'name="no_trick"' in html and 'name="declarer"' not in html
    response = logged_in.post(
        reverse("hand_new", args=[table.pk]),
        {
            "token": "t",
            "type": "trischaken",
            "action": "save",
            "dealer": "C",
            "points.A": "30",
            "points.B": "0",
            "points.C": "22",
            "no_trick": ["B"],
        },
    )
    assert response.status_code == 302
    # A has the most points and loses 10; C writes 5; B 5 and 5 more for taking no trick
    assert Hand.objects.get().deltas == {"A": -10, "B": 10, "C": 5}


@pytest.mark.parametrize(
    ("options", "raw", "field"),
    [
        (
            {"profile": "graz"},
            {"premiums": [{"type": "vierzig", "player": "A", "announced": "silent"}]},
            "premiums[1].type",
        ),
        ({}, {"premiums": [{"type": "uhu", "player": "A"}]}, "premiums[1].type"),
        ({}, {"points": 71}, "points"),
        ({}, {"kontra": 4}, "kontra"),
        ({}, {"premiums": [{"type": "pagat", "player": "Zoe"}]}, "premiums[1].player"),
        (
            {},
            {"premiums": [{"type": "pagat", "player": "A", "kontra": 1, "announced": "after_talon"}]},
            "premiums[1].kontra",
        ),
    ],
)
def test_refused_hands_name_the_field_and_write_nothing(make_session, options, raw, field):
    session = make_session(variant="illustrated", players=PLAYERS, options=options)
    hand = {"dealer": "C", "declarer": "A", "game": "dreiblatt", "bid": "announced", "points": 40, **raw}
    with pytest.raises(InvalidInput) as caught:
        services.hand_record(session=session, raw=hand)
    assert caught.value.field == field
    assert Hand.objects.count() == 0


def test_per_series_settlement_in_money(logged_in, make_session):
    session = make_session(
        variant="illustrated",
        players=PLAYERS,
        options={"game_points": {"announced": 3, "unterer": 4, "held": 4}},
        money_rate=Decimal("0.10"),
    )
    hands = seed("illustrated-seed-series.json")["hands"]
    for hand in hands + hands[:1]:  # the seed series, and one hand of a second series
        services.hand_record(session=session, raw=hand)
    html = logged_in.get(reverse("settlement", args=[session.pk])).content.decode()
    assert 'id="per-series"' in html
    assert "17.80" in html  # series 1: A +178 points at 0.10
    # series 2 so far: A 18, B 0, C 0 → A +36, B −18, C −18; overall A +214
    assert "+214" in html and "21.40" in html
