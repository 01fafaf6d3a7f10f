"""Every request does bounded work: a save and a correction take a fixed, small
number of queries; a session, its PDF and its appendix have limits a real table
never reaches and a stranger cannot pass; watchers cost little."""

from __future__ import annotations

import json
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from plumbing import pdf
from plumbing.pdf import PdfFailed, html_to_pdf
from scoring import services
from scoring.engine import InvalidInput
from scoring.engine.session_file import MAX_HANDS
from scoring.exports import APPENDIX_MAX_HANDS, PDF_MAX_HANDS
from scoring.models import Hand, Session
from scoring.views.sharing import SHARED_BOARD_PER_MINUTE
from tests.conftest import fill
from tests.engine.support import FIXTURES
from tests.scoring.test_views import form_data

pytestmark = pytest.mark.cache  # also run with CACHE=redis://… (make test-redis)

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


def test_a_session_holds_at_most_two_thousand_hands(logged_in, make_session):
    session = make_session()
    fill(session, MAX_HANDS)
    version = Session.objects.get(pk=session.pk).version
    url = reverse("hand_new", args=[session.pk])
    response = logged_in.post(url, form_data(GARDE | {"dealer": "Anna", "taker": "Bert"}, "one-more"))
    assert response.status_code == 200
    assert "a session holds at most 2000 hands: start a new one" in response.content.decode()
    assert session.hands.count() == MAX_HANDS
    assert Session.objects.get(pk=session.pk).version == version  # a refused request changes nothing


def test_a_deleted_hand_makes_room_for_another(make_session):
    session = make_session()
    fill(session, MAX_HANDS)
    services.hand_delete(hand=session.hands.order_by("number").first())
    assert services.hand_record(session=session, raw=GARDE).number == MAX_HANDS + 1


def test_a_deleted_hand_whose_place_was_filled_is_not_restored_past_the_limit(make_session):
    session = make_session()
    fill(session, MAX_HANDS)
    deleted = services.hand_delete(hand=session.hands.order_by("number").first())
    services.hand_record(session=session, raw=GARDE)
    with pytest.raises(InvalidInput) as refused:
        services.hand_restore(hand=deleted)
    assert "at most 2000 hands" in str(refused.value)
    deleted.refresh_from_db()
    assert deleted.deleted_at is not None
    assert session.hands.filter(deleted_at__isnull=True).count() == MAX_HANDS


def test_the_restore_button_says_the_session_is_full(logged_in, make_session):
    session = make_session()
    fill(session, MAX_HANDS)
    deleted = services.hand_delete(hand=session.hands.order_by("number").first())
    services.hand_record(session=session, raw=GARDE)
    response = logged_in.post(reverse("hand_restore", args=[session.pk, deleted.pk]), follow=True)
    page = response.content.decode()
    assert "The hand cannot come back: a session holds at most 2000 hands" in page
    assert "house rules" not in page.split("cannot come back")[1][:80]


def test_a_session_file_with_more_hands_is_refused_on_upload(logged_in):
    document = json.loads((FIXTURES / "french-seed-table.json").read_text())
    document["hands"] = document["hands"][:1] * (MAX_HANDS + 1)
    upload = SimpleUploadedFile("big.json", json.dumps(document).encode(), "application/json")
    response = logged_in.post(reverse("session_import"), {"file": upload})
    assert response.status_code == 400
    assert "hands: at most 2000 hands" in response.content.decode()
    assert Session.objects.count() == 0


def test_every_breakdown_is_printed_for_at_most_three_hundred_hands(logged_in, make_session):
    session = make_session()
    fill(session, APPENDIX_MAX_HANDS + 1)
    for url in (
        reverse("session_export", args=[session.pk, "pdf"]) + "?appendix=1",
        reverse("session_print", args=[session.pk]) + "?appendix=1",
    ):
        response = logged_in.get(url, follow=True)
        assert response.redirect_chain == [(reverse("scoreboard", args=[session.pk]), 302)]
        assert "The breakdown of every hand is printed for at most 300 hands; this sheet has 301." in (
            response.content.decode()
        )
    assert logged_in.get(reverse("session_print", args=[session.pk])).status_code == 200


def test_a_printed_sheet_shows_at_most_five_hundred_hands(logged_in, make_session):
    session = make_session()
    fill(session, PDF_MAX_HANDS + 1)
    response = logged_in.get(reverse("session_export", args=[session.pk, "pdf"]), follow=True)
    assert "A printed sheet shows at most 500 hands; this one has 501." in response.content.decode()
    assert logged_in.get(reverse("scoreboard", args=[session.pk])).status_code == 200


