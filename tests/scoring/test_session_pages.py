"""The pages that put an evening right: settings, players' names, house rules,
closing, deleting and restoring a session, the deleted hands in their places,
who deals first, and the admin for the site's staff."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from scoring import services
from scoring.models import Hand, Session, SessionChange
from scoring.sheet import SHOWN_HANDS, build_sheet
from tests.scoring.test_views import sheet_totals

GARDE_WON = {"taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
PETITE_LOST = {"taker": "Bert", "contract": "petite", "bouts": 1, "points": 48}


@pytest.fixture
def evening(make_session, user):
    session = make_session()
    hands = [
        services.hand_record(session=session, raw=dict(raw), user=user) for raw in (GARDE_WON, PETITE_LOST)
    ]
    return session, hands


def text_of(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


# -- who may -----------------------------------------------------------------------------------


def test_only_the_owner_opens_the_settings_or_changes_the_session(evening, client_for, other_user):
    session, _ = evening
    session.editors.add(other_user)
    editor = client_for(other_user)
    for name in ("session_settings", "session_rules", "session_delete"):
        assert editor.get(reverse(name, args=[session.pk])).status_code == 404, name
    for name in ("session_player", "session_close", "session_reopen", "session_delete", "session_restore"):
        assert (
            editor.post(reverse(name, args=[session.pk]), {"player": "Anna", "name": "X"}).status_code == 404
        )
    row = Session.objects.get(pk=session.pk)
    assert (row.closed_at, row.deleted_at, row.seats.values_list("name", flat=True).first()) == (
        None,
        None,
        "Anna",
    )
    assert "session_settings" not in editor.get(reverse("scoreboard", args=[session.pk])).content.decode()


# -- the evening's details ------------------------------------------------------------------------


def test_the_owner_renames_dates_and_prices_the_evening_and_sees_it_in_the_history(evening, logged_in):
    session, _ = evening
    url = reverse("session_settings", args=[session.pk])
    response = logged_in.post(
        url, {"name": "Dienstagsrunde", "played_on": "2026-11-17", "money_rate": "0.05"}
    )
    assert response.status_code == 302
    row = Session.objects.get(pk=session.pk)
    assert (row.name, row.played_on, str(row.money_rate)) == ("Dienstagsrunde", date(2026, 11, 17), "0.0500")
    html = logged_in.get(url).content.decode()
    assert (
        'name="money_rate" value="0.05"' in html and 'name="played_on" type="date" value="2026-11-17"' in html
    )
    page = text_of(logged_in.get(url))
    assert "Friday → Dienstagsrunde" in page and "17 Nov 2026" in page and "none → 0.05" in page
    sheet = text_of(logged_in.get(reverse("scoreboard", args=[session.pk])))
    assert "Dienstagsrunde" in sheet and "17 Nov 2026" in sheet
    assert "17 Nov 2026" in text_of(logged_in.get(reverse("session_list")))


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"name": "Fri\u0007day", "played_on": "2026-11-17", "money_rate": ""}, "id_name-error"),
        ({"name": "Friday", "played_on": "17.11.2026", "money_rate": ""}, "id_played_on-error"),
        ({"name": "Friday", "played_on": "2026-11-17", "money_rate": "-1"}, "id_money_rate-error"),
    ],
)
def test_details_the_rules_refuse_are_named_and_change_nothing(evening, logged_in, data, field):
    session, _ = evening
    response = logged_in.post(reverse("session_settings", args=[session.pk]), data)
    assert response.status_code == 400
    assert f'id="{field}"' in response.content.decode()
    assert Session.objects.get(pk=session.pk).name == "Friday" and not SessionChange.objects.exists()


# -- a player's name ---------------------------------------------------------------------------


def test_a_corrected_name_shows_on_the_sheet_the_hand_history_and_the_files(evening, logged_in):
    session, (first, _second) = evening
    response = logged_in.post(
        reverse("session_player", args=[session.pk]), {"player": "Anna", "name": " Anne "}
    )
    assert response.status_code == 302
    assert "Anna is now Anne" in logged_in.get(response["Location"].split("#")[0]).content.decode()
    sheet = logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode()
    assert "Anne" in sheet and "Anna" not in sheet
    detail = logged_in.get(reverse("hand_detail", args=[session.pk, first.pk])).content.decode()
    assert "Anne" in detail and "Anna" not in detail
    for kind in ("json", "csv"):
        data = logged_in.get(reverse("session_export", args=[session.pk, kind])).content.decode("utf-8-sig")
        assert "Anne" in data and "Anna" not in data, kind
    assert "Anna → Anne" in text_of(logged_in.get(reverse("session_settings", args=[session.pk])))


def test_a_name_already_at_the_table_is_refused_beside_the_players_input(evening, logged_in):
    session, _ = evening
    response = logged_in.post(
        reverse("session_player", args=[session.pk]), {"player": "Anna", "name": "Bert"}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert re.search(r'id="player-error-1"[^>]*>Bert sits at this table already<', html)
    assert list(Session.objects.get(pk=session.pk).seats.values_list("name", flat=True))[:2] == [
        "Anna",
        "Bert",
    ]


# -- house rules -------------------------------------------------------------------------------


def test_new_house_rules_rescore_the_evening_and_show_the_totals_before_and_after(evening, logged_in):
    session, _ = evening
    before = build_sheet(session).totals
    url = reverse("session_rules", args=[session.pk])
    response = logged_in.post(url, {"options.five_player_split": "taker_double", "options.round_to": "10"})
    assert response.status_code == 302 and "?done=" in response["Location"]
    after = build_sheet(Session.objects.get(pk=session.pk)).totals
    assert after != before
    page = logged_in.get(response["Location"]).content.decode()
    assert 'id="rules-changed"' in page
    row = re.search(r'<tr data-player="Anna">(.*?)</tr>', page, re.S).group(1)
    cells = re.findall(r'<td class="r">([^<]+)</td>', row)
    signed = ["+" + str(v) if v > 0 else str(v).replace("-", "\u2212") for v in (before[0], after[0])]
    assert cells == signed


def test_house_rules_that_would_refuse_a_hand_change_nothing_and_name_the_hand(make_session, user, logged_in):
    session = make_session(variant="illustrated", players=("A", "B", "C"), options={"all_pass": "trischaken"})
    services.hand_record(
        session=session,
        raw={"dealer": "A", "declarer": "B", "game": "dreiblatt", "bid": "announced", "points": 40},
        user=user,
    )
    services.hand_record(
        session=session,
        raw={"type": "trischaken", "dealer": "B", "points": {"A": 30, "B": 0, "C": 22}, "no_trick": ["B"]},
        user=user,
    )
    options = {
        f"options.{key}": str(value).lower()
        for key, value in session.options.items()
        if not isinstance(value, dict)
    }
    options.update({f"options.game_points.{k}": str(v) for k, v in session.options["game_points"].items()})
    options["options.all_pass"] = "redeal"
    response = logged_in.post(reverse("session_rules", args=[session.pk]), options)
    assert response.status_code == 400
    refused = text_of(response)
    assert "Nothing was changed" in refused and re.search(
        r"Hand 2 ?: Kind of hand: a Trischaken hand needs", refused
    )
    assert Session.objects.get(pk=session.pk).options["all_pass"] == "trischaken"
    assert not SessionChange.objects.exists()


# -- closing -----------------------------------------------------------------------------------


def test_a_closed_evening_says_so_and_refuses_hands_until_it_is_reopened(evening, logged_in):
    session, (first, second) = evening
    assert logged_in.post(reverse("session_close", args=[session.pk])).status_code == 302
    sheet = logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode()
    assert 'id="closed"' in sheet and 'id="new-hand"' not in sheet and 'id="closed-notice"' in sheet
    refused = logged_in.get(reverse("hand_new", args=[session.pk]), follow=True)
    assert "Nothing was changed: reopen the evening" in refused.content.decode()
    posted = logged_in.post(
        reverse("hand_new", args=[session.pk]),
        {
            "token": "late",
            "action": "save",
            "dealer": "Dora",
            "taker": "Anna",
            "contract": "garde",
            "bouts": "2",
            "points": "56",
        },
    )
    assert posted.status_code == 302 and Hand.objects.filter(session=session).count() == 2
    logged_in.post(reverse("hand_delete", args=[session.pk, first.pk]))
    assert Hand.objects.get(pk=first.pk).deleted_at is None
    assert logged_in.get(reverse("hand_edit", args=[session.pk, second.pk])).status_code == 302
    assert logged_in.get(reverse("session_rules", args=[session.pk])).status_code == 302

    logged_in.post(reverse("session_reopen", args=[session.pk]))
    again = logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode()
    assert 'id="new-hand"' in again and 'id="closed"' not in again


def closed_notices(html: str) -> list[str]:
    """What the page says about the evening being closed: its notice and any message above it."""
    notices = re.findall(r'<div class="notice closed-notice"[^>]*>(.*?)</div>', html, re.S)
    messages = re.findall(r'<ul class="messages">(.*?)</ul>', html, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", part).split()) for part in notices + messages]


def test_a_closed_evening_is_said_once_after_closing_it(evening, logged_in):
    session, _ = evening
    sheet = logged_in.post(reverse("session_close", args=[session.pk]), follow=True).content.decode()
    (notice,) = closed_notices(sheet)
    assert notice.startswith("This evening was closed on ") and "Reopen" in notice


@pytest.mark.parametrize("page", ["hand_new", "hand_edit", "session_rules"])
def test_a_change_refused_on_a_closed_evening_is_said_once_with_the_notice(evening, logged_in, page):
    session, (first, _) = evening
    services.session_close(session=session, user=None)
    args = [session.pk, first.pk] if page == "hand_edit" else [session.pk]
    sheet = logged_in.get(reverse(page, args=args), follow=True).content.decode()
    (notice,) = closed_notices(sheet)
    assert notice.count("closed") == 1
    assert "Nothing was changed: reopen the evening to record or change hands and house rules." in notice


# -- deleting a session ------------------------------------------------------------------------


def test_deleting_asks_naming_the_session_and_its_hands_and_can_be_undone(evening, logged_in, client):
    session, _ = evening
    token = services.session_share(session=session)
    confirm = text_of(logged_in.get(reverse("session_delete", args=[session.pk])))
    assert "“Friday” with 2 hands will be deleted." in confirm and "30 days" in confirm
    assert Session.objects.get(pk=session.pk).deleted_at is None  # asking deletes nothing
    response = logged_in.post(reverse("session_delete", args=[session.pk]))
    assert response.status_code == 302
    assert logged_in.get(reverse("scoreboard", args=[session.pk])).status_code == 404
    assert client.get(reverse("shared_board", args=[token])).status_code == 410
    listing = logged_in.get(reverse("session_list")).content.decode()
    assert 'id="session-list"' not in listing and f'id="deleted-session-{session.pk}"' in listing
    restored = logged_in.post(reverse("session_restore", args=[session.pk]))
    assert restored.status_code == 302
    assert logged_in.get(reverse("scoreboard", args=[session.pk])).status_code == 200


def test_nobody_else_can_restore_a_deleted_session(evening, user, client_for, other_user):
    session, _ = evening
    services.session_delete(session=session, user=user)
    assert client_for(other_user).post(reverse("session_restore", args=[session.pk])).status_code == 404
    assert Session.objects.get(pk=session.pk).deleted_at is not None


# -- deleted hands -----------------------------------------------------------------------------


def sheet_lines(html: str) -> list[tuple[str, str, bool]]:
    """Each hand's line on the sheet: its id, the number shown, whether struck through."""
    return [
        (hand_id, number, "deleted" in classes)
        for hand_id, classes, number in re.findall(
            r'<tbody id="hand-(\d+)" class="([^"]*)">.*?<span class="no">(\d+)</span>', html, re.S
        )
    ]


