"""Corrections after sign-off belong to the organisers alone (TOURNAMENTS.md §3.5,
§3.1): a table opened again is read-only at its link, the ranking is not made
provisional or final while any table of any round is open, and a table's session
takes its recorders from the tournament, nowhere else."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import services as scoring
from scoring.engine import InvalidInput
from scoring.models import Hand, Session
from scoring.services.sessions import SessionManaged
from tests.tournaments import factory
from tests.tournaments.table_support import claimed_phone, rufer, tournament_day
from tests.tournaments.table_support import in_english as in_english
from tournaments.models import RoundResult, TableRound, Tournament
from tournaments.services import desk, tables, tournaments

pytestmark = pytest.mark.django_db


def signed_table(user, **kwargs):
    """Table 1 of a released round: one hand recorded by its phone and signed by it."""
    day = tournament_day(user, tables_count=1, hands=1, settings={"signoff": "scorer"}, **kwargs)
    table = day.table(1)
    client = claimed_phone(table)
    names = tables.players(table)
    hand = scoring.hand_record(session=tables.open_table(table), raw=rufer(names[0], names[1], names[0]))
    tables.sign_off(day.table(1), cookie=client.cookies[tables.PHONE_COOKIE].value, scorer=names[0])
    return day, client, hand


def test_a_table_opened_by_the_organiser_is_read_only_at_its_link_until_the_organiser_signs_it(
    user, logged_in
):
    day, client, hand = signed_table(user)
    token = day.table(1).link_token
    desk.table_open(tournament=day.tournament, user=user, table_id=day.table(1).pk, reason="Pagat")
    assert day.table(1).opened_by_organiser and not day.table(1).is_locked
    # The phone that signed it: no deleting, no new hand, no signing again.
    delete = client.post(
        reverse("tournament_table_hand_delete", args=[token, hand.pk]), {"version": hand.version}
    )
    assert delete.status_code == 403 and "opened this table" in delete.content.decode()
    names = tables.players(day.table(1))
    new = client.post(reverse("tournament_table_hand_new", args=[token]), rufer(names[1], names[2], names[1]))
    assert new.status_code == 403
    with pytest.raises(tables.TableRefused):
        tables.sign_off(day.table(1), cookie=client.cookies[tables.PHONE_COOKIE].value, scorer=names[0])
    assert Hand.objects.filter(session_id=hand.session_id, deleted_at__isnull=True).count() == 1
    page = client.get(reverse("tournament_table", args=[token])).content.decode()
    assert "opened this table to correct it" in page
    # The organiser corrects through the table's sheet, then signs it again.
    organiser_page = reverse("organiser_table", args=[day.tournament.pk, day.table(1).pk])
    assert reverse("scoreboard", args=[hand.session_id]) in logged_in.get(organiser_page).content.decode()
    edit = reverse("hand_edit", args=[hand.session_id, hand.pk])
    form = {
        "token": str(hand.version),
        "action": "save",
        "type": "played",
        **rufer(names[2], names[3], names[0]),
    }
    assert logged_in.post(edit, form).status_code == 302
    desk.table_confirm(tournament=day.tournament, user=user, table_id=day.table(1).pk)
    table = day.table(1)
    assert table.status == TableRound.Status.SIGNED and not table.opened_by_organiser
    counted = {r.entrant.name: r.points for r in RoundResult.objects.filter(table=table, counted=True)}
    assert counted[names[2]] > 0 and counted[names[0]] < 0  # the corrected hand is what counts


def test_the_ranking_is_not_made_provisional_while_a_table_of_an_earlier_round_is_open(user):
    t = factory.draw(factory.tournament(user))
    for number, sums in enumerate(factory.EXAMPLE_SUMS, 1):
        factory.release(t)
        factory.desk_round(t, number, sums)
    first = factory.tables(t, 1)[0]
    desk.table_open(tournament=factory.fresh(t), user=user, table_id=first.pk, reason="Zettel")
    with pytest.raises(InvalidInput) as refused:
        tournaments.tournament_provisional(tournament=factory.fresh(t), user=user)
    assert "round 1 is not complete: tables 1 are still open" in str(refused.value.describe())
    assert factory.fresh(t).status == Tournament.Status.RUNNING and not factory.fresh(t).places.exists()
    desk.desk_enter(
        tournament=factory.fresh(t),
        user=user,
        table_id=first.pk,
        sums={seat.entrant.number: factory.EXAMPLE_SUMS[0][seat.entrant.name] for seat in first.seats.all()},
    )
    made = tournaments.tournament_provisional(tournament=factory.fresh(t), user=user)
    assert [p.entrant.name for p in made.places.order_by("place")[:2]] == ["Erika", "Franz"]


def test_a_final_tournament_takes_no_hand_at_a_table_link(user):
    """However a table came to be open in a final tournament (an older version could
    leave one so), its link records nothing until the tournament is reopened."""
    day = tournament_day(user, tables_count=1, hands=2)
    Tournament.objects.filter(pk=day.tournament.pk).update(status=Tournament.Status.FINAL)
    client = claimed_phone(day.table(1))
    names = tables.players(day.table(1))
    answer = client.post(
        reverse("tournament_table_hand_new", args=[day.table(1).link_token]),
        rufer(names[0], names[1], names[0]),
    )
    assert answer.status_code == 403 and not Hand.objects.exists()


def test_a_co_organiser_taken_off_the_list_records_at_no_table(user, other_user, client_for):
    day = tournament_day(user, tables_count=1, organisers=(other_user,))
    session = tables.open_table(day.table(1))
    assert session.editors.filter(pk=other_user.pk).exists()
    tournaments._set_organisers(Tournament.objects.get(pk=day.tournament.pk), [])
    names = tables.players(day.table(1))
    form = {"token": "a" * 32, "action": "save", "type": "played", **rufer(names[0], names[1], names[0])}
    answer = client_for(other_user).post(reverse("hand_new", args=[session.pk]), form)
    assert answer.status_code == 404 and not Hand.objects.exists()
    tournaments._set_organisers(Tournament.objects.get(pk=day.tournament.pk), [other_user.username])
    assert Session.objects.get(pk=session.pk).editors.filter(pk=other_user.pk).exists()


def test_a_tables_session_is_not_shared_nor_given_editors_through_the_evenings_pages(
    user, other_user, logged_in
):
    day = tournament_day(user, tables_count=1)
    session = tables.open_table(day.table(1))
    page = reverse("sharing", args=[session.pk])
    assert logged_in.post(page, {"action": "add_editor", "username": other_user.username}).status_code == 302
    assert logged_in.post(page, {"action": "share"}).status_code == 302
    session.refresh_from_db()
    assert not session.editors.exists() and session.share_token is None
    with pytest.raises(SessionManaged):
        scoring.session_add_editor(session=session, username=other_user.username)
    with pytest.raises(SessionManaged):
        scoring.session_share(session=session)
