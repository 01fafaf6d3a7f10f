"""Tarock von Chambéry at the table: modes, the three-player sum check, Parties."""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.urls import reverse

from scoring import services
from scoring.engine import InvalidInput
from scoring.models import Hand, Session
from tests.engine.support import FIXTURES
from tests.scoring.test_commands import score_session
from tests.scoring.test_views import sheet_totals

THREE = ("Amélie", "Béatrice", "Cécile")
FIVE = ("Anna", "Bert", "Carl", "Dora", "Emil")


def test_the_seed_three_player_hand_through_the_forms(logged_in):
    response = logged_in.post(
        reverse("session_new_variant", args=["chambery"]),
        {
            "name": "Savoie",
            "seat_1": THREE[0],
            "seat_2": THREE[1],
            "seat_3": THREE[2],
            "options.deck": "full",
            "options.payment": "standard",
            "options.four_player_form": "call_solo",
        },
    )
    assert response.status_code == 302
    session = Session.objects.get(name="Savoie")
    response = logged_in.post(
        reverse("hand_new", args=[session.pk]),
        {
            "token": "t",
            "type": "played",
            "action": "save",
            "dealer": "Cécile",
            "points.Amélie": "37",
            "points.Béatrice": "29",
            "points.Cécile": "12",
        },
    )
    assert response.status_code == 302
    html = logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode()
    assert sheet_totals(html) == {"Amélie": 22, "Béatrice": 6, "Cécile": -28}


def test_score_session_scores_the_seed():
    out = json.loads(score_session((FIXTURES / "chambery-seed-three-players.json").read_bytes()).stdout)
    assert out["totals"] == {"Amélie": 22, "Béatrice": 6, "Cécile": -28}
    assert "series" not in out


def test_three_player_points_that_do_not_add_up_are_shown_live_and_not_saved(logged_in, make_session):
    session = make_session(variant="chambery", players=THREE)
    data = {
        "type": "played",
        "dealer": "Cécile",
        "points.Amélie": "37",
        "points.Béatrice": "29",
        "points.Cécile": "10",
    }
    preview = logged_in.post(reverse("hand_preview", args=[session.pk]), data).content.decode()
    assert "78" in preview and "76" in preview
    response = logged_in.post(
        reverse("hand_new", args=[session.pk]), {**data, "token": "t", "action": "save"}
    )
    assert response.status_code == 200
    assert re.search(r'role="alert">[^<]*78', response.content.decode())
    assert Hand.objects.count() == 0


def games_fields(html: str) -> dict[str, bool]:
    """Each input drawn for some games only (partner, soloist …): whether the page hides it."""
    boxes = re.findall(
        r'<div class="when[^"]*?( off)?" data-shown-when="mode"[^>]*>\s*<\w+[^>]*?id="f-(\w+)"', html
    )
    return {name: bool(hidden) for hidden, name in boxes}


def test_every_games_fields_are_drawn_and_hidden_until_their_game_is_chosen(logged_in, make_session):
    session = make_session(variant="chambery", players=FIVE)
    url = reverse("hand_new", args=[session.pk])
    html = logged_in.get(url).content.decode()
    assert html.index('name="mode"') < html.index('name="points"')  # mode first
    assert games_fields(html) == {"partner": True, "soloist": True, "cards_requested": True}
    call = logged_in.post(url, {"token": "t", "action": "refresh", "dealer": "Emil", "mode": "call"})
    assert games_fields(call.content.decode()) == {"partner": False, "soloist": True, "cards_requested": True}
    solo = logged_in.post(url, {"token": "t", "action": "refresh", "dealer": "Emil", "mode": "solo"})
    assert games_fields(solo.content.decode()) == {
        "partner": True,
        "soloist": False,
        "cards_requested": False,
    }


def test_a_correction_draws_the_other_games_fields_too(logged_in, make_session):
    session = make_session(variant="chambery", players=FIVE)
    hand = services.hand_record(
        session=session, raw={"dealer": "Emil", "mode": "call", "partner": "Bert", "points": 41}
    )
    html = logged_in.get(reverse("hand_edit", args=[session.pk, hand.pk])).content.decode()
    assert games_fields(html) == {"partner": False, "soloist": True, "cards_requested": True}