def test_a_deleted_hand_stays_in_its_place_struck_through_and_no_number_changes(
    make_session, user, logged_in
):
    session = make_session()
    hands = [services.hand_record(session=session, raw=dict(GARDE_WON), user=user) for _ in range(4)]
    services.hand_delete(hand=hands[1], user=user)
    url = reverse("scoreboard", args=[session.pk])
    page = logged_in.get(url).content.decode()
    ids = [str(hand.pk) for hand in hands]
    assert sheet_lines(page) == [
        (ids[0], "1", False),
        (ids[1], "2", True),
        (ids[2], "3", False),
        (ids[3], "4", False),
    ]
    assert sheet_totals(page)["Anna"] == 3 * 240  # the deleted hand counts in no total
    line = re.search(rf'<tbody id="hand-{ids[1]}" class="hand deleted">(.*?)</tbody>', page, re.S).group(1)
    assert "<s>" in line and "deleted" in line and "+240" not in line
    restore = reverse("hand_restore", args=[session.pk, hands[1].pk])
    form = re.search(rf'<form method="post" action="{restore}".*?value="([^"]*)"', line, re.S)
    assert form is not None and "\x00" not in form.group(1)  # a real form, with this reader's token
    assert "deleted-hands" not in page  # no second list of the same hands

    # the next hand is hand 5: no number is given twice, the deleted one's neither
    fifth = services.hand_record(session=session, raw=dict(PETITE_LOST), user=user)
    assert fifth.number == 5
    assert [number for _, number, _ in sheet_lines(logged_in.get(url).content.decode())] == [
        "1",
        "2",
        "3",
        "4",
        "5",
    ]
    detail = text_of(logged_in.get(reverse("hand_detail", args=[session.pk, hands[1].pk])))
    assert "Hand 2" in detail and "This hand was deleted" in detail
    assert "Hand 3" in text_of(logged_in.get(reverse("hand_detail", args=[session.pk, hands[2].pk])))

    # restored from its line, without a script: back in its place, counted again
    assert logged_in.post(restore, {"csrfmiddlewaretoken": form.group(1)}).status_code == 302
    page = logged_in.get(url).content.decode()
    assert [(number, struck) for _, number, struck in sheet_lines(page)] == [
        (str(n), False) for n in range(1, 6)
    ]
    assert sheet_totals(page)["Anna"] == 4 * 240 + 28  # and a lost petite, +28 for each defender


