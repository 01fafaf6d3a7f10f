"""No hand is lost when the network is: a phone at the table goes offline
(Playwright's offline switch), keeps recording, and everything it recorded
arrives exactly once when the connection returns."""

from __future__ import annotations

import re
import threading
import time
from typing import Any

import pytest
from django.core.handlers.base import BaseHandler

from scoring.models import Hand
from tests.browser.phone_table import KEPT
from tests.browser.support import (
    assert_accessible,
    expect,
    fill_hand,
    french_session,
    login,
    reload_while_it_reloads,
    screenshot,
    signed,
    small_targets,
)

pytestmark = [pytest.mark.browser, pytest.mark.engine]

PLAYERS = ["Anna", "Bert", "Carl", "Dora"]
# Four players (docs/rules.md §1.3): Garde, 2 bouts, 50 of 41: (25 + 9) × 2 = 68 from each defender.
GARDE = {"taker": "Anna", "contract": "garde", "bouts": "2", "points": "50"}
# Prise lost, 1 bout, 45 of 51: −(25 + 6) = −31 to each defender.
PRISE_LOST = {"taker": "Bert", "contract": "prise", "bouts": "1", "points": "45"}
# Prise won, no bout, 60 of 56: 25 + 4 = 29 from each defender.
PRISE_WON = {"taker": "Carl", "contract": "prise", "bouts": "0", "points": "60"}


# How long a wait may take on a busy shared machine: installing the worker fetches
# every file it keeps. A wait, not a measure of speed.
PATIENCE = 60
# The hands the server stored and that count: neither waiting in the outbox nor deleted.
STORED_HANDS = "#board tbody.hand:not(.pending):not(.deleted)"


def under_the_worker(page: Any) -> None:
    """Wait until the service worker is running and controls this page."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=PATIENCE * 1000)


def until(page: Any, script: str, arg: Any = None, seconds: float = PATIENCE) -> None:
    """Wait until an async script on the page answers true (wait_for_function
    would take its promise for a true answer)."""
    deadline = time.monotonic() + seconds
    while not answer(page, script, arg):
        assert time.monotonic() < deadline, f"still not true after {seconds} s: {script}"
        page.wait_for_timeout(100)


def answer(page: Any, script: str, arg: Any) -> Any:
    """The script's answer, or None while the page is being replaced (the sheet draws itself again)."""
    from playwright.sync_api import Error

    try:
        return page.evaluate(script, arg)
    except Error as error:
        if "context was destroyed" in str(error) or "Outbox is not defined" in str(error):
            return None
        raise


def kept(page: Any, path: str) -> None:
    """Wait until the worker has kept a copy of this page for offline."""
    until(page, KEPT, path)


def open_sheet_for_offline(page: Any, base: str, session: Any) -> str:
    """Open the sheet with the worker in control, so that it and its hand form are kept."""
    sheet = f"/sessions/{session.pk}/"
    page.goto(f"{base}{sheet}")
    under_the_worker(page)
    page.goto(f"{base}/")  # now through the worker, which keeps the pages
    kept(page, "/")
    page.goto(f"{base}{sheet}")
    kept(page, sheet)
    kept(page, f"{sheet}hands/new/")
    return sheet


def record_offline(page: Any, hand: dict[str, str], *, double_tap: bool = False) -> None:
    page.locator("#new-hand").click()
    expect(page.locator("#hand-form")).to_be_visible()
    # Scored on the phone once its engine is ready (test_phone_engine.py), else when it arrives.
    expect(page.locator("#preview")).to_contain_text(
        re.compile("scored when it arrives|cannot score offline|Preparing the scoring|Fill in|Not complete")
    )
    fill_hand(page, hand)
    if double_tap:
        page.locator("#save").dblclick()
    else:
        page.locator("#save").click()
    expect(page).to_have_url(re.compile(r"/sessions/\d+/#pending-\d+$"))


def stored(session: Any) -> list[dict[str, Any]]:
    return [
        {"number": h.number, "taker": h.inputs.get("taker"), "deltas": h.deltas}
        for h in Hand.objects.filter(session=session, deleted_at__isnull=True).order_by("number")
    ]


