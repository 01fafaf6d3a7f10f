"""A tournament's table is an ordinary session, and the tournament changes it only
through scoring's services: created with its target, managed flag, players and
editors in one call, its seats changed by ``session_reseat`` (a new version,
refused once a hand stands), removed unplayed by ``sessions_discard_unplayed``,
and the desk's poll read with ``sessions_version``. A sign-off writes each
player's round result once."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.http import HttpResponse
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from plumbing.clients import give_cookie
from scoring import services as scoring
from scoring.engine import InvalidInput
from scoring.games import registry
from scoring.models import Hand, Session, SessionChange
from scoring.presentation import session_change_view
from tests.tournaments.factory import play_hand
from tests.tournaments.table_support import claimed_phone, tournament_day
from tournaments.models import TableRound
from tournaments.services import desk, tables

pytestmark = pytest.mark.django_db


def _writes(seen: CaptureQueriesContext, table: str) -> list[str]:
    """The statements that wrote to ``table``, by their first word."""
    return [
        query["sql"].split()[0]
        for query in seen.captured_queries
        if f'"{table}"' in query["sql"] and query["sql"].split()[0] in {"INSERT", "UPDATE", "DELETE"}
    ]


def test_a_tables_session_is_created_with_its_target_players_and_editors_in_one_call(user, other_user):
    day = tournament_day(user, tables_count=1, hands=4, organisers=(other_user,))
    table = day.table(1)
    with CaptureQueriesContext(connection) as seen:
        session = tables.open_table(table)
    assert _writes(seen, "scoring_session") == ["INSERT"]  # nothing set afterwards
    assert _writes(seen, "scoring_seat") == ["INSERT"] * 4
    stored = Session.objects.get(pk=session.pk)
    assert (stored.managed, stored.hands_target, stored.variant) == (True, 4, "koenigrufen")
    assert list(stored.editors.all()) == [other_user]
    by_name = {seat.name: seat.player_id for seat in stored.seats.all()}
    assert by_name == {entrant.name: entrant.player_id for entrant in day.entrants}
    # The house rules a tournament fixes (the game's TournamentTerms), whatever the tournament stored.
    assert stored.options["kontra_in_score"] is False and stored.options["doubled_radl"] is False


def test_seats_change_through_scoring_with_a_new_version_until_the_first_hand(user):
    day = tournament_day(user, tables_count=1, hands=4)
    session = tables.open_table(day.table(1))
    before = Session.objects.get(pk=session.pk).version
    with pytest.raises(scoring.SessionManaged):
        scoring.session_reseat(
            session=session, order=["Bernd", "Anna", "Christa", "Dieter"], first_dealer="Anna"
        )
    changed = scoring.session_reseat(
        session=session, order=["Bernd", "Anna", "Christa", "Dieter"], first_dealer="Anna", managing=True
    )
    assert changed.version == before + 1 and changed.first_dealer == "Anna"
    assert [seat.name for seat in changed.seats.order_by("position")] == [
        "Bernd",
        "Anna",
        "Christa",
        "Dieter",
    ]
    # The session's history says so in a line of its own, with the seats before and after.
    line = SessionChange.objects.get(session=session)
    assert line.action == SessionChange.Action.RESEATED == "reseated"
    assert line.before == {"order": ["Anna", "Bernd", "Christa", "Dieter"], "first_dealer": "Anna"}
    assert line.after == {"order": ["Bernd", "Anna", "Christa", "Dieter"], "first_dealer": "Anna"}
    with translation.override("en"):
        shown = session_change_view(line, registry()[session.variant])
    assert (shown.label, shown.after) == ("seats changed", "Bernd, Anna, Christa, Dieter (Anna deals first)")
    # The same seats again change nothing the history would show.
    scoring.session_reseat(
        session=session, order=["Bernd", "Anna", "Christa", "Dieter"], first_dealer="Anna", managing=True
    )
    assert SessionChange.objects.filter(session=session).count() == 1
    with pytest.raises(InvalidInput) as wrong:
        scoring.session_reseat(
            session=session, order=["Anna", "Anna", "Christa", "Dieter"], first_dealer="Anna", managing=True
        )
    assert wrong.value.field == "order"
    with pytest.raises(InvalidInput) as dealer:
        scoring.session_reseat(
            session=session, order=["Anna", "Bernd", "Christa", "Dieter"], first_dealer="Zita", managing=True
        )
    assert dealer.value.field == "first_dealer"
    play_hand(day.table(1))
    with pytest.raises(scoring.SeatsFixed):
        scoring.session_reseat(
            session=session, order=["Anna", "Bernd", "Christa", "Dieter"], first_dealer="Anna", managing=True
        )
    with pytest.raises(tables.TableRefused) as refused:
        tables.change_seats(day.table(1), order=["Anna", "Bernd", "Christa", "Dieter"], first_dealer="Anna")
    assert refused.value.field == "order"


def test_only_a_managed_session_without_a_standing_hand_is_discarded(user, make_session):
    day = tournament_day(user, tables_count=3, hands=4)
    empty, played, undone = (tables.open_table(day.table(n)) for n in (1, 2, 3))
    play_hand(day.table(2))
    play_hand(day.table(3))
    Hand.objects.filter(session=undone).update(deleted_at=undone.created_at)
    evening = make_session()
    ids = [empty.pk, played.pk, undone.pk, evening.pk]
    TableRound.objects.filter(round__tournament=day.tournament).delete()  # the round drawn again
    assert scoring.sessions_discard_unplayed(session_ids=ids) == 2
    assert set(Session.objects.values_list("pk", flat=True)) == {played.pk, evening.pk}


def test_the_desks_poll_moves_with_a_hand_at_any_table(user):
    day = tournament_day(user, tables_count=2, hands=4)
    tables.open_table(day.table(1))
    before = desk.live_key(day.tournament)
    play_hand(day.table(2))
    after = desk.live_key(day.tournament)
    assert before != after and after.split(".")[0] == before.split(".")[0]
    sessions = TableRound.objects.filter(round__tournament=day.tournament).values("session_id")
    assert after == f"{day.tournament.version}.{scoring.sessions_version(sessions)}"


def test_a_signoff_writes_each_players_round_result_once(user):
    day = tournament_day(user, tables_count=1, hands=1)
    table = day.table(1)
    claimed_phone(table)
    play_hand(table)
    with CaptureQueriesContext(connection) as seen:
        tables.sign_off(day.table(1), user=user, scorer="Anna", checker="Bernd")
    writes = _writes(seen, "tournaments_roundresult")
    assert writes.count("INSERT") == 4 and "UPDATE" not in writes


def test_the_phone_and_the_board_get_their_cookie_one_way(settings: Any):
    settings.SESSION_COOKIE_SECURE = True
    response = HttpResponse()
    give_cookie(response, "tarock_phone", "abc", days=2, path="/t/")
    cookie = response.cookies["tarock_phone"]
    assert (cookie.value, cookie["max-age"], cookie["path"]) == ("abc", 2 * 24 * 3600, "/t/")
    assert cookie["httponly"] and cookie["secure"] and cookie["samesite"] == "Lax"
