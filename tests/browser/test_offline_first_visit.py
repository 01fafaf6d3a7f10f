"""Offline from the first visit: a phone that opened an evening's sheet (or a table's
link) once, online, has what the table needs when the network goes: the sheet, the
hand form and its kinds of hand, the engine that scores the preview, and saving.
While hands wait, every number in sight follows them and says it is provisional
(the sticky Σ row, the next dealer, the provisional totals, a table's counters),
and a waiting hand reads as the stored row it will become."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from scoring import services
from scoring.models import Hand
from tests.browser.front import Front, front_of
from tests.browser.support import PASSWORD, expect, login, screenshot, signed
from tests.browser.test_offline import answer, kept, under_the_worker, until
from tests.browser.test_phone_engine import FILL, engine_kept, more_rows, new_hand_pairs
from tests.engine.support import FIXTURES
from tests.tournaments.factory import play_hand
from tests.tournaments.table_support import tournament_day

pytestmark = [pytest.mark.browser, pytest.mark.engine]

# How long a wait may take on a busy shared machine: a wait, not a measure of speed.
PATIENCE = 90_000
OUTBOX_EMPTY = "async () => self.Outbox && (await self.Outbox.all()).length === 0"


@pytest.fixture
def door(live_server: Any) -> Iterator[Front]:
    with front_of(live_server.url) as front:
        yield front


def source_hands(user: Any, fixture: str, count: int) -> tuple[Any, list[Hand], list[list[tuple[str, str]]]]:
    """An empty evening with a fixture's players and house rules, the fixture's first
    ``count`` played hands (as stored from it) and the forms the server draws of them."""
    text = (FIXTURES / fixture).read_text(encoding="utf-8")
    source = services.session_import(owner=user, text=text, name="Source")
    client = Client()
    client.login(username=user.get_username(), password=PASSWORD)
    hands = list(
        Hand.objects.filter(session=source, deleted_at__isnull=True, type="played").order_by("number")[:count]
    )
    forms = [new_hand_pairs(client, f"/sessions/{source.pk}/hands/{h.pk}/edit/") for h in hands]
    empty = json.loads(text)
    empty["hands"] = []
    target = services.session_import(owner=user, text=json.dumps(empty), name="Offline")
    return target, hands, forms


def record(page: Any, pairs: list[tuple[str, str]], players: int, sheet: str) -> None:
    """Record one hand through the hand form kept on the phone, as its taps would."""
    page.locator("#new-hand").click()
    expect(page.locator("#hand-form[data-ready]")).to_have_count(1)
    more_rows(page, pairs)
    assert not page.evaluate(FILL, [list(p) for p in pairs])
    expect(page.locator("#preview .preview-deltas li")).to_have_count(players, timeout=PATIENCE)
    page.locator("#save").click()
    expect(page).to_have_url(re.compile(rf"{re.escape(sheet)}#pending-\d+$"))
    expect(page.locator("#offline-page")).to_have_count(0)  # the sheet, not "not opened with a connection"
    expect(page.locator("#board")).to_be_visible()


def words(text: str) -> str:
    return " ".join(text.split())


def in_sight(page: Any) -> dict[str, list[str]]:
    """The sheet's rows kept in sight above the hands (Σ; a series and the balance), by key."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll("#board thead tr:not(.names):not(.provisional-note)")].map(
            (row) => [row.classList[0], [...row.querySelectorAll("td[data-player]")].map((td) => td.textContent.trim())]))"""
    )


def unsigned(text: str) -> str:
    return text.lstrip("+")


@pytest.mark.parametrize(
    "fixture, count, locale, mark",
    [
        ("koenigrufen-ooe-settlements.json", 3, "de-DE", "vorläufig"),
        ("koenigrufen-ooe-settlements.json", 3, "en-GB", "provisional"),
        ("rich-french.json", 1, "en-US", "provisional"),  # six at the table: the dealer sits out
        ("illustrated-seed-series.json", 1, "en-US", "provisional"),  # a series and the balance in sight
        ("rich-chambery.json", 1, "fr-FR", "provisoire"),
    ],
)
def test_a_phone_that_opened_the_sheet_once_records_offline_and_every_number_follows(
    fixture, count, locale, mark, page_for, live_server, player
):
    session, source, forms = source_hands(player, fixture, count)
    players = len(session.seats.all())
    phone = page_for(locale)
    login(phone, live_server.url, player)
    sheet = f"/sessions/{session.pk}/"
    phone.goto(f"{live_server.url}{sheet}")  # the one visit
    under_the_worker(phone)
    kept(phone, sheet)
    kept(phone, f"{sheet}hands/new/")
    engine_kept(phone)

    phone.context.set_offline(True)
    for pairs in forms:
        record(phone, pairs, players, sheet)
    waiting = phone.locator("#board .outbox-entry")
    expect(waiting).to_have_count(count)
    expect(phone.locator("#provisional .provisional-totals li")).to_have_count(players, timeout=PATIENCE)
    # Each waiting hand: one line, the way the sheet writes a stored hand.
    lines = [words(text) for text in phone.locator("#board .outbox-entry .pending-line").all_inner_texts()]
    assert all(
        "\n" not in text for text in phone.locator("#board .outbox-entry .pending-what").all_inner_texts()
    )
    # The rows in sight and the next dealer: worked out on the phone, marked, and the same as the box below.
    expect(phone.locator("#board thead tr.provisional-note")).to_have_text(mark)
    expect(phone.locator("#board thead tr.provisional")).to_have_count(len(in_sight(phone)))
    heads = in_sight(phone)
    totals = {
        item.get_attribute("data-player"): item.locator("span").inner_text()
        for item in phone.locator("#provisional .provisional-totals li").all()
    }
    if "totals" in heads:
        assert [unsigned(v) for v in heads["totals"]] == [unsigned(v) for v in totals.values()]
    dealer = phone.locator("#board .next-dealer strong").inner_text()
    expect(phone.locator("#board .next-dealer .provisional-mark")).to_have_text(mark)
    expect(phone.locator("#provisional .provisional-dealer strong")).to_have_text(dealer)
    assert Hand.objects.filter(session=session).count() == 0
    screenshot(phone, f"offline-first-visit-{session.variant}-{locale}")
    phone.locator("#board .next-dealer").evaluate("(shown) => shown.scrollIntoView()")
    screenshot(phone, f"offline-first-visit-{session.variant}-{locale}-screen", full_page=False)

    # Back online: exactly those hands are stored, and the sheet shows what the phone showed.
    back_online(phone)
    until(phone, OUTBOX_EMPTY, seconds=PATIENCE / 1000)
    expect(phone.locator("#board .outbox-entry")).to_have_count(0)
    expect(phone.locator("#board tbody.hand:not(.pending)")).to_have_count(count, timeout=PATIENCE)
    expect(phone.locator("#board[data-compared]")).to_have_count(1)
    stored = list(Hand.objects.filter(session=session, deleted_at__isnull=True).order_by("number"))
    assert [h.inputs for h in stored] == [h.inputs for h in source]
    expect(phone.locator("#board thead tr.provisional, #board thead tr.provisional-note")).to_have_count(0)
    assert in_sight(phone) == heads
    expect(phone.locator("#board .next-dealer strong")).to_have_text(dealer)
    rows = [
        words(re.sub(r"^\s*\d+\s+", "", text))
        for text in phone.locator("#board tbody.hand:not(.pending) tr.what a").all_inner_texts()
    ]
    assert rows == lines


def open_link_once(phone: Any, door: Front, link: str) -> None:
    """A table's link opened once, online: the worker keeps it, its hand form and the engine."""
    phone.goto(f"{door.url}{link}")
    under_the_worker(phone)
    kept(phone, link)
    kept(phone, f"{link}hands/new/")
    engine_kept(phone)