def test_three_hands_recorded_offline_arrive_once_each_in_order(phone, live_server, player):
    session = french_session(player, "Cellar", PLAYERS, [])
    login(phone, live_server.url, player)
    sheet = open_sheet_for_offline(phone, live_server.url, session)

    phone.context.set_offline(True)
    record_offline(phone, GARDE)
    record_offline(phone, PRISE_LOST, double_tap=True)
    record_offline(phone, PRISE_WON)

    # On the phone: three hands waiting, in the order they were saved; nothing on the server yet.
    waiting = phone.locator("#board .outbox-entry")
    expect(waiting).to_have_count(3)
    expect(waiting.nth(0)).to_contain_text("Anna")
    expect(waiting.nth(1)).to_contain_text("Bert")
    expect(waiting.nth(2)).to_contain_text("Carl")
    expect(waiting.first).to_contain_text("Waiting to be sent")
    expect(phone.locator("#offline-note")).to_contain_text(
        re.compile(r"Offline — showing the state of \d\d:\d\d")
    )
    assert stored(session) == []
    assert_accessible(phone, "the sheet kept offline, with hands waiting")
    screenshot(phone, "offline-three-waiting")

    # The session list opened before is there too; a page never opened says it cannot be shown.
    phone.goto(f"{live_server.url}/")
    expect(phone.locator("#session-list")).to_contain_text("Cellar")
    expect(phone.locator("#offline-note")).to_be_visible()
    phone.goto(f"{live_server.url}/sessions/{session.pk}/settlement/")
    expect(phone.locator("#offline-page")).to_be_visible()
    phone.goto(f"{live_server.url}{sheet}")

    # Reloaded while offline: the sheet kept on the phone, with the hands still waiting.
    phone.reload()
    expect(phone.locator("#board .outbox-entry")).to_have_count(3)
    expect(phone.locator("#offline-note")).to_be_visible()

    # The connection returns: each hand is stored once, in order, and the sheet shows them scored.
    phone.context.set_offline(False)
    expect(phone.locator(STORED_HANDS)).to_have_count(3, timeout=PATIENCE * 1000)
    expect(phone.locator("#board .outbox-entry")).to_have_count(0)
    expect(phone.locator("#offline-note")).to_have_count(0)
    assert [(h["number"], h["taker"]) for h in stored(session)] == [(1, "Anna"), (2, "Bert"), (3, "Carl")]
    totals = {"Anna": 204 + 31 - 29, "Bert": -68 - 93 - 29, "Carl": -68 + 31 + 87, "Dora": -68 + 31 - 29}
    for name, value in totals.items():
        expect(phone.locator(f'tr.totals td[data-player="{name}"]')).to_have_text(signed(value))
    assert phone.url.startswith(f"{live_server.url}{sheet}")
    until(phone, "async () => (await Outbox.all()).length === 0")


def test_a_hand_recorded_offline_and_one_recorded_online_on_another_phone_are_both_kept(
    phone, page_for, live_server, player
):
    session = french_session(player, "Two phones", PLAYERS, [])
    login(phone, live_server.url, player)
    open_sheet_for_offline(phone, live_server.url, session)
    phone.context.set_offline(True)
    record_offline(phone, GARDE)

    # Meanwhile the other phone, online, records a hand through the form.
    other = page_for("en-US")
    login(other, live_server.url, player)
    other.goto(f"{live_server.url}/sessions/{session.pk}/hands/new/")
    fill_hand(other, PRISE_LOST)
    other.locator("#save").click()
    expect(other).to_have_url(re.compile(r"#hand-\d+$"))
    assert [h["taker"] for h in stored(session)] == ["Bert"]

    # Back online, the first phone's hand arrives after it: both are kept, numbered as they arrived.
    phone.context.set_offline(False)
    expect(phone.locator(STORED_HANDS)).to_have_count(2, timeout=PATIENCE * 1000)
    assert [(h["number"], h["taker"]) for h in stored(session)] == [(1, "Bert"), (2, "Anna")]
    expect(phone.locator('tr.totals td[data-player="Anna"]')).to_have_text(signed(204 + 31))