def test_a_deleted_hand_has_no_restore_button_on_a_closed_evening_nor_on_the_shared_board(
    make_session, user, logged_in, client
):
    session = make_session()
    hands = [services.hand_record(session=session, raw=dict(GARDE_WON), user=user) for _ in range(2)]
    services.hand_delete(hand=hands[0], user=user)
    token = services.session_share(session=session)
    restore = reverse("hand_restore", args=[session.pk, hands[0].pk])
    assert restore in logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode()
    shared = client.get(reverse("shared_board", args=[token])).content.decode()
    assert [(number, struck) for _, number, struck in sheet_lines(shared)] == [("1", True), ("2", False)]
    assert "hand_restore" not in shared and "/restore/" not in shared
    services.session_close(session=session, user=user)
    closed = logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode()
    assert [(number, struck) for _, number, struck in sheet_lines(closed)] == [("1", True), ("2", False)]
    assert restore not in closed


def test_a_deleted_hand_among_the_latest_stays_in_place_on_a_long_evening(make_session, user, logged_in):
    session = make_session()
    hands = [
        services.hand_record(session=session, raw=dict(GARDE_WON), user=user) for _ in range(SHOWN_HANDS + 5)
    ]
    services.hand_delete(hand=hands[1], user=user)  # well before the latest: shown with all of them
    services.hand_delete(hand=hands[-2], user=user)
    page = logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode()
    numbers = [(number, struck) for _, number, struck in sheet_lines(page)]
    assert numbers[-3:] == [
        (str(SHOWN_HANDS + 3), False),
        (str(SHOWN_HANDS + 4), True),
        (str(SHOWN_HANDS + 5), False),
    ]
    assert ("2", True) not in numbers
    every = logged_in.get(reverse("scoreboard", args=[session.pk]) + "?all=1").content.decode()
    # a page drawn afresh (not kept) puts the reader's token in the kept rows' restore forms too
    assert "\x00" not in every and every.count('name="csrfmiddlewaretoken"') >= 2
    assert [(number, struck) for _, number, struck in sheet_lines(every)][:3] == [
        ("1", False),
        ("2", True),
        ("3", False),
    ]


