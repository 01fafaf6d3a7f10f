"""Long names on a phone (390 × 844): five and six players with nine-letter
names keep at least three letters of each name in the column heads and the
thumb's bar, none cut; the season table keeps its first columns, shows that it
scrolls, and its last column can be scrolled into view."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from club.models import GroupPlayer
from club.services import groups
from scoring import services
from scoring.models import Session
from scoring.sheet import HEAD_ROOM, HEAD_ROOM_LABELLED, column_heads
from tests.browser.support import assert_accessible, expect, horizontal_overflow, login, screenshot
from tests.club.regular_table import evening

pytestmark = pytest.mark.browser

FIVE = ["Bernhardt", "Bernadett", "Franziska", "Friedrich", "Annemarie"]
SIX = [*FIVE, "Anneliese"]

# Each head measured as drawn: its text, and whether the box clips it.
HEADS = """(all) => all.map(el => {
    const r = el.getBoundingClientRect();
    return {text: el.innerText.trim(), cut: el.scrollWidth > el.clientWidth, sw: el.scrollWidth, cw: el.clientWidth,
            left: r.left, right: r.right};
})"""


def french_hand(players: list[str], n: int) -> dict[str, Any]:
    """A garde contre with a made chelem: the biggest numbers under the heads;
    the first hand names its dealer (with six players the dealer sits out)."""
    return {
        **({"dealer": players[-1]} if n == 0 else {}),
        "taker": players[n % len(players)],
        "partner": players[(n + 1) % len(players)],
        "contract": "garde_contre",
        "bouts": 3,
        "points": 91,
        "chelem": "announced_made",
    }


@pytest.mark.parametrize("players", [FIVE, SIX], ids=["five", "six"])
def test_nine_letter_names_keep_three_letters_and_none_is_cut(phone, live_server, player, players):
    session = services.session_create(
        owner=player, name="Lang", variant="french", players=players, options={}
    )
    for n in range(3):
        services.hand_record(
            session=session, raw=french_hand(players, n), user=player, client_token=f"long-{n}"
        )
    login(phone, live_server.url, player)
    phone.goto(f"{live_server.url}/sessions/{session.pk}/")
    heads = phone.locator("table.sheet thead tr.names th[data-player]").evaluate_all(HEADS)
    assert len(heads) == len(players)
    for name, head in zip(players, heads, strict=True):
        assert len(head["text"]) >= 3, head
        # Shortened as a name is: the first letters marked with a dot, never cut bare.
        assert head["text"] == name or (head["text"].endswith(".") and name.startswith(head["text"][:-1])), (
            head
        )
        assert not head["cut"], f"head cut: {head}"
        assert head["left"] >= 0 and head["right"] <= 390, head
    assert len({head["text"] for head in heads}) == len(players)
    # The key spells out each shortened name once.
    legend = phone.locator("#legend span").all_inner_texts()
    assert [text.split(" ", 1)[1] for text in legend] == players
    assert horizontal_overflow(phone) == 0
    screenshot(phone, f"board-{len(players)}-long-names", full_page=False)

    # The thumb's bar of the hand form: the same heads, whole.
    phone.goto(f"{live_server.url}/sessions/{session.pk}/hands/new/")
    for name, value in french_hand(players, 3).items():  # the fourth hand: its dealer sits out
        if name == "chelem":
            continue  # folded away among the rarer announcements; the numbers are big enough
        if name == "points":
            phone.locator('[name="points"]').fill(str(value))
        else:
            phone.locator(f'label.seg-opt:has(input[name="{name}"][value="{value}"])').click()
    quick = phone.locator("#quick .short abbr")
    expect(quick).to_have_count(len(players))
    shown = quick.evaluate_all(HEADS)
    assert [head["text"] for head in shown] == [head["text"] for head in heads]
    for head in shown:
        assert not head["cut"] and head["right"] <= 390, head
    screenshot(phone, f"thumb-bar-{len(players)}-long-names", full_page=False)

    # The print view keeps the sheet's columns and says that it scrolls.
    phone.goto(f"{live_server.url}/sessions/{session.pk}/sheet/")
    wrap = phone.locator(".sheet-wrap")
    assert wrap.evaluate("(el) => el.scrollWidth > el.clientWidth")
    hint = "(el) => { const s = getComputedStyle(el, '::before'); return [s.content, s.opacity]; }"
    content, opacity = wrap.evaluate(hint)
    assert content == '"→ more"' and float(opacity) > 0.9
    screenshot(phone, f"print-view-{len(players)}-long-names", full_page=False)
    wrap.evaluate("(el) => { el.scrollLeft = el.scrollWidth; }")
    phone.wait_for_function(
        "() => parseFloat(getComputedStyle(document.querySelector('.sheet-wrap'), '::before').opacity) < 0.1"
    )
    assert horizontal_overflow(phone) == 0


# Names far longer than any head, two alike over their first letters.
LONG = [
    "Bernhardt Gruber",
    "Annemarie Huber",
    "Gruber Anna",
    "Gruber Andreas",
    "Maximilian Bauer",
    "Wolfgang Moser",
]
# One word longer than any head: shortened to its first letters and a dot, the
# whole room (wide letters, "W" and "m").
ONE_WORD = "Wolfgangmaximilian"


@pytest.mark.parametrize(
    ("variant", "count", "labelled"),
    [
        ("french", 3, False),
        ("french", 4, False),
        ("french", 5, False),
        ("french", 6, False),
        ("illustrated", 3, True),
    ],
)
def test_as_many_letters_as_the_heads_room_says_fit_their_column(
    phone, live_server, player, variant, count, labelled
):
    """HEAD_ROOM and HEAD_ROOM_LABELLED against the drawn sheet: at three to six
    players, beside the plain column of hand numbers and beside the wide one that
    names a series and its balance, the heads keep as many letters as the helper
    gives them and none is cut (wide letters: DejaVu Sans)."""
    players = [*LONG[: count - 1], ONE_WORD]
    session = services.session_create(owner=player, name="Lang", variant=variant, players=players, options={})
    if variant == "french":
        for n in range(2):
            raw = french_hand(players, n) if count == 5 else {**french_hand(players, n), "partner": ""}
            services.hand_record(session=session, raw={k: v for k, v in raw.items() if v}, user=player)
    login(phone, live_server.url, player)
    phone.goto(f"{live_server.url}/sessions/{session.pk}/")
    sheet = phone.locator("table.sheet")
    assert ("balances" in (sheet.get_attribute("class") or "")) is labelled
    heads = sheet.locator("thead tr.names th[data-player]").evaluate_all(HEADS)
    room = (HEAD_ROOM_LABELLED if labelled else HEAD_ROOM)[count]
    assert [head["text"] for head in heads] == [
        column_heads(players, labelled=labelled)[name] for name in players
    ]
    assert max(len(head["text"]) for head in heads) == room  # the room is used …
    for head in heads:
        assert not head["cut"] and head["right"] <= 390, head  # … and it fits
    assert horizontal_overflow(phone) == 0


def test_the_season_table_keeps_its_names_and_scrolls_to_its_last_column(phone, live_server, player):
    group = groups.group_create(owner=player, name="Dienstag", money_rate=Decimal("0.05"))
    evening(
        group,
        player,
        [french_hand(SIX, n) for n in range(4)],
        players=SIX,
        name="Lang",
        money_rate=Decimal("0.05"),
    )
    login(phone, live_server.url, player)
    phone.goto(f"{live_server.url}/groups/{group.pk}/table/")
    wide = phone.locator("#table-french .wide")
    scroller = wide.locator(".table-wrap")
    assert scroller.evaluate("(el) => el.scrollWidth > el.clientWidth"), "the table fits: nothing to show"
    assert horizontal_overflow(phone) == 0
    more = wide.evaluate(
        "(el) => { const s = getComputedStyle(el, '::before'); return [s.content, s.opacity]; }"
    )
    assert more[0] == '"→ more"' and float(more[1]) > 0.9, more
    screenshot(phone, "season-table-start", full_page=False)
    assert_accessible(phone, "the season table at phone size")

    money = phone.locator("#table-french thead th").last
    expect(money).to_have_text("Money")
    assert money.bounding_box()["x"] + money.bounding_box()["width"] > 390, "Money is already in sight"
    name = phone.locator("#table-french tbody tr").first.locator("th")
    before = name.bounding_box()["x"]
    money.scroll_into_view_if_needed()
    scroller.evaluate("(el) => { el.scrollLeft = el.scrollWidth; }")
    expect(money).to_be_in_viewport()
    box = money.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    last = phone.locator("#table-french tbody tr").first.locator("td").last
    expect(last).to_be_in_viewport()
    assert last.inner_text().strip()
    # The names stay where they were, in front of the columns scrolled under them.
    assert abs(name.bounding_box()["x"] - before) < 1
    on_top = name.evaluate(
        "(el) => { const r = el.getBoundingClientRect();"
        " return document.elementFromPoint(r.left + 4, r.top + r.height / 2).closest('th') === el; }"
    )
    assert on_top, "the name column is covered by the scrolled columns"
    phone.wait_for_function(
        "() => parseFloat(getComputedStyle(document.querySelector('#table-french .wide'), '::before')"
        ".opacity) < 0.1"
    )
    screenshot(phone, "season-table-end", full_page=False)

    # The evening closed, the Kasse writes each debt with the minus of every other number.
    services.session_close(session=Session.objects.get(group_link__group=group), user=player)
    phone.goto(f"{live_server.url}/groups/{group.pk}/kasse/")
    debts = phone.locator("table.plain td.neg").all_inner_texts()
    assert debts and all(text.startswith("\u2212") for text in debts), debts
    assert horizontal_overflow(phone) == 0
    screenshot(phone, "kasse-six-long-names")

    # A player's page: its tables scroll in their cards too, and the page stays accessible.
    first = GroupPlayer.objects.get(group=group, name="Bernhardt")
    phone.goto(f"{live_server.url}/groups/{group.pk}/players/{first.pk}/")
    assert horizontal_overflow(phone) == 0
    assert_accessible(phone, "a player's page at phone size")
    screenshot(phone, "player-page-long-names")