def test_a_hand_the_server_refuses_is_kept_with_the_reason_until_it_is_corrected(phone, live_server, player):
    # A phone that cannot score offline (too little memory): the server judges what it kept.
    phone.add_init_script("Object.defineProperty(navigator, 'deviceMemory', { get: () => 0.5 })")
    session = french_session(player, "Refused", PLAYERS, [])
    login(phone, live_server.url, player)
    open_sheet_for_offline(phone, live_server.url, session)

    phone.context.set_offline(True)
    without_points = {name: value for name, value in GARDE.items() if name != "points"}
    record_offline(phone, without_points)
    phone.locator("#new-hand").click()
    expect(phone.locator("#preview")).to_contain_text("cannot score offline (too little memory)")
    phone.go_back()
    record_offline(phone, PRISE_LOST)
    phone.context.set_offline(False)

    # The complete hand is stored; the one without points is not, and says why, on the sheet.
    expect(phone.locator(STORED_HANDS)).to_have_count(1, timeout=PATIENCE * 1000)
    refused = phone.locator('#board .outbox-entry[data-state="refused"]')
    expect(refused).to_have_count(1)
    expect(refused).to_contain_text("Not stored by the server")
    expect(refused.locator(".reason")).to_contain_text("Points")
    assert [h["taker"] for h in stored(session)] == ["Bert"]
    assert small_targets(phone) == []
    assert_accessible(phone, "a refused hand on the sheet")
    screenshot(phone, "offline-refused")

    # Opening it again, reloading, going offline: it is still there.
    reload_while_it_reloads(phone)
    expect(refused).to_have_count(1)

    # Corrected: the form opens with what was typed, the missing points are added, and it arrives.
    refused.get_by_role("button", name="Correct").click()
    expect(phone.locator('input[name="taker"][value="Anna"]')).to_be_checked()
    expect(phone.locator("#preview")).to_contain_text("Not complete yet")
    phone.locator('[name="points"]').fill("50")
    phone.locator("#save").click()
    expect(phone.locator(STORED_HANDS)).to_have_count(2, timeout=PATIENCE * 1000)
    expect(phone.locator("#board .outbox-entry")).to_have_count(0)
    assert [(h["number"], h["taker"]) for h in stored(session)] == [(1, "Bert"), (2, "Anna")]


def test_a_correction_made_offline_meets_a_change_made_elsewhere_with_the_conflict(
    phone, live_server, player
):
    from scoring import services

    recorded = [
        {"taker": "Anna", "contract": "garde", "bouts": 2, "points": 50},
        {"taker": "Bert", "contract": "prise", "bouts": 1, "points": 45},
    ]
    session = french_session(player, "Corrected", PLAYERS, recorded)
    first, second = Hand.objects.filter(session=session).order_by("number")
    login(phone, live_server.url, player)
    open_sheet_for_offline(phone, live_server.url, session)
    # The last hand's page and correction form are kept with the sheet; the first hand's once opened.
    kept(phone, f"/sessions/{session.pk}/hands/{second.pk}/")
    phone.goto(f"{live_server.url}/sessions/{session.pk}/hands/{first.pk}/edit/")
    kept(phone, f"/sessions/{session.pk}/hands/{first.pk}/edit/")
    phone.goto(f"{live_server.url}/sessions/{session.pk}/")

    phone.context.set_offline(True)
    # The first hand corrected to 52 points, the second deleted: both wait on the sheet.
    phone.goto(f"{live_server.url}/sessions/{session.pk}/hands/{first.pk}/edit/")
    phone.locator('[name="points"]').fill("52")
    phone.locator("#save").click()
    expect(phone.locator(f"#hand-{first.pk} .outbox-entry")).to_contain_text("Correction")
    phone.goto(f"{live_server.url}/sessions/{session.pk}/hands/{second.pk}/")
    phone.locator('form[action$="/delete/"] button').click()
    expect(phone.locator(f"#hand-{second.pk} .outbox-entry")).to_contain_text("Deletion")

    # Meanwhile someone else corrects the first hand to 48 points.
    raw = {**first.as_session_hand(), "points": 48}
    services.hand_edit(hand=first, raw=raw, user=player, expected_version=first.version)

    phone.context.set_offline(False)
    # The deletion arrives; the correction does not overwrite the other one: it shows the conflict.
    expect(phone.locator(STORED_HANDS)).to_have_count(1, timeout=PATIENCE * 1000)
    conflict = phone.locator(f'#hand-{first.pk} .outbox-entry[data-state="refused"]')
    expect(conflict).to_contain_text("Someone else changed this hand")
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.inputs["points"] == 48 and second.is_deleted

    # Corrected again from the newer values, it is stored.
    conflict.get_by_role("link", name="Correct").click()
    expect(phone.locator('[name="points"]')).to_have_value("48")
    phone.locator('[name="points"]').fill("52")
    phone.locator("#save").click()
    expect(phone).to_have_url(f"{live_server.url}/sessions/{session.pk}/")  # drawn again once sent
    until(phone, "async () => (await Outbox.all()).length === 0")
    expect(phone.locator("#board .outbox-entry")).to_have_count(0)
    first.refresh_from_db()
    assert first.inputs["points"] == 52


