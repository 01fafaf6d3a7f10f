"""Money you can trust: every money-moving form done once however often it is
sent, exact ``Decimal`` sums on SQLite as on PostgreSQL, columns that hold the
largest evening the app allows, and a decimal comma in every money field.

These run on whichever database the suite runs on (SQLite by default; set
``DATABASE_URL`` for PostgreSQL)."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from club.models import MONEY_LIMIT, Booking, BookingLine, EveningResult, GroupSession
from club.services import groups, kasse, stats
from scoring import services
from scoring.engine import InvalidInput, read_session, score_session
from scoring.engine.session_file import MAX_HANDS
from scoring.models import Hand, Session, SessionChange
from tests.club.regular_table import evening, player
from tests.scoring.test_concurrency import PASSWORD, Phone, at_once

RATE = Decimal("0.05")
GARDE = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}


@pytest.fixture
def group(user: User) -> Any:
    return groups.group_create(owner=user, name="Dienstag", money_rate=RATE)


def form_token(page: str, action: str = "") -> str:
    """The one-time token of the form (the first, or the one posting to ``action``)."""
    form = page[page.index(f'action="{action}"') :] if action else page
    found = re.search(r'name="token" value="([^"]+)"', form)
    assert found is not None, "the form carries a one-time token"
    return found.group(1)


def balances(group: Any) -> dict[str, Decimal]:
    return {b.player.name if b.player else "box": b.amount for b in kasse.kasse_of(group).balances}


# -- finding 2: a money-moving form is done once ------------------------------------------------


@pytest.fixture
def owed(group: Any, user: User) -> Session:
    """A closed evening that left Anna owed 12.00 and the others owing 4.00 each."""
    session, _ = evening(group, user, [GARDE], money_rate=RATE)
    services.session_close(session=session, user=user)
    return session


def payment(group: Any, token: str, amount: str = "4,00") -> dict[str, str]:
    bert, anna = player(group, "Bert"), player(group, "Anna")
    return {"payer": str(bert.pk), "payee": str(anna.pk), "amount": amount, "note": "", "token": token}


class TestOnce:
    def test_a_payment_posted_twice_is_booked_once(self, logged_in, group, owed):
        url = reverse("group_kasse", args=[group.pk])
        token = form_token(logged_in.get(url).content.decode(), "")
        first = logged_in.post(url, payment(group, token))
        again = logged_in.post(url, payment(group, token))  # the double tap, or a resend
        assert (first.status_code, again.status_code) == (302, 302)
        assert Booking.objects.filter(kind="payment").count() == 1
        assert balances(group)["Bert"] == Decimal("0.00")

    def test_the_payment_page_gives_every_visit_a_new_token_so_the_next_payment_is_booked(
        self, logged_in, group, owed
    ):
        url = reverse("group_kasse", args=[group.pk])
        for _ in range(2):
            logged_in.post(url, payment(group, form_token(logged_in.get(url).content.decode())))
        assert Booking.objects.filter(kind="payment").count() == 2

    def test_a_form_brought_back_and_filled_in_again_is_a_new_payment(self, logged_in, group, owed):
        url = reverse("group_kasse", args=[group.pk])
        token = form_token(logged_in.get(url).content.decode())
        logged_in.post(url, payment(group, token, "1,00"))
        logged_in.post(url, payment(group, token, "2,00"))
        logged_in.post(url, payment(group, token, "2,00"))
        amounts = sorted(
            line.amount for line in BookingLine.objects.filter(booking__kind="payment", amount__gt=0)
        )
        assert amounts == [Decimal("1.00"), Decimal("2.00")]

    def test_a_refused_payment_keeps_its_token_and_books_once_when_corrected(self, logged_in, group, owed):
        url = reverse("group_kasse", args=[group.pk])
        token = form_token(logged_in.get(url).content.decode())
        refused = logged_in.post(url, payment(group, token, "abc"))
        assert refused.status_code == 400 and form_token(refused.content.decode()) == token
        for _ in range(2):
            logged_in.post(url, payment(group, token, "3,00"))
        assert Booking.objects.filter(kind="payment").count() == 1

    def test_a_reversal_posted_twice_reverses_once_and_refuses_nothing(self, logged_in, group, owed, user):
        paid = kasse.payment_record(
            group=group, payer=player(group, "Bert"), payee=player(group, "Anna"), amount=RATE, user=user
        )
        url = reverse("kasse_reverse", args=[group.pk, paid.pk])
        token = form_token(logged_in.get(reverse("group_kasse", args=[group.pk])).content.decode(), url)
        for _ in range(2):
            response = logged_in.post(url, {"token": token}, follow=True)
            assert "reversed already" not in response.content.decode()
        assert Booking.objects.filter(kind="reversal", reverses=paid).count() == 1

    @pytest.mark.parametrize("where", ["settings", "group"])
    def test_closing_sent_again_after_a_reopen_leaves_the_evening_open(self, logged_in, group, user, where):
        session, _ = evening(group, user, [GARDE], money_rate=RATE)
        if where == "settings":
            page = logged_in.get(reverse("session_settings", args=[session.pk])).content.decode()
            close = reverse("session_close", args=[session.pk])
        else:
            page = logged_in.get(reverse("group_detail", args=[group.pk])).content.decode()
            close = reverse("group_evening_close", args=[group.pk, session.pk])
        token = form_token(page, close)
        logged_in.post(close, {"token": token})
        services.session_reopen(session=session, user=user)  # someone else reopens it
        logged_in.post(close, {"token": token})  # the first tap's resend arrives late
        assert Session.objects.get(pk=session.pk).closed_at is None
        assert Booking.objects.filter(kind="evening").count() == 1
        assert SessionChange.objects.filter(session=session, action="closed").count() == 1

    @pytest.mark.parametrize("where", ["settings", "group"])
    def test_reopening_sent_again_after_a_close_leaves_the_evening_closed(
        self, logged_in, group, user, where
    ):
        session, _ = evening(group, user, [GARDE], money_rate=RATE)
        services.session_close(session=session, user=user)
        if where == "settings":
            page = logged_in.get(reverse("session_settings", args=[session.pk])).content.decode()
            reopen = reverse("session_reopen", args=[session.pk])
        else:
            page = logged_in.get(reverse("group_detail", args=[group.pk])).content.decode()
            reopen = reverse("group_evening_reopen", args=[group.pk, session.pk])
        token = form_token(page, reopen)
        logged_in.post(reopen, {"token": token})
        services.session_close(session=session, user=user)
        logged_in.post(reopen, {"token": token})
        assert Session.objects.get(pk=session.pk).closed_at is not None
        assert Booking.objects.filter(kind="reversal").count() == 1
        assert set(balances(group).values()) != {Decimal(0)}  # booked again, and not reversed again


def test_the_sheets_reopen_form_has_a_new_token_on_every_view_of_the_kept_page(logged_in, group, user):
    session, _ = evening(group, user, [GARDE], money_rate=RATE)
    services.session_close(session=session, user=user)
    sheet, reopen = reverse("scoreboard", args=[session.pk]), reverse("session_reopen", args=[session.pk])
    tokens = [form_token(logged_in.get(sheet).content.decode(), reopen) for _ in range(2)]
    assert tokens[0] != tokens[1] and all(re.fullmatch(r"[0-9a-f]{32}", token) for token in tokens)
    logged_in.post(reopen, {"token": tokens[0]})
    services.session_close(session=session, user=user)
    logged_in.post(reopen, {"token": tokens[0]})  # the tap sent again
    assert Session.objects.get(pk=session.pk).closed_at is not None


@pytest.fixture
def kasse_table(transactional_db: Any, live_server: Any) -> tuple[Any, Phone, Session]:
    owner = User.objects.create_user("anna", password=PASSWORD)
    table = groups.group_create(owner=owner, name="Dienstag", money_rate=RATE)
    session, _ = evening(table, owner, [GARDE], money_rate=RATE)
    return table, Phone(live_server.url, owner.username), session


def test_twenty_payments_posted_at_once_with_one_token_are_booked_once(kasse_table):
    table, phone, session = kasse_table
    services.session_close(session=session, user=session.owner)
    path = reverse("group_kasse", args=[table.pk])
    page = phone.get(path)
    data = payment(table, form_token(page))
    results = at_once([phone] * 20, lambda i, p: p.post(path, data, page))
    assert [status for status, _ in results] == [302] * 20
    assert Booking.objects.filter(kind="payment").count() == 1
    assert balances(table)["Bert"] == Decimal("0.00")


def test_twenty_closings_and_then_twenty_reopenings_at_once_book_once_and_reverse_once(kasse_table):
    table, phone, session = kasse_table
    page = phone.get(reverse("group_detail", args=[table.pk]))
    close = reverse("group_evening_close", args=[table.pk, session.pk])
    token = form_token(page, close)
    results = at_once([phone] * 20, lambda i, p: p.post(close, {"token": token}, page))
    assert [status for status, _ in results] == [302] * 20
    page = phone.get(reverse("group_detail", args=[table.pk]))
    reopen = reverse("group_evening_reopen", args=[table.pk, session.pk])
    token = form_token(page, reopen)
    results = at_once([phone] * 20, lambda i, p: p.post(reopen, {"token": token}, page))
    assert [status for status, _ in results] == [302] * 20
    assert Booking.objects.filter(kind="evening").count() == 1
    assert Booking.objects.filter(kind="reversal").count() == 1
    assert SessionChange.objects.filter(session=session, action__in=["closed", "reopened"]).count() == 2


# -- finding 3: exact sums ------------------------------------------------------------------------

# Chambéry with three: each player's points less 26 (a third of the deck's 78),
# at 0.05 a point. Dora's evenings book −3.00, −2.30 and +4.40: as floats that is
# −0.8999999999999995, which a database sum on SQLite returns.
EVENINGS = [
    (("Dora", "Anna", "Bert"), [(16, 31, 31)] * 6),  # −3.00, +1.50, +1.50
    (("Dora", "Bert", "Carl"), [(16, 20, 42)] * 4 + [(20, 26, 32)]),  # −2.30, −1.20, +3.50
    (("Dora", "Carl", "Anna"), [(37, 18, 23)] * 8),  # +4.40, −3.20, −1.20
]


def test_three_evenings_at_five_cents_add_up_exactly_in_the_kasse_and_the_season_table(
    logged_in, group, user
):
    for seats, hands in EVENINGS:
        raw = [{"points": dict(zip(seats, points, strict=True))} for points in hands]
        session, _ = evening(group, user, raw, variant="chambery", players=seats, money_rate=RATE)
        services.session_close(session=session, user=user)
    found = balances(group)
    assert found == {
        "Anna": Decimal("0.30"),
        "Bert": Decimal("0.30"),
        "Carl": Decimal("0.30"),
        "Dora": Decimal("-0.90"),
        "box": Decimal("0.00"),
    }
    assert all(type(amount) is Decimal for amount in found.values())
    transfers = kasse.kasse_of(group).transfers
    assert sum((t.amount for t in transfers), Decimal(0)) == Decimal("0.90")
    assert {(t.payer.name, t.amount) for t in transfers if t.payer} == {("Dora", Decimal("0.30"))}

    table = stats.season_table(group, stats.season_range(group, None))
    money = {row.name: row.money for game in table.games for row in game.rows}
    assert money == {
        "Anna": Decimal("0.30"),
        "Bert": Decimal("0.30"),
        "Carl": Decimal("0.30"),
        "Dora": Decimal("-0.90"),
    }
    assert {type(row.total) for game in table.games for row in game.rows} == {Decimal}
    for url in (reverse("season_table", args=[group.pk]), reverse("group_kasse", args=[group.pk])):
        page = logged_in.get(url).content.decode()
        assert "0.90" in page and "0.30" in page
        assert "0.8999" not in page and "0.3000" not in page and "0.89<" not in page


# -- finding 4: the largest evening the app allows fits ---------------------------------------------

# The largest hand found of any game (a search over every game's valid hands, by
# what a hand moves the balance between pairs): an Illustriertes solo defended to
# a Valat announced after the talon, Graz (factor 12, doubled by each Kontra), with
# Kontra thrice on the game and the Valat: B's balance moves by −341,376.
LARGEST = {
    "declarer": "B",
    "game": "solo",
    "bid": "announced",
    "kontra": 3,
    "talon_rest": 0,
    "valat": {"by": "opponents", "announced": "after_talon", "made": True, "kontra": 3},
    "points": 0,
    "premiums": [
        {"type": "koenigstrull", "player": "A", "announced": "silent", "made": True, "kontra": 0},
        {"type": "tarocktrull", "player": "A", "announced": "silent", "made": True, "kontra": 0},
    ],
}
LARGEST_OPTIONS = {
    "profile": "graz",
    "uhu": True,
    "game_points": {"announced": 20, "unterer": 20, "held": 20},
    "series_target": 1,
    "series_bonus": 0,
}
HIGHEST_RATE = Decimal("9999.9999")


def test_the_money_columns_hold_what_sqlite_keeps_exactly_and_the_largest_evening_fits():
    rate = Session._meta.get_field("money_rate")
    highest_rate = (
        Decimal(10) ** (rate.max_digits - rate.decimal_places) - Decimal(10) ** -rate.decimal_places
    )
    assert highest_rate == HIGHEST_RATE
    for field in (EveningResult._meta.get_field("money"), BookingLine._meta.get_field("amount")):
        # SQLite keeps 15 significant digits of a number exactly; PostgreSQL any.
        assert (
            field.max_digits == 15 and Decimal(10) ** (field.max_digits - field.decimal_places) == MONEY_LIMIT
        )
    document = {"variant": "illustrated", "players": ["A", "B", "C"], "options": LARGEST_OPTIONS}
    net = score_session(read_session({**document, "hands": [LARGEST]})).summary.net
    assert min(net.values()) == -341376
    assert int(max(abs(v) for v in net.values())) * MAX_HANDS * highest_rate < MONEY_LIMIT


def long_evening(
    owner: User, group: Any | None = None, deltas: dict[str, int] | None = None, count: int = MAX_HANDS
) -> Session:
    """2,000 of the largest hand at the highest money rate: one recorded, the rest
    copies of its stored snapshot (as an import stores them, only faster);
    ``deltas`` write other points into the copies' snapshots."""
    details: dict[str, Any] = {"name": "Riesig", "variant": "illustrated", "players": ["A", "B", "C"]}
    details.update(owner=owner, options=LARGEST_OPTIONS, money_rate=HIGHEST_RATE)
    if group is None:
        session = services.session_create(**details)
    else:
        session = groups.group_session_create(group=group, **details)
    first = services.hand_record(session=session, raw=LARGEST, user=owner)
    copied = {name: getattr(first, name) for name in ("type", "dealer", "inputs", "breakdown", "description")}
    copied.update(facts=first.facts, stats=first.stats, deltas=deltas or first.deltas)
    Hand.objects.bulk_create(Hand(session=session, number=n, **copied) for n in range(2, count + 1))
    return session


