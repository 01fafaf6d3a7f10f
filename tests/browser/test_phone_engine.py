"""The engine on the phone: offline, the hand form's preview and refusals and the
sheet's provisional totals come from the same engine the server runs (Pyodide in a
worker), and equal what the server stores once the hands arrive."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from scoring import services
from scoring.models import Hand
from tests.browser.front import Front, front_of
from tests.browser.phone_table import HANDS, PLAYERS
from tests.browser.support import PASSWORD, expect, fill_hand, french_session, goto_while_it_reloads
from tests.browser.test_offline import answer, open_sheet_for_offline, until
from tests.engine.support import FIXTURES

pytestmark = [pytest.mark.browser, pytest.mark.engine]

# Impossible: no contract chosen, 95 points.
IMPOSSIBLE = {"taker": "Anna", "bouts": "1", "points": "95"}


def server_refusal(session: Any, user: Any, hand: dict[str, str]) -> str:
    """What the server's own hand form says of this hand when it is saved online."""
    client = Client()
    client.login(username=user.get_username(), password=PASSWORD)
    data = {**hand, "action": "save", "type": "played"}
    response = client.post(f"/sessions/{session.pk}/hands/new/", data, HTTP_ACCEPT_LANGUAGE="en")
    found = re.search(r'<p class="open" data-summary role="alert">(.*?)</p>', response.content.decode(), re.S)
    assert found, "the server refuses it with its summary"
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


# The kinds of the entries waiting in the outbox, once the page's modules have loaded it.
OUTBOX_KINDS = """async () => {
    while (!self.Outbox) await new Promise((resolve) => setTimeout(resolve, 50));
    return (await self.Outbox.all()).map((entry) => entry.kind);
}"""


def waiting_kinds(page: Any) -> list[str]:
    return list(page.evaluate(OUTBOX_KINDS))


def engine_kept(page: Any) -> None:
    """Wait until the worker has fetched the runtime and the bundle in the background."""
    until(
        page,
        """async () => {
            const config = JSON.parse(document.getElementById("offline-config").textContent).engine;
            for (const url of [...config.runtimeFiles, config.bundle]) {
                if (!(await caches.match(url))) return false;
            }
            return true;
        }""",
        seconds=90,
    )


def provisional_totals(page: Any) -> dict[str, str]:
    items = page.locator("#provisional .provisional-totals li")
    return {item.get_attribute("data-player"): item.locator("span").inner_text() for item in items.all()}


@pytest.fixture
def door(live_server: Any) -> Iterator[Front]:
    """The live server behind a door the test can shut: a server stopped, the network up."""
    with front_of(live_server.url) as front:
        yield front


def reloaded_after_sending(page: Any, session: Any, stored: int) -> None:
    """Wait until the sheet, drawn again by the server once the waiting hands arrived,
    has compared its numbers with what the phone worked out (that comparison uses up
    the phone's provisional totals)."""
    expect(page).to_have_url(re.compile(rf"/sessions/{session.pk}/$"))
    expect(page.locator("#board tbody.hand:not(.pending)")).to_have_count(stored)
    expect(page.locator("#board[data-compared]")).to_have_count(1)
    until(page, f"() => sessionStorage.getItem('provisional-{session.pk}') === null")