def test_the_app_can_be_installed_from_the_session_list(phone, live_server, player):
    login(phone, live_server.url, player)
    under_the_worker(phone)
    registration = phone.evaluate(
        """async () => {
            const registration = await navigator.serviceWorker.ready;
            return {scope: registration.scope, script: registration.active.scriptURL,
                    controlled: navigator.serviceWorker.controller !== null};
        }"""
    )
    assert registration == {
        "scope": f"{live_server.url}/",
        "script": f"{live_server.url}/sw.js",
        "controlled": True,
    }
    manifest = phone.evaluate(
        """async () => {
            const link = document.querySelector('link[rel="manifest"]');
            const manifest = await (await fetch(link.href)).json();
            const icons = [];
            for (const icon of manifest.icons) {
                const image = new Image();
                image.src = icon.src;
                await image.decode();
                icons.push({sizes: icon.sizes, purpose: icon.purpose, drawn: `${image.naturalWidth}x${image.naturalHeight}`});
            }
            return {...manifest, icons};
        }"""
    )
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["name"] == "tarockscore" and manifest["theme_color"].startswith("#")
    assert {(i["sizes"], i["purpose"]) for i in manifest["icons"]} >= {("192x192", "any"), ("512x512", "any")}
    assert all(i["sizes"] == i["drawn"] for i in manifest["icons"]), manifest["icons"]
    # Chromium's own check, the one behind "Install app" and "Add to home screen".
    # Playwright's contexts are off the record, which alone keeps a browser from installing.
    devtools = phone.context.new_cdp_session(phone)
    errors = devtools.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []


def test_a_page_loaded_outside_the_worker_is_taken_under_it(phone, live_server, player):
    """A page that loaded while the worker was still starting (or by a reload that
    bypasses it) asks to be claimed, so its own requests go through the worker too."""
    login(phone, live_server.url, player)
    under_the_worker(phone)
    # Chromium's "reload, ignoring the cache" loads the page without its worker.
    devtools = phone.context.new_cdp_session(phone)
    devtools.send("Page.reload", {"ignoreCache": True})
    phone.wait_for_load_state("load")
    under_the_worker(phone)
    assert phone.evaluate("() => document.documentElement.hasAttribute('data-copy')") is False


# The sheet's copy thrown away, then the page's own request to keep what it needs, as
# its script makes it when the worker took control of it before the script ran (the
# worker registered on the login page, activated while the sheet was being fetched).
FORGET_AND_KEEP = """async (path) => {
    for (const name of await caches.keys()) await (await caches.open(name)).delete(path);
    const module = performance.getEntriesByType("resource").map((entry) => entry.name)
        .find((name) => /\\/js\\/phone\\/worker(\\.[0-9a-f]+)?\\.js$/.test(name));
    await (await import(module)).keepForLater();
}"""


def test_a_sheet_fetched_before_its_worker_took_control_is_kept_all_the_same(phone, live_server, player):
    session = french_session(player, "Cellar", PLAYERS, [])
    login(phone, live_server.url, player)
    sheet = open_sheet_for_offline(phone, live_server.url, session)
    phone.evaluate(FORGET_AND_KEEP, sheet)
    kept(phone, sheet)