def test_a_table_link_opened_once_counts_the_hands_sent_between_two_outages(phone, door, player):
    day = tournament_day(player, tables_count=1, hands=4)
    table = day.table(1)
    play_hand(table)  # hand 1 stored; hand 2 is sent between two outages, hand 3 saved in the second
    table.refresh_from_db()
    link = f"/t/{table.link_token}/"
    hand = Hand.objects.get(session=table.session)
    pairs = new_hand_pairs(Client(HTTP_ACCEPT_LANGUAGE="en"), f"{link}hands/{hand.pk}/edit/")

    open_link_once(phone, door, link)
    phone.context.set_offline(True)
    phone.goto(f"{door.url}{link}hands/new/")
    expect(phone.locator("#hand-of")).to_have_text("Hand 2 of 4")
    save_at_four(phone, pairs, link)

    # The connection comes back for a moment while the hand form (its copy) is open: hand 2 is sent.
    phone.goto(f"{door.url}{link}hands/new/")
    expect(phone.locator("#hand-form[data-ready]")).to_have_count(1)
    back_online(phone)
    until(phone, OUTBOX_EMPTY, seconds=PATIENCE / 1000)
    assert Hand.objects.filter(session=table.session, deleted_at__isnull=True).count() == 2
    phone.context.set_offline(True)

    # The second outage: the copies kept before count hand 2 with what the server has.
    phone.reload()
    expect(phone.locator("#hand-form[data-ready]")).to_have_count(1)
    expect(phone.locator("#hand-of")).to_have_text("Hand 3 of 4")
    save_at_four(phone, pairs, link)
    expect(phone.locator("#played")).to_have_text("3 of 4 played", timeout=PATIENCE)
    expect(phone.locator("#next-hand")).to_have_text(" · Next hand 4 of 4")
    expect(phone.locator("#new-hand")).to_be_visible()

    back_online(phone)
    until(phone, OUTBOX_EMPTY, seconds=PATIENCE / 1000)
    expect(phone.locator("#played")).to_have_text("3 of 4 played", timeout=PATIENCE)
    assert Hand.objects.filter(session=table.session, deleted_at__isnull=True).count() == 3  # each once


