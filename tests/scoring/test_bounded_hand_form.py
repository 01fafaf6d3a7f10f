"""The hand form and the save do bounded work whatever the evening's length: the
form (opened before every hand), its previews, a correction's form and the save
(from the form and from a phone's outbox) run the same statements at 10 hands as
at 2,000; and the save's read under the session's lock finds the form's token and
counts the live hands in an index, never reading every hand of the evening."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from plumbing import queries
from plumbing.offline import OUTBOX_HEADER
from scoring import services
from scoring.engine.session_file import MAX_HANDS
from scoring.models import Hand, Session
from tests.conftest import fill
from tests.scoring.test_views import form_data

# The longest evening: the two hands saved below fill it to the most it holds.
SHORT, LONG = 10, MAX_HANDS - 2
FOUR = ("Anna", "Bert", "Carl", "Dora")
FIVE = (*FOUR, "Emil")
GARDE = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}


def rufer(dealer: str) -> dict[str, Any]:
    return {"dealer": dealer, "declarer": "Anna", "game": "rufer", "partner": "Carl", "points": "41/2"}


@dataclass(frozen=True)
class Evening:
    """A kind of evening: how it is opened, its stored hand, and a hand as its form posts it."""

    variant: str
    players: tuple[str, ...]
    options: dict[str, Any]
    stored: dict[str, Any]
    posted: Callable[[str], dict[str, str]]  # by the token of the form
    target: int | None = None  # a tournament table's hands (redeals do not count)


def french_form(token: str) -> dict[str, str]:
    return form_data(GARDE | {"dealer": "Anna", "taker": "Bert"}, token)


def koenigrufen_form(dealer: str) -> Callable[[str], dict[str, str]]:
    def posted(token: str) -> dict[str, str]:
        return {
            **form_data(rufer(dealer), token),
            "points.side": "declarer",
            "kontra": "0",
            "won": "true",
        }

    return posted


EVENINGS = {
    "french": Evening("french", FOUR, {}, GARDE, french_form),
    # Doubled Radl: a hand's score reads the hands before it (``earlier_hands``).
    "doubled radl": Evening(
        "koenigrufen", FOUR, {"doubled_radl": True}, rufer("Dora"), koenigrufen_form("Bert")
    ),
    # Five at the table: the form carries its fields for each dealer.
    "five players": Evening("koenigrufen", FIVE, {}, rufer("Emil"), koenigrufen_form("Bert")),
    # Played to a target (a tournament's table): "Hand n of T" counts the played hands.
    "target": Evening("french", FOUR, {}, GARDE, french_form, target=LONG + 100),
}


def evening_of(make_session: Callable[..., Session], kind: Evening, hands: int) -> Session:
    session = make_session(kind.variant, players=kind.players, options=dict(kind.options))
    if kind.target is not None:
        Session.objects.filter(pk=session.pk).update(hands_target=kind.target)
    fill(session, hands, raw=kind.stored)
    return session


def statements(request: Callable[[], Any], status: int) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = request()
    assert response.status_code == status
    return len(captured.captured_queries)


def costs(client: Any, session: Session, kind: Evening) -> dict[str, int]:
    """The statements of each request of the hand form's loop, on this evening."""
    pk = session.pk
    last = Hand.objects.filter(session=session).latest("number")
    new, edit = reverse("hand_new", args=[pk]), reverse("hand_edit", args=[pk, last.pk])
    correction = {**kind.posted(str(last.version)), "reason": ""}
    requests: dict[str, tuple[Callable[[], Any], int]] = {
        "form": (lambda: client.get(new), 200),
        "preview": (lambda: client.post(reverse("hand_preview", args=[pk]), kind.posted("p" * 32)), 200),
        "correction's form": (lambda: client.get(edit), 200),
        "correction's preview": (
            lambda: client.post(reverse("hand_edit_preview", args=[pk, last.pk]), correction),
            200,
        ),
        "save": (lambda: client.post(new, kind.posted("a" * 32)), 302),
        "save from the outbox": (
            lambda: client.post(new, kind.posted("b" * 32), headers={OUTBOX_HEADER: "1"}),
            204,
        ),
        "correction": (lambda: client.post(edit, correction), 302),
    }
    return {name: statements(request, status) for name, (request, status) in requests.items()}


@pytest.mark.parametrize("kind", EVENINGS.values(), ids=EVENINGS.keys())
def test_the_hand_form_and_the_save_run_as_many_statements_at_2000_hands_as_at_10(
    logged_in, make_session, kind
):
    short = costs(logged_in, evening_of(make_session, kind, SHORT), kind)
    long = costs(logged_in, evening_of(make_session, kind, LONG), kind)
    assert long == short
    assert short["form"] <= 8 and short["preview"] <= 5 and short["save"] <= 12, short
    saved = Hand.objects.filter(client_token__in=["a" * 32, "b" * 32])
    assert saved.count() == 4  # both saves, on both evenings


