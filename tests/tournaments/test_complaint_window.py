"""Provisional, then final after the complaint window (TOURNAMENTS.md §4.4): the
organiser confirms once complaints are no longer taken; before, the confirmation is
refused naming the time, and nothing changes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from scoring.engine import InvalidInput
from tests.tournaments import factory
from tournaments.models import TournamentChange, TournamentPlace
from tournaments.services import tournaments

pytestmark = pytest.mark.django_db
GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de"}


def hh_mm(moment):
    """A time as the German pages write it (17:45), in the server's time zone."""
    return timezone.localtime(moment).strftime("%H:%M")


def test_making_final_during_the_window_is_refused_naming_its_end_and_changes_nothing(user):
    t = factory.play_example(user)
    until = tournaments.complaint_until(t)
    assert until == t.changes.get(action="provisional").at + timedelta(minutes=15)
    audit = list(TournamentChange.objects.filter(tournament=t).values_list("pk", flat=True))
    with translation.override("de"), pytest.raises(InvalidInput) as refused:
        tournaments.tournament_final(tournament=t, user=user, client_token="final-1")
    assert refused.value.field == "status" and hh_mm(until) in str(refused.value)
    after = factory.fresh(t)
    assert (after.status, after.closed_at, after.version) == ("provisional", None, t.version)
    assert list(TournamentChange.objects.filter(tournament=t).values_list("pk", flat=True)) == audit
    assert not TournamentPlace.objects.filter(tournament=t, final=True).exists()


def test_the_window_closes_at_the_minute_it_names(user, monkeypatch):
    t = factory.play_example(user)
    until = tournaments.complaint_until(t)
    assert until is not None
    monkeypatch.setattr(timezone, "now", lambda: until - timedelta(seconds=1))
    with pytest.raises(InvalidInput):
        tournaments.tournament_final(tournament=factory.fresh(t), user=user)
    monkeypatch.setattr(timezone, "now", lambda: until)
    tournaments.tournament_final(tournament=factory.fresh(t), user=user)
    final = factory.fresh(t)
    assert final.status == "final" and final.closed_at == until
    assert TournamentChange.objects.filter(tournament=t, action="final").count() == 1
    assert TournamentPlace.objects.filter(tournament=t, final=True).count() == 12


def test_without_a_window_the_ranking_is_made_final_at_once(user):
    t = factory.play_example(user, settings={"complaint_minutes": None})
    assert tournaments.complaint_until(t) is None
    tournaments.tournament_final(tournament=t, user=user)
    assert factory.fresh(t).status == "final"


def test_a_reopened_tournament_is_made_final_again_without_a_new_window(user):
    t = factory.make_final(factory.play_example(user))
    tournaments.tournament_reopen(tournament=t, user=user, reason="Reklamation Tisch 1")
    tournaments.tournament_final(tournament=factory.fresh(t), user=user)
    assert factory.fresh(t).status == "final"


def test_the_control_page_shows_the_window_and_the_refusal_then_makes_final(logged_in, user):
    t = factory.play_example(user)
    until = hh_mm(tournaments.complaint_until(t))
    page = reverse("tournament_detail", args=[t.pk])
    html = logged_in.get(page, **GERMAN).content.decode()
    assert f"Reklamationen werden bis {until} angenommen." in html
    assert f'<p class="help" id="final-from">Ab {until} kann die Wertung endgültig gemacht werden' in html
    assert 'id="make-final" class="secondary" aria-describedby="final-from"' in html
    answer = logged_in.post(
        reverse("tournament_status", args=[t.pk]), {"action": "final", "token": "f1"}, **GERMAN
    )
    assert answer.status_code == 302 and answer["Location"] == page
    html = logged_in.get(page, **GERMAN).content.decode()
    assert (
        f"Reklamationen werden bis {until} angenommen: erst danach kann die Wertung endgültig werden" in html
    )
    assert factory.fresh(t).status == "provisional" and not t.changes.filter(action="final").exists()

    factory.complaints_over(t)
    html = logged_in.get(page, **GERMAN).content.decode()
    assert 'id="make-final" class="primary"' in html and 'id="final-from"' not in html
    answer = logged_in.post(
        reverse("tournament_status", args=[t.pk]), {"action": "final", "token": "f2"}, **GERMAN
    )
    assert answer.status_code == 302 and factory.fresh(t).status == "final"
