"""A link's requests are counted per client (the phone's cookie, else its
address) before they count against the link: a phone sending far more than its
share is refused alone, and the phone that writes at a table and the hall
screen (its own link) are never held up by other clients, not even when the
cache cannot count."""

from __future__ import annotations

import io
import re
import secrets
from dataclasses import replace
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from pypdf import PdfReader

from plumbing import budgets, steady_cache
from plumbing.budgets import Budget
from scoring import services as scoring
from tests.tournaments.table_support import claimed_phone, kontra_hand, phone, rufer, tournament_day
from tests.tournaments.table_support import in_english as in_english
from tournaments.models import TableRound, Tournament
from tournaments.services import plan, printouts, results, tables
from tournaments.views import board as board_views
from tournaments.views import table as table_views

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


@pytest.fixture(autouse=True)
def long_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    """A budget's minute lasts an hour here: a test slowed down by a busy machine
    never sees a window end halfway (the counts are what is checked, not time)."""
    monkeypatch.setattr(budgets, "WINDOW_SECONDS", 3600)


HX: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}


def watcher(address: str = "127.0.0.1") -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE="en", REMOTE_ADDR=address)


def with_cookie(client: Client, name: str, value: str) -> Client:
    client.cookies[name] = value
    return client


def table_poll(token: str) -> str:
    return reverse("tournament_table", args=[token])


def board_poll(t: Tournament) -> str:
    return reverse("tournament_board", args=[t.board_token]) + f"?since={t.version}"


def screen_poll(t: Tournament) -> str:
    return reverse("tournament_screen", args=[t.screen_token]) + f"?since={t.version}"


def shared(day_tournament: Tournament) -> Tournament:
    results.board_share(day_tournament)
    return Tournament.objects.get(pk=day_tournament.pk)


# -- the table link ----------------------------------------------------------------------------


def test_a_phone_at_ten_times_a_watchers_rate_never_gets_the_writer_a_429(user, monkeypatch):
    # A watcher's phone polling ten times as often as a page does, and so sending
    # more in its minute than the whole link allows, between the scorer's own work.
    budget = Budget("table-link", per_phone=12, per_address=24, per_link=60, own=240)  # smaller, same shape
    monkeypatch.setattr(table_views, "TABLE", budget)
    day = tournament_day(user, tables_count=1, hands=8)
    table = day.table(1)
    writer = claimed_phone(table)
    hammer = with_cookie(phone(), tables.PHONE_COOKIE, tables.new_phone_cookie())
    url = table_poll(table.link_token)
    hammered, written = [], []
    for i in range(10 * budget.per_phone):
        hammered.append(hammer.get(url, **HX).status_code)
        if i % 10 == 0:
            written.append(writer.get(url).status_code)
    assert written == [200] * len(written)  # not one 429 for the phone that writes
    assert hammered == [200] * budget.per_phone + [429] * (9 * budget.per_phone)  # refused alone
    assert phone().get(url).status_code == 200  # and the others still have the link's budget
    saved = writer.post(
        reverse("tournament_table_hand_new", args=[table.link_token]),
        {**rufer("Anna", "Bernd", "Anna"), "token": "a1b2c3d4", "action": "save"},
    )
    assert saved.status_code == 302 and tables.has_hands(day.table(1))


def test_a_phone_of_the_real_budget_is_refused_after_its_share_with_retry_after(user):
    day = tournament_day(user, tables_count=1)
    url = table_poll(day.table(1).link_token)
    hammer = with_cookie(phone(), tables.PHONE_COOKIE, tables.new_phone_cookie())
    answers = [hammer.get(url + "?since=x", **HX) for _ in range(table_views.TABLE_PER_PHONE + 1)]
    assert [a.status_code for a in answers[:-1]] == [200] * table_views.TABLE_PER_PHONE
    assert answers[-1].status_code == 429 and answers[-1]["Retry-After"] == str(budgets.WINDOW_SECONDS)
    assert table_views.TABLE_PER_PHONE >= 10 * 12  # ten times a watcher's poll every 5 s
    assert table_views.TABLE_PER_MINUTE >= 10 * table_views.TABLE_PER_PHONE


def test_many_phones_using_up_a_table_link_never_hold_up_its_writer(user, monkeypatch):
    monkeypatch.setattr(
        table_views, "TABLE", Budget("table-link", per_phone=5, per_address=5, per_link=30, own=240)
    )
    day = tournament_day(user, tables_count=1)
    table = day.table(1)
    writer = claimed_phone(table)
    url = table_poll(table.link_token)
    answers = []
    for n in range(20):  # twenty phones, each within its own share, together past the link's
        crowd = with_cookie(phone(), tables.PHONE_COOKIE, tables.new_phone_cookie())
        answers += [crowd.get(url, **HX).status_code for _ in range(5)]
        assert writer.get(url, **HX).status_code == 200, n
    assert answers.count(200) == 30 and answers.count(429) == 70
    refused = phone().get(url)
    assert refused.status_code == 429 and refused["Retry-After"] == str(budgets.WINDOW_SECONDS)
    assert "no-cache" in refused["Cache-Control"]