def test_a_new_version_replaces_the_pages_and_files_kept_by_the_old_one(
    phone, live_server, player, monkeypatch
):
    from plumbing import offline

    monkeypatch.setattr(offline, "cache_version", lambda: "deploy-1")
    session = french_session(player, "Deploys", PLAYERS, [])
    login(phone, live_server.url, player)
    sheet = open_sheet_for_offline(phone, live_server.url, session)
    caches = "async () => (await caches.keys()).filter((name) => /^(files|pages)-/.test(name)).sort()"
    assert phone.evaluate(caches) == ["files-deploy-1", "pages-deploy-1"]
    # The engine's runtime and bundle, kept in caches of their own (tests/browser/test_phone_engine.py).
    engine = "async () => (await caches.keys()).filter((name) => /^(pyodide|engine)-/.test(name)).sort()"
    until(
        phone,
        "async () => (await caches.keys()).filter((name) => /^(pyodide|engine)-/.test(name)).length === 2",
    )
    kept_engine = phone.evaluate(engine)
    # What the old version kept: pretend its copies are older than the files now served.
    phone.evaluate(
        """async (sheet) => {
            const css = new Response("/* old */", {headers: {"Content-Type": "text/css"}});
            await (await caches.open("files-deploy-1")).put("/static/css/app.css", css);
            const page = new Response("<html data-copy><p id=old>old page</p></html>", {headers: {"Content-Type": "text/html"}});
            await (await caches.open("pages-deploy-1")).put(sheet, page);
        }""",
        sheet,
    )
    read_css = "async () => (await fetch('/static/css/app.css')).text()"
    assert phone.evaluate(read_css) == "/* old */"

    # A deploy: the next visit brings the new worker, which drops both old caches.
    monkeypatch.setattr(offline, "cache_version", lambda: "deploy-2")
    phone.goto(f"{live_server.url}/")
    # The browser looks for a new worker on its own schedule (a navigation, a day); here at once.
    phone.evaluate("async () => (await navigator.serviceWorker.getRegistration()).update()")
    only_ours = "(await caches.keys()).filter((n) => /^(files|pages)-/.test(n)).sort().join()"
    until(phone, f"async () => {only_ours} === 'files-deploy-2,pages-deploy-2'")
    # A deploy that changes neither the runtime nor the engine keeps both: nothing is downloaded again.
    assert phone.evaluate(engine) == kept_engine
    assert "--accent:" in phone.evaluate(read_css)
    phone.goto(f"{live_server.url}{sheet}")
    kept(phone, sheet)
    phone.context.set_offline(True)
    phone.reload()
    expect(phone.locator("#old")).to_have_count(0)
    expect(phone.locator("h1")).to_have_text("Deploys")
    expect(phone.locator("#offline-note")).to_be_visible()


def test_hands_still_waiting_are_sent_the_next_time_the_app_is_opened(phone, live_server, player):
    session = french_session(player, "Next day", PLAYERS, [])
    login(phone, live_server.url, player)
    open_sheet_for_offline(phone, live_server.url, session)
    phone.context.set_offline(True)
    record_offline(phone, GARDE)
    # The app is closed while offline and opened again, on the session list, with a connection.
    context = phone.context
    phone.goto("about:blank")
    context.set_offline(False)
    phone.goto(f"{live_server.url}/")
    until(phone, "async () => (await Outbox.all()).length === 0")
    assert [h["taker"] for h in stored(session)] == ["Anna"]


# Another sender (a page, the worker) holding the outbox's lock until told to let go.
HOLD_THE_OUTBOX = """() => new Promise((held) => navigator.locks.request(Outbox.SYNC_TAG, () => {
    held();
    return new Promise((letGo) => { self.letGo = letGo; });
}))"""
# That sender sends the waiting hand itself and takes it off the outbox, then lets go.
SEND_IT_AND_LET_GO = """async (entry) => {
    const answer = await fetch(entry.url, {
        method: "POST", body: entry.body, credentials: "same-origin",
        headers: { "X-Tarock-Outbox": "1", "Content-Type": "application/x-www-form-urlencoded" },
    });
    await Outbox.remove(entry.id);
    self.letGo();
    return answer.status;
}"""


def held_by_another_sender(phone: Any, live_server: Any, player: Any, name: str) -> tuple[Any, str, Any]:
    """A hand recorded offline on ``phone``, back online, with a second page of the
    same phone holding the outbox (``HOLD_THE_OUTBOX``): the phone's own sending waits
    for that other sender. The evening, its sheet's address and the other page."""
    session = french_session(player, name, PLAYERS, [])
    login(phone, live_server.url, player)
    sheet = open_sheet_for_offline(phone, live_server.url, session)
    other = phone.context.new_page()
    other.goto(f"{live_server.url}{sheet}")
    phone.context.set_offline(True)
    record_offline(phone, GARDE)
    other.evaluate(HOLD_THE_OUTBOX)
    phone.context.set_offline(False)
    return session, sheet, other


