"""The table link's pages: the table, recording through the link to the target,
watching, hand-over and sign-off (TOURNAMENTS.md §3.1–3.3)."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from plumbing.offline import KEEP_HEADER, OUTBOX_HEADER
from scoring import services as scoring
from scoring.hand_pages import REFUSED_HEADER
from scoring.models import Hand, Session
from tests.tournaments.table_support import (
    claimed_phone,
    kontra_hand,
    phone,
    rufer,
    tournament_day,
)
from tests.tournaments.table_support import in_english as in_english
from tournaments.models import RoundResult, TableRound, Tournament
from tournaments.services import results, tables

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def url(name: str, table: TableRound, *args: object) -> str:
    return reverse(name, args=[table.link_token, *args])


def rufer_form(dealer: str = "Anna", declarer: str = "Anna", partner: str = "Bernd") -> dict[str, str]:
    return {
        "token": uuid.uuid4().hex,
        "type": "played",
        "action": "save",
        "dealer": dealer,
        "declarer": declarer,
        "game": "rufer",
        "partner": partner,
        "points": "41/2",
    }


def test_before_the_release_the_link_says_so_and_opens_nothing(user):
    day = tournament_day(user, tables_count=1, released=False)
    table = day.table(1)
    page = phone().get(url("tournament_table", table))
    assert page.status_code == 200
    assert "Round 1 is not released yet." in page.content.decode()
    assert phone().get(url("tournament_table_hand_new", table)).status_code == 403
    assert Session.objects.count() == 0


def test_the_table_page_shows_header_players_in_seat_order_and_first_dealer(user):
    day = tournament_day(user, tables_count=2, hands=16)
    TableRound.objects.filter(pk=day.tables[1].pk).update(first_dealer=3)
    html = phone().get(url("tournament_table", day.table(2))).content.decode()
    title = re.search(r'<h1 id="table-title">(.*?)</h1>', html, re.S)
    assert (
        title
        and re.sub(r"<[^>]+>", "", title.group(1)) == "Tournament · Round 1 · Table 2 · Next hand 1 of 16"
    )
    assert "0 of 16 played" in html
    order = [html.index(name) for name in ("Erika", "Franz", "Gerti", "Hans")]
    assert order == sorted(order)
    assert '<li>Gerti <span class="badge" id="first-dealer">' in html
    german = phone().get(url("tournament_table", day.table(2)), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    title = re.search(r'<h1 id="table-title">(.*?)</h1>', german, re.S)
    assert (
        title
        and re.sub(r"<[^>]+>", "", title.group(1)) == "Turnier · Runde 1 · Tisch 2 · nächstes Spiel 1 von 16"
    )
    assert "0 von 16 gespielt" in german


def test_the_first_phone_that_records_claims_and_every_hand_keeps_its_device(user):
    day = tournament_day(user, tables_count=1, hands=4)
    table = day.table(1)
    scorer, watcher = phone(), phone()
    scorer.get(url("tournament_table", table))
    form = scorer.get(url("tournament_table_hand_new", table))
    head = re.search(r'<p class="muted" id="hand-count">(.*?)</p>', form.content.decode(), re.S)
    assert head and re.sub(r"<[^>]+>", "", head.group(1)) == "Tournament · Round 1 · Table 1 · Hand 1 of 4"
    saved = scorer.post(url("tournament_table_hand_new", table), rufer_form())
    assert saved.status_code == 302 and saved["Location"].startswith(url("tournament_table", table))
    hand = Hand.objects.get()
    cookie = scorer.cookies[tables.PHONE_COOKIE].value
    assert hand.device == tables.device_label(cookie) and hand.device.startswith("Phone ")
    assert hand.created_by is None
    assert TableRound.objects.get(pk=table.pk).claim_digest == tables.digest(cookie)
    page = watcher.get(url("tournament_table", table)).content.decode()
    assert "This table is being written on another phone, since" in page
    assert 'id="new-hand"' not in page and 'hx-trigger="every 3s"' in page
    refused = watcher.post(url("tournament_table_hand_new", table), rufer_form("Bernd", "Bernd", "Anna"))
    assert refused.status_code == 403
    assert Hand.objects.count() == 1


def test_a_logged_in_player_recording_through_the_link_is_named_on_the_hand(user, other_user, client_for):
    day = tournament_day(user, tables_count=1, hands=4)
    client = client_for(other_user)
    client.post(url("tournament_table_hand_new", day.table(1)), rufer_form())
    assert Hand.objects.get().created_by == other_user


def test_a_watcher_poll_with_nothing_changed_gets_204(user):
    day = tournament_day(user, tables_count=1, hands=4)
    table = day.table(1)
    scorer = claimed_phone(table)
    scorer.post(url("tournament_table_hand_new", table), rufer_form())
    watcher = phone()
    html = watcher.get(url("tournament_table", table)).content.decode()
    since = html.split("?since=")[1].split('"')[0]
    poll = watcher.get(url("tournament_table", table) + f"?since={since}", HTTP_HX_REQUEST="true")
    assert poll.status_code == 204
    scorer.post(url("tournament_table_hand_new", table), rufer_form("Bernd", "Bernd", "Anna"))
    poll = watcher.get(url("tournament_table", table) + f"?since={since}", HTTP_HX_REQUEST="true")
    assert poll.status_code == 200 and 'id="table-live"' in poll.content.decode()


def test_the_form_closes_at_the_target_and_the_outbox_keeps_the_refusal(user):
    day = tournament_day(user, tables_count=1, hands=1)
    table = day.table(1)
    scorer = claimed_phone(table)
    assert scorer.post(url("tournament_table_hand_new", table), rufer_form()).status_code == 302
    closed = scorer.get(url("tournament_table_hand_new", table), follow=True)
    assert "Round complete: 1 of 1" in closed.content.decode()
    refused = scorer.post(url("tournament_table_hand_new", table), rufer_form("Bernd", "Bernd", "Anna"))
    assert refused.status_code == 200 and "Round complete: 1 of 1" in refused.content.decode()
    outbox = scorer.post(
        url("tournament_table_hand_new", table),
        rufer_form("Bernd", "Bernd", "Anna"),
        headers={OUTBOX_HEADER: "1"},
    )
    assert outbox.status_code == 409 and outbox[REFUSED_HEADER] == "1"
    assert outbox.json()["reason"] == "Round complete: 1 of 1"
    assert Hand.objects.count() == 1
    german = scorer.post(
        url("tournament_table_hand_new", table),
        rufer_form("Bernd", "Bernd", "Anna"),
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert "Runde vollständig: 1 von 1" in german.content.decode()


def test_the_pages_the_phone_keeps_for_later_use_up_no_notice(user):
    """The worker keeps the last hand's page while the player opens the closed form: the
    form's "round complete" is still there for the sheet it sends her to, said once."""
    day = tournament_day(user, tables_count=1, hands=1)
    table = day.table(1)
    scorer = claimed_phone(table)
    assert scorer.post(url("tournament_table_hand_new", table), rufer_form()).status_code == 302
    scorer.get(url("tournament_table", table))  # the sheet after the save: its own notice read
    hand = Hand.objects.get()
    assert scorer.get(url("tournament_table_hand_new", table)).status_code == 302
    kept = scorer.get(url("tournament_table_hand", table, hand.pk), headers={KEEP_HEADER: "1"})
    assert kept.status_code == 200 and "Round complete" not in kept.content.decode()
    again = scorer.get(url("tournament_table_hand_new", table), headers={KEEP_HEADER: "1"})
    assert again.status_code == 302
    sheet = scorer.get(url("tournament_table", table)).content.decode()
    assert sheet.count("Round complete: 1 of 1") == 1
    assert "Round complete" not in scorer.get(url("tournament_table", table)).content.decode()


