"""The desk (TOURNAMENTS.md §3.4–§3.6, §3.1): a paper sheet typed in, a table ended
early, opened again after sign-off, confirmed, and its link reissued."""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.engine import InvalidInput
from scoring.models import Session
from scoring.presentation import render_line
from tests.tournaments import factory
from tournaments.models import RoundResult, TableRound, TournamentChange
from tournaments.services import desk

pytestmark = pytest.mark.django_db


def released(user, **kwargs):
    t = factory.draw(factory.tournament(user, **kwargs))
    factory.release(t)
    return factory.fresh(t)


def sums_of(table: TableRound, values: list[int | str]) -> dict[int, int | str]:
    return {seat.entrant.number: v for seat, v in zip(table.seats.order_by("position"), values, strict=True)}


def state(t) -> tuple:
    return (
        list(TableRound.objects.filter(round__tournament=t).values_list("status", "desk_sums")),
        list(RoundResult.objects.filter(tournament=t).values_list("entrant_id", "points", "counted")),
        TournamentChange.objects.filter(tournament=t).count(),
    )


def test_desk_sums_lock_the_table_and_enter_the_ranking(user):
    t = released(user)
    table = factory.tables(t, 1)[0]
    desk.desk_enter(tournament=t, user=user, table_id=table.pk, sums=sums_of(table, [92, -31, 45, -106]))
    table.refresh_from_db()
    assert table.status == "desk" and table.is_locked
    assert table.desk_sums == {"5": "92", "8": "-31", "2": "45", "1": "-106"}
    points = {
        r.entrant.name: (r.points, r.counted, r.table_rank) for r in RoundResult.objects.filter(table=table)
    }
    assert points["Erika"] == (Decimal("92.0"), True, 1) and points["Anna"] == (Decimal("-106.0"), True, 4)


def test_sums_not_adding_to_0_are_refused_naming_the_difference_in_german(user):
    t = released(user)
    table = factory.tables(t, 1)[0]
    before = state(t)
    with pytest.raises(InvalidInput) as refused:
        desk.desk_enter(tournament=t, user=user, table_id=table.pk, sums=sums_of(table, [92, -31, 49, -106]))
    with translation.override("de"):
        assert render_line(refused.value.line) == "Summe +4: Zettel prüfen"
    assert state(t) == before


@pytest.mark.parametrize("value", ["41.5", "abc", "1e5", ""])
def test_koenigrufen_takes_whole_numbers_only(user, value):
    t = released(user)
    table = factory.tables(t, 1)[0]
    with pytest.raises(InvalidInput) as refused:
        desk.desk_enter(tournament=t, user=user, table_id=table.pk, sums=sums_of(table, [value, 0, 0, 0]))
    assert refused.value.field.startswith("sum_")


def test_french_takes_halves(user):
    t = released(user, variant="french", money_rate=None)
    table = factory.tables(t, 1)[0]
    desk.desk_enter(
        tournament=t, user=user, table_id=table.pk, sums=sums_of(table, ["41.5", "-41.5", "10", "-10"])
    )
    table.refresh_from_db()
    assert sorted(table.desk_sums.values()) == sorted(["41.5", "-41.5", "10", "-10"])


def test_a_desk_entry_sent_twice_is_stored_once(user):
    t = released(user)
    table = factory.tables(t, 1)[0]
    for _ in range(2):
        desk.desk_enter(tournament=factory.fresh(t), user=user, table_id=table.pk,
                        sums=sums_of(table, [1, -1, 0, 0]), client_token="desk-1")  # fmt: skip
    assert TournamentChange.objects.filter(tournament=t, action="desk").count() == 1


def test_a_locked_table_takes_no_desk_entry_until_opened_with_a_reason(user):
    t = released(user)
    table = factory.tables(t, 1)[0]
    desk.desk_enter(tournament=t, user=user, table_id=table.pk, sums=sums_of(table, [1, -1, 0, 0]))
    with pytest.raises(InvalidInput):
        desk.desk_enter(tournament=t, user=user, table_id=table.pk, sums=sums_of(table, [2, -2, 0, 0]))
    with pytest.raises(InvalidInput) as refused:
        desk.table_open(tournament=t, user=user, table_id=table.pk, reason="  ")
    assert refused.value.field == "reason"
    desk.table_open(tournament=t, user=user, table_id=table.pk, reason="Zettel falsch abgetippt")
    table.refresh_from_db()
    assert table.status == "open" and table.desk_sums is None
    assert not RoundResult.objects.filter(table=table, counted=True).exists()
    assert TournamentChange.objects.get(tournament=t, action="open").reason == "Zettel falsch abgetippt"


