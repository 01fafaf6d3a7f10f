"""The phone's contract (scoring/phone_contract.py): the server tells the offline
code what each hand form is and which evening a sheet shows, so that no address
pattern or markup rule is copied into the JavaScript (static/js/phone/,
static/js/outbox.js). The field is the one the outbox keeps with an entry and the
service worker reads from a form it could not send; the server ignores it."""

from __future__ import annotations

import html as entities
import json
import re
from typing import Any

import pytest
from django.urls import reverse

from scoring import services
from scoring.models import Hand
from tests.tournaments.table_support import claimed_phone, tournament_day
from tests.tournaments.table_support import in_english as in_english

pytestmark = pytest.mark.django_db
GARDE = {"taker": "Anna", "contract": "garde", "bouts": 2, "points": 50}


def outbox_field(page: str) -> dict[str, Any]:
    found = re.findall(r'<input type="hidden" name="outbox" value="([^"]*)">', page)
    assert len(found) == 1, found
    return json.loads(entities.unescape(found[0]))


def phone_sheet(page: str) -> dict[str, Any] | None:
    found = re.search(r'<script id="phone-sheet" type="application/json">(.*?)</script>', page, re.S)
    return json.loads(found.group(1)) if found else None


def test_a_new_hand_form_says_it_is_one_of_its_evening_and_where_it_waits(logged_in, make_session):
    session = make_session()
    page = logged_in.get(reverse("hand_new", args=[session.pk])).content.decode()
    sheet = reverse("scoreboard", args=[session.pk])
    assert outbox_field(page) == {"kind": "new", "session": session.pk, "hand": None, "sheet": sheet}


def test_a_correction_and_a_deletion_name_their_hand_its_page_and_its_row_on_the_sheet(
    logged_in, make_session
):
    session = make_session()
    hand = services.hand_record(session=session, raw=GARDE)
    page = reverse("hand_detail", args=[session.pk, hand.pk])
    common = {"session": session.pk, "hand": hand.pk, "sheet": reverse("scoreboard", args=[session.pk])}
    # The hand's row on the sheet, by the id the sheet draws it with: where its waiting change is shown.
    sheet = logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode()
    common["row"] = re.search(r'<tbody id="([^"]+)" class="hand', sheet).group(1)
    edit = logged_in.get(reverse("hand_edit", args=[session.pk, hand.pk])).content.decode()
    assert outbox_field(edit) == {"kind": "edit", "page": page, **common}
    detail = logged_in.get(page).content.decode()
    assert outbox_field(detail) == {"kind": "delete", "page": page, **common}


def test_the_sheet_names_its_evening_and_the_pages_to_keep_for_the_next_hand(logged_in, make_session):
    session = make_session()
    page = logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode()
    new = reverse("hand_new", args=[session.pk])
    contract = phone_sheet(page)
    assert contract is not None
    # French Tarot's new hand has its kinds of hand as tabs, each a page of its own.
    assert contract["newHand"][0] == new and f"{new}?type=redeal" in contract["newHand"]
    assert contract["session"] == session.pk and contract["lastHand"] == []
    first = services.hand_record(session=session, raw=GARDE)
    last = services.hand_record(session=session, raw=GARDE)
    services.hand_delete(hand=last)
    contract = phone_sheet(logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode())
    assert contract is not None
    # The last hand still on the sheet: not the deleted one.
    assert contract["lastHand"] == [
        reverse("hand_detail", args=[session.pk, first.pk]),
        reverse("hand_edit", args=[session.pk, first.pk]),
    ]


def test_a_shared_sheet_carries_no_contract(client, make_session):
    session = make_session()
    token = services.session_share(session=session)
    page = client.get(reverse("shared_board", args=[token])).content.decode()
    assert 'id="board"' in page and phone_sheet(page) is None


def test_a_table_link_names_its_evening_by_the_link_and_its_own_addresses(user, in_english):
    day = tournament_day(user, tables_count=1, hands=4)
    table = day.table(1)
    scorer = claimed_phone(table)
    sheet = reverse("tournament_table", args=[table.link_token])
    new = reverse("tournament_table_hand_new", args=[table.link_token])
    form = scorer.get(new).content.decode()
    assert outbox_field(form) == {"kind": "new", "session": table.link_token, "hand": None, "sheet": sheet}
    contract = phone_sheet(scorer.get(sheet).content.decode())
    assert contract is not None
    assert contract["session"] == table.link_token and contract["sheet"] == sheet
    assert contract["newHand"][0] == new