def test_ten_hands_offline_are_scored_on_the_phone_and_equal_what_the_server_stores(phone, door, player):
    session = french_session(player, "Phone", PLAYERS, [])
    from tests.browser.support import login

    login(phone, door.url, player)
    sheet = open_sheet_for_offline(phone, door.url, session)
    engine_kept(phone)
    door.shut()  # the server stops; the phone keeps its network

    # An impossible hand is refused on the phone, in the server's words, and not kept.
    phone.locator("#new-hand").click()
    fill_hand(phone, IMPOSSIBLE)
    expect(phone.locator("#preview .open-list li").first).to_be_visible(timeout=60_000)
    phone.locator("#save").click()
    refusal = phone.locator('#quick p.open[role="alert"]')
    expect(refusal).to_be_visible()
    assert phone.url.endswith("/hands/new/")
    phone_words = " ".join(refusal.inner_text().split())
    assert len(waiting_kinds(phone)) == 0  # not kept

    for hand in HANDS:
        phone.goto(f"{door.url}{sheet}hands/new/")
        expect(phone.locator("#hand-form[data-ready]")).to_have_count(1)  # the kept copy set up
        fill_hand(phone, hand)
        expect(phone.locator("#preview .preview-deltas li")).to_have_count(4)
        phone.locator("#save").click()
        expect(phone).to_have_url(re.compile(r"/sessions/\d+/#pending-\d+$"))
    expect(phone.locator("#provisional .provisional-totals li")).to_have_count(4)
    phone_totals = provisional_totals(phone)
    dealer = phone.locator("#provisional .provisional-dealer").inner_text()
    assert Hand.objects.filter(session=session).count() == 0
    assert phone.evaluate("() => navigator.onLine")

    # The server is back; the player opens the sheet again, which sends what waits.
    door.open()
    goto_while_it_reloads(phone, f"{door.url}{sheet}")
    until(phone, "async () => self.Outbox && (await self.Outbox.all()).length === 0", seconds=90)
    reloaded_after_sending(phone, session, 10)
    assert Hand.objects.filter(session=session).count() == 10  # each once
    game = services.game_of(session)
    heads = phone.locator("#board thead tr").nth(1).locator("td")
    server_totals = {name: heads.nth(i).inner_text() for i, name in enumerate(PLAYERS)}
    assert {k: v.lstrip("+") for k, v in phone_totals.items()} == {
        k: v.lstrip("+") for k, v in server_totals.items()
    }
    assert dealer.endswith(services.proposed_dealer(session, game))
    expect(phone.locator("#provisional-differs")).to_have_count(0)
    assert phone_words == server_refusal(session, player, IMPOSSIBLE)


# -- every game: ten hands each, typed into the phone's own form offline ------------------

FIXTURE_OF = {
    "french": "rich-french.json",
    "chambery": "rich-chambery.json",
    "illustrated": "rich-illustrated.json",
    "koenigrufen": "koenigrufen-ooe-settlements.json",
}

# Sets each posted field on the page's form as a person's taps would: the dealer first
# (the fields follow who sits out), then every other control by its name and value.
FILL = """(pairs) => {
    const form = document.getElementById("hand-form");
    const set = (name, value) => {
        const controls = [...form.querySelectorAll(`[name="${CSS.escape(name)}"]`)];
        if (!controls.length) return name;
        for (const control of controls) {
            if (control.type === "radio" || control.type === "checkbox") {
                if (control.value === value) control.checked = true;
            } else if (control.type !== "hidden" || name.endsWith(".rows")) {
                control.value = value;
            }
        }
        return null;
    };
    const dealer = pairs.find(([name]) => name === "dealer");
    if (dealer) {
        set("dealer", dealer[1]);
        form.querySelector('[name="dealer"]').dispatchEvent(new Event("change", { bubbles: true }));
    }
    const missing = pairs.filter(([name]) => name !== "dealer").map(([name, value]) => set(name, value)).filter(Boolean);
    form.dispatchEvent(new Event("change", { bubbles: true }));
    return missing;
}"""


def more_rows(page: Any, pairs: list[tuple[str, str]]) -> None:
    """Tap a list's "Another row" until it has the rows the hand fills."""
    for name, value in pairs:
        if name.endswith(".rows"):
            count = page.locator(f'#hand-form input[type=hidden][name="{name}"]')
            for _ in range(int(value) - int(count.input_value())):
                drawn = count.input_value()
                page.locator(f'#hand-form button[name="action"][value="more:{name[:-5]}"]').click()
                expect(count).not_to_have_value(drawn)


