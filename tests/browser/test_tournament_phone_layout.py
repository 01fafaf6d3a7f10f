"""Every page of a tournament day on a phone (390 × 844): a Königrufen day of ten
players with long, alike names, two rounds, in a cup (a tournament before it in
the cup is final). Round 1 has two five-tables; one player leaves after it, so
round 2 has a four- and a five-table. Every page is opened twice, while round 2
is played and once the ranking is final, by the organiser (logged in), by the
phone that writes at a table and by a watching phone: none is wider than the
phone, and in every table the column heads have at least three letters, are
unique and are shown whole, none running into the next. The pages are the
URLconf's (``tournaments/urls.py``, ``tournaments/public_urls.py``): a new page
there fails this test until it is opened here; the few addresses that are no
page (POST only, a PDF, a file) are named with the reason and shown to answer no
page. The prize list, the cup, the board and a watcher's table page are kept as
tournament-phone-*.png."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from scoring import services
from tests.browser.support import TAP, login, screenshot
from tests.browser.tournament_support import PHONE, Contexts
from tests.tournaments import factory
from tournaments import public_urls, urls
from tournaments.models import Cup, TableRound, Tournament
from tournaments.services import circuit as circuits
from tournaments.services import desk, door, entrants, plan, raffle, side, tables, teams, tournaments
from tournaments.services.tournaments import games

pytestmark = pytest.mark.browser

# Long names, some alike over their first nine letters: the heads of a five-table
# must still tell them apart.
NAMES = [
    "Gruber Anna",
    "Gruber Andreas",
    "Bernhard Gruber",
    "Bernhardine Maier",
    "Christa Hofbauer",
    "Dieter Wimmer",
    "Erika Leitner",
    "Franz Xaver Huber",
    "Gertraud Pichler",
    "Hans-Peter Moser",
]
PLACES = ["Vöcklabruck", "Bad Ischl", "Gmunden", "Attnang-Puchheim", "Schwanenstadt"]
PRIZES = [
    {"from": 1, "to": 1, "amount": "120"},
    {"from": 2, "to": 2, "text": "Pokal und Geschenkkorb", "amount": "80"},
    {"from": 3, "to": 6, "text": "Sachpreis"},
]
SCORER = "the-writing-phone"  # its cookie
# A head that is a sign, not a shortened word: the score sheet's hand numbers.
SIGNS = {"#"}

# Addresses that are no page: what each answers instead.
NOT_PAGES = {
    "tournament_draw": "POST only",
    "tournament_release": "POST only",
    "tournament_status": "POST only",
    "tournament_board_link": "POST only",
    "tournament_raffle": "POST only",
    "tournament_clock": "POST only",
    "tournament_table_hand_preview": "POST only",
    "tournament_table_hand_edit_preview": "POST only",
    "tournament_table_hand_delete": "POST only",
    "tournament_table_hand_restore": "POST only",
    "tournament_table_seats": "POST only",
    "tournament_table_handover": "POST only",
    "tournament_print": "a PDF",
    "tournament_card": "a PDF",
    "cup_pdf": "a PDF",
    "tournament_export": "a tournament file (JSON)",
    "tournament_door": "POST only",
    "tournament_door_poster": "a PDF",
}
# Pages opened at 390 px by another browser test, where they have what they show.
CHECKED_ELSEWHERE = {
    "tournament_door_card": "tests/browser/test_door_registration.py: a phone registered at the door",
}

# Each head of each table as drawn: its text, whether its box cuts it, where it is.
HEADS = """() => [...document.querySelectorAll('table')].map(table => {
    const rows = table.tHead ? [...table.tHead.rows] : [table.rows[0]].filter(Boolean);
    return rows.map(row => [...row.cells].filter(cell => cell.tagName === 'TH').map(cell => {
        const r = cell.getBoundingClientRect();
        return {text: cell.innerText.replace(/\\s+/g, ' ').trim(), cut: cell.scrollWidth > cell.clientWidth + 1,
                column: cell.scope !== 'row', left: r.left, right: r.right, where: table.id || table.className};
    }));
})"""


@dataclass
class Day:
    owner: User
    tournament: Tournament
    cup: Cup


def play(table: TableRound, count: int) -> None:
    """Rufer up to ``count`` hands at the table (at a five-table the dealer sits
    out), the second with a Kontra."""
    session = tables.open_table(table)
    names = [seat.name for seat in session.seats.order_by("position")]
    for k in range(session.hands.count(), count):
        dealer = names[(table.first_dealer - 1 + k) % len(names)]
        active = [name for name in names if name != dealer or len(names) == 4]
        raw: dict[str, Any] = {"dealer": dealer, "declarer": active[k % 4], "game": "rufer"}
        raw |= {"partner": active[(k + 1) % 4], "points": 41 + k, **({"kontra": 1} if k == 1 else {})}
        services.hand_record(session=session, raw=raw, user=None, client_token=f"hand-{table.pk}-{k}")


def sign(table: TableRound) -> None:
    """The writing phone signs the table after its last hand, the next seat checking."""
    play(table, table.hands_target)
    scorer, checker = tables.players(table)[:2]
    tables.sign_off(TableRound.objects.get(pk=table.pk), cookie=SCORER, scorer=scorer, checker=checker)


def desk_sums(t: Tournament, table: TableRound) -> None:
    """A paper sheet's sums typed in at the desk: the seats win and lose in turn, summing to zero."""
    numbers = [seat.entrant.number for seat in table.seats.select_related("entrant").order_by("position")]
    sums = {n: (2 * k - len(numbers) + 1) * 17 for k, n in enumerate(numbers)}
    desk.desk_enter(tournament=factory.fresh(t), user=t.owner, table_id=table.pk, sums=sums)