def test_phones_without_a_cookie_are_counted_by_their_address(user, monkeypatch):
    monkeypatch.setattr(
        table_views, "TABLE", Budget("table-link", per_phone=5, per_address=8, per_link=100, own=240)
    )
    day = tournament_day(user, tables_count=1)
    url = table_poll(day.table(1).link_token)
    from_one = [watcher("198.51.100.4").get(url, **HX).status_code for _ in range(10)]  # no cookie kept
    assert from_one == [200] * 8 + [429] * 2
    assert watcher("198.51.100.5").get(url, **HX).status_code == 200


# -- the board and the hall screen ---------------------------------------------------------------


def test_a_phone_polling_the_board_past_its_link_never_gets_the_hall_screen_a_429(user, monkeypatch):
    # The board link's QR code is on the hall screen: anybody polls it; the hall
    # screen polls through its own link and is never counted with them.
    monkeypatch.setattr(board_views, "BOARD", replace(board_views.BOARD, per_phone=10, per_link=60))
    t = shared(tournament_day(user, tables_count=2).tournament)
    hammer = with_cookie(phone(), board_views.BOARD_COOKIE, "hammer-cookie-0123456789")
    crowd = [with_cookie(phone(), board_views.BOARD_COOKIE, f"crowd-cookie-{n:012d}") for n in range(10)]
    hall = phone()
    hammered, crowded, screen = [], [], []
    for i in range(100):
        hammered.append(hammer.get(board_poll(t), **HX).status_code)
        crowded.append(crowd[i % 10].get(board_poll(t), **HX).status_code)
        if i % 10 == 0:
            screen.append(hall.get(screen_poll(t), **HX).status_code)
    assert screen == [204] * len(screen)  # not one 429 for the hall
    assert hammered.count(204) == 10  # the hammering phone got its own share, no more
    assert crowded.count(204) == 50  # the others shared what was left of the link's
    assert hall.get(reverse("tournament_screen", args=[t.screen_token])).status_code == 200


def test_a_hall_of_400_behind_one_address_opens_the_board_within_a_minute(user):
    # The QR code goes up; every phone of the hall, none with a cookie yet, all
    # behind the hall's one address, opens the board (its poll: as counted, cheaper).
    t = shared(tournament_day(user, tables_count=1).tournament)
    answers = [watcher("203.0.113.9").get(board_poll(t), **HX).status_code for _ in range(400)]
    assert answers == [204] * 400


def test_the_hall_screen_link_shows_the_hall_with_the_boards_qr_code_and_polls_itself(user):
    t = shared(tournament_day(user, tables_count=1).tournament)
    page = phone().get(reverse("tournament_screen", args=[t.screen_token]))
    html = page.content.decode()
    assert page.status_code == 200 and "no-cache" in page["Cache-Control"]
    assert f'hx-get="{reverse("tournament_screen", args=[t.screen_token])}?since=' in html
    assert 'class="hall-qr"' in html and reverse("tournament_board", args=[str(t.board_token)]) not in html
    results.board_unshare(t)
    assert phone().get(reverse("tournament_screen", args=[t.screen_token])).status_code == 410


def test_a_new_board_link_keeps_the_hall_screen_going(user):
    t = shared(tournament_day(user, tables_count=1).tournament)
    screen = t.screen_token
    results.board_share(t)
    assert Tournament.objects.get(pk=t.pk).screen_token == screen
    assert phone().get(reverse("tournament_screen", args=[screen])).status_code == 200


def test_the_writer_and_the_hall_screen_pass_when_the_cache_cannot_count(user, monkeypatch):
    # Redis down: the writer and the hall go on; the others are counted in the
    # server process, as with CACHE=local.
    monkeypatch.setattr(steady_cache, "RESTING_SECONDS", 0.0)
    broken = {"BACKEND": "plumbing.steady_cache.SteadyRedisCache", "LOCATION": "redis://127.0.0.1:1/0"}
    monkeypatch.setattr(table_views, "TABLE", replace(table_views.TABLE, per_phone=3, own=2))
    monkeypatch.setattr(board_views, "BOARD", replace(board_views.BOARD, per_phone=3, own=2))
    day = tournament_day(user, tables_count=1)
    t = shared(day.tournament)
    table = day.table(1)
    writer, other = claimed_phone(table), with_cookie(phone(), tables.PHONE_COOKIE, tables.new_phone_cookie())
    steady_cache.rested()
    with override_settings(CACHES={"default": broken}):
        assert [writer.get(table_poll(table.link_token), **HX).status_code for _ in range(6)] == [200] * 6
        assert [phone().get(screen_poll(t), **HX).status_code for _ in range(6)] == [204] * 6
        others = [other.get(table_poll(table.link_token), **HX).status_code for _ in range(5)]
        assert others == [200] * 3 + [429] * 2
    steady_cache.rested()


# -- Cache-Control, the public card, the short code ----------------------------------------------