def new_hand_pairs(client: Client, edit_url: str) -> list[tuple[str, str]]:
    """A stored hand's fields as its correction form posts them, without what only a
    correction has (its reason): what the new-hand form posts for the same hand."""
    from tests.scoring.test_phone import form_pairs

    return [(name, value) for name, value in form_pairs(client, edit_url) if name != "reason"]


def game_hands(user: Any, variant: str) -> tuple[Any, list[list[tuple[str, str]]]]:
    """An empty evening of this game (players and house rules of its fixture), and its
    played hands as the server's own forms post them (the fixture's, repeated)."""

    text = (FIXTURES / FIXTURE_OF[variant]).read_text(encoding="utf-8")
    source = services.session_import(owner=user, text=text, name="Source")
    client = Client()
    client.login(username=user.get_username(), password=PASSWORD)
    hands = Hand.objects.filter(session=source, deleted_at__isnull=True, type="played").order_by("number")
    forms = [new_hand_pairs(client, f"/sessions/{source.pk}/hands/{h.pk}/edit/") for h in hands]
    empty = json.loads(text)
    empty["hands"] = []
    target = services.session_import(owner=user, text=json.dumps(empty), name=f"Offline {variant}")
    return target, [forms[i % len(forms)] for i in range(40)]


def test_every_game_scores_ten_hands_offline_as_the_server_stores_them(phone, live_server, player):
    from scoring.engine import offline as on_the_phone
    from tests.browser.support import login
    from tests.scoring.test_phone import evening_of

    login(phone, live_server.url, player)
    for variant in FIXTURE_OF:
        session, forms = game_hands(player, variant)
        sheet = open_sheet_for_offline(phone, live_server.url, session)
        engine_kept(phone)
        phone.context.set_offline(True)
        index = 0
        for pairs in forms:
            if index == 10:
                break
            phone.goto(f"{live_server.url}{sheet}hands/new/")
            expect(phone.locator("#hand-form[data-ready]")).to_have_count(1)  # the kept copy set up
            more_rows(phone, pairs)  # a second poignée: "Another row", drawn on the phone
            assert not phone.evaluate(FILL, [list(p) for p in pairs]), variant
            expect(phone.locator("#preview .preview-deltas li")).to_have_count(
                len(evening_of(session)["players"])
            )
            phone.locator("#save").click()
            expect(phone).to_have_url(re.compile(r"/sessions/\d+/#pending-\d+$"))
            index += 1
        assert index == 10, variant
        expect(phone.locator("#provisional .provisional-totals li")).to_have_count(
            len(evening_of(session)["players"])
        )
        phone.goto(f"{live_server.url}{sheet}")  # opened again from the phone's copy
        expect(phone.locator("#provisional .provisional-totals li").first).to_be_visible()
        kept = phone.evaluate(f"() => JSON.parse(sessionStorage.getItem('provisional-{session.pk}'))")
        dealer = phone.locator("#provisional .provisional-dealer").inner_text()
        assert Hand.objects.filter(session=session).count() == 0

        phone.context.set_offline(False)
        # Told at once; where the page heard the browser's own "online" first, it is
        # already sending and drawing the sheet again (answer: None meanwhile).
        answer(phone, "() => dispatchEvent(new Event('online'))", None)
        until(phone, "async () => self.Outbox && (await self.Outbox.all()).length === 0", seconds=120)
        reloaded_after_sending(phone, session, 10)
        assert Hand.objects.filter(session=session, deleted_at__isnull=True).count() == 10  # each once
        server = on_the_phone.score_table({**evening_of(session), "waiting": []})
        assert kept["exact"] == server["exact"], variant  # provisional totals = what the server stores
        assert dealer.endswith(services.proposed_dealer(session, services.game_of(session))), variant
        expect(phone.locator("#provisional-differs")).to_have_count(0)