def test_the_stylesheet_shows_each_games_fields_when_their_game_is_tapped(logged_in, make_session):
    """Without script: the CSS shows the K-th such field's N-th choice's fields (for-K-N)
    once that choice (data-choice=N in controls-K) is checked."""
    css = (settings.BASE_DIR / "static" / "css" / "app.css").read_text(encoding="utf-8")
    session = make_session(variant="chambery", players=FIVE)
    html = logged_in.get(reverse("hand_new", args=[session.pk])).content.decode()
    mode = re.search(r'<fieldset class="[^"]*controls-(\d)[^"]*" id="f-mode">(.*?)</fieldset>', html, re.S)
    assert mode is not None
    choices = dict(re.findall(r'value="(\w+)" data-choice="(\d)"', mode.group(2)))
    assert choices == {"call": "1", "solo": "2"}
    for name, mode_value in (("partner", "call"), ("soloist", "solo"), ("cards_requested", "solo")):
        box = re.search(rf'<div class="when ([^"]*)"[^>]*>\s*<\w+[^>]*?id="f-{name}"', html)
        assert box is not None
        number = choices[mode_value]
        classes = set(box.group(1).split()) - {"off"}
        assert classes == {"by-css", f"for-{mode.group(1)}-{number}"}
        rule = f'form:has(.controls-{mode.group(1)} [data-choice="{number}"]:checked) .when.for-{mode.group(1)}-{number}'
        assert rule in css
    assert "form .when.by-css { display: none; }" in css


def test_a_stale_solo_field_is_dropped_when_the_mode_is_a_call(logged_in, make_session):
    session = make_session(variant="chambery", players=FIVE)
    response = logged_in.post(
        reverse("hand_new", args=[session.pk]),
        {
            "token": "t",
            "action": "save",
            "dealer": "Emil",
            "mode": "call",
            "partner": "Bert",
            "points": "41",
            "soloist": "Carl",
            "cards_requested": "0",
        },
    )
    assert response.status_code == 302
    hand = Hand.objects.get()
    assert hand.inputs == {"mode": "call", "points": 41, "partner": "Bert"}
    # Emil deals and calls Bert: 41 of 68, won by 7; each of three pays 7, 21 shared, the odd point to Emil
    assert hand.deltas == {"Anna": -7, "Bert": 10, "Carl": -7, "Dora": -7, "Emil": 11}


def test_the_preview_shows_the_other_sides_points(logged_in, make_session):
    session = make_session(variant="chambery", players=FIVE)
    html = logged_in.post(
        reverse("hand_preview", args=[session.pk]),
        {"dealer": "Emil", "mode": "call", "partner": "Bert", "points": "41"},
    ).content.decode()
    assert "41 of 68 points, the others 27" in html


# A call whose declaring side counts 2·4 + 3·4 + 3 + 2·2 + 1 = 28 card points,
# 9 tricks, 1 for the discard: 38.
COUNTED_38 = {
    "token": "t",
    "action": "count",
    "dealer": "Emil",
    "mode": "call",
    "partner": "Bert",
    "count.bouts": "2",
    "count.kings": "3",
    "count.queens": "1",
    "count.cavalls": "2",
    "count.jacks": "1",
    "count.others": "10",
    "count.tricks": "9",
    "count.discard": "true",
}


def test_the_card_counter_counts_cards_tricks_and_the_discard(logged_in, make_session):
    session = make_session(variant="chambery", players=FIVE)
    html = logged_in.post(reverse("hand_new", args=[session.pk]), COUNTED_38).content.decode()
    assert re.search(r'name="points" value="38"', html)
    assert Hand.objects.count() == 0


def test_counted_cards_replace_points_typed_for_the_other_side(logged_in, make_session):
    session = make_session(variant="chambery", players=FIVE)
    data = {**COUNTED_38, "points": "30", "points.side": "other"}
    # The counter counts the declaring side's cards: 38, shown as theirs.
    html = logged_in.post(reverse("hand_new", args=[session.pk]), data).content.decode()
    assert re.search(r'name="points" value="38"', html)
    assert re.search(r'name="points.side" value="" checked', html)