def build_day(owner: User) -> Day:
    """Round 1 done (table 1 written and signed on a phone, table 2 typed in at
    the desk); the last entrant left after it, so round 2 has a four- and a
    five-table; table 1 of round 2 is written on the same phone (two hands so
    far), table 2 not started. A tournament before it in the same cup is final."""
    cup = factory.cup(owner, name="Hausruckviertler Tarockcup", season="2025/26")
    factory.make_final(factory.play_example(owner, cup=cup))
    # The cup belongs to a circuit: the registration link at the door and the register's numbers.
    circuit = circuits.circuit_create(owner=owner, name="Tarock Österreich", season="2025/26")
    circuits.cup_join(circuit=circuit, user=owner, cup_id=cup.pk)
    settings = {"rounds": 2, "hands_at_four": 4, "hands_at_five": 5, "prizes": PRIZES, "prize_raffle": True}
    t = factory.tournament(owner, names=[], cup=cup, settings=settings, name="Herbstturnier Vöcklabruck")
    door.door_open(tournament=t, user=owner)
    for n, name in enumerate(NAMES):
        entrants.entrant_add(tournament=t, user=owner, name=name, place=PLACES[n % len(PLACES)])
    # Side rankings (§14.4) of the day and of the cup, with prizes: their columns on every page.
    side.side_ranking_add(
        user=owner, tournament=t, name="Stadtmeisterschaft", kind="home", value=PLACES[0], prizes=["Wein"]
    )
    side.side_ranking_add(user=owner, cup=cup, name="Out-of-Vienna", kind="region_not", value="Wien")
    # Club teams (§14.6) with a prize: the Teams pages and the team ranking on the board's tab.
    teams.team_settings_set(tournament=t, user=owner, kind="clubs", team_best=2, prizes=["Geschenkkorb"])
    for index, club in enumerate(PLACES[:2]):
        members = [n for n in range(1, len(NAMES) + 1) if (n - 1) % len(PLACES) == index]
        teams.team_save(tournament=factory.fresh(t), user=owner, name=f"Tarockrunde {club}", members=members)
    factory.draw(t)
    factory.release(t)
    first, second = factory.tables(t, 1)
    tables.claim(first, SCORER)
    sign(first)
    desk_sums(t, second)
    plan.entrant_withdraw(tournament=factory.fresh(t), user=owner, number=len(NAMES), after_round=1)
    factory.release(t)
    four, five = sorted(factory.tables(t, 2), key=lambda table: table.size)
    assert (four.size, five.size) == (4, 5)
    tables.claim(four, SCORER)
    play(four, 2)
    return Day(owner, factory.fresh(t), cup)