def test_a_hand_deleted_offline_at_a_full_table_brings_back_new_hand(phone, door, player):
    day = tournament_day(player, tables_count=1, hands=2)
    table = day.table(1)
    play_hand(table)
    table.refresh_from_db()
    link = f"/t/{table.link_token}/"
    first = Hand.objects.get(session=table.session)
    pairs = new_hand_pairs(Client(HTTP_ACCEPT_LANGUAGE="en"), f"{link}hands/{first.pk}/edit/")

    open_link_once(phone, door, link)
    # The last hand, saved online: the table is full, its New hand button gone.
    phone.locator("#new-hand").click()
    # The whole form there and its script set up before it is filled.
    expect(phone.locator("#hand-form[data-ready]")).to_have_count(1)
    # Online a dealer chosen is drawn again by the server (htmx): the dealer the form proposes stands.
    assert not phone.evaluate(FILL, [list(p) for p in pairs if p[0] != "dealer"])
    phone.locator("#save").click()
    expect(phone.locator("#played")).to_have_text("2 of 2 played")
    expect(phone.locator("#new-hand")).to_be_hidden()
    last = Hand.objects.filter(session=table.session).order_by("number").last()
    assert last is not None
    kept(phone, f"{link}hands/{last.pk}/")

    phone.context.set_offline(True)
    phone.goto(f"{door.url}{link}hands/{last.pk}/")
    phone.locator(f'form[action$="/hands/{last.pk}/delete/"] button[type=submit]').click()
    expect(phone).to_have_url(re.compile(rf"{link}#pending-\d+$"))
    expect(phone.locator("#played")).to_have_text("1 of 2 played", timeout=PATIENCE)
    expect(phone.locator("#next-hand")).to_have_text(" · Next hand 2 of 2")
    expect(phone.locator("#new-hand")).to_be_visible()

    # The hand played instead, recorded on the form kept on the phone.
    phone.locator("#new-hand").click()
    expect(phone.locator("#hand-form[data-ready]")).to_have_count(1)
    expect(phone.locator("#hand-of")).to_have_text("Hand 2 of 2")
    save_at_four(phone, pairs, link)
    expect(phone.locator("#played")).to_have_text("2 of 2 played", timeout=PATIENCE)
    expect(phone.locator("#new-hand")).to_be_hidden()

    back_online(phone)
    until(phone, OUTBOX_EMPTY, seconds=PATIENCE / 1000)
    live = Hand.objects.filter(session=table.session, deleted_at__isnull=True).order_by("number")
    assert live.count() == 2 and last.pk not in [h.pk for h in live]


