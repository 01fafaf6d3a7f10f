"""The cache is an accelerator, never a dependency: with the cache unreachable
(``CACHE=redis://…`` pointing at a Redis that is down), every address of the
tournaments (the organiser's pages, the table and board links, the hall
screen, the printouts), the evenings and the regular table answers as it would
without a cache, or "busy, try again" (503 with Retry-After) where something
must be counted, never a server error. The addresses are read from the URLconfs,
so a new page cannot be missed; the hand saved through a table link (as a form
and from the outbox) and on an evening's sheet is stored."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, cast

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, reverse
from django.utils import timezone

from club import urls as club_urls
from plumbing import steady_cache
from plumbing.busy import RETRY_AFTER
from ratings import urls as rating_urls
from scoring import exports
from scoring import services as scoring
from scoring import urls as evening_urls
from scoring.models import Hand
from tests.scoring.test_access_matrix import HAND, World, make_world
from tests.tournaments import factory
from tests.tournaments.table_support import rufer
from tournaments import circuit_urls, public_urls, urls
from tournaments.models import TableRound, Tournament
from tournaments.services import circuit as circuits
from tournaments.services import player_view, printouts, results, tables

pytestmark = pytest.mark.django_db

URLCONFS = (urls, public_urls, circuit_urls, rating_urls, evening_urls, club_urls)
UNREACHABLE = {**settings.CACHE_BACKENDS["redis"], "LOCATION": "redis://127.0.0.1:1/0"}


@pytest.fixture
def cache_down(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every call asks the Redis that is not there (no rest after a failure)."""
    monkeypatch.setattr(steady_cache, "RESTING_SECONDS", 0.0)
    steady_cache.rested()
    with override_settings(CACHES={"default": UNREACHABLE}):
        yield
    steady_cache.rested()


@dataclass
class Day:
    evenings: World
    owner: User
    tournament: Tournament
    table: TableRound
    hand: Hand
    cup_id: int
    phone_cookie: str
    circuit_id: int


def make_day() -> Day:
    evenings = make_world()
    owner = evenings.users["owner"]
    cup = factory.cup(owner)
    t = factory.tournament(owner, cup=cup)
    factory.draw(t)
    factory.release(t)
    table = TableRound.objects.filter(round__tournament=t).order_by("round__number", "number").first()
    assert table is not None
    names = tables.players(table)
    hand = scoring.hand_record(session=tables.open_table(table), raw=rufer(names[0], names[1], names[0]))
    results.board_share(factory.fresh(t))
    cookie = tables.new_phone_cookie()
    assert tables.claim(tables.table_by_token(table.link_token), cookie)
    circuit = circuits.circuit_create(owner=owner, name="Tarock Österreich", season="2025/26")
    circuits.cup_join(circuit=circuit, user=owner, cup_id=cup.pk)
    return Day(
        evenings,
        owner,
        factory.fresh(t),
        tables.table_by_token(table.link_token),
        hand,
        cup.pk,
        cookie,
        circuit.pk,
    )


def patterns(conf: Any) -> Iterator[URLPattern]:
    for entry in conf.urlpatterns:
        assert not isinstance(entry, URLResolver), entry  # every address is listed flat
        yield entry