def test_a_page_the_outbox_is_sent_to_uses_up_no_notice(user):
    """The outbox follows a redirect with its header (to the sheet, to the login): the
    notice waiting for the player's next page stays for it."""
    day = tournament_day(user, tables_count=1, hands=1)
    table = day.table(1)
    scorer = claimed_phone(table)
    assert scorer.post(url("tournament_table_hand_new", table), rufer_form()).status_code == 302
    assert scorer.get(url("tournament_table_hand_new", table)).status_code == 302
    followed = scorer.get(url("tournament_table", table), headers={OUTBOX_HEADER: "1"}).content.decode()
    assert "Round complete" not in followed
    assert "Round complete: 1 of 1" in scorer.get(url("tournament_table", table)).content.decode()


def test_the_signed_in_form_closes_at_the_target_too(make_session, logged_in):
    session = make_session(variant="koenigrufen", players=("Anna", "Bernd", "Christa", "Dieter"))
    Session.objects.filter(pk=session.pk).update(hands_target=1)
    scoring.hand_record(session=Session.objects.get(pk=session.pk), raw=rufer("Anna", "Bernd", "Anna"))
    page = logged_in.get(reverse("hand_new", args=[session.pk]), follow=True).content.decode()
    assert "Round complete: 1 of 1" in page


