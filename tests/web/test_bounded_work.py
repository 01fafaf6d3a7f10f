"""Every request does bounded work: a save and a correction take a fixed, small
number of queries; a session, its PDF and its appendix have limits a real table
never reaches and a stranger cannot pass; watchers cost little."""

from __future__ import annotations

from django.urls import reverse

from scoring import services
from scoring.models import Hand, Session
from tests.web.test_views import form_data

GARDE = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}


def test_saving_a_hand_through_the_form_takes_at_most_ten_queries(
    logged_in, make_session, django_assert_max_num_queries
):
    session = make_session()
    services.hand_record(session=session, raw=GARDE)
    url = reverse("hand_new", args=[session.pk])
    with django_assert_max_num_queries(10):
        response = logged_in.post(url, form_data(GARDE | {"dealer": "Anna", "taker": "Bert"}, "t1"))
    assert response.status_code == 302
    assert session.hands.count() == 2


def test_correcting_a_hand_through_the_form_takes_at_most_nine_queries(
    logged_in, make_session, django_assert_max_num_queries
):
    session = make_session()
    hand = services.hand_record(session=session, raw=GARDE)
    url = reverse("hand_edit", args=[session.pk, hand.pk])
    with django_assert_max_num_queries(9):
        response = logged_in.post(url, form_data(GARDE | {"points": 60}, str(hand.version)))
    assert response.status_code == 302
    hand.refresh_from_db()
    assert hand.version == 2 and hand.inputs["points"] == 60
    assert [change.action for change in hand.changes.all()] == ["recorded", "edited"]


def test_a_correction_meanwhile_is_still_a_conflict_when_the_form_was_opened_before_it(
    logged_in, make_session
):
    session = make_session()
    hand = services.hand_record(session=session, raw=GARDE)
    services.hand_edit(hand=hand, raw=GARDE | {"points": 70}, expected_version=1)
    url = reverse("hand_edit", args=[session.pk, hand.pk])
    response = logged_in.post(url, form_data(GARDE | {"points": 60}, "1"))
    assert response.status_code == 409
    hand.refresh_from_db()
    assert hand.inputs["points"] == 70 and hand.version == 2


def test_a_double_tapped_save_changes_nothing_the_second_time_not_even_the_version(logged_in, make_session):
    session = make_session()
    url = reverse("hand_new", args=[session.pk])
    data = form_data(GARDE, "double-tap")
    assert logged_in.post(url, data).status_code == 302
    version = Session.objects.get(pk=session.pk).version
    assert logged_in.post(url, data).status_code == 302
    assert Session.objects.get(pk=session.pk).version == version
    assert Hand.objects.filter(session=session).count() == 1