def test_the_phones_evening_on_the_hand_form_is_every_live_hand_as_stored(logged_in, make_session):
    kind = EVENINGS["doubled radl"]
    session = evening_of(make_session, kind, 12)
    deleted = Hand.objects.get(session=session, number=5)
    Hand.objects.filter(pk=deleted.pk).update(deleted_at=deleted.created_at)
    halves = {"Anna": 12.5, "Bert": -12.5, "Carl": 0, "Dora": 0}
    Hand.objects.filter(session=session, number=6).update(deltas=halves)
    stored = engine_evening(logged_in, reverse("hand_new", args=[session.pk]))["stored"]
    live = Hand.objects.filter(session=session, deleted_at__isnull=True).order_by("number")
    assert [hand["id"] for hand in stored] == [hand.pk for hand in live]
    assert len(stored) == 11 and deleted.pk not in [hand["id"] for hand in stored]
    assert all(hand["record"]["declarer"] == "Anna" for hand in stored)  # read with its record
    assert stored[4]["deltas"] == halves  # hand 6, the fifth live one
    # The same evening as the sheet gives the phone from its own snapshots.
    assert engine_evening(logged_in, reverse("scoreboard", args=[session.pk]))["stored"] == stored


def engine_evening(client: Any, url: str) -> dict[str, Any]:
    """The evening a page gives the phone's engine."""
    page = client.get(url).content.decode()
    found = re.search(r'<script id="engine-game" type="application/json">(.*?)</script>', page, re.S)
    assert found is not None
    evening: dict[str, Any] = json.loads(found.group(1))
    return evening


# -- the save's read under the session's lock --------------------------------------------------


def subquery_plans(session: Session) -> list[str]:
    """Per subquery of the save's locked read (``queries.recording_state``), in the
    order of its columns, how the database reads it: the plan's lines, joined."""
    sql = queries._recording_state_sql(len(FOUR))
    params: list[Any] = ["a" * 32, "b" * 32 + "~" + "c" * 32, *FOUR, session.pk]
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
            rows = cursor.fetchall()
            subqueries = [row[0] for row in rows if "SUBQUERY" in row[3]]
            return [" ".join(row[3] for row in rows if row[1] == node) for node in subqueries]
        if connection.vendor == "postgresql":
            # As autovacuum leaves a table that took this many hands: its statistics
            # and the pages every transaction sees (what lets an index alone answer).
            cursor.execute("VACUUM ANALYZE scoring_hand")
            cursor.execute("EXPLAIN " + sql, params)
            text = "\n".join(row[0] for row in cursor.fetchall())
            return [part for part in re.split(r"SubPlan \d+", text)[1:]]
    pytest.skip(f"reads the plans of SQLite and PostgreSQL, not {connection.vendor}")


@pytest.mark.django_db(transaction=True)  # VACUUM runs outside a transaction
def test_the_saves_locked_read_finds_the_token_and_counts_the_live_hands_in_their_indexes(make_session):
    session = evening_of(make_session, EVENINGS["french"], LONG)
    plans = subquery_plans(session)
    # last number, last dealer, the token, the token with its digest, the live hands, the
    # played hands (counted only for a session played to a target), the seats
    assert len(plans) == 7, plans
    token, retoken, live, played = plans[2], plans[3], plans[4], plans[5]
    assert "hand_client_token_unique" in token and "hand_client_token_unique" in retoken, plans
    assert "hand_live" in live, plans
    # The played hands: PostgreSQL counts them in their own partial index (it read the
    # whole table where one evening held every hand); SQLite searches the live hands' index.
    assert ("hand_played" if connection.vendor == "postgresql" else "hand_live") in played, plans
    assert "Seq Scan" not in played and "SCAN h" not in played, plans
    if connection.vendor == "sqlite":
        assert "COVERING INDEX hand_live" in live, plans  # counted in the index, no hand's row read


# -- the new hand's form, kept ---------------------------------------------------------------


def one_time_token(page: str) -> str:
    found = re.search(r'name="token" value="([0-9a-f]{32})"', page)
    assert found is not None
    return found.group(1)


def test_the_kept_hand_form_draws_for_each_version_its_count_its_evening_and_a_new_token(
    logged_in, make_session, user
):
    session = make_session()
    Session.objects.filter(pk=session.pk).update(hands_target=4)
    url = reverse("hand_new", args=[session.pk])
    first = logged_in.get(url).content.decode()
    again = logged_in.get(url).content.decode()
    assert "Hand 1 of 4" in first and one_time_token(first) != one_time_token(again)
    assert engine_evening(logged_in, url)["stored"] == []
    assert logged_in.post(url, form_data(GARDE, one_time_token(first))).status_code == 302
    services.session_rename_player(session=session, user=user, old="Bert", new="Berta")
    page = logged_in.get(url).content.decode()
    assert "Hand 2 of 4" in page
    assert one_time_token(page) not in (one_time_token(first), one_time_token(again))
    assert 'value="Berta"' in page and 'value="Bert"' not in page  # the players' names as they are now
    stored = engine_evening(logged_in, url)["stored"]
    assert [hand["id"] for hand in stored] == [Hand.objects.get(session=session).pk]
    assert 'name="csrfmiddlewaretoken" value="' in page and "\x00" not in page