def arguments(name: str, d: Day) -> list[dict[str, Any]]:
    """Every way the walk fills in ``name``'s address: one, or one per kind."""
    t, w = d.tournament, d.evenings
    by_name: dict[str, list[dict[str, Any]]] = {
        "tournament_print": [{"tid": t.pk, "kind": kind} for kind in printouts.KINDS],
        "session_export": [{"pk": w.evening.pk, "kind": kind} for kind in exports.KINDS],
        "tournament_board": [{"token": t.board_token}],
        "tournament_player_card": [{"token": t.board_token, "number": 1}],
        "tournament_my_day": [{"token": t.board_token}],
        "tournament_my_season": [{"token": t.board_token}],
        "tournament_cup_season": [{"token": t.board_token}],
        "tournament_board_teams": [{"token": t.board_token}],
        "tournament_screen": [{"token": t.screen_token}],
        "shared_board": [{"token": w.evening.share_token}],
        "shared_hand": [{"token": w.evening.share_token, "hand_id": w.hand.pk}],
        "tournament_round": [{"tid": t.pk, "number": 1}],
        "tournament_card": [{"tid": t.pk, "number": 1}],
        "session_restore": [{"pk": w.deleted_evening.pk}],
        "hand_restore": [{"pk": w.evening.pk, "hand_id": w.deleted_hand.pk}],
    }
    if name in by_name:
        return by_name[name]
    public_hand = name.startswith("tournament_table_hand") and name not in (
        "tournament_table_hand_new",
        "tournament_table_hand_preview",
    )
    values = {
        "tid": t.pk,
        "cid": d.cup_id,
        "pk": d.table.pk if name == "organiser_table" else w.evening.pk,
        "variant": "koenigrufen" if name.startswith("tournament") else "french",
        "token": d.table.link_token,
        "hand_id": d.hand.pk if public_hand else w.hand.pk,
        "gid": w.group.pk,
        "kid": d.circuit_id,
        "number": 1,
        "pid": w.anna.pk,
        "bid": w.payment.pk,
        "season": str(timezone.localdate().year),
        "version": "0",
        "name": "missing.zip",
    }
    return [values]


def walk(d: Day) -> list[tuple[str, str]]:
    """(name, address) of every page of the URLconfs, filled in for the day."""
    found = []
    for conf in URLCONFS:
        for pattern in patterns(conf):
            assert pattern.name, pattern
            for given in arguments(pattern.name, d):
                wanted = {key: given[key] for key in pattern.pattern.converters}
                found.append((pattern.name, reverse(pattern.name, kwargs=wanted)))
    return found


def answered(client: Client, method: str, url: str, **extra: Any) -> tuple[int, str]:
    """The status, and what was wrong with the answer ("" if nothing)."""
    try:
        response = client.get(url, **extra) if method == "GET" else client.post(url, **extra)
    except Exception as error:  # a server error: the test client raises what the view raised
        return 500, f"{method} {url}: {type(error).__name__}: {error}"
    if response.status_code >= 500 and not (
        response.status_code == 503 and response.get("Retry-After") == str(RETRY_AFTER)
    ):
        return response.status_code, f"{method} {url}: {response.status_code} without Retry-After"
    return response.status_code, ""


def browser(d: Day) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(d.owner)
    client.cookies[tables.PHONE_COOKIE] = d.phone_cookie  # and the phone that writes at table 1
    client.cookies[player_view.ME_COOKIE.format(circuit=d.circuit_id)] = "1"  # and a player's number
    return client


def test_with_the_cache_unreachable_every_page_answers_without_a_server_error(cache_down):
    d = make_day()
    client = browser(d)
    stranger = Client(HTTP_ACCEPT_LANGUAGE="en")
    wrong = []
    statuses = {}
    walked = walk(d)
    assert {name for name, _ in walked} == {p.name for conf in URLCONFS for p in patterns(conf)}
    for name, url in walked:
        for who in (client, stranger):
            status, fault = answered(who, "GET", url)
            statuses[(name, who is client)] = status
            if fault:
                wrong.append(fault)
    assert wrong == []
    # The pages are drawn, not refused: the organiser's, the links', the evenings'.
    for name in (
        "tournament_detail",
        "tournament_board",
        "tournament_screen",
        "tournament_table",
        "scoreboard",
    ):
        assert statuses[(name, True)] == 200, name
    for name in (
        "group_player",
        "season_table",
        "tournament_player_card",
        "tournament_my_day",
        "tournament_my_season",
        "tournament_cup_season",
        "tournament_board_teams",
        "tournament_teams",
        "shared_board",
        "cup_detail",
    ):
        assert statuses[(name, True)] == 200, name
    assert statuses[("tournament_print", True)] == 200  # the ranking print among them