# -- who deals first --------------------------------------------------------------------------


def test_the_new_session_form_asks_who_deals_first_defaulting_to_the_first_seat(logged_in):
    form = logged_in.get(reverse("session_new_variant", args=["french"])).content.decode()
    assert re.search(r'<option value="1" selected>Seat 1</option>', form)
    players = {"name": "Tuesday", "seat_1": "Anna", "seat_2": "Bert", "seat_3": "Carl", "seat_4": "Dora"}
    logged_in.post(reverse("session_new_variant", args=["french"]), players)
    first = Session.objects.get(name="Tuesday")
    assert first.first_dealer == "Anna"
    hand_form = logged_in.get(reverse("hand_new", args=[first.pk])).content.decode()
    assert re.search(r'<option value="Anna" selected[^>]*>Anna</option>', hand_form)
    logged_in.post(
        reverse("session_new_variant", args=["french"]), {**players, "name": "Wed", "first_dealer": "3"}
    )
    chosen = Session.objects.get(name="Wed")
    assert chosen.first_dealer == "Carl"
    assert (
        "Next to deal: <strong>Carl</strong>"
        in logged_in.get(reverse("scoreboard", args=[chosen.pk])).content.decode()
    )


def test_an_empty_seat_cannot_deal_first(logged_in):
    players = {"name": "Thu", "seat_1": "Anna", "seat_2": "Bert", "seat_3": "Carl", "first_dealer": "5"}
    response = logged_in.post(reverse("session_new_variant", args=["french"]), players)
    assert response.status_code == 200 and "Seat 5 has no player." in response.content.decode()
    assert not Session.objects.filter(name="Thu").exists()


# -- admin ---------------------------------------------------------------------------------------


def test_the_staff_see_sessions_players_hands_and_changes_but_cannot_change_hands(evening, client):
    session, (first, _second) = evening
    services.session_close(session=session, user=session.owner)
    staff = User.objects.create_superuser("staff", password="a-long-staff-password")
    client.force_login(staff)
    for model in ("session", "player", "hand", "handchange", "sessionchange"):
        response = client.get(reverse(f"admin:scoring_{model}_changelist"))
        assert response.status_code == 200, model
    assert "Friday" in client.get(reverse("admin:scoring_session_changelist")).content.decode()
    assert client.get(reverse("admin:scoring_hand_add")).status_code == 403
    detail = client.get(reverse("admin:scoring_hand_change", args=[first.pk])).content.decode()
    assert "<textarea" not in detail and 'name="_save"' not in detail and "Anna" in detail
    response = client.post(reverse("admin:scoring_hand_change", args=[first.pk]), {"deltas": "{}"})
    assert response.status_code == 403
    assert (
        client.post(reverse("admin:scoring_hand_delete", args=[first.pk]), {"post": "yes"}).status_code == 403
    )
    assert Hand.objects.get(pk=first.pk).deltas == first.deltas