@pytest.mark.parametrize("settings", [{"kontra_cash": "with_round"}, {"no_money": True}])
def test_the_table_page_reads_no_sums_for_a_kontra_line_it_does_not_show(user, monkeypatch, settings):
    day = tournament_day(user, tables_count=1, hands=4)
    table = day.table(1)
    scorer = claimed_phone(table)
    scoring.hand_record(session=tables.open_table(table), raw=kontra_hand("Anna", "Bernd", "Anna"))
    if settings.get("no_money"):
        Tournament.objects.filter(pk=day.tournament.pk).update(money_rate=None)
    else:
        Tournament.objects.filter(pk=day.tournament.pk).update(settings=settings)

    def not_read(*args: object, **kwargs: object) -> None:
        raise AssertionError("the table's sums were read")

    monkeypatch.setattr(results, "table_sums", not_read)
    html = scorer.get(url("tournament_table", table)).content.decode()
    assert "Kontra:" not in html and "Anna" in html


def test_kontra_per_hand_is_shown_after_the_hand(user):
    day = tournament_day(user, tables_count=1, hands=4)
    table = day.table(1)
    scorer = claimed_phone(table)
    scoring.hand_record(session=tables.open_table(table), raw=kontra_hand("Anna", "Bernd", "Anna"))
    html = scorer.get(url("tournament_table", table)).content.decode()
    assert "Kontra: Christa pays Anna 0.20 €; Dieter pays Bernd 0.20 €" in html
    german = scorer.get(url("tournament_table", table), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Kontra: Christa zahlt Anna 0,20 €" in german


def test_hand_over_through_the_pages(user):
    day = tournament_day(user, tables_count=1, hands=4)
    table = day.table(1)
    first = claimed_phone(table)
    second = phone()
    second.get(url("tournament_table", table))
    code_page = first.post(url("tournament_table_handover", table), {"action": "code"}).content.decode()
    code = code_page.split('id="code">')[1][:4]
    wrong = second.post(url("tournament_table_handover", table), {"code": "abcd"})
    assert wrong.status_code == 403
    taken = second.post(url("tournament_table_handover", table), {"code": code})
    assert taken.status_code == 302
    assert second.post(url("tournament_table_hand_new", table), rufer_form()).status_code == 302
    assert (
        first.post(url("tournament_table_hand_new", table), rufer_form("Bernd", "Bernd", "Anna")).status_code
        == 403
    )
    again = first.post(url("tournament_table_handover", table), {"action": "code"})
    assert again.status_code == 403  # the old phone has nothing to hand over


def test_an_expired_code_is_refused_through_the_pages(user):
    day = tournament_day(user, tables_count=1)
    table = day.table(1)
    first = claimed_phone(table)
    code_page = first.post(url("tournament_table_handover", table), {"action": "code"}).content.decode()
    code = code_page.split('id="code">')[1][:4]
    TableRound.objects.filter(pk=table.pk).update(handover_until=timezone.now() - timedelta(seconds=1))
    second = phone()
    second.get(url("tournament_table", table))
    refused = second.post(url("tournament_table_handover", table), {"code": code})
    assert refused.status_code == 403 and "expired" in refused.content.decode()


def test_sign_off_page_sums_zero_check_money_and_transfers(user):
    day = tournament_day(user, tables_count=1, hands=2)
    table = day.table(1)
    scorer = claimed_phone(table)
    session = tables.open_table(table)
    scoring.hand_record(session=session, raw=kontra_hand("Anna", "Bernd", "Anna"))
    html = scorer.get(url("tournament_table_signoff", table)).content.decode()
    assert "The table is signed after its last hand: 1 of 2 played." in html and 'id="sign"' not in html
    scoring.hand_record(session=session, raw=rufer("Christa", "Dieter", "Bernd"))
    html = scorer.get(url("tournament_table_signoff", table)).content.decode()
    assert "Sum of all columns = 0" in html
    assert 'id="sign"' in html and 'id="transfers"' in html
    german = scorer.get(url("tournament_table_signoff", table), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Summe aller Spalten = 0" in german
    token = uuid.uuid4().hex
    bad = scorer.post(
        url("tournament_table_signoff", table), {"scorer": "Anna", "checker": "Anna", "token": token}
    )
    assert bad.status_code == 400 and not TableRound.objects.get(pk=table.pk).is_locked
    for _ in range(2):
        signed = scorer.post(
            url("tournament_table_signoff", table), {"scorer": "Anna", "checker": "Bernd", "token": token}
        )
        assert signed.status_code == 302
    assert TableRound.objects.get(pk=table.pk).status == TableRound.Status.SIGNED
    assert RoundResult.objects.filter(counted=True).count() == 4
    page = scorer.get(url("tournament_table", table)).content.decode()
    assert "This table is signed: its sheet is read-only." in page and 'id="new-hand"' not in page
    assert scorer.post(url("tournament_table_hand_new", table), rufer_form()).status_code == 403
    assert Hand.objects.count() == 2


def test_a_reissued_link_answers_410(user):
    day = tournament_day(user, tables_count=1)
    table = day.table(1)
    old = table.link_token
    TableRound.objects.filter(pk=table.pk).update(link_token="new-" + old[:20])
    gone = phone().get(reverse("tournament_table", args=[old]))
    assert gone.status_code == 410
    assert "This table link no longer works" in gone.content.decode()


def test_managed_sessions_offer_no_settings_and_refuse_them(user, logged_in):
    day = tournament_day(user, tables_count=1)
    session = tables.open_table(day.table(1))
    sheet = logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode()
    assert 'id="settings"' not in sheet
    for name in ("session_settings", "session_rules", "session_close", "session_delete"):
        response = logged_in.post(
            reverse(name, args=[session.pk]), {"name": "Other", "played_on": "2025-11-22"}
        )
        assert response.status_code == 302
    session.refresh_from_db()
    assert session.closed_at is None and session.deleted_at is None and session.name.startswith("Cupabend")
    message = logged_in.get(reverse("session_settings", args=[session.pk]), follow=True).content.decode()
    assert "fixed by the event it belongs to" in message
    assert "Cupabend · Runde 1" not in logged_in.get(reverse("session_list")).content.decode()


def test_a_table_link_is_rate_limited_per_phone_and_token(user, monkeypatch):
    from dataclasses import replace

    from tournaments.views import table as table_views

    monkeypatch.setattr(table_views, "TABLE", replace(table_views.TABLE, per_phone=2))
    day = tournament_day(user, tables_count=2)
    client = phone()
    # The first visit carries no cookie yet (counted by its address); then the phone's own two.
    answers = [client.get(url("tournament_table", day.table(1))).status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]
    refused = client.post(url("tournament_table_hand_new", day.table(1)), rufer_form())
    assert refused.status_code == 429 and refused["Retry-After"] == "60"
    assert Hand.objects.count() == 0
    assert client.get(url("tournament_table", day.table(2))).status_code == 200  # another link counts apart


def test_a_board_link_is_rate_limited_per_phone(user, monkeypatch):
    from dataclasses import replace

    from tournaments.services import results
    from tournaments.views import board as board_views

    monkeypatch.setattr(board_views, "BOARD", replace(board_views.BOARD, per_phone=1))
    day = tournament_day(user, tables_count=1)
    token = results.board_share(day.tournament)
    client = phone()
    # The first visit carries no cookie yet (counted by its address); then the phone's own one.
    answers = [client.get(reverse("tournament_board", args=[token])).status_code for _ in range(3)]
    assert answers == [200, 200, 429]


def test_a_hands_history_names_the_phone_that_recorded_it(user):
    day = tournament_day(user, tables_count=1, hands=4)
    table = day.table(1)
    scorer = phone()
    scorer.post(url("tournament_table_hand_new", table), rufer_form())
    hand = Hand.objects.get()
    html = scorer.get(url("tournament_table_hand", table, hand.pk)).content.decode()
    assert f"<strong>Recorded</strong> · {hand.device} ·" in html


def test_the_phone_refuses_a_hand_past_the_target_in_the_servers_words(user, monkeypatch):
    from scoring import phone as engine_on_the_phone
    from scoring.engine import offline as on_the_phone
    from tests.scoring.test_phone import evening_of

    monkeypatch.setattr(on_the_phone, "_catalog", engine_on_the_phone.catalog)  # the bundle's catalog
    day = tournament_day(user, tables_count=1, hands=1)
    table = day.table(1)
    scorer = claimed_phone(table)
    assert scorer.post(url("tournament_table_hand_new", table), rufer_form()).status_code == 302
    evening = evening_of(Hand.objects.get().session)
    assert (evening["target"], [h["type"] for h in evening["stored"]]) == (1, ["played"])
    posted = [[name, value] for name, value in rufer_form("Bernd", "Bernd", "Anna").items()]
    for lang, server_words in (("de", "Runde vollständig: 1 von 1"), ("en", "Round complete: 1 of 1")):
        refused = scorer.post(
            url("tournament_table_hand_new", table),
            rufer_form("Bernd", "Bernd", "Anna"),
            HTTP_ACCEPT_LANGUAGE=lang,
        )
        assert server_words in refused.content.decode()
        outcome = on_the_phone.score_table({**evening, "waiting": [posted], "lang": lang})["hands"][0]
        assert not outcome["ok"] and [p["words"] for p in outcome["problems"]] == [server_words]