def test_ending_a_table_early_counts_the_sums_so_far_and_closes_its_session(user):
    t = released(user)
    table = factory.tables(t, 1)[0]
    factory.play_hand(table)
    desk.table_end(tournament=t, user=user, table_id=table.pk, reason="Zeit")
    table.refresh_from_db()
    assert table.status == "ended" and table.end_reason == "Zeit"
    rows = RoundResult.objects.filter(table=table)
    assert all(r.counted and r.hands_played == 1 for r in rows) and sum(r.points for r in rows) == 0
    session = Session.objects.get(tournament_table=table)
    assert session.closed_at is not None
    desk.table_open(tournament=t, user=user, table_id=table.pk, reason="weiter")
    session.refresh_from_db()
    assert session.closed_at is None


def test_a_table_of_a_round_not_released_takes_no_desk_entry(user):
    t = factory.draw(factory.tournament(user))
    table = factory.tables(t, 2)[0]
    with pytest.raises(InvalidInput) as refused:
        desk.desk_enter(tournament=t, user=user, table_id=table.pk, sums=sums_of(table, [0, 0, 0, 0]))
    assert "round 2" in str(refused.value)


def test_a_reissued_link_replaces_the_old_one(user):
    t = released(user)
    table = factory.tables(t, 1)[0]
    old_token, old_code = table.link_token, table.short_code
    desk.table_reissue(tournament=t, user=user, table_id=table.pk)
    table.refresh_from_db()
    assert table.link_token != old_token and table.short_code != old_code
    assert not TableRound.objects.filter(link_token=old_token).exists()


def test_the_organiser_confirms_a_played_table(user):
    t = released(user, settings={"signoff": "organiser"})
    table = factory.tables(t, 1)[0]
    with pytest.raises(InvalidInput):
        desk.table_confirm(tournament=t, user=user, table_id=table.pk)
    factory.play_hand(table)
    desk.table_confirm(tournament=t, user=user, table_id=table.pk)
    table.refresh_from_db()
    assert table.status == "signed" and table.signed_at is not None


def test_the_control_page_shows_each_table_with_its_hands(logged_in, user):
    t = released(user)
    table = factory.tables(t, 1)[0]
    factory.play_hand(table)
    page = logged_in.get(reverse("tournament_detail", args=[t.pk]))
    html = page.content.decode()
    assert "Table 1" in html and "1 of 16 played" in html and "0 of 16 played" in html
    assert 'hx-trigger="every 15s"' in html and "Draw 482915" in html


def test_the_control_page_poll_answers_204_when_nothing_changed(logged_in, user):
    t = released(user)
    url = reverse("tournament_detail", args=[t.pk])
    live = desk.live_key(t)  # the tournament's version and its tables' sheets
    same = logged_in.get(url, {"since": live}, HTTP_HX_REQUEST="true")
    assert same.status_code == 204
    changed = logged_in.get(url, {"since": f"{t.version - 1}.0"}, HTTP_HX_REQUEST="true")
    assert changed.status_code == 200 and 'id="live"' in changed.content.decode()
    assert "<html" not in changed.content.decode()


def test_the_desk_page_refuses_a_wrong_sum_with_the_difference_and_keeps_what_was_typed(logged_in, user):
    t = released(user)
    table = factory.tables(t, 1)[0]
    numbers = [s.entrant.number for s in table.seats.order_by("position")]
    data = {
        "action": "desk",
        "token": "d1",
        **{f"sum_{n}": v for n, v in zip(numbers, [92, -31, 49, -106], strict=True)},
    }
    answer = logged_in.post(reverse("organiser_table", args=[t.pk, table.pk]), data)
    assert answer.status_code == 400
    html = answer.content.decode()
    assert "Sum +4: check the sheet" in html and 'value="49"' in html
    table.refresh_from_db()
    assert table.status == "open"