def test_every_public_page_and_poll_says_no_cache(user):
    day = tournament_day(user, tables_count=1)
    t = shared(day.tournament)
    table = day.table(1)
    hand = scoring.hand_record(session=tables.open_table(table), raw=rufer("Anna", "Bernd", "Anna"))
    writer = claimed_phone(day.table(1))
    t = Tournament.objects.get(pk=t.pk)
    watched = phone().get(table_poll(table.link_token)).content.decode()
    since = re.search(r'\?since=([^"&]+)"', watched).group(1)  # the watcher's poll, as its page asks
    answers = {
        "board": phone().get(reverse("tournament_board", args=[t.board_token])),
        "board poll": phone().get(board_poll(t), **HX),
        "hall": phone().get(reverse("tournament_board", args=[t.board_token]) + "?screen=1"),
        "screen": phone().get(reverse("tournament_screen", args=[t.screen_token])),
        "screen poll": phone().get(screen_poll(t), **HX),
        "card": phone().get(reverse("tournament_player_card", args=[t.board_token, 1])),
        "table": phone().get(table_poll(table.link_token)),
        "table poll": writer.get(table_poll(table.link_token) + f"?since={since}", **HX),
        "hand": phone().get(reverse("tournament_table_hand", args=[table.link_token, hand.pk])),
        "signoff": phone().get(reverse("tournament_table_signoff", args=[table.link_token])),
        "code page": phone().get(reverse("tournament_table_code")),
    }
    statuses = {name: answer.status_code for name, answer in answers.items()}
    assert statuses == {
        **{name: 200 for name in answers},
        "board poll": 204,
        "screen poll": 204,
        "table poll": 204,
    }
    for name, answer in answers.items():
        assert "no-cache" in answer.get("Cache-Control", ""), name


def test_the_public_player_card_shows_no_money(user):
    day = tournament_day(user, tables_count=1, hands=2, money_rate=Decimal("0.10"))
    table = day.table(1)
    session = tables.open_table(table)
    scoring.hand_record(session=session, raw=kontra_hand("Anna", "Bernd", "Anna"))
    scoring.hand_record(session=session, raw=kontra_hand("Anna", "Bernd", "Bernd"))
    tables.sign_off(day.table(1), user=user, scorer="Anna", checker="Bernd")
    t = shared(day.tournament)
    money = next(r for r in results.table_sums(day.table(1)).money.values() if r)
    assert money  # the table played for money: Anna won some
    html = phone().get(reverse("tournament_player_card", args=[t.board_token, 1])).content.decode()
    # What the card shows, not the phone's words for its offline pages (a script block).
    shown = re.sub(r"<script\b.*?</script>", "", html, flags=re.S)
    assert "Round result" in shown and "€" not in html
    assert "Money" not in shown and "Kontra" not in shown


def test_the_short_code_page_opens_the_table_whose_slip_carries_the_code(user):
    day = tournament_day(user, tables_count=2)
    TableRound.objects.filter(pk=day.tables[1].pk).update(short_code="KM7PQ3")
    opened = phone().post(reverse("tournament_table_code"), {"code": " km7-pq3 "})
    assert opened.status_code == 302
    assert opened["Location"] == reverse("tournament_table", args=[day.tables[1].link_token])
    for wrong in ("KM7PQ4", "", "KM7PQ", "0" * 6, "x" * 200):
        refused = phone().post(reverse("tournament_table_code"), {"code": wrong})
        assert refused.status_code == 400, wrong
        assert "no open table has this code" in refused.content.decode()
    TableRound.objects.filter(pk=day.tables[1].pk).update(status=TableRound.Status.SIGNED)
    assert phone().post(reverse("tournament_table_code"), {"code": "KM7PQ3"}).status_code == 400


def test_codes_typed_are_limited_per_address(user):
    tournament_day(user, tables_count=1)
    url = reverse("tournament_table_code")
    guesser = watcher("198.51.100.9")
    tries = [guesser.post(url, {"code": f"ABCDE{c}"}).status_code for c in "ABCDEFGHJKMN"]
    assert tries == [400] * table_views.CODE_PER_ADDRESS + [429] * (12 - table_views.CODE_PER_ADDRESS)
    assert watcher("198.51.100.10").post(url, {"code": "ABCDEF"}).status_code == 400


def test_a_short_code_is_never_given_to_two_open_tables_of_any_tournaments(user, monkeypatch):
    first = tournament_day(user, tables_count=1)
    TableRound.objects.filter(pk=first.tables[0].pk).update(short_code="ABCDEF")
    drawn = iter("ABCDEF" + "GHJKMN")
    monkeypatch.setattr(secrets, "choice", lambda alphabet: next(drawn))
    assert plan.new_short_code() == "GHJKMN"


def test_the_slip_says_where_the_code_is_typed(user):
    day = tournament_day(user, tables_count=1)
    export = printouts.table_slips(day.tournament, base="https://tarock.example.org")
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(export.data)).pages)
    assert "tarock.example.org/t/" in " ".join(text.split())
