"""A table-round's session, claim, hand-over and sign-off, as services (TOURNAMENTS.md §1.5, §3.1–3.3)."""

from __future__ import annotations

import secrets
import threading
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection, connections
from django.urls import reverse
from django.utils import timezone, translation

from scoring import services as scoring
from scoring.engine import InvalidInput
from scoring.models import Hand, Seat, Session
from tests.tournaments.table_support import in_english as in_english
from tests.tournaments.table_support import kontra_hand, redeal, rufer, tournament_day
from tournaments.models import RoundResult, TableRound, TournamentChange
from tournaments.services import desk, tables

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def test_the_session_is_opened_once_with_the_tournaments_game_players_and_target(user, other_user):
    day = tournament_day(user, organisers=(other_user,), hands=16)
    table = day.table(2)
    session = tables.open_table(table)
    assert tables.open_table(day.table(2)).pk == session.pk
    assert Session.objects.filter(tournament_table__isnull=False).count() == 1
    assert session.name == "Cupabend · Runde 1 · Tisch 2"
    assert session.variant == "koenigrufen"
    assert session.options["kontra_in_score"] is False and session.options["doubled_radl"] is False
    assert session.options["tariff"] == "ooe_2023"
    assert [s.name for s in Seat.objects.filter(session=session)] == ["Erika", "Franz", "Gerti", "Hans"]
    assert [s.player_id for s in Seat.objects.filter(session=session)] == [
        e.player_id for e in day.entrants[4:8]
    ]
    assert session.first_dealer == "Erika"
    assert session.money_rate == Decimal("0.10")
    assert session.hands_target == 16 and session.managed
    assert session.owner == user
    assert list(session.editors.all()) == [other_user]


def test_a_managed_session_is_in_nobodys_evening_list(user):
    day = tournament_day(user)
    tables.open_table(day.table(1))
    assert list(scoring.sessions_of(user)) == []


@pytest.mark.django_db(transaction=True)
def test_two_phones_opening_a_table_at_once_get_one_session(user):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    day = tournament_day(user, tables_count=1)
    found: list[int] = []

    def open_it() -> None:
        found.append(tables.open_table(day.table(1)).pk)
        connection.close()

    threads = [threading.Thread(target=open_it) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(found)) == 1
    assert Session.objects.count() == 1


def test_a_hand_beyond_the_target_is_refused_redeals_and_deleted_hands_do_not_count(user):
    day = tournament_day(user, tables_count=1, hands=2)
    session = tables.open_table(day.table(1))
    scoring.hand_record(session=session, raw=rufer("Anna", "Bernd", "Anna"))
    deleted = scoring.hand_record(session=session, raw=rufer("Bernd", "Christa", "Bernd"))
    scoring.hand_delete(hand=deleted)
    scoring.hand_record(session=session, raw=redeal("Bernd"))
    scoring.hand_record(session=session, raw=rufer("Christa", "Anna", "Christa"))
    with pytest.raises(InvalidInput) as refused:
        scoring.hand_record(session=session, raw=rufer("Dieter", "Anna", "Dieter"))
    assert refused.value.words() == "Round complete: 2 of 2"
    scoring.hand_record(session=session, raw=redeal("Dieter"))  # a redeal is stored still
    with pytest.raises(InvalidInput):
        scoring.hand_restore(hand=deleted)  # its place was filled
    assert Hand.objects.filter(session=session, deleted_at__isnull=True).exclude(type="redeal").count() == 2


def test_a_managed_sessions_settings_are_refused(user):
    day = tournament_day(user, tables_count=1)
    session = tables.open_table(day.table(1))
    for change in (
        lambda: scoring.session_close(session=session, user=user),
        lambda: scoring.session_delete(session=session, user=user),
        lambda: scoring.session_rename_player(session=session, user=user, old="Anna", new="Anni"),
        lambda: scoring.session_change_rules(session=session, user=user, options={"tariff": "ooe_2023"}),
        lambda: scoring.session_edit(
            session=session, user=user, name="Other", played_on=session.played_on, money_rate=None
        ),
    ):
        with pytest.raises(scoring.SessionManaged):
            change()
    session.refresh_from_db()
    assert (session.name, session.closed_at, session.deleted_at) == (
        "Cupabend · Runde 1 · Tisch 1",
        None,
        None,
    )


def test_the_first_phone_claims_others_watch(user):
    day = tournament_day(user, tables_count=1)
    table = day.table(1)
    assert tables.claim(table, "first-phone")
    assert not tables.claim(day.table(1), "second-phone")
    state = tables.claim_of(day.table(1), "second-phone")
    assert not state.mine and not state.free and state.since is not None
    assert day.table(1).claim_digest == tables.digest("first-phone")  # only its SHA-256 is kept
    assert TournamentChange.objects.filter(action="claim").count() == 1