def test_with_the_cache_unreachable_a_hand_is_stored_through_the_table_link_and_the_evening(cache_down):
    d = make_day()
    client = browser(d)
    names = tables.players(d.table)
    new = reverse("tournament_table_hand_new", args=[d.table.link_token])

    def form(dealer: str) -> dict[str, str]:
        return {
            "token": uuid.uuid4().hex,
            "type": "played",
            "action": "save",
            "dealer": dealer,
            "declarer": names[0],
            "game": "rufer",
            "partner": names[1],
            "points": "41/2",
        }

    preview = client.post(reverse("tournament_table_hand_preview", args=[d.table.link_token]), form(names[1]))
    assert preview.status_code == 200, preview.content.decode()[-3000:]
    assert client.post(new, form(names[1])).status_code == 302  # the form, sent from the page
    outbox = client.post(new, form(names[2]), HTTP_X_TAROCK_OUTBOX="1")  # the outbox, sending later
    assert outbox.status_code == 204 and outbox.get("X-Tarock-Stored")
    assert Hand.objects.filter(session=tables.open_table(d.table)).count() == 3
    evening = d.evenings.alone
    sheet_new = reverse("hand_new", args=[evening.pk])
    assert (
        client.post(
            sheet_new, {**HAND, "token": uuid.uuid4().hex, "type": "played", "action": "save"}
        ).status_code
        == 302
    )
    sent = client.post(
        sheet_new,
        {**HAND, "dealer": "Anna", "token": uuid.uuid4().hex, "type": "played", "action": "save"},
        HTTP_X_TAROCK_OUTBOX="1",
    )
    assert sent.status_code == 204 and sent.get("X-Tarock-Stored")
    assert Hand.objects.filter(session=evening).count() == 2
    # The organiser signs the table off; the board and the hall screen after it.
    signed = client.post(
        reverse("tournament_table_signoff", args=[d.table.link_token]),
        {"scorer": names[0], "checker": names[1], "token": uuid.uuid4().hex},
    )
    assert signed.status_code == 302
    assert tables.table_by_token(d.table.link_token).is_locked
    for url in (
        reverse("tournament_board", args=[d.tournament.board_token]),
        reverse("tournament_screen", args=[d.tournament.screen_token]),
    ):
        assert Client().get(url).status_code == 200


def test_with_the_cache_unreachable_what_must_be_counted_is_answered_busy_or_counted_here(cache_down):
    d = make_day()
    phone = Client(HTTP_ACCEPT_LANGUAGE="en")
    handover = reverse("tournament_table_handover", args=[d.table.link_token])
    status, fault = answered(phone, "POST", handover, data={"code": "0000"})
    assert fault == "" and status in (403, 503)
    code = reverse("tournament_table_code")
    status, fault = answered(phone, "POST", code, data={"code": d.table.short_code})
    assert fault == "" and status == 302
    logged = Client()
    status, fault = answered(logged, "POST", reverse("login"), data={"username": "olga", "password": "wrong"})
    assert fault == "" and status == 200


def test_a_steady_cache_reads_nothing_keeps_nothing_and_cannot_count_when_its_store_fails():
    steady_cache.rested()
    store = steady_cache.SteadyRedisCache("redis://127.0.0.1:1/0", {})
    assert store.get("anything", "default") == "default"
    assert store.get_many(["a", "b"]) == {}
    assert store.set("a", 1) is None and store.set_many({"a": 1}) == []
    with pytest.raises(steady_cache.CacheUnavailable):
        store.add("count", 0, 60)
    with pytest.raises(steady_cache.CacheUnavailable):
        store.incr("count")
    # Resting: the next calls do not ask Redis at all until the rest is over.
    asked = []
    cast(Any, store)._cache.get = lambda *args, **kwargs: asked.append(args)
    assert store.get("anything") is None and asked == []
    steady_cache.rested()