def finish_day(day: Day) -> None:
    """Round 2's table 1 signed on its phone, table 2 typed in; final; prizes drawn."""
    t = day.tournament
    four, five = sorted(factory.tables(t, 2), key=lambda table: table.size)
    sign(four)
    desk_sums(t, five)
    tournaments.tournament_provisional(tournament=factory.fresh(t), user=day.owner)
    final = factory.make_final(factory.fresh(t))
    raffle.raffle_draw(tournament=final, user=day.owner, present=list(range(1, len(NAMES))))
    day.tournament = factory.fresh(t)


def addresses(day: Day) -> dict[str, list[tuple[str, str]]]:
    """Every page of the URLconf with the ways it is opened: (address, who)."""
    t = day.tournament
    tid = {"tid": t.pk}
    every_table = list(TableRound.objects.filter(round__tournament=t).order_by("round__number", "number"))
    first = table_of_the_phone(day)
    hands = list(first.session.hands.order_by("number")) if first.session_id else []
    card_numbers = t.entrants.order_by("number").values_list("number", flat=True)
    organiser = "organiser"

    def table_pages(name: str, whom: tuple[str, ...], **more: Any) -> list[tuple[str, str]]:
        return [(reverse(name, kwargs={"token": first.link_token, **more}), who) for who in whom]

    return {
        "tournament_list": [(reverse("tournament_list"), organiser)],
        "tournament_new": [(reverse("tournament_new", args=[game]), organiser) for game in games()],
        "tournament_import": [(reverse("tournament_import"), organiser)],
        "tournament_detail": [(reverse("tournament_detail", kwargs=tid), organiser)],
        "tournament_settings": [(reverse("tournament_settings", kwargs=tid), organiser)],
        "tournament_entrants": [(reverse("tournament_entrants", kwargs=tid), organiser)],
        "tournament_round": [
            (reverse("tournament_round", kwargs={**tid, "number": n}), organiser) for n in (1, 2)
        ],
        "organiser_table": [
            (reverse("organiser_table", kwargs={**tid, "pk": table.pk}), organiser) for table in every_table
        ],
        "tournament_prizes": [(reverse("tournament_prizes", kwargs=tid), organiser)],
        "tournament_sides": [(reverse("tournament_sides", kwargs=tid), organiser)],
        "tournament_teams": [(reverse("tournament_teams", kwargs=tid), organiser)],
        "cup_list": [(reverse("cup_list"), organiser)],
        "cup_detail": [(reverse("cup_detail", args=[day.cup.pk]), organiser)],
        "cup_register": [(reverse("cup_register", args=[day.cup.pk]), organiser)],
        "cup_settings": [(reverse("cup_settings", args=[day.cup.pk]), organiser)],
        "cup_sides": [(reverse("cup_sides", args=[day.cup.pk]), organiser)],
        "cup_honours": [(reverse("cup_honours", args=[day.cup.pk]), organiser)],
        "tournament_table": [
            (reverse("tournament_table", args=[table.link_token]), "watcher") for table in every_table
        ]
        + [(reverse("tournament_table", args=[first.link_token]), "scorer")],
        "tournament_table_hand_new": table_pages("tournament_table_hand_new", ("scorer", "watcher")),
        "tournament_table_hand": [
            page
            for hand in hands
            for page in table_pages("tournament_table_hand", ("watcher",), hand_id=hand.pk)
        ],
        "tournament_table_hand_edit": [
            page
            for hand in hands[:1]
            for page in table_pages("tournament_table_hand_edit", ("scorer",), hand_id=hand.pk)
        ],
        "tournament_table_signoff": table_pages("tournament_table_signoff", ("scorer", "watcher")),
        "tournament_board": [
            (reverse("tournament_board", args=[t.board_token]), "watcher"),
            (reverse("tournament_board", args=[t.board_token]) + "?q=Gruber", "watcher"),
            (reverse("tournament_board", args=[t.board_token]) + "?screen=1", "watcher"),
        ],
        "tournament_player_card": [
            (reverse("tournament_player_card", args=[t.board_token, n]), "watcher") for n in card_numbers
        ],
        "tournament_my_day": [(reverse("tournament_my_day", args=[t.board_token]), "watcher")],
        "tournament_my_season": [(reverse("tournament_my_season", args=[t.board_token]), "watcher")],
        "tournament_cup_season": [(reverse("tournament_cup_season", args=[t.board_token]), "watcher")],
        "tournament_board_teams": [(reverse("tournament_board_teams", args=[t.board_token]), "watcher")],
        "tournament_table_code": [(reverse("tournament_table_code"), "watcher")],
        # Closed once round 1 is released: the link says to go to the desk.
        "tournament_door_page": [(reverse("tournament_door_page", args=[t.door_token]), "watcher")],
        "tournament_by_number": [(reverse("tournament_by_number", args=[1]), organiser)],
        "tournament_screen": [(reverse("tournament_screen", args=[t.screen_token]), "watcher")],
    }


