"""The Königrufen hand form on a phone (390 × 844, German): each hand in the
order the table decides it, within its tap budget (clicks and fills, Save
included, the dealer proposed), each saved hand's deltas those of the engine;
the premium grid of both Austrian games."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scoring.engine import HandRecord, HandType, Table, score_hand
from scoring.models import Session
from scoring.services.games import game_of
from tests.browser.support import assert_accessible, expect, horizontal_overflow, login, screenshot
from tests.browser.test_offline import PATIENCE, STORED_HANDS, open_sheet_for_offline
from tests.browser.test_table_loop import Taps, last_hand, open_form, session_of

pytestmark = pytest.mark.browser

FOUR = ["Anna", "Bert", "Carl", "Dora"]
# The tap budgets of docs/playing.md.
RUFER, PREMIUM, FURTHER_PREMIUM, NEGATIVE, TRISCHAKEN, ILLUSTRATED_THREE_PREMIUMS = 5, 7, 2, 4, 7, 12
# The king in the talon is one answer among the partners: played on as a Rufer, conceded
# without points; a Besserrufer's bird is one tap, its premium row filled in by the bid.
KING_PLAYED_ON, KING_CONCEDED, BESSERRUFER = RUFER, RUFER - 1, RUFER + 2


def engine_deltas(session: Session, raw: dict[str, Any]) -> dict[str, int]:
    """What the engine scores for a hand written as the session file writes it."""
    game = game_of(session)
    dealer = raw.get("dealer", game.players[-1])
    table = Table(game.players, dealer, game.variant.sitting_out(game.players, dealer))
    fields = {key: value for key, value in raw.items() if key != "dealer"}
    play = game.variant.parse_play(HandType.PLAYED, fields, table, game.options)
    score = score_hand(game.variant, HandRecord(HandType.PLAYED, table, play), game.options)
    return {name: int(value) for name, value in score.deltas.items()}


def premium(taps: Taps, kind: str, who: str, how: str) -> None:
    """One row of the premium grid: its side (or player), then how it went."""
    taps.choose(f"premiums.{kind}.who", who)
    taps.choose(f"premiums.{kind}.how", how)


@pytest.fixture
def german(page_for: Any, live_server: Any, player: Any) -> Any:
    page = page_for("de-DE")
    login(page, live_server.url, player)
    return page


def test_a_rufer_with_partner_and_points_in_five_taps_premiums_two_more_each(german, live_server, player):
    session = session_of(player, "koenigrufen", FOUR)
    open_form(german, live_server.url, session)
    expect(german.locator("html")).to_have_attribute("lang", "de")
    # Nothing that changes the score is preset: no game, no partner.
    expect(german.locator('input[name="game"]:checked')).to_have_count(0)
    expect(german.locator('input[name="partner"]:checked')).to_have_count(0)
    taps = Taps(german).hand({"declarer": "Anna", "game": "rufer", "partner": "Carl"}, "41/2")
    expect(german.locator("#quick .short")).to_be_visible()
    taps.save()
    assert taps.count == 5 <= RUFER, taps.count
    assert last_hand(session).inputs["points"] == "41/2"
    expected = engine_deltas(
        session, {"declarer": "Anna", "game": "rufer", "partner": "Carl", "points": "41/2"}
    )
    assert last_hand(session).delta_points() == expected
    assert expected["Anna"] > 0

    # One announced premium: two taps in the grid.
    open_form(german, live_server.url, session)
    taps = Taps(german).hand({"declarer": "Bert", "game": "rufer", "partner": "Dora"}, "45")
    premium(taps, "pagat", "declarer", "true")
    taps.save()
    assert taps.count == 7 <= PREMIUM, taps.count
    raw = {
        "declarer": "Bert",
        "game": "rufer",
        "partner": "Dora",
        "points": 45,
        "premiums": [{"type": "pagat", "side": "declarer", "announced": True}],
    }
    assert last_hand(session).delta_points() == engine_deltas(session, raw)

    # Two premiums, one of the opponents' announced and failed; the Kontra on the game one tap.
    open_form(german, live_server.url, session)
    taps = Taps(german).hand({"declarer": "Carl", "game": "rufer", "partner": "Anna"}, "20/1")
    taps.choose("points.side", "other")
    expect(german.locator("#preview .conversion")).to_contain_text("20/1")
    taps.choose("kontra", "1")
    premium(taps, "trull", "declarer", "false")
    premium(taps, "uhu", "opponents", "true-failed")
    expect(german.locator("#preview .breakdown")).to_contain_text("Uhu angesagt")
    expect(german.locator("#quick .short")).to_be_visible()
    screenshot(german, "koenigrufen-form-rufer-two-premiums")
    assert_accessible(german, "the Königrufen hand form with two premiums")
    assert horizontal_overflow(german) == 0
    taps.save()
    # The side toggle and the Kontra one tap each.
    assert taps.count == 11 <= PREMIUM + FURTHER_PREMIUM + 1 + 1, taps.count
    hand = last_hand(session)
    assert hand.inputs["points"] == "49/2"  # the opponents' 20/1 of 70
    raw = {
        "declarer": "Carl",
        "game": "rufer",
        "partner": "Anna",
        "points": "49/2",
        "kontra": 1,
        "premiums": [
            {"type": "trull", "side": "declarer"},
            {"type": "uhu", "side": "opponents", "announced": True, "made": False},
        ],
    }
    assert hand.delta_points() == engine_deltas(session, raw)


def test_a_premium_given_a_side_but_not_how_it_went_is_named_so(german, live_server, player):
    session = session_of(player, "koenigrufen", FOUR)
    open_form(german, live_server.url, session)
    taps = Taps(german).hand({"declarer": "Anna", "game": "rufer", "partner": "Carl"}, "41")
    # Silent or announced is never preset: the side alone is not yet a premium.
    taps.choose("premiums.pagat.who", "declarer")
    expect(german.locator('input[name="premiums.pagat.how"]:checked')).to_have_count(0)
    expect(german.locator("#quick .open")).to_contain_text("Pagat, Wie es ausging: nicht angegeben")
    taps.tap(german.locator("#save"))
    expect(german.locator("#f-premiums-pagat-how .error")).to_be_visible()
    assert not session.hands.exists()


def test_a_piccolo_won_in_four_taps_a_bettel_lost_with_an_opponents_kontra_one_more(
    german, live_server, player
):
    session = session_of(player, "koenigrufen", FOUR)
    open_form(german, live_server.url, session)
    # Won or lost is asked, never preset.
    taps = Taps(german).hand({"declarer": "Bert", "game": "piccolo"})
    expect(german.locator('input[name="won"]:checked')).to_have_count(0)
    taps.choose("won", "true")
    taps.save()
    assert taps.count == 4 <= NEGATIVE, taps.count
    assert last_hand(session).delta_points() == engine_deltas(
        session, {"declarer": "Bert", "game": "piccolo", "won": True}
    )

    open_form(german, live_server.url, session)
    taps = Taps(german).hand({"declarer": "Carl", "game": "bettel", "won": "false"})
    # The declarer kontras nobody: his own row is not offered.
    expect(german.locator('.seat-row:has(input[name="kontra.Carl"])')).to_be_hidden()
    taps.choose("kontra.Dora", "1")
    taps.save()
    assert taps.count == 5 <= NEGATIVE + 1, taps.count
    hand = last_hand(session)
    assert hand.inputs["kontra"] == {"Dora": 1}
    raw = {"declarer": "Carl", "game": "bettel", "won": False, "kontra": {"Dora": 1}}
    assert hand.delta_points() == engine_deltas(session, raw)


def test_a_trischaken_with_each_players_points_in_seven_taps(german, live_server, player):
    session = session_of(player, "koenigrufen", FOUR)
    open_form(german, live_server.url, session)
    taps = Taps(german).hand({"declarer": "Anna", "game": "trischaken"})
    for name, points in (("Anna", "10"), ("Bert", "20/1"), ("Carl", "0"), ("Dora", "39/2")):
        taps.fill(f"points.{name}", points)
    expect(german.locator("#quick .short")).to_be_visible()
    screenshot(german, "koenigrufen-form-trischaken")
    assert_accessible(german, "the Königrufen hand form in a Trischaken")
    taps.save()
    assert taps.count == 7 <= TRISCHAKEN, taps.count
    raw = {
        "declarer": "Anna",
        "game": "trischaken",
        "points": {"Anna": 10, "Bert": "20/1", "Carl": 0, "Dora": "39/2"},
    }
    assert last_hand(session).delta_points() == engine_deltas(session, raw)


def test_the_card_counter_counts_in_thirds(german, live_server, player):
    session = session_of(player, "koenigrufen", FOUR)
    open_form(german, live_server.url, session)
    Taps(german).hand({"declarer": "Anna", "game": "rufer", "partner": "Bert"})
    german.locator("#card-counter > summary").click()
    # 4 kings (5), 2 queens (4), 9 others (1): 3 × 37 − 2 × 15 = 81 thirds, 27/0.
    # One more jack: 3 × 39 − 2 × 16 = 85 thirds, 28/1.
    german.locator('[name="count.fives"]').fill("4")
    german.locator('[name="count.others"]').fill("9")
    german.locator('label.seg-opt:has(input[name="count.queens"][value="2"])').click()
    german.locator('label.seg-opt:has(input[name="count.jacks"][value="1"])').click()
    german.locator('#card-counter button[value="count"]').click()
    expect(german.locator('[name="points"]')).to_have_value("28/1")


def test_an_illustriertes_hand_with_three_premiums_in_twelve_taps(german, live_server, player):
    session = session_of(player, "illustrated", ["A", "B", "C"])
    open_form(german, live_server.url, session)
    taps = Taps(german).hand({"declarer": "A", "game": "dreiblatt", "bid": "announced"}, "40")
    premium(taps, "koepfe", "A", "silent")
    premium(taps, "pagat", "A", "after_talon")
    premium(taps, "koenigstrull", "B", "silent")
    taps.save()
    assert taps.count == 11 <= ILLUSTRATED_THREE_PREMIUMS, taps.count
    raw = {
        "declarer": "A",
        "game": "dreiblatt",
        "bid": "announced",
        "points": 40,
        "premiums": [
            {"type": "koenigstrull", "player": "B"},
            {"type": "koepfe", "player": "A"},
            {"type": "pagat", "player": "A", "announced": "after_talon"},
        ],
    }
    assert last_hand(session).delta_points() == engine_deltas(session, raw)


@pytest.mark.engine
def test_the_new_controls_work_offline(german, live_server, player):
    """The premium grid, won or lost and each opponent's Kontra from the copy
    of the form kept on the phone, sent once the connection returns."""
    session = session_of(player, "koenigrufen", FOUR)
    open_sheet_for_offline(german, live_server.url, session)
    german.context.set_offline(True)

    german.locator("#new-hand").click()
    taps = Taps(german).hand({"declarer": "Anna", "game": "rufer", "partner": "Carl"}, "41/2")
    premium(taps, "pagat", "declarer", "true")
    german.locator("#save").click()
    expect(german).to_have_url(re.compile(r"/sessions/\d+/#pending-\d+$"))

    german.locator("#new-hand").click()
    taps = Taps(german).hand({"declarer": "Bert", "game": "piccolo", "won": "false"})
    taps.choose("kontra.Dora", "2")
    german.locator("#save").click()
    expect(german.locator("#board .outbox-entry")).to_have_count(2)
    # The summary tells what was chosen, not the premiums left at "—".
    expect(german.locator("#board .outbox-entry").nth(0)).to_contain_text("Pagat")
    expect(german.locator("#board .outbox-entry").nth(0)).not_to_contain_text("Trull")

    german.context.set_offline(False)
    expect(german.locator(STORED_HANDS)).to_have_count(2, timeout=PATIENCE * 1000)
    first, second = session.hands.order_by("number")
    rufer = {
        "declarer": "Anna",
        "game": "rufer",
        "partner": "Carl",
        "points": "41/2",
        "premiums": [{"type": "pagat", "side": "declarer", "announced": True}],
    }
    assert first.delta_points() == engine_deltas(session, rufer)
    assert first.inputs["premiums"] == [{"type": "pagat", "side": "declarer", "announced": True}]
    piccolo = {"declarer": "Bert", "game": "piccolo", "won": False, "kontra": {"Dora": 2}}
    assert second.inputs["kontra"] == {"Dora": 2}
    assert second.delta_points() == engine_deltas(session, piccolo)


def phone_in(page_for: Any, live_server: Any, player: Any, language: str) -> Any:
    """A phone logged in, its browser preferring German or English."""
    page = page_for({"de": "de-DE", "en": "en-GB"}[language])
    login(page, live_server.url, player)
    return page


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_king_in_the_talon_played_on_and_conceded_each_one_tap(page_for, live_server, player, language):
    page = phone_in(page_for, live_server, player, language)
    session = session_of(player, "koenigrufen", FOUR)
    open_form(page, live_server.url, session)
    partner = page.locator("#f-partner")
    played = "König im Talon, weitergespielt" if language == "de" else "king in the talon, played on"
    conceded = "König im Talon, aufgegeben" if language == "de" else "king in the talon, conceded"
    expect(partner).to_contain_text(played)
    expect(partner).to_contain_text(conceded)
    # One group: no second one that could still say "no".
    expect(page.locator('input[name="king_in_talon"]')).to_have_count(0)
    taps = Taps(page).hand({"declarer": "Anna", "game": "rufer", "partner": "king_in_talon:played"}, "38")
    expect(page.locator("#quick .short")).to_be_visible()
    expect(page.locator("#quick .open")).to_have_count(0)
    screenshot(page, f"koenigrufen-form-king-in-talon-{language}", full_page=False)
    screenshot(page, f"koenigrufen-form-king-in-talon-{language}-whole")
    assert_accessible(page, "the Königrufen form with the king in the talon")
    assert horizontal_overflow(page) == 0
    taps.save()
    assert taps.count == 5 <= KING_PLAYED_ON, taps.count
    raw = {"declarer": "Anna", "game": "rufer", "king_in_talon": "played", "points": 38}
    assert last_hand(session).inputs == raw
    assert last_hand(session).delta_points() == engine_deltas(session, raw)

    open_form(page, live_server.url, session)
    taps = Taps(page).hand({"declarer": "Bert", "game": "rufer", "partner": "king_in_talon:conceded"})
    taps.save()
    assert taps.count == 4 <= KING_CONCEDED, taps.count
    raw = {"declarer": "Bert", "game": "rufer", "king_in_talon": "conceded"}
    assert last_hand(session).delta_points() == engine_deltas(session, raw)
    assert last_hand(session).inputs["king_in_talon"] == "conceded"


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_besserrufer_with_an_announced_uhu_names_its_bird_once(page_for, live_server, player, language):
    page = phone_in(page_for, live_server, player, language)
    session = session_of(player, "koenigrufen", FOUR)
    open_form(page, live_server.url, session)
    taps = Taps(page).hand(
        {"declarer": "Carl", "game": "besserrufer", "partner": "Anna", "bird": "uhu"}, "44"
    )
    # The bid says whose the Uhu is: its row is the declarer's side without a tap;
    # how it went is the one tap the bid cannot know, and nothing preset answers it.
    expect(page.locator('input[name="premiums.uhu.who"][value="declarer"]')).to_be_checked()
    expect(page.locator('input[name="premiums.uhu.how"]:checked')).to_have_count(0)
    taps.choose("premiums.uhu.how", "true")
    expect(page.locator("#preview .breakdown")).to_contain_text("Uhu")
    expect(page.locator("#quick .open")).to_have_count(0)
    page.locator("#f-premiums").scroll_into_view_if_needed()
    screenshot(page, f"koenigrufen-form-besserrufer-{language}", full_page=False)
    screenshot(page, f"koenigrufen-form-besserrufer-{language}-whole")
    assert_accessible(page, "the Königrufen form with a Besserrufer")
    assert horizontal_overflow(page) == 0
    taps.save()
    assert taps.count == 7 <= BESSERRUFER, taps.count
    raw = {
        "declarer": "Carl",
        "game": "besserrufer",
        "partner": "Anna",
        "bird": "uhu",
        "points": 44,
        "premiums": [{"type": "uhu", "side": "declarer", "announced": True}],
    }
    assert last_hand(session).delta_points() == engine_deltas(session, raw)
    assert last_hand(session).inputs["premiums"] == raw["premiums"]

    # Failed: one tap in its row changes it; a change of bird takes the row back.
    open_form(page, live_server.url, session)
    taps = Taps(page).hand(
        {"declarer": "Dora", "game": "besserrufer", "partner": "Bert", "bird": "pagat"}, "40"
    )
    taps.choose("bird", "uhu")
    expect(page.locator('input[name="premiums.pagat.who"][value=""]')).to_be_checked()
    taps.choose("premiums.uhu.how", "true-failed")
    taps.save()
    assert last_hand(session).inputs["premiums"] == [
        {"type": "uhu", "side": "declarer", "announced": True, "made": False}
    ]


def test_the_slash_of_points_and_blatt_is_a_key_beside_the_field(german, live_server, player):
    session = session_of(player, "koenigrufen", FOUR)
    open_form(german, live_server.url, session)
    Taps(german).hand({"declarer": "Anna", "game": "trischaken"})
    for name, points in (("Anna", "10"), ("Bert", "20/1"), ("Carl", "0"), ("Dora", "39/2")):
        typed = german.locator(f'[name="points.{name}"]')
        # The digits keypad, the slash beside it.
        expect(typed).to_have_attribute("inputmode", "numeric")
        typed.click()
        whole, _, blatt = points.partition("/")
        german.keyboard.type(whole)
        if blatt:
            german.locator(f'button.key[data-for="{typed.get_attribute("id")}"]').click()
            german.keyboard.type(blatt)  # the field kept the focus: the keypad stayed up
        expect(typed).to_have_value(points)
    german.locator("#save").click()
    expect(german).to_have_url(re.compile(r"/sessions/\d+/#hand-\d+$"))
    assert last_hand(session).inputs["points"] == {"Anna": 10, "Bert": "20/1", "Carl": 0, "Dora": "39/2"}