def test_the_kinds_of_hand_are_kept_and_drawn_offline(phone, live_server, player):
    session = services.session_create(
        owner=player,
        name="Trischaken",
        variant="illustrated",
        players=["Anna", "Bert", "Carl"],
        options={"all_pass": "trischaken"},
    )
    login(phone, live_server.url, player)
    sheet = f"/sessions/{session.pk}/"
    phone.goto(f"{live_server.url}{sheet}")
    under_the_worker(phone)
    kept(phone, f"{sheet}hands/new/")
    kept(phone, f"{sheet}hands/new/?type=trischaken")

    phone.context.set_offline(True)
    phone.locator("#new-hand").click()
    expect(phone.locator("#hand-form[data-ready]")).to_have_count(1)
    phone.locator('nav.tabs a[href="?type=trischaken"]').click()
    expect(phone.locator("#offline-page")).to_have_count(0)
    expect(phone.locator('#hand-form input[name="type"]')).to_have_value("trischaken")
    expect(phone.locator('nav.tabs a[aria-current="page"]')).to_have_attribute("href", "?type=trischaken")
    phone.locator('nav.tabs a[href="?type=played"]').click()
    expect(phone.locator('#hand-form input[name="type"]')).to_have_value("played")


def test_an_illustriertes_hand_under_becks_rules_is_drawn_and_scored_offline(phone, live_server, player):
    """The choices that show other fields (a premium's player shows how it was announced)
    work on the copy of the form, without the server, and the preview the phone shows
    is what the server stores."""
    from tests.browser.support import choose, field

    session = services.session_create(
        owner=player, name="Beck", variant="illustrated", players=["A", "B", "C"], options={"profile": "beck"}
    )
    login(phone, live_server.url, player)
    sheet = f"/sessions/{session.pk}/"
    phone.goto(f"{live_server.url}{sheet}")
    under_the_worker(phone)
    kept(phone, f"{sheet}hands/new/")
    engine_kept(phone)

    phone.context.set_offline(True)
    phone.locator("#new-hand").click()
    expect(phone.locator("#hand-form[data-ready]")).to_have_count(1)
    choose(phone, "declarer", "A")
    choose(phone, "game", "zweiblatt")
    choose(phone, "bid", "announced")
    choose(phone, "kontra", "1")
    announced = phone.locator("#f-premiums-koepfe-how")
    expect(announced).to_be_hidden()
    choose(phone, "premiums.koepfe.who", "A")
    expect(announced).to_be_visible()
    choose(phone, "premiums.koepfe.how", "before_talon")
    field(phone, "points").fill("39")
    deltas = phone.locator("#preview .preview-deltas li")
    expect(deltas).to_have_count(3, timeout=PATIENCE)
    shown = [words(text) for text in deltas.all_inner_texts()]
    phone.locator("#save").click()
    expect(phone).to_have_url(re.compile(rf"{sheet}#pending-\d+$"))

    back_online(phone)
    until(phone, OUTBOX_EMPTY, seconds=PATIENCE / 1000)
    hand = Hand.objects.get(session=session)
    premiums = [(p["type"], p["player"], p.get("announced", "silent")) for p in hand.inputs["premiums"]]
    assert premiums == [("koepfe", "A", "before_talon")]
    assert shown == [f"{name} {signed(float(value))}" for name, value in hand.delta_points().items()]


def save_at_four(phone: Any, pairs: list[tuple[str, str]], link: str) -> None:
    """Fill the table's hand form offline, wait for the phone's preview of four
    players, save, and land on the table's sheet at the waiting hand."""
    assert not phone.evaluate(FILL, [list(p) for p in pairs])
    expect(phone.locator("#preview .preview-deltas li")).to_have_count(4, timeout=PATIENCE)
    phone.locator("#save").click()
    expect(phone).to_have_url(re.compile(rf"{link}#pending-\d+$"))


def back_online(phone: Any) -> None:
    """The network returns and the page is told so at once; where the page heard the
    browser's own "online" first, it is already sending and drawing the sheet again."""
    phone.context.set_offline(False)
    answer(phone, "() => dispatchEvent(new Event('online'))", None)