def table_of_the_phone(day: Day) -> TableRound:
    """Round 2's table written on the phone (the four-table)."""
    return TableRound.objects.get(round__tournament=day.tournament, round__number=2, size=4)


def url_names() -> set[str]:
    return {str(p.name) for p in [*urls.urlpatterns, *public_urls.urlpatterns] if getattr(p, "name", None)}


@pytest.fixture
def contexts(browser: Any, live_server: Any) -> Iterator[Contexts]:
    made = Contexts(browser)
    yield made
    made.close()


def phones(contexts: Contexts, base: str, owner: User) -> dict[str, Any]:
    """The organiser's phone (logged in), the writing phone and a watching phone."""
    organiser, scorer, watcher = (contexts.page(PHONE) for _ in range(3))
    login(organiser, base, owner)
    scorer.context.add_cookies([{"name": tables.PHONE_COOKIE, "value": SCORER, "url": f"{base}/t/"}])
    return {"organiser": organiser, "scorer": scorer, "watcher": watcher}


def problems_of(page: Any) -> list[str]:
    """What does not fit a phone on the page as shown, every <details> opened."""
    page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
    found = []
    width = page.evaluate("() => document.documentElement.scrollWidth")
    if width > PHONE["width"]:
        found.append(f"{width} px wide")
    for table in page.evaluate(HEADS):
        for row in table:
            found += [f"head {h['text']!r} ({h['where']}): cut" for h in row if h["cut"]]
            heads = [head for head in row if head["column"]]  # a row's label is no column head
            texts = [head["text"] for head in heads]
            found += [
                f"head {h['text']!r} ({h['where']}): fewer than 3 letters"
                for h in heads
                if letters(h["text"]) < 3 and h["text"] not in SIGNS
            ]
            found += [f"head {text!r}: twice in one table" for text in set(texts) if texts.count(text) > 1]
            ordered = sorted(heads, key=lambda h: h["left"])
            found += [
                f"heads {a['text']!r} and {b['text']!r} run together"
                for a, b in pairwise(ordered)
                if a["right"] > b["left"] + 0.5
            ]
    return found


def letters(text: str) -> int:
    return sum(1 for char in text if char.isalpha())


def walk(day: Day, pages: dict[str, Any], base: str) -> dict[str, list[str]]:
    """Every page opened by whom it is for: what does not fit, by address."""
    found: dict[str, list[str]] = {}
    for name, visits in addresses(day).items():
        for address, who in visits:
            page = pages[who]
            response = page.goto(base + address)
            assert response is not None and response.status < 500, (name, address, who)
            assert "text/html" in response.headers["content-type"], (name, address)
            wrong = problems_of(page)
            if wrong:
                found[f"{name} {address} ({who}, {response.status})"] = wrong
    return found


