"""The pages: what a player at the table does, through the real views."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import services
from scoring.models import Session
from tests.conftest import fill, seed

MINUS = "\u2212"


def number(text: str) -> int | float:
    value = float(text.replace(MINUS, "-").replace(",", ".").replace("+", ""))
    return int(value) if value.is_integer() else value


def sheet_totals(html: str) -> dict[str, int | float]:
    """The totals row of the score sheet, read from the page."""
    row = re.search(r'<tr class="totals"[^>]*>(.*?)</tr>', html, re.S)
    assert row, "the sheet has a totals row"
    return {
        name: number(value) for name, value in re.findall(r'data-player="([^"]+)">([^<]+)<', row.group(1))
    }


def head_row(html: str, key: str) -> dict[str, str]:
    """One row of the board's head (``totals``, ``series``, ``balance``) as written."""
    row = re.search(rf'<tr class="{key}"[^>]*>(.*?)</tr>', html, re.S)
    assert row, f"the sheet's head has a {key} row"
    return dict(re.findall(r'data-player="([^"]+)">([^<]+)<', row.group(1)))


def form_data(hand: dict, token: str) -> dict[str, str]:
    """A hand as the hand form posts it."""
    data = {
        "token": token,
        "type": hand.get("type", "played"),
        "action": "save",
        "note": hand.get("note", ""),
    }
    for key, value in hand.items():
        if key == "poignees":
            data["poignees.rows"] = str(len(value))
            for i, poignee in enumerate(value, 1):
                data[f"poignees[{i}].player"] = poignee["player"]
                data[f"poignees[{i}].size"] = poignee["size"]
        elif key not in ("type", "note"):
            data[key] = str(value)
    return data


@pytest.fixture
def french(make_session):
    return make_session()


def test_the_seed_table_entered_through_the_hand_form_gives_the_seed_totals(logged_in, make_session):
    response = logged_in.post(
        reverse("session_new_variant", args=["french"]),
        {
            "name": "Seed",
            "seat_1": "Anna",
            "seat_2": "Bert",
            "seat_3": "Carl",
            "seat_4": "Dora",
            "options.five_player_split": "taker_double",
            "options.round_to": "1",
        },
    )
    session = Session.objects.get(name="Seed")
    assert response.status_code == 302 and response["Location"] == reverse("scoreboard", args=[session.pk])
    for index, hand in enumerate(seed("french-seed-table.json")["hands"]):
        response = logged_in.post(reverse("hand_new", args=[session.pk]), form_data(hand, f"t{index}"))
        assert response.status_code == 302, response.content.decode()[:2000]
    html = logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode()
    assert sheet_totals(html) == {"Anna": 108, "Bert": 172, "Carl": -380, "Dora": 100}
    assert session.hands.count() == 5


def test_a_double_tapped_save_is_stored_once(logged_in, french):
    hand = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
    url = reverse("hand_new", args=[french.pk])
    first = logged_in.post(url, form_data(hand, "same-token"))
    second = logged_in.post(url, form_data(hand, "same-token"))
    assert first.status_code == second.status_code == 302
    assert french.hands.count() == 1


