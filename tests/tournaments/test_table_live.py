"""A table followed live (TOURNAMENTS.md §3.1, §3.3): a table is claimed by the
first change a phone stores, never by opening its pages, a form, a preview or a
count of cards; every table page polls, claimed or not; the phones that do not
write say who writes and where the table is signed."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import formats, timezone

from scoring import services as scoring
from scoring.models import Hand
from tests.tournaments.table_support import claimed_phone, phone, rufer, tournament_day
from tests.tournaments.table_support import in_english as in_english
from tournaments.models import Round, TableRound, TournamentChange
from tournaments.services import desk, tables

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def url(name: str, table: TableRound, *args: object) -> str:
    return reverse(name, args=[table.link_token, *args])


def form(
    action: str = "save", dealer: str = "Anna", declarer: str = "Anna", partner: str = "Bernd"
) -> dict[str, str]:
    return {
        "token": uuid.uuid4().hex,
        "type": "played",
        "action": action,
        "dealer": dealer,
        "declarer": declarer,
        "game": "rufer",
        "partner": partner,
        "points": "41/2",
    }


def claim_digest(table: TableRound) -> str:
    return TableRound.objects.get(pk=table.pk).claim_digest


def cookie_of(client: object) -> str:
    return client.cookies[tables.PHONE_COOKIE].value  # type: ignore[attr-defined]


# -- claim on the first save -------------------------------------------------------------------


def test_opening_the_table_its_form_a_preview_or_a_count_claims_nothing_the_first_save_does(user):
    day = tournament_day(user, tables_count=1, hands=4)
    table = day.table(1)
    guest, scorer = phone(), phone()
    for client in (guest, scorer):
        assert client.get(url("tournament_table", table)).status_code == 200
        assert client.get(url("tournament_table_hand_new", table)).status_code == 200
        assert client.post(url("tournament_table_hand_preview", table), form()).status_code == 200
        assert client.post(url("tournament_table_hand_new", table), form("count")).status_code == 200
        assert client.get(url("tournament_table_signoff", table)).status_code == 200
    assert claim_digest(table) == ""
    assert not TournamentChange.objects.filter(action=TournamentChange.Action.CLAIM).exists()
    # The guest's taps left the table free: the scorer's first save claims it.
    assert scorer.post(url("tournament_table_hand_new", table), form()).status_code == 302
    assert claim_digest(table) == tables.digest(cookie_of(scorer))
    assert TournamentChange.objects.filter(action=TournamentChange.Action.CLAIM).count() == 1
    # From now on the guest watches: its preview and its save are refused, nothing stored.
    assert guest.post(url("tournament_table_hand_preview", table), form()).status_code == 403
    refused = guest.post(url("tournament_table_hand_new", table), form(dealer="Bernd", declarer="Bernd"))
    assert refused.status_code == 403 and "being written on another phone" in refused.content.decode()
    assert Hand.objects.count() == 1


def test_a_refused_save_claims_nothing(user):
    day = tournament_day(user, tables_count=1, hands=4)
    table = day.table(1)
    guest = phone()
    guest.get(url("tournament_table", table))
    incomplete = form()
    del incomplete["partner"]
    del incomplete["points"]
    answer = guest.post(url("tournament_table_hand_new", table), incomplete)
    assert answer.status_code == 200 and Hand.objects.count() == 0
    assert claim_digest(table) == ""


def test_a_phone_from_the_outbox_claims_with_its_first_stored_hand(user):
    day = tournament_day(user, tables_count=1, hands=4)
    table = day.table(1)
    scorer = phone()
    scorer.get(url("tournament_table", table))
    sent = scorer.post(url("tournament_table_hand_new", table), form(), headers={"X-Tarock-Outbox": "1"})
    assert sent.status_code == 204 and sent["X-Tarock-Stored"] == str(Hand.objects.get().pk)
    assert claim_digest(table) == tables.digest(cookie_of(scorer))


def test_seats_saved_on_a_free_table_claim_nothing(user):
    day = tournament_day(user, tables_count=1, hands=4)
    table = day.table(1)
    guest = phone()
    guest.get(url("tournament_table", table))
    seats = {"seat1": "Bernd", "seat2": "Anna", "seat3": "Christa", "seat4": "Dieter", "first_dealer": "Anna"}
    assert guest.post(url("tournament_table_seats", table), seats).status_code == 302
    assert tables.players(day.table(1)) == ["Bernd", "Anna", "Christa", "Dieter"]
    assert claim_digest(table) == ""


def test_a_correction_on_a_freed_table_claims_it(user, client_for):
    day = tournament_day(user, tables_count=1, hands=4)
    table = day.table(1)
    first = claimed_phone(table)
    first.post(url("tournament_table_hand_new", table), form())
    hand = Hand.objects.get()
    client_for(user).post(
        reverse("organiser_table", args=[day.tournament.pk, table.pk]), {"action": "release", "token": "r1"}
    )
    assert claim_digest(table) == ""
    other = phone()
    other.get(url("tournament_table", table))
    edit = form(dealer="Anna", declarer="Christa", partner="Dieter") | {"token": str(hand.version)}
    assert other.post(url("tournament_table_hand_edit", table, hand.pk), edit).status_code == 302
    assert claim_digest(table) == tables.digest(cookie_of(other))


def stores(day_table: TableRound) -> Callable[[], Hand]:
    return lambda: scoring.hand_record(
        session=tables.open_table(day_table), raw=rufer("Anna", "Bernd", "Anna")
    )


def test_the_service_claims_only_what_stored_something(user):
    day = tournament_day(user, tables_count=1, hands=4)
    nothing = tables.table_save(day.table(1), cookie="guest", save=lambda: "preview")
    assert nothing == "preview" and claim_digest(day.table(1)) == ""
    hand = tables.table_save(day.table(1), cookie="scorer", save=stores(day.table(1)))
    assert hand.pk and claim_digest(day.table(1)) == tables.digest("scorer")
    asked: list[str] = []
    with pytest.raises(tables.TableRefused, match="being written on another phone"):
        tables.table_save(day.table(1), cookie="guest", save=lambda: asked.append("x"))
    assert asked == []  # a watching phone's save is never tried


def test_of_two_phones_saving_at_a_free_table_the_second_stores_nothing(user):
    day = tournament_day(user, tables_count=1, hands=4)
    seen_free = day.table(1)  # the second phone read the table while it was still free
    tables.table_save(day.table(1), cookie="first", save=stores(day.table(1)))
    with pytest.raises(tables.TableRefused):
        tables.table_save(seen_free, cookie="second", save=stores(seen_free))
    assert Hand.objects.count() == 1 and claim_digest(seen_free) == tables.digest("first")


# -- every table page polls; the watcher's pages say who writes and where it is signed -------


def test_a_page_opened_before_the_claim_polls_and_gets_the_next_hand(user):
    day = tournament_day(user, tables_count=1, hands=4)
    table = day.table(1)
    watcher, scorer = phone(), phone()
    html = watcher.get(url("tournament_table", table)).content.decode()
    assert 'id="nobody-writes"' in html and 'hx-trigger="every 3s"' in html
    since = html.split("?since=")[1].split('"')[0]
    assert (
        watcher.get(url("tournament_table", table) + f"?since={since}", HTTP_HX_REQUEST="true").status_code
        == 204
    )
    scorer.post(url("tournament_table_hand_new", table), form())
    poll = watcher.get(url("tournament_table", table) + f"?since={since}", HTTP_HX_REQUEST="true")
    live = poll.content.decode()
    assert poll.status_code == 200 and f'id="hand-{Hand.objects.get().pk}"' in live
    assert "1 of 4 played" in live and "being written on another phone" in live
    assert 'id="new-hand"' not in live and 'hx-trigger="every 3s"' in live
    mine = scorer.get(url("tournament_table", table)).content.decode()
    assert 'hx-trigger="every 3s"' in mine  # the writing phone's page follows too


@pytest.mark.parametrize(
    ("mode", "where"),
    [
        ("scorer_and_check", "with another player of the table who checked it"),
        ("scorer", "The scorer signs the table on the writing phone after the last hand."),
        ("organiser", "the organiser confirms the table at the desk"),
    ],
)
def test_the_watchers_sign_off_page_says_who_writes_and_where_the_table_is_signed(user, mode, where):
    day = tournament_day(user, tables_count=1, hands=4, settings={"signoff": mode})
    table = day.table(1)
    free = phone().get(url("tournament_table_signoff", table)).content.decode()
    assert "Nobody writes at this table yet" in free and where in free
    assert "The table is signed after its last hand" not in free
    claimed_phone(table)
    watcher = phone().get(url("tournament_table_signoff", table)).content.decode()
    assert "being written on another phone, since" in watcher and where in watcher
    assert 'hx-trigger="every 3s"' in watcher
    page = phone().get(url("tournament_table", table)).content.decode()
    assert "being written on another phone" in page and where in page


def test_the_sign_off_page_poll_answers_204_until_the_table_changes(user):
    day = tournament_day(user, tables_count=1, hands=1)
    table = day.table(1)
    scorer = claimed_phone(table)
    watcher = phone()
    html = watcher.get(url("tournament_table_signoff", table)).content.decode()
    since = html.split("?since=")[1].split('"')[0]
    poll_url = url("tournament_table_signoff", table) + f"?since={since}"
    assert watcher.get(poll_url, HTTP_HX_REQUEST="true").status_code == 204
    scorer.post(url("tournament_table_hand_new", table), form())
    poll = watcher.get(poll_url, HTTP_HX_REQUEST="true")
    assert poll.status_code == 200 and "1 of 1 played" in poll.content.decode()
    assert 'id="signoff-live"' in poll.content.decode()


def test_the_writing_phone_ready_to_sign_is_not_polled_away_from_its_form(user):
    day = tournament_day(user, tables_count=1, hands=1)
    table = day.table(1)
    scorer = claimed_phone(table)
    scorer.post(url("tournament_table_hand_new", table), form())
    html = scorer.get(url("tournament_table_signoff", table)).content.decode()
    assert 'id="sign"' in html and "hx-trigger" not in html.split('id="signoff-live"')[1].split(">")[0]


def test_the_claim_on_a_table_page_poll_reads_one_row(user, django_assert_max_num_queries):
    day = tournament_day(user, tables_count=1, hands=4)
    table = day.table(1)
    tables.open_table(table)
    watcher = phone()
    html = watcher.get(url("tournament_table", table)).content.decode()
    since = html.split("?since=")[1].split('"')[0]
    with django_assert_max_num_queries(1):
        poll = watcher.get(url("tournament_table", table) + f"?since={since}", HTTP_HX_REQUEST="true")
    assert poll.status_code == 204
    assert desk.table_clock(day.table(1)) is None  # no round_minutes: no clock


# -- the round clock and extra minutes (§3.6) --------------------------------------------------


def clocked_day(user, *, minutes_ago: int = 10, round_minutes: int = 120):
    """A released round whose clock started ``minutes_ago`` (its release), with ``round_minutes``."""
    day = tournament_day(user, tables_count=2, hands=4, settings={"round_minutes": round_minutes})
    released = timezone.now() - timedelta(minutes=minutes_ago)
    Round.objects.filter(pk=day.round.pk).update(released_at=released)
    return day, released


def test_the_tables_phone_shows_the_round_clock_and_its_extra_minutes(user, logged_in):
    day, released = clocked_day(user)
    table = day.table(1)
    watcher = phone()
    html = watcher.get(url("tournament_table", table)).content.decode()
    ends = released + timedelta(minutes=120)
    assert f'data-ends="{int(ends.timestamp() * 1000)}"' in html and 'id="clock-extra"' not in html
    assert "js/clock.js" in html and 'data-left="%(time)s left"' in html
    since = html.split("?since=")[1].split('"')[0]
    given = logged_in.post(
        reverse("tournament_clock", args=[day.tournament.pk]), {"table": "1", "minutes": "10", "token": "c1"}
    )
    assert given.status_code == 302
    assert TableRound.objects.get(pk=table.pk).extra_minutes == 10
    poll = watcher.get(url("tournament_table", table) + f"?since={since}", HTTP_HX_REQUEST="true")
    live = poll.content.decode()
    assert poll.status_code == 200 and "10 minutes more for this table" in live
    assert f'data-ends="{int((ends + timedelta(minutes=10)).timestamp() * 1000)}"' in live
    other = phone().get(url("tournament_table", day.table(2))).content.decode()
    assert "minutes more for this table" not in other  # only that table
    german = phone().get(url("tournament_table", day.table(1)), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "10 Minuten mehr für diesen Tisch" in german and 'data-over="Spiel fertig spielen"' in german
    control = logged_in.get(reverse("tournament_detail", args=[day.tournament.pk])).content.decode()
    assert 'id="table-1-extra"' in control and "10 minutes more, until" in control
    change = TournamentChange.objects.get(action=TournamentChange.Action.TIME)
    assert (change.table_number, change.before, change.after) == (
        1,
        {"extra_minutes": 0},
        {"extra_minutes": 10},
    )
    # The same form sent again gives the minutes once.
    logged_in.post(
        reverse("tournament_clock", args=[day.tournament.pk]), {"table": "1", "minutes": "10", "token": "c1"}
    )
    assert TournamentChange.objects.filter(action=TournamentChange.Action.TIME).count() == 1


def test_at_zero_the_phone_says_finish_the_game_in_play_and_nothing_ends(user):
    day, _released = clocked_day(user, minutes_ago=121)
    html = phone().get(url("tournament_table", day.table(1)), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'class="round-clock over"' in html and "Spiel fertig spielen" in html
    assert day.table(1).status == TableRound.Status.OPEN  # nothing ended by itself


def test_without_javascript_the_phone_shows_when_the_round_ends(user):
    day, released = clocked_day(user)
    html = phone().get(url("tournament_table", day.table(1))).content.decode()
    at = formats.time_format(timezone.localtime(released + timedelta(minutes=120)), "TIME_FORMAT")
    assert f"The round ends at {at}." in html


@pytest.mark.parametrize(
    ("posted", "words"),
    [
        ({"table": "1", "minutes": "61"}, "extra minutes: a whole number from 0 to 60"),
        ({"table": "1", "minutes": "zehn"}, "extra minutes: a whole number from 0 to 60"),
        ({"table": "1", "minutes": "²"}, "extra minutes: a whole number from 0 to 60"),
        ({"table": "9", "minutes": "5"}, "table: one of round 1, 1 to 2"),
        ({"table": "", "minutes": "5"}, "table: one of round 1, 1 to 2"),
    ],
)
def test_extra_minutes_refused_name_the_field_and_change_nothing(user, logged_in, posted, words):
    day, _released = clocked_day(user)
    answer = logged_in.post(reverse("tournament_clock", args=[day.tournament.pk]), posted, follow=True)
    assert words in answer.content.decode()
    assert list(TableRound.objects.values_list("extra_minutes", flat=True)) == [0, 0]
    assert not TournamentChange.objects.filter(action=TournamentChange.Action.TIME).exists()


def test_extra_minutes_need_a_running_clock_and_an_open_table(user, logged_in):
    day = tournament_day(user, tables_count=1, hands=4)
    answer = logged_in.post(
        reverse("tournament_clock", args=[day.tournament.pk]), {"table": "1", "minutes": "5"}, follow=True
    )
    assert "extra minutes need a running round clock" in answer.content.decode()
    day, _released = clocked_day(user)
    TableRound.objects.filter(pk=day.tables[0].pk).update(status=TableRound.Status.SIGNED)
    answer = logged_in.post(
        reverse("tournament_clock", args=[day.tournament.pk]), {"table": "1", "minutes": "5"}, follow=True
    )
    assert "table 1 is done already" in answer.content.decode()
    assert TableRound.objects.get(pk=day.tables[0].pk).extra_minutes == 0


@pytest.mark.django_db(transaction=True)
def test_twenty_phones_saving_at_a_free_table_at_once_store_one_hand_and_one_claim(user):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    day = tournament_day(user, tables_count=1, hands=4)
    tables.open_table(day.table(1))
    seen_free = [day.table(1) for _ in range(20)]  # every phone read the table while it was free
    outcome: list[str] = []
    start = threading.Barrier(20)

    def save(number: int) -> None:
        try:
            start.wait()
            tables.table_save(seen_free[number], cookie=f"phone-{number}", save=stores(seen_free[number]))
            outcome.append(f"phone-{number}")
        except tables.TableRefused:
            outcome.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=save, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stored = [name for name in outcome if name != "refused"]
    assert len(outcome) == 20 and len(stored) == 1, outcome
    assert Hand.objects.count() == 1 and claim_digest(day.table(1)) == tables.digest(stored[0])
    assert TournamentChange.objects.filter(action=TournamentChange.Action.CLAIM).count() == 1