def not_pages(day: Day, page: Any, base: str) -> None:
    """The addresses named as no page answer no page to a GET."""
    t = day.tournament
    first = TableRound.objects.filter(round__tournament=t).order_by("round__number", "number")[0]
    hand = first.session.hands.first() if first.session_id else None
    tid: dict[str, Any] = {"tid": t.pk}
    token: dict[str, Any] = {"token": first.link_token}
    kwargs: dict[str, dict[str, Any]] = {
        "tournament_print": {**tid, "kind": "slips"},
        "tournament_card": {**tid, "number": 1},
        "cup_pdf": {"cid": day.cup.pk},
        "tournament_table_hand_edit_preview": {**token, "hand_id": hand.pk if hand else 1},
        "tournament_table_hand_delete": {**token, "hand_id": hand.pk if hand else 1},
        "tournament_table_hand_restore": {**token, "hand_id": hand.pk if hand else 1},
    }
    for name, reason in NOT_PAGES.items():
        default = token if name.startswith("tournament_table") else tid
        response = page.request.get(base + reverse(name, kwargs=kwargs.get(name, default)))
        if reason == "POST only":
            assert response.status == 405, (name, response.status)
        else:
            assert response.ok and "text/html" not in response.headers["content-type"], (
                name,
                response.status,
            )


def test_every_tournament_cup_board_and_table_page_fits_a_phone(
    contexts: Contexts, live_server: Any, player: User
):
    base = live_server.url
    day = build_day(player)
    opened = set(addresses(day))
    elsewhere = set(NOT_PAGES) | set(CHECKED_ELSEWHERE)
    assert not opened & elsewhere
    assert opened | elsewhere == url_names(), f"not opened here: {url_names() - opened - elsewhere}"
    pages = phones(contexts, base, player)
    not_pages(day, pages["organiser"], base)
    during = walk(day, pages, base)
    watched = reverse("tournament_table", args=[table_of_the_phone(day).link_token])
    shoot(pages["watcher"], base + watched, "tournament-phone-watcher-table", full_page=False)
    finish_day(day)
    after = walk(day, pages, base)
    shoot(
        pages["organiser"],
        base + reverse("tournament_prizes", args=[day.tournament.pk]),
        "tournament-phone-prizes",
    )
    total_in_sight(pages["organiser"], "#ranking")
    # Who is present at the raffle: a box to tick on each line, the whole line the target.
    ticks = (
        pages["organiser"]
        .locator("#raffle-form label.check")
        .evaluate_all("(all) => all.map(el => el.getBoundingClientRect().toJSON())")
    )
    assert len(ticks) > 1 and len({round(box["left"]) for box in ticks}) == 1, ticks
    assert all(box["height"] >= TAP for box in ticks), ticks
    shoot(pages["organiser"], base + reverse("cup_detail", args=[day.cup.pk]), "tournament-phone-cup")
    shoot(
        pages["watcher"],
        base + reverse("tournament_board", args=[day.tournament.board_token]),
        "tournament-phone-board",
    )
    total_in_sight(pages["watcher"], "#ranking table")
    report = [
        f"{when}: {address}: {problem}"
        for when, found in (("while round 2 is played", during), ("final", after))
        for address, problems in found.items()
        for problem in problems
    ]
    if report:
        pytest.fail("\n".join(report))


def total_in_sight(page: Any, table: str) -> None:
    """The ranking's total is read beside the place and the name, before any
    scrolling: its head whole on the phone's screen."""
    heads = page.locator(f"{table} thead th")
    total = heads.filter(has_text="Summe")
    box = total.bounding_box()
    assert box is not None and box["x"] + box["width"] <= PHONE["width"], box
    assert heads.all_inner_texts()[2] == "Summe"


def shoot(page: Any, address: str, name: str, *, full_page: bool = True) -> None:
    """The page at phone size as a picture, its first screen or all of it."""
    page.goto(address)
    page.evaluate("() => window.scrollTo(0, 0)")
    screenshot(page, name, full_page=full_page)