def test_the_three_player_counter_fills_the_chosen_players_points(logged_in, make_session):
    session = make_session(variant="chambery", players=THREE)
    data = {
        "token": "t",
        "action": "count",
        "dealer": "Cécile",
        "points.Amélie": "37",
        "count.player": "Béatrice",
        "count.bouts": "1",
        "count.kings": "2",
        "count.queens": "1",
        "count.cavalls": "0",
        "count.jacks": "2",
        "count.others": "12",
        "count.tricks": "8",
    }
    # 4 + 8 + 3 + 2 = 17 card points, 8 tricks, no discard: 25
    html = logged_in.post(reverse("hand_new", args=[session.pk]), data).content.decode()
    assert 'name="points.Béatrice" value="25"' in html
    assert 'name="points.Amélie" value="37"' in html


def test_each_completed_partie_is_marked_with_its_subtotals(logged_in, make_session):
    session = make_session(variant="chambery", players=THREE)
    for dealer, points in (("Cécile", (37, 29, 12)), ("Amélie", (20, 30, 28)), ("Béatrice", (26, 26, 26))):
        services.hand_record(
            session=session, raw={"dealer": dealer, "points": dict(zip(THREE, points, strict=True))}
        )
    services.hand_record(
        session=session, raw={"dealer": "Cécile", "points": dict(zip(THREE, (30, 24, 24), strict=True))}
    )
    html = logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode()
    assert html.count('class="section-end"') == 1
    assert 'id="section-1"' in html and 'id="section-2"' in html
    # Partie 1: +22 +6 −28; then 20/30/28: Amélie pays 6, Béatrice +4, Cécile +2; then a draw
    subtotal = dict(re.findall(r'data-section-player="([^"]+)"><strong class="\w+">([^<]+)<', html))
    assert subtotal == {"Amélie": "+16", "Béatrice": "+10", "Cécile": "\u221226"}


def test_six_at_the_table_shows_who_sits_out(logged_in, make_session):
    session = make_session(variant="chambery", players=("Anna", "Bert", "Carl", "Dora", "Emil", "Fritz"))
    hand = services.hand_record(
        session=session,
        raw={"dealer": "Carl", "mode": "solo", "soloist": "Dora", "cards_requested": 2, "points": 40},
    )
    assert hand.sitting_out == "Bert"  # the player to the dealer's left
    assert hand.deltas["Bert"] == 0
    html = logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode()
    assert "Bert sits out" in html


@pytest.mark.parametrize(
    ("players", "options", "raw", "field"),
    [
        (FIVE, {}, {"mode": "call", "partner": "Bert", "points": 69}, "points"),
        (FIVE, {}, {"mode": "croise", "points": 30}, "mode"),
        (
            FIVE,
            {},
            {"mode": "solo", "soloist": "Bert", "cards_requested": 3, "points": 30},
            "cards_requested",
        ),
        (THREE, {}, {"points": {"Amélie": 37, "Béatrice": 29, "Cécile": 10}}, "points"),
    ],
)
def test_refused_hands_name_the_field_and_write_nothing(make_session, players, options, raw, field):
    session = make_session(variant="chambery", players=players, options=options)
    with pytest.raises(InvalidInput) as caught:
        services.hand_record(session=session, raw={"dealer": players[-1], **raw})
    assert caught.value.field == field
    assert Hand.objects.count() == 0


def test_the_simplified_deck_with_five_players_is_refused_when_the_session_is_created(logged_in):
    response = logged_in.post(
        reverse("session_new_variant", args=["chambery"]),
        {
            "name": "X",
            **{f"seat_{i}": name for i, name in enumerate(FIVE, 1)},
            "options.deck": "simplified",
            "options.payment": "standard",
            "options.four_player_form": "call_solo",
        },
    )
    assert re.search(
        r'id="f-options-deck-error" role="alert">the simplified deck is played by 3 or 4',
        response.content.decode(),
    )
    assert Session.objects.count() == 0


def test_the_session_file_writes_the_mode_of_a_croise_hand_stored_without_one(logged_in, make_session):
    session = make_session("chambery", options={"four_player_form": "croise"})
    hand = services.hand_record(session=session, raw={"dealer": "Anna", "mode": "croise", "points": 20})
    assert hand.inputs["mode"] == "croise"
    # a hand stored before the mode was written in every hand
    Hand.objects.filter(pk=hand.pk).update(inputs={"points": 20})
    exported = json.loads(logged_in.get(reverse("session_export", args=[session.pk, "json"])).content)
    assert exported["hands"] == [{"dealer": "Anna", "mode": "croise", "points": 20}]