def test_with_the_server_stopped_and_the_network_up_an_impossible_hand_is_refused_before_it_is_kept(
    phone, door, player
):
    from tests.browser.support import login

    session = french_session(player, "Stopped", PLAYERS, [])
    login(phone, door.url, player)
    sheet = open_sheet_for_offline(phone, door.url, session)
    engine_kept(phone)
    phone.goto(f"{door.url}{sheet}hands/new/")
    expect(phone.locator("#hand-form[data-ready]")).to_have_count(1)
    # The server stops; the phone still has a network (navigator.onLine).
    door.shut()
    phone.goto(f"{door.url}{sheet}hands/new/")  # the copy kept on the phone
    expect(phone.locator("#hand-form[data-ready]")).to_have_count(1)
    # "Another row" as the first tap: drawn on the phone, the form stays.
    phone.locator('#hand-form button[value="more:poignees"]').click()
    expect(phone.locator('#hand-form input[name="poignees.rows"]')).to_have_value("2")
    expect(phone.locator('#hand-form [name="poignees[2].player"]')).to_have_count(5)
    assert phone.url.endswith("/hands/new/")
    fill_hand(phone, IMPOSSIBLE)
    expect(phone.locator("#preview .open-list li").first).to_be_visible(timeout=60_000)
    phone.locator("#save").click()
    expect(phone.locator('#quick p.open[role="alert"]')).to_be_visible()
    assert phone.evaluate("() => navigator.onLine")
    assert len(waiting_kinds(phone)) == 0
    assert phone.url.endswith("/hands/new/")
    # A complete hand is kept on the phone and arrives once the server answers again.
    fill_hand(phone, HANDS[0] | {"contract": HANDS[0]["contract"]})
    expect(phone.locator("#preview .preview-deltas li")).to_have_count(4)
    phone.locator("#save").click()
    expect(phone).to_have_url(re.compile(r"/sessions/\d+/#pending-\d+$"))
    door.open()
    goto_while_it_reloads(phone, f"{door.url}{sheet}")
    until(phone, "async () => self.Outbox && (await self.Outbox.all()).length === 0", seconds=60)
    reloaded_after_sending(phone, session, 1)
    assert Hand.objects.filter(session=session).count() == 1
    # Where the server's numbers differ from what the phone worked out, the sheet says so once.
    phone.evaluate(
        """(id) => sessionStorage.setItem("provisional-" + id, JSON.stringify({
            count: 1,
            exact: { Anna: "999", Bert: "0", Carl: "0", Dora: "-999" },
            totals: [["Anna", "999", "plus"], ["Bert", "0", "zero"], ["Carl", "0", "zero"], ["Dora", "\\u2212999", "minus"]],
        }))""",
        session.pk,
    )
    phone.goto(f"{door.url}/sessions/{session.pk}/")
    differs = phone.locator("#provisional-differs")
    expect(differs).to_contain_text("The server scored differently from this phone")
    expect(differs).to_contain_text("Anna 999 →")
    phone.reload()
    expect(phone.locator("#provisional-differs")).to_have_count(0)