def test_the_server_ignores_the_field_and_stores_a_form_sent_again_once(logged_in, make_session):
    session = make_session()
    page = logged_in.get(reverse("hand_new", args=[session.pk])).content.decode()
    token = re.search(r'name="token" value="(\w+)"', page).group(1)
    field = entities.unescape(re.search(r'name="outbox" value="([^"]*)"', page).group(1))
    form = {
        "token": token,
        "type": "played",
        "action": "save",
        "dealer": "Anna",
        "taker": "Anna",
        "contract": "garde",
        "bouts": "2",
        "points": "50",
        "outbox": field,
    }
    url = reverse("hand_new", args=[session.pk])
    assert logged_in.post(url, form).status_code == 302
    assert logged_in.post(url, form).status_code == 302  # the answer lost, the phone sends it again
    assert Hand.objects.filter(session=session).count() == 1


def test_a_list_carries_its_blank_row_as_the_server_draws_an_empty_one(logged_in, make_session):
    # "Another row" offline puts in the row the server drew for it, numbered: the same
    # widgets as the list's own empty row, its number a slot.
    session = make_session()
    page = logged_in.get(reverse("hand_new", args=[session.pk])).content.decode()
    lists = re.findall(
        r'<fieldset class="field group list" id="([^"]+)".*?<input type="hidden" name="([^"]+)\.rows" value="1">'
        r'\s*<div class="list-row">(.*?)</div>\s*<template data-list="\2" data-count="\2\.rows" data-slot="__row__"'
        r' data-most-rows="(\d+)">\s*<div class="list-row">(.*?)</div>\s*</template>',
        page,
        re.S,
    )
    assert [name for _, name, *_ in lists] == ["poignees"]
    _, name, first, most, blank = lists[0]
    assert int(most) > 1
    assert f'name="{name}[__row__].' in blank
    assert re.sub(r"\s+", " ", blank.replace("__row__", "1")) == re.sub(r"\s+", " ", first)


def test_the_sheet_draws_the_money_row_a_waiting_hand_may_bring_labelled_as_with_two_rows(
    logged_in, make_session
):
    session = make_session(
        variant="koenigrufen",
        players=["Anna", "Bert", "Carl", "Dora"],
        options={"tariff": "ooe_2023", "kontra_in_score": False},
    )
    page = logged_in.get(reverse("scoreboard", args=[session.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # In sight: the totals alone, as Σ; the phone's templates label them and bring the money.
    assert re.search(
        r'<thead>.*<tr class="totals" data-head-row="totals"><th scope="row"><span aria-hidden="true">Σ</span>',
        page,
        re.S,
    )
    totals = re.search(
        r'<template data-phone-head="totals" data-table-class="balances">(.*?)</template>', page, re.S
    )
    money = re.search(r'<template data-phone-head="money">(.*?)</template>', page, re.S)
    assert totals and money
    # Each found by its key (data-head-row) once the phone has put it in (static/js/phone/sheet.js).
    assert totals.group(1).startswith('<tr class="totals" data-head-row="totals"><th scope="row">Total</th>')
    assert money.group(1).startswith('<tr class="money" data-head-row="money"><th scope="row">Money</th>')
    cells = re.findall(r'<td class="zero" data-player="(\w+)">0</td>', money.group(1))
    assert cells == ["Anna", "Bert", "Carl", "Dora"]


@pytest.mark.parametrize(
    "variant, options",
    [("french", {}), ("koenigrufen", {"tariff": "ooe_2023", "kontra_in_score": True})],
)
def test_a_sheet_whose_hands_never_pay_money_beside_their_points_has_no_money_row_to_add(
    logged_in, make_session, variant, options
):
    session = make_session(variant=variant, players=["Anna", "Bert", "Carl", "Dora"], options=options)
    page = logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode()
    assert 'data-phone-head="money"' not in page and '<tr class="money"' not in page


def test_a_sheet_with_a_series_and_its_balance_in_sight_has_no_row_to_add(logged_in, make_session):
    session = make_session(variant="illustrated", players=("Anna", "Bert", "Carl"))
    page = logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode()
    assert '<tr class="series" data-head-row="series">' in page and 'data-phone-head="' not in page