def test_hand_over_with_a_code_and_its_expiry(user):
    day = tournament_day(user, tables_count=1)
    table = day.table(1)
    tables.claim(table, "first")
    with pytest.raises(tables.TableRefused):
        tables.handover_code(day.table(1), "second")  # only the writing phone
    code = tables.handover_code(day.table(1), "first")
    assert len(code) == 4 and code.isdigit()
    wrong = f"{(int(code) + 1) % 10000:04d}"
    with pytest.raises(tables.TableRefused):
        tables.take_over(day.table(1), "second", wrong)
    assert day.table(1).claim_digest == tables.digest("first")
    tables.take_over(day.table(1), "second", code)
    assert tables.claim_of(day.table(1), "second").mine
    with pytest.raises(tables.TableRefused):
        tables.take_over(day.table(1), "third", code)  # used once
    code = tables.handover_code(day.table(1), "second")
    TableRound.objects.filter(pk=table.pk).update(handover_until=timezone.now() - timedelta(seconds=1))
    with pytest.raises(tables.TableRefused) as expired:
        tables.take_over(day.table(1), "third", code)
    assert "expired" in expired.value.reason
    assert tables.claim_of(day.table(1), "second").mine


def test_the_organiser_frees_a_claimed_table_from_its_page_and_the_link_stays(user, other_user, client):
    day = tournament_day(user, tables_count=1)
    tables.claim(day.table(1), "first")
    link = day.table(1).link_token
    page = reverse("organiser_table", args=[day.tournament.pk, day.table(1).pk])
    client.force_login(other_user)
    assert client.post(page, {"action": "release"}).status_code == 404  # not an organiser
    assert day.table(1).claim_digest
    client.force_login(user)
    shown = client.get(page).content.decode()
    assert 'id="release-form"' in shown
    assert client.post(page, {"action": "release", "token": "a" * 32}).status_code == 302
    assert client.post(page, {"action": "release", "token": "a" * 32}).status_code == 302  # sent twice: once
    assert day.table(1).claim_digest == "" and day.table(1).link_token == link
    assert TournamentChange.objects.filter(action="claim", reason="released").count() == 1
    assert tables.claim(day.table(1), "second")
    refused = client.post(page, {"action": "release"})  # claimed again by "second": freed again
    assert refused.status_code == 302 and day.table(1).claim_digest == ""
    again = client.post(page, {"action": "release"})
    assert again.status_code == 400 and "wird von keinem Handy geschrieben" in again.content.decode()


def played_table(user, *, hands=2, signoff="scorer_and_check", kontra_cash="per_hand"):
    day = tournament_day(
        user, tables_count=1, hands=hands, settings={"signoff": signoff, "kontra_cash": kontra_cash}
    )
    table = day.table(1)
    tables.claim(table, "scorer")
    session = tables.open_table(table)
    scoring.hand_record(session=session, raw=kontra_hand("Anna", "Bernd", "Anna"))
    for index in range(1, hands):
        scoring.hand_record(
            session=session, raw=rufer("Christa", "Dieter", ["Bernd", "Christa", "Dieter", "Anna"][index % 4])
        )
    return day


def test_sign_off_scorer_and_check_names_another_player_of_the_table(user):
    day = played_table(user)
    with pytest.raises(tables.TableRefused) as refused:
        tables.sign_off(day.table(1), cookie="scorer", scorer="Anna", checker="Anna")
    assert refused.value.field == "checker" and "Bernd" in refused.value.reason
    with pytest.raises(tables.TableRefused):
        tables.sign_off(day.table(1), cookie="scorer", scorer="Anna", checker="Zita")
    with pytest.raises(tables.TableRefused):
        tables.sign_off(day.table(1), cookie="other", scorer="Anna", checker="Bernd")  # not the writing phone
    refused_thrice = day.table(1)  # nothing signed: played to its target, still open to the scorer
    assert not refused_thrice.is_locked and tables.played(refused_thrice) == refused_thrice.hands_target
    table = tables.sign_off(
        day.table(1), cookie="scorer", scorer="Anna", checker="Bernd", client_token="a" * 32
    )
    assert table.status == TableRound.Status.SIGNED and table.checker_name == "Bernd"
    assert table.session.closed_at is not None  # the link is read-only now
    again = tables.sign_off(
        day.table(1), cookie="scorer", scorer="Anna", checker="Bernd", client_token="a" * 32
    )
    assert again.status == TableRound.Status.SIGNED
    assert TournamentChange.objects.filter(action="sign").count() == 1
    assert set(RoundResult.objects.values_list("counted", flat=True)) == {True}


def test_sign_off_before_the_last_hand_only_by_the_organiser(user):
    day = tournament_day(user, tables_count=1, hands=4)
    tables.claim(day.table(1), "scorer")
    scoring.hand_record(session=tables.open_table(day.table(1)), raw=rufer("Anna", "Bernd", "Anna"))
    with pytest.raises(tables.TableRefused) as refused:
        tables.sign_off(day.table(1), cookie="scorer", scorer="Anna", checker="Bernd")
    assert "1 of 4" in refused.value.reason
    table = tables.sign_off(day.table(1), user=user, scorer="Organiser", checker="Bernd")
    assert table.status == TableRound.Status.SIGNED