def test_the_board_link_is_shown_renewed_and_taken_away(logged_in, user):
    t = released(user)
    old, screen = t.board_token, t.screen_token
    assert screen and screen != old
    html = logged_in.get(reverse("tournament_detail", args=[t.pk])).content.decode()
    assert (
        reverse("tournament_board", args=[old]) in html
        and reverse("tournament_screen", args=[screen]) in html
    )
    logged_in.post(reverse("tournament_board_link", args=[t.pk]))
    new = factory.fresh(t).board_token
    assert new and new != old
    assert factory.fresh(t).screen_token == screen  # the hall screen goes on showing
    logged_in.post(reverse("tournament_board_link", args=[t.pk]), {"action": "unshare"})
    assert factory.fresh(t).board_token is None and factory.fresh(t).screen_token is None


def test_with_minutes_per_round_the_control_page_says_when_the_round_ends(logged_in, user):
    t = released(user, settings={"round_minutes": 120})
    round_ = t.rounds.get(number=1)
    ends = desk.round_ends(t, round_)
    assert ends is not None and ends - round_.released_at == timedelta(minutes=120)
    assert 'id="round-ends"' in logged_in.get(reverse("tournament_detail", args=[t.pk])).content.decode()
    assert desk.round_ends(released(user), round_) is None


@pytest.mark.django_db(transaction=True)
def test_ending_a_table_while_its_scorer_saves_a_hand_waits_for_the_hand_and_never_deadlocks(user):
    """The hand holds the table's session and then gives the tournament a new
    version; the organiser's end takes the same two rows in the same order, so
    one waits for the other (on PostgreSQL a reversed order is a deadlock)."""
    import threading
    import time

    from django.db import connections, transaction

    from scoring import services
    from tournaments.services import results, tables

    t = released(user)
    table = factory.tables(t, 1)[0]
    factory.play_hand(table)
    table.refresh_from_db()
    session_id = table.session_id
    assert session_id is not None
    holding = threading.Event()
    outcomes: dict[str, str] = {}

    def scorer() -> None:
        try:
            with transaction.atomic():
                Session.objects.select_for_update().get(pk=session_id)  # as hand_record does
                holding.set()
                time.sleep(0.5)  # the organiser's click arrives meanwhile
                results.bump(factory.fresh(t))
            outcomes["hand"] = "stored"
        except Exception as error:  # a deadlock surfaces here on PostgreSQL
            outcomes["hand"] = type(error).__name__
        finally:
            connections.close_all()

    def organiser() -> None:
        try:
            holding.wait()
            desk.table_end(tournament=factory.fresh(t), user=user, table_id=table.pk, reason="Zeit")
            outcomes["end"] = "ended"
        except Exception as error:
            outcomes["end"] = type(error).__name__
        finally:
            connections.close_all()

    threads = [threading.Thread(target=scorer), threading.Thread(target=organiser)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert outcomes == {"hand": "stored", "end": "ended"}
    table.refresh_from_db()
    assert table.status == "ended"
    assert tables.played(table) == 1 and services.session_for(user, session_id).is_closed


def test_the_desks_sum_fields_offer_the_minus_on_a_phones_keypad(user, client):
    """The iPhone's decimal keypad has no minus: the field keeps the full keyboard
    until the page's script gives it the digits and a ± key beside it."""
    t = released(user)
    table = factory.tables(t, 1)[0]
    client.force_login(user)
    html = client.get(reverse("organiser_table", args=[t.pk, table.pk])).content.decode()
    fields = re.findall(
        r'<input id="(sum-\d+)" name="sum_\d+" inputmode="text" data-keypad="decimal" pattern="([^"]+)"', html
    )
    assert len(fields) == table.seats.count() >= 4
    for field_id, pattern in fields:
        assert (
            re.fullmatch(pattern, "-31")
            and re.fullmatch(pattern, "−12,5")
            and not re.fullmatch(pattern, "abc")
        )
        assert f'data-key="sign" data-for="{field_id}"' in html