def test_a_form_resent_without_a_dealer_is_stored_once_though_the_proposed_dealer_moved_on(logged_in, french):
    # No dealer sent: the server proposes the player after the last dealer. Once
    # the first copy is stored, that proposal is the next player, so a guard
    # that judged the hand with the dealer filled in would see another hand.
    hand = {"taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
    url = reverse("hand_new", args=[french.pk])
    data = form_data(hand, "no-dealer-token")
    data.pop("dealer", None)
    answers = [logged_in.post(url, data).status_code for _ in range(5)]
    assert answers == [302] * 5
    assert french.hands.count() == 1


def test_the_new_hand_form_proposes_the_next_dealer_and_shows_only_the_needed_fields(logged_in, french):
    html = logged_in.get(reverse("hand_new", args=[french.pk])).content.decode()
    assert re.search(r'<option value="Dora" selected', html)
    for name in ("taker", "contract", "bouts", "points", "petit_au_bout", "chelem"):
        assert f'name="{name}"' in html
    assert 'name="partner"' not in html  # four play: nobody is called


@pytest.mark.parametrize(("players", "shown"), [(3, False), (4, False), (5, True), (6, True)])
def test_the_partner_is_asked_for_only_when_five_play(logged_in, make_session, players, shown):
    session = make_session(players=tuple("ABCDEF"[:players]))
    html = logged_in.get(reverse("hand_new", args=[session.pk])).content.decode()
    assert ('name="partner"' in html) is shown  # six at the table: the dealer sits out, five play


def test_invalid_hand_shows_the_error_next_to_its_field_and_writes_nothing(logged_in, french):
    response = logged_in.post(
        reverse("hand_new", args=[french.pk]),
        form_data({"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 3, "points": 10}, "t"),
    )
    assert response.status_code == 200
    html = response.content.decode()
    error = re.search(r'id="f-points-error" role="alert">([^<]+)<', html)
    assert error and "from 13.5 to 91" in error.group(1)
    assert french.hands.count() == 0


def test_the_live_preview_returns_the_preview_fragment_with_deltas_and_breakdown(logged_in, french):
    response = logged_in.post(
        reverse("hand_preview", args=[french.pk]),
        {
            "dealer": "Dora",
            "taker": "Bert",
            "contract": "garde",
            "bouts": "3",
            "points": "49",
            "petit_au_bout": "attack",
        },
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="preview"')
    assert "<html" not in html
    assert "(25 + 13 + 10) × 2 = 96 (Garde, petit au bout attack)" in html
    assert "+288" in html and f"{MINUS}96" in html
    assert french.hands.count() == 0


def test_the_preview_says_what_is_missing(logged_in, french):
    response = logged_in.post(reverse("hand_preview", args=[french.pk]), {"dealer": "Dora", "taker": "Bert"})
    html = response.content.decode()
    # Every open field at once, in words, each linked to its input; no field path.
    assert '<a href="#f-contract">Contract missing</a>' in html
    assert '<a href="#f-points">Points missing</a>' in html
    assert "contract:" not in html


def test_preview_without_javascript_re_renders_the_form_without_saving(logged_in, french):
    data = form_data({"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}, "t")
    data["action"] = "preview"
    response = logged_in.post(reverse("hand_new", args=[french.pk]), data)
    assert response.status_code == 200
    assert "(25 + 15) × 2 = 80 (Garde)" in response.content.decode()
    assert french.hands.count() == 0


def test_the_scoreboard_fragment_for_htmx(logged_in, french):
    response = logged_in.get(reverse("scoreboard", args=[french.pk]), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="board"')
    assert "<html" not in html


def test_any_earlier_hand_can_be_corrected(logged_in, french):
    hands = [services.hand_record(session=french, raw=h) for h in seed("french-seed-table.json")["hands"]]
    url = reverse("hand_edit", args=[french.pk, hands[0].pk])
    page = logged_in.get(url).content.decode()
    assert 'name="points" value="56"' in page
    response = logged_in.post(
        url,
        form_data({"dealer": "Dora", "taker": "Anna", "contract": "prise", "bouts": 2, "points": 56}, "1"),
    )
    assert response.status_code == 302
    html = logged_in.get(reverse("scoreboard", args=[french.pk])).content.decode()
    assert sheet_totals(html) == {"Anna": -12, "Bert": 212, "Carl": -340, "Dora": 140}


def test_a_correction_that_names_no_dealer_keeps_the_dealer_of_the_hand(logged_in, french):
    """A form without a dealer (a page from before the dealer was asked, a phone's
    outbox): the hand was still dealt by whoever dealt it; only the rest is corrected."""
    services.hand_record(
        session=french, raw={"dealer": "Anna", "taker": "Bert", "contract": "prise", "bouts": 1, "points": 51}
    )
    hand = services.hand_record(
        session=french, raw={"dealer": "Bert", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
    )
    url = reverse("hand_edit", args=[french.pk, hand.pk])
    posted = {"taker": "Carl", "contract": "garde", "bouts": 2, "points": 56}
    response = logged_in.post(url, form_data(posted, str(hand.version)))
    assert response.status_code == 302
    hand.refresh_from_db()
    assert (hand.dealer, hand.inputs["taker"]) == ("Bert", "Carl")
    # The sheet's next dealer follows from it, as before the correction.
    assert services.proposed_dealer(french, services.game_of(french)) == "Carl"


def test_a_stale_correction_is_shown_as_a_conflict_with_the_newer_values(logged_in, french):
    hand = services.hand_record(
        session=french, raw={"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
    )
    services.hand_edit(
        hand=hand, raw={"dealer": "Dora", "taker": "Bert", "contract": "garde", "bouts": 2, "points": 56}
    )
    response = logged_in.post(
        reverse("hand_edit", args=[french.pk, hand.pk]),
        form_data({"dealer": "Dora", "taker": "Carl", "contract": "garde", "bouts": 2, "points": 56}, "1"),
    )
    assert response.status_code == 409
    html = response.content.decode()
    assert 'id="conflict"' in html and "Bert" in html
    hand.refresh_from_db()
    assert hand.inputs["taker"] == "Bert"


def test_delete_then_undo(logged_in, french):
    hands = [services.hand_record(session=french, raw=h) for h in seed("french-seed-table.json")["hands"]]
    response = logged_in.post(reverse("hand_delete", args=[french.pk, hands[4].pk]))
    assert response.status_code == 302
    page = logged_in.get(response["Location"]).content.decode()
    assert 'id="undo"' in page
    assert sheet_totals(page) == {"Anna": 186, "Bert": 250, "Carl": -302, "Dora": -134}
    logged_in.post(reverse("hand_restore", args=[french.pk, hands[4].pk]))
    page = logged_in.get(reverse("scoreboard", args=[french.pk])).content.decode()
    assert sheet_totals(page) == {"Anna": 108, "Bert": 172, "Carl": -380, "Dora": 100}


def test_every_hand_explains_its_numbers(logged_in, french):
    hand = services.hand_record(
        session=french,
        raw={
            "dealer": "Dora",
            "taker": "Dora",
            "contract": "garde",
            "bouts": 3,
            "points": 40,
            "poignees": [{"player": "Anna", "size": "simple"}],
        },
    )
    html = logged_in.get(reverse("hand_detail", args=[french.pk, hand.pk])).content.decode()
    assert "(25 + 4) × 2 + 20 = 78 (Garde, Poignée simple (Anna))" in html
    assert "Dora: 40 points, 3 bouts, 36 needed: won by 4" in html


def test_settlement_page_shows_net_transfers_and_money(logged_in, make_session):
    from decimal import Decimal

    session = make_session(money_rate=Decimal("0.10"))
    for hand in seed("french-seed-table.json")["hands"]:
        services.hand_record(session=session, raw=hand)
    html = logged_in.get(reverse("settlement", args=[session.pk])).content.decode()
    assert re.search(r"<strong>Carl</strong> → <strong>Bert</strong>: 172", html)
    assert re.search(r"<strong>Carl</strong> → <strong>Bert</strong>: 17.20", html)
    assert "\u221238.00" in html and "-38.00" not in html


def test_new_session_shows_each_house_rule_with_its_default_and_explanation(logged_in):
    html = logged_in.get(reverse("session_new_variant", args=["french"])).content.decode()
    assert re.search(r'name="options.round_to" value="1" checked', html)
    assert re.search(r'name="options.five_player_split" value="taker_double" checked', html)
    assert "5 or 10 round each hand" in html


def test_new_session_with_too_few_players_is_refused_and_nothing_is_written(logged_in):
    response = logged_in.post(
        reverse("session_new_variant", args=["french"]),
        {"name": "Two", "seat_1": "Anna", "seat_2": "Bert", "options.round_to": "1"},
    )
    assert response.status_code == 200
    assert "3, 4, 5, 6" in response.content.decode()
    assert Session.objects.count() == 0


def test_new_session_with_a_bad_house_rule_names_it(logged_in):
    response = logged_in.post(
        reverse("session_new_variant", args=["french"]),
        {"name": "X", "seat_1": "A", "seat_2": "B", "seat_3": "C", "options.round_to": "7"},
    )
    assert re.search(
        r'id="f-options-round_to-error" role="alert">Round the value up to: one of 1, 5, 10',
        response.content.decode(),
    )
    assert Session.objects.count() == 0


@pytest.mark.parametrize("hands", [3, 300])
def test_the_scoreboard_uses_the_same_few_queries_whatever_its_length(
    logged_in, french, hands, django_db_blocker
):
    fill(french, hands)
    url = reverse("scoreboard", args=[french.pk])
    logged_in.get(url)  # warm the session and user lookups
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        response = logged_in.get(url)
    with CaptureQueriesContext(connection) as again:
        repeated = logged_in.get(url)
    assert response.status_code == 200
    assert sheet_totals(response.content.decode())["Anna"] == 240 * hands
    assert len(queries) == EXPECTED_SCOREBOARD_QUERIES
    assert board_of(repeated) == board_of(response)
    assert len(again) == EXPECTED_CACHED_SCOREBOARD_QUERIES


def board_of(response) -> str:
    return re.search(r'<section id="board".*?</section>\s*<nav', response.content.decode(), re.S).group(0)


# The login session, the user, the session row, its seats, its hands (the deleted ones
# with them, struck through in their places).
EXPECTED_SCOREBOARD_QUERIES = 5
# Seen before: the whole page comes from the cache (the reader's CSRF token put in,
# ``plumbing.pages``); only the login session, the user and the session row are read.
EXPECTED_CACHED_SCOREBOARD_QUERIES = 3


def test_pages_need_a_login(client, french):
    hand = services.hand_record(
        session=french, raw={"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
    )
    for url in urls_of(french, hand):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url


def test_another_players_sessions_are_not_found(client_for, other_user, french):
    hand = services.hand_record(
        session=french, raw={"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
    )
    intruder = client_for(other_user)
    for url in urls_of(french, hand):
        assert intruder.get(url).status_code in (404, 405), url
        assert intruder.post(url, {"token": "x", "dealer": "Dora"}).status_code in (404, 405), url
    hand.refresh_from_db()
    assert hand.deleted_at is None and hand.version == 1
    assert french.hands.count() == 1


def test_the_session_list_shows_only_my_sessions(logged_in, make_session, other_user):
    make_session()
    make_session(owner=other_user).__class__.objects.filter(owner=other_user).update(name="Secret")
    html = logged_in.get(reverse("session_list")).content.decode()
    assert "Friday" in html and "Secret" not in html


def urls_of(session, hand):
    return [
        reverse("scoreboard", args=[session.pk]),
        reverse("settlement", args=[session.pk]),
        reverse("hand_new", args=[session.pk]),
        reverse("hand_preview", args=[session.pk]),
        reverse("hand_detail", args=[session.pk, hand.pk]),
        reverse("hand_edit", args=[session.pk, hand.pk]),
        reverse("hand_edit_preview", args=[session.pk, hand.pk]),
        reverse("hand_delete", args=[session.pk, hand.pk]),
        reverse("hand_restore", args=[session.pk, hand.pk]),
    ]