def test_a_correction_made_with_the_server_stopped_is_scored_and_checked_on_the_phone(phone, door, player):
    from scoring.engine import offline as on_the_phone
    from tests.browser.support import login
    from tests.browser.test_offline import kept
    from tests.scoring.test_phone import evening_of

    stored = [
        {"dealer": "Dora", "taker": "Anna", "contract": "prise", "bouts": 1, "points": 52},
        {"dealer": "Anna", "taker": "Bert", "contract": "garde", "bouts": 2, "points": 38},
        {"dealer": "Bert", "taker": "Carl", "contract": "prise", "bouts": 0, "points": 60},
    ]
    session = french_session(player, "Corrected", PLAYERS, stored)
    last = Hand.objects.filter(session=session).order_by("number").last()
    assert last is not None
    before = on_the_phone.score_table({**evening_of(session), "waiting": []})
    login(phone, door.url, player)
    sheet = open_sheet_for_offline(phone, door.url, session)
    kept(phone, f"{sheet}hands/{last.pk}/edit/")  # opening the sheet keeps the last hand's correction form
    engine_kept(phone)
    door.shut()

    phone.goto(f"{door.url}{sheet}hands/{last.pk}/edit/")
    expect(phone.locator("#hand-form[data-ready]")).to_have_count(1)
    # An impossible correction is refused on the phone, in the server's words, and not kept.
    fill_hand(phone, {"points": "95"})
    expect(phone.locator("#preview .open-list li").first).to_be_visible(timeout=60_000)
    phone.locator("#save").click()
    refusal = phone.locator('#quick p.open[role="alert"]')
    expect(refusal).to_be_visible()
    assert "91" in refusal.inner_text()
    assert len(waiting_kinds(phone)) == 0
    assert phone.url.endswith(f"/hands/{last.pk}/edit/")
    # A possible one shows its numbers before it is kept, and the sheet's totals take it in.
    fill_hand(phone, {"points": "41"})
    expect(phone.locator("#preview .preview-deltas li")).to_have_count(4)
    expect(phone.locator("#preview .preview-what")).to_contain_text("41")
    phone.locator("#save").click()
    expect(phone).to_have_url(re.compile(r"/sessions/\d+/#pending-\d+$"))
    expect(phone.locator("#provisional .provisional-totals li")).to_have_count(4)
    # The correction reads as the row it will become, its numbers beside it.
    expect(phone.locator(".outbox-entry .pending-line")).to_contain_text("41")
    expect(phone.locator(".outbox-entry .provisional-hand")).to_have_count(1)
    # Corrected once more before it was sent: one correction waits, the latest.
    phone.goto(f"{door.url}{sheet}hands/{last.pk}/edit/")
    expect(phone.locator("#hand-form[data-ready]")).to_have_count(1)
    fill_hand(phone, {"points": "43"})
    expect(phone.locator("#preview .preview-what")).to_contain_text("43")
    phone.locator("#save").click()
    expect(phone).to_have_url(re.compile(r"/sessions/\d+/#pending-\d+$"))
    expect(phone.locator(".outbox-entry .provisional-hand")).to_have_count(1)
    expect(phone.locator(".outbox-entry .pending-line")).to_contain_text("43")
    assert len(waiting_kinds(phone)) == 1
    kept_totals = phone.evaluate(f"() => JSON.parse(sessionStorage.getItem('provisional-{session.pk}'))")
    assert Hand.objects.get(pk=last.pk).as_session_hand()["points"] == 60  # not yet at the server

    door.open()
    goto_while_it_reloads(phone, f"{door.url}{sheet}")
    until(phone, "async () => self.Outbox && (await self.Outbox.all()).length === 0", seconds=60)
    reloaded_after_sending(phone, session, 3)
    assert Hand.objects.get(pk=last.pk).as_session_hand()["points"] == 43
    server = on_the_phone.score_table({**evening_of(session), "waiting": []})
    assert kept_totals["exact"] == server["exact"]  # the phone's provisional totals = what the server stores
    assert kept_totals["exact"] != before["exact"]
    expect(phone.locator("#provisional-differs")).to_have_count(0)

    # A hand waiting on this phone to be deleted cannot be corrected: said before it is kept.
    kept(phone, f"{sheet}hands/{last.pk}/")
    kept(phone, f"{sheet}hands/{last.pk}/edit/")
    door.shut()
    phone.goto(f"{door.url}{sheet}hands/{last.pk}/")
    phone.get_by_role("button", name="Delete").click()
    expect(phone).to_have_url(re.compile(r"/sessions/\d+/#pending-\d+$"))
    phone.goto(f"{door.url}{sheet}hands/{last.pk}/edit/")
    expect(phone.locator("#hand-form[data-ready]")).to_have_count(1)
    fill_hand(phone, {"points": "45"})
    expect(phone.locator("#preview .open-list li")).to_have_text(
        ["This hand is deleted, or waits on this phone to be deleted: it cannot be corrected."],
        timeout=60_000,
    )
    phone.locator("#save").click()
    expect(phone.locator('#quick p.open[role="alert"]')).to_contain_text("it cannot be corrected")
    assert waiting_kinds(phone) == ["delete"]