def test_drawing_a_pdf_is_stopped_after_its_time():
    # The drawing server started first: what is timed is the drawing stopped, not
    # WeasyPrint's import (seconds on a busy machine). Drawn to its end, this long
    # page takes far longer than the bound (tens of seconds).
    assert html_to_pdf("<p>Tarock</p>").startswith(b"%PDF")
    started = time.monotonic()
    with pytest.raises(PdfFailed, match="longer than"):
        html_to_pdf("<p>" + "Tarock " * 100_000 + "</p>", seconds=0.2)
    assert time.monotonic() - started < 5


# Far more than 64 MB of address space can hold. (The drawing process is forked
# from the drawing server and shares what that had mapped already, which counts
# within its limit; a small document might still fit in the server's free memory.)
HUGE = "<p>" + "Tarock " * 200_000 + "</p>"


def test_drawing_a_pdf_gets_bounded_memory():
    with pytest.raises(PdfFailed):
        html_to_pdf(HUGE, memory=64 * 1024 * 1024)


def test_every_pdf_is_drawn_in_a_process_of_its_own_forked_from_one_drawing_server():
    assert html_to_pdf("<p>Tarock</p>").startswith(b"%PDF")
    server = pdf._server.process
    assert server is not None and server.poll() is None  # WeasyPrint loaded there, once
    with pytest.raises(PdfFailed):
        html_to_pdf(HUGE, memory=64 * 1024 * 1024)
    with pytest.raises(PdfFailed, match="longer than"):
        html_to_pdf("<p>" + "Tarock " * 20_000 + "</p>", seconds=0.2)
    assert html_to_pdf("<p>Tarock</p>").startswith(b"%PDF")
    assert pdf._server.process is server and server.poll() is None  # the failed drawings took only their own


def test_a_pdf_that_takes_too_long_sends_the_player_back_to_the_sheet_with_a_message(
    logged_in, make_session, monkeypatch
):
    session = make_session()
    services.hand_record(session=session, raw=GARDE)
    monkeypatch.setattr(pdf, "SECONDS", 0.01)
    response = logged_in.get(reverse("session_export", args=[session.pk, "pdf"]), follow=True)
    assert "The PDF could not be drawn just now. Please try again in a moment." in response.content.decode()
    monkeypatch.setattr(pdf, "SECONDS", 300.0)  # patient again (tests/conftest.py)
    assert logged_in.get(reverse("session_export", args=[session.pk, "pdf"])).content.startswith(b"%PDF")


def poll(client, token: str, since: str, **params: str):
    return client.get(
        reverse("shared_board", args=[token]), {"since": since, **params}, HTTP_HX_REQUEST="true"
    )


@pytest.fixture
def watched(make_session):
    """A session of 50 hands, shared."""
    session = make_session()
    fill(session, 50)
    return session, services.session_share(session=session)


def test_a_watchers_poll_with_nothing_changed_reads_the_session_row_and_nothing_else(
    client, watched, django_assert_num_queries
):
    session, token = watched
    version = str(Session.objects.get(pk=session.pk).version)
    with django_assert_num_queries(1):
        response = poll(client, token, version)
    assert response.status_code == 204 and response.content == b""


def test_a_logged_in_watchers_poll_with_nothing_changed_reads_neither_login_nor_user(
    logged_in, watched, django_assert_num_queries
):
    session, token = watched
    version = str(Session.objects.get(pk=session.pk).version)
    with django_assert_num_queries(1) as queries:
        response = poll(logged_in, token, version)
    assert response.status_code == 204
    assert "scoring_session" in queries.captured_queries[0]["sql"]


def test_after_a_change_the_second_watcher_gets_the_board_the_first_one_had_drawn(
    client, watched, django_assert_num_queries
):
    session, token = watched
    old = str(Session.objects.get(pk=session.pk).version)
    services.hand_record(session=session, raw=GARDE | {"taker": "Bert"})
    first = poll(client, token, old)
    with django_assert_num_queries(1):  # the link's session; no seats, no hands
        second = poll(client, token, old)
    assert first.status_code == second.status_code == 200
    assert b"Bert" in second.content and second.content == first.content


def test_a_share_link_answers_at_most_its_rate_of_requests_a_minute(client, make_session):
    session = make_session()
    token = services.session_share(session=session)
    other = make_session()
    other_token = services.session_share(session=other)
    version = str(Session.objects.get(pk=session.pk).version)
    statuses = {poll(client, token, version).status_code for _ in range(SHARED_BOARD_PER_MINUTE)}
    assert statuses == {204}
    refused = poll(client, token, version)
    assert refused.status_code == 429 and refused["Retry-After"] == "60"
    assert "Zu viele Anfragen über diesen Link" in refused.content.decode()  # German unless asked otherwise
    assert client.get(reverse("shared_board", args=[token])).status_code == 429
    assert poll(client, other_token, str(Session.objects.get(pk=other.pk).version)).status_code == 204