def test_sign_off_by_the_scorer_alone(user):
    day = played_table(user, signoff="scorer")
    table = tables.sign_off(day.table(1), cookie="scorer", scorer="Anna")
    assert table.status == TableRound.Status.SIGNED and table.checker_name == ""


def test_sign_off_waiting_for_the_organiser(user, other_user):
    day = played_table(user, signoff="organiser")
    table = tables.sign_off(day.table(1), cookie="scorer", scorer="Anna")
    assert table.status == TableRound.Status.COMPLETE and tables.awaits_organiser(table)
    assert not RoundResult.objects.filter(counted=True).exists()
    table = desk.table_confirm(tournament=day.tournament, user=user, table_id=day.table(1).pk)
    assert table.status == TableRound.Status.SIGNED
    assert RoundResult.objects.filter(counted=True).count() == 4


def test_seats_change_until_the_first_hand(user):
    day = tournament_day(user, tables_count=1)
    table = day.table(1)
    tables.change_seats(table, order=["Dieter", "Christa", "Bernd", "Anna"], first_dealer="Christa")
    session = tables.open_table(day.table(1))
    assert [s.name for s in Seat.objects.filter(session=session)] == ["Dieter", "Christa", "Bernd", "Anna"]
    assert Session.objects.get(pk=session.pk).first_dealer == "Christa"
    assert day.table(1).first_dealer == 2
    with pytest.raises(tables.TableRefused):
        tables.change_seats(day.table(1), order=["Dieter", "Christa", "Bernd"], first_dealer="Christa")
    scoring.hand_record(session=Session.objects.get(pk=session.pk), raw=rufer("Anna", "Bernd", "Christa"))
    with pytest.raises(tables.TableRefused):
        tables.change_seats(day.table(1), order=["Anna", "Bernd", "Christa", "Dieter"], first_dealer="Anna")


def test_three_wrong_codes_use_the_code_up(user):
    day = tournament_day(user, tables_count=1)
    tables.claim(day.table(1), "first")
    code = tables.handover_code(day.table(1), "first")
    wrong = f"{(int(code) + 1) % 10000:04d}"
    for _ in range(tables.HANDOVER_TRIES):
        with pytest.raises(tables.TableRefused):
            tables.take_over(day.table(1), "guesser", wrong)
    with pytest.raises(tables.TableRefused) as refused:
        tables.take_over(day.table(1), "guesser", code)
    assert "expired" in refused.value.reason
    assert tables.claim_of(day.table(1), "first").mine


class CountedSecrets:
    """``secrets`` as the hand-over uses it, counting the codes compared."""

    def __init__(self) -> None:
        self.compared = 0
        self.lock = threading.Lock()

    def compare_digest(self, a: str, b: str) -> bool:
        with self.lock:
            self.compared += 1
        return secrets.compare_digest(a, b)

    def randbelow(self, n: int) -> int:
        return secrets.randbelow(n)


@pytest.mark.django_db(transaction=True)
def test_two_hundred_racing_guesses_compare_at_most_three_codes(user, monkeypatch):
    """Twenty phones sending ten wrong codes each, all at once: the count of wrong
    tries is kept under the table's row lock, so the code is compared three times
    and then used up (SQLite and PostgreSQL alike)."""
    day = tournament_day(user, tables_count=1)
    tables.claim(day.table(1), "first")
    code = tables.handover_code(day.table(1), "first")
    counted = CountedSecrets()
    monkeypatch.setattr(tables, "secrets", counted)
    wrong = [f"{(int(code) + n) % 10000:04d}" for n in range(1, 201)]
    outcomes: list[str] = []
    start = threading.Barrier(20)

    def phone(index: int) -> None:
        try:
            start.wait()
            translation.activate("en")
            for guess in wrong[index * 10 : index * 10 + 10]:
                try:
                    tables.take_over(TableRound.objects.get(pk=day.tables[0].pk), f"guesser-{index}", guess)
                    outcomes.append("taken")
                except tables.TableRefused as refused:
                    outcomes.append(refused.reason)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=phone, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(outcomes) == 200 and "taken" not in outcomes
    assert counted.compared == tables.HANDOVER_TRIES
    assert sum("expired" not in reason for reason in outcomes) == tables.HANDOVER_TRIES
    table = TableRound.objects.get(pk=day.tables[0].pk)
    assert table.handover_digest == "" and table.claim_digest == tables.digest("first")
    with pytest.raises(tables.TableRefused):  # the right code too, once it is used up
        tables.take_over(table, "guesser-0", code)
    assert counted.compared == tables.HANDOVER_TRIES