def test_a_hand_another_sender_stores_while_the_sheet_loads_is_drawn_on_it(phone, live_server, player):
    """The sheet is drawn while another sender (a page left while it sent, or the
    worker) has the waiting hand on its way: the hand is stored after the sheet was
    drawn and this page finds nothing to send; the sheet is drawn again with it."""
    session, sheet, other = held_by_another_sender(phone, live_server, player, "Two senders")
    entry = phone.evaluate("async () => (await Outbox.all())[0]")
    phone.goto(f"{live_server.url}{sheet}")
    expect(phone.locator("#board .outbox-entry")).to_have_count(1)  # read as waiting; its sending waits
    assert stored(session) == []
    other.evaluate(SEND_IT_AND_LET_GO, entry)
    assert [h["taker"] for h in stored(session)] == ["Anna"]
    expect(phone.locator(STORED_HANDS)).to_have_count(1, timeout=PATIENCE * 1000)
    expect(phone.locator("#board .outbox-entry")).to_have_count(0)


def test_a_hand_another_sender_stores_while_the_server_draws_the_sheet_is_drawn_on_it(
    phone, live_server, player, monkeypatch
):
    """Another sender stores the waiting hand after the server drew this sheet
    without it and before the page read its outbox: nothing waited here, yet the
    sheet is drawn again with the hand, once (the outbox's record of what it sent
    after the page was asked for, ``Outbox.sentSince``)."""
    session, sheet, other = held_by_another_sender(phone, live_server, player, "Sent meanwhile")
    phone.goto(f"{live_server.url}/")  # the evenings' list: a page that never draws a sheet again

    # The server holds its answer for the sheet, drawn, until the other sender has stored the hand.
    drawn, sent = threading.Event(), threading.Event()
    answer = BaseHandler.get_response

    def held(handler: BaseHandler, request: Any) -> Any:
        response = answer(handler, request)
        if request.path == sheet and request.method == "GET" and not drawn.is_set():
            drawn.set()
            sent.wait(PATIENCE)
        return response

    monkeypatch.setattr(BaseHandler, "get_response", held)
    phone.evaluate("(url) => { location.href = url; }", f"{live_server.url}{sheet}")
    assert drawn.wait(PATIENCE)
    assert stored(session) == []  # the sheet was drawn without it
    # The other sender lets go and sends; the list being left, waiting for it, may send first.
    other.evaluate("async () => { self.letGo(); await Outbox.send(''); }")
    deadline = time.monotonic() + PATIENCE
    while len(stored(session)) < 1 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(stored(session)) == 1
    sent.set()
    expect(phone.locator(STORED_HANDS)).to_have_count(1, timeout=PATIENCE * 1000)
    expect(phone.locator("#board .outbox-entry")).to_have_count(0)
    # Drawn again once, not over and over: the page stays.
    drawn_at = phone.evaluate("() => performance.timeOrigin")
    time.sleep(2)
    assert phone.evaluate("() => performance.timeOrigin") == drawn_at


def test_a_hand_whose_sending_fails_on_a_connection_that_only_looks_alive_is_kept(phone, live_server, player):
    session = french_session(player, "Weak signal", PLAYERS, [])
    login(phone, live_server.url, player)
    sheet = open_sheet_for_offline(phone, live_server.url, session)

    # The phone believes it is online, but nothing it sends arrives.
    def lost(route: Any) -> None:
        if route.request.method == "POST":
            route.abort("internetdisconnected")
        else:
            route.continue_()

    phone.context.route("**/hands/new/", lost)
    phone.locator("#new-hand").click()
    fill_hand(phone, GARDE)
    phone.locator("#save").click()
    expect(phone).to_have_url(re.compile(rf"{re.escape(sheet)}#pending-\d+$"))
    expect(phone.locator('#board .outbox-entry[data-state="waiting"]')).to_have_count(1)
    assert stored(session) == []

    phone.context.unroute("**/hands/new/", lost)
    reload_while_it_reloads(phone)
    expect(phone.locator(STORED_HANDS)).to_have_count(1, timeout=PATIENCE * 1000)
    expect(phone.locator("#board .outbox-entry")).to_have_count(0)
    assert [h["taker"] for h in stored(session)] == ["Anna"]