def test_the_largest_evening_allowed_is_booked_and_shown_everywhere(logged_in, group, user):
    session = long_evening(user)
    services.session_close(session=session, user=user)
    added = logged_in.post(reverse("group_evening_add", args=[group.pk]), {"session": session.pk})
    assert added.status_code == 302
    money = {r.player.name: r.money or Decimal(0) for r in EveningResult.objects.filter(session=session)}
    assert money["B"] == Decimal("-6827519931720.00") and sum(money.values()) == 0
    assert balances(group)["B"] == Decimal("-6827519931720.00")
    kasse_page = logged_in.get(reverse("group_kasse", args=[group.pk]))
    assert kasse_page.status_code == 200 and "6827519931720.00" in kasse_page.content.decode()
    b = player(group, "B")
    assert logged_in.get(reverse("group_player", args=[group.pk, b.pk])).status_code == 200
    pdf = logged_in.get(reverse("group_player_pdf", args=[group.pk, b.pk]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert logged_in.get(reverse("season_table", args=[group.pk])).status_code == 200


def test_an_evening_beyond_what_the_kasse_keeps_is_refused_with_the_reason(logged_in, group, user):
    # Snapshots no game writes (ten times the largest hand) stand for whatever lies beyond.
    session = long_evening(user, deltas={"A": 3_500_000, "B": 0, "C": 0})
    services.session_close(session=session, user=user)
    response = logged_in.post(
        reverse("group_evening_add", args=[group.pk]), {"session": session.pk}, follow=True
    )
    assert response.status_code == 200
    assert "too much for the Kasse" in response.content.decode()
    assert not GroupSession.objects.filter(session=session).exists()
    assert not EveningResult.objects.exists() and not Booking.objects.exists()


def test_a_hand_that_would_take_a_group_evening_beyond_what_the_kasse_keeps_is_refused(group, user):
    session = long_evening(user, group, deltas={"A": 3_500_000, "B": 0, "C": 0}, count=MAX_HANDS - 1)
    with pytest.raises(InvalidInput) as refused:
        services.hand_record(session=session, raw=LARGEST, user=user)
    assert refused.value.field == "money_rate"
    assert Hand.objects.filter(session=session).count() == MAX_HANDS - 1


def test_a_money_rate_that_would_take_a_group_evening_beyond_the_kasse_is_refused_beside_it(
    logged_in, group, user
):
    session = long_evening(user, group, deltas={"A": 3_500_000, "B": 0, "C": 0})
    Session.objects.filter(pk=session.pk).update(money_rate=Decimal("0.0001"))
    url = reverse("session_settings", args=[session.pk])
    response = logged_in.post(url, {"name": "Riesig", "played_on": "2026-11-17", "money_rate": "9999,9999"})
    assert response.status_code == 400
    page = response.content.decode()
    assert 'id="id_money_rate-error"' in page and "too much for the Kasse" in page
    assert Session.objects.get(pk=session.pk).money_rate == Decimal("0.0001")


# -- finding 5: Illustriertes money, series by series ---------------------------------------------

# Two series of one hand each: A's renonce costs A 22 points a series, 0.055 at a
# quarter cent, paid as 0.06 after each series: 0.12 (the evening as a whole would
# round 0.11 and disagree with its series by a cent).
RENONCE = {
    "declarer": "A",
    "game": "dreiblatt",
    "bid": "announced",
    "talon_rest": 0,
    "renonce": "A",
    "points": 0,
}
RENONCE["valat"] = {"by": "declarer", "announced": "silent", "made": True}
SMALL_GAME = {"game_points": {"announced": 1, "unterer": 1, "held": 1}, "series_target": 1, "series_bonus": 0}


def test_the_settlement_the_series_and_the_kasse_show_the_same_cents(logged_in, group, user):
    session, _ = evening(
        group,
        user,
        [RENONCE, RENONCE],
        variant="illustrated",
        players=("A", "B", "C"),
        options=SMALL_GAME,
        money_rate=Decimal("0.0025"),
    )
    services.session_close(session=session, user=user)
    booked = {line.player.name: line.amount for line in BookingLine.objects.filter(booking__kind="evening")}
    assert booked == {"A": Decimal("-0.12"), "B": Decimal("0.06"), "C": Decimal("0.06")}
    page = logged_in.get(reverse("settlement", args=[session.pk])).content.decode()
    net = page[page.index('id="net"') : page.index('id="per-series"')]
    series = page[page.index('id="per-series"') :]
    series = series[: series.index("</section>")]
    assert re.search(r'data-player="A".*?0\.12\xa0€</td>', net, re.S)  # in the group's currency
    assert "0.11" not in net and series.count("0.06") == 2 and series.count("0.03") == 4


# -- finding 8: the decimal comma --------------------------------------------------------------------


def speaking(client: Client, language: str) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def shown_rate(page: str) -> str:
    found = re.search(r'name="money_rate"[^>]*value="([^"]*)"|value="([^"]*)"[^>]*name="money_rate"', page)
    assert found is not None
    return found.group(1) or found.group(2) or ""


LANGUAGES = ["de", "fr"]
TYPED = ["0,05", "0.05"]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("typed", TYPED)
def test_a_new_session_takes_the_money_rate_with_a_comma_or_a_point(logged_in, language, typed):
    data = {"name": "Freitag", "seat_1": "Anna", "seat_2": "Bert", "seat_3": "Carl", "money_rate": typed}
    response = speaking(logged_in, language).post(reverse("session_new_variant", args=["french"]), data)
    assert response.status_code == 302
    assert Session.objects.get().money_rate == RATE


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("typed", [*TYPED, None])
def test_a_groups_new_evening_takes_its_prefilled_rate_or_one_typed(logged_in, group, language, typed):
    url = reverse("group_evening_new", args=[group.pk, "french"])
    page = speaking(logged_in, language).get(url).content.decode()
    shown = shown_rate(page)
    assert shown == "0,05"  # the group's rate, as the reader writes it
    data = {"name": "Freitag", "seat_1": "Anna", "seat_2": "Bert", "seat_3": "Carl"}
    response = logged_in.post(url, {**data, "money_rate": shown if typed is None else typed})
    assert response.status_code == 302
    assert Session.objects.get().money_rate == RATE


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("typed", [*TYPED, None])
def test_an_evenings_settings_take_the_rate_as_shown_or_typed(logged_in, make_session, language, typed):
    session = make_session(money_rate=Decimal("0.02"))
    url = reverse("session_settings", args=[session.pk])
    page = speaking(logged_in, language).get(url).content.decode()
    shown = shown_rate(page)
    assert shown == "0,02"
    data = {"name": "Freitag", "played_on": "2026-11-17", "money_rate": shown if typed is None else typed}
    response = logged_in.post(url, data)
    assert response.status_code == 302
    assert Session.objects.get().money_rate == (Decimal("0.02") if typed is None else RATE)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("typed", [*TYPED, None])
def test_a_groups_settings_take_the_rate_as_shown_or_typed(logged_in, group, language, typed):
    url = reverse("group_settings", args=[group.pk])
    page = speaking(logged_in, language).get(url).content.decode()
    shown = shown_rate(page)
    assert shown == "0,05"
    data = {"name": "Dienstag", "min_hands": "10", "money_rate": shown if typed is None else typed}
    response = logged_in.post(url, data)
    assert response.status_code == 302
    group.refresh_from_db()
    assert group.money_rate == RATE


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("typed", ["0,05", "0.05", "12,40"])
def test_a_payment_takes_the_amount_with_a_comma_or_a_point(logged_in, group, owed, language, typed):
    url = reverse("group_kasse", args=[group.pk])
    page = speaking(logged_in, language).get(url).content.decode()
    response = logged_in.post(url, payment(group, form_token(page), typed))
    assert response.status_code == 302
    paid = BookingLine.objects.get(booking__kind="payment", amount__gt=0).amount
    assert paid == Decimal(typed.replace(",", "."))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_refused_payment_comes_back_with_the_amount_as_typed_and_is_taken_as_it_is(
    logged_in, group, owed, language
):
    url = reverse("group_kasse", args=[group.pk])
    page = speaking(logged_in, language).get(url).content.decode()
    refused = logged_in.post(url, {**payment(group, form_token(page), "2,50"), "payee": ""})
    assert refused.status_code == 400
    shown = re.search(r'name="amount" value="([^"]*)"', refused.content.decode())
    assert shown is not None and shown.group(1) == "2,50"
    assert logged_in.post(url, payment(group, form_token(page), shown.group(1))).status_code == 302