SIX = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fritz"]


def choices(page: Any, name: str) -> list[str]:
    """The players a radio choice of the hand form offers."""
    found = page.locator(f'#hand-fields input[name="{name}"]')
    return [value for value in found.evaluate_all("(inputs) => inputs.map((i) => i.value)") if value]


def sitting_out(page: Any) -> Any:
    """What the form says under the dealer."""
    return page.locator('#hand-fields .field:has(select[name="dealer"]) .help')


def test_at_a_six_player_table_the_next_hand_kept_offline_lets_the_new_dealer_sit_out(
    phone, live_server, player
):
    # With six at a French table the dealer sits out (docs/rules.md §1.3): Fritz deals the first hand, Anna the next.
    session = french_session(player, "Six", SIX, [])
    login(phone, live_server.url, player)
    open_sheet_for_offline(phone, live_server.url, session)

    phone.context.set_offline(True)
    phone.locator("#new-hand").click()
    expect(sitting_out(phone)).to_have_text("Fritz sits out this hand.")
    fill_hand(phone, {**GARDE, "partner": "Carl"})
    phone.locator("#save").click()
    expect(phone).to_have_url(re.compile(r"/sessions/\d+/#pending-\d+$"))

    # The next hand's form, kept on the phone: Anna deals and sits out, Fritz plays.
    phone.locator("#new-hand").click()
    expect(phone.locator('select[name="dealer"]')).to_have_value("Anna")
    expect(sitting_out(phone)).to_have_text("Anna sits out this hand.")
    for name in ("taker", "partner", "poignees[1].player"):
        assert choices(phone, name) == ["Bert", "Carl", "Dora", "Emil", "Fritz"], name

    # Choosing another dealer by hand, offline, redraws who sits out and keeps what was typed.
    fill_hand(phone, {"taker": "Bert", "contract": "prise"})
    phone.locator('select[name="dealer"]').select_option("Bert")
    expect(sitting_out(phone)).to_have_text("Bert sits out this hand.")
    assert choices(phone, "taker") == ["Anna", "Carl", "Dora", "Emil", "Fritz"]
    expect(phone.locator('input[name="taker"]:checked')).to_have_count(0)  # Bert sits out: no taker
    expect(phone.locator('input[name="contract"][value="prise"]')).to_be_checked()
    fill_hand(phone, {"taker": "Anna", "partner": "Fritz", "bouts": "1", "points": "45"})
    phone.locator("#save").click()
    expect(phone.locator("#board .outbox-entry")).to_have_count(2)

    phone.context.set_offline(False)
    expect(phone.locator(STORED_HANDS)).to_have_count(2, timeout=PATIENCE * 1000)
    hands = Hand.objects.filter(session=session).order_by("number")
    assert [(h.dealer, h.inputs["taker"], h.inputs["partner"]) for h in hands] == [
        ("Fritz", "Anna", "Carl"),
        ("Bert", "Anna", "Fritz"),
    ]


def test_a_hand_sent_to_an_evening_closed_meanwhile_is_kept_and_says_the_evening_is_closed(
    phone, live_server, player
):
    from scoring import services

    session = french_session(player, "Dienstagsrunde", PLAYERS, [])
    login(phone, live_server.url, player)
    open_sheet_for_offline(phone, live_server.url, session)
    phone.context.set_offline(True)
    record_offline(phone, GARDE)

    # Meanwhile someone at home closes the evening.
    services.session_close(session=session, user=player)

    phone.context.set_offline(False)
    refused = phone.locator('#board .outbox-entry[data-state="refused"]')
    expect(refused).to_have_count(1, timeout=PATIENCE * 1000)
    expect(refused.locator(".reason")).to_have_text(
        "This evening is closed: reopen it to record or change hands and house rules."
    )
    expect(refused).to_contain_text("Anna")
    assert stored(session) == []
    # Reopened, the hand kept on the phone can still be discarded or corrected and sent.
    reload_while_it_reloads(phone)
    expect(refused.locator(".reason")).to_contain_text("This evening is closed")
