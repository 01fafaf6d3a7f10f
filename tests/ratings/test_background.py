"""The answer that closes an evening does not wait for the ratings: the mark is
written with it, and a thread computes them after it (``RATINGS_UPDATE=thread``)."""

from __future__ import annotations

import time

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from club.services import groups
from ratings.models import RatingEntry, RatingMark
from ratings.services import background
from scoring.models import Session
from tests.club.regular_table import evening
from tests.ratings.support import hands


def wait_for_thread(seconds: float = 20) -> None:
    ends = time.monotonic() + seconds
    while background.running() and time.monotonic() < ends:
        time.sleep(0.05)
    assert not background.running()


@pytest.mark.django_db(transaction=True)
def test_closing_an_evening_answers_and_a_thread_rates_it_after(user):
    group = groups.group_create(owner=user, name="Dienstag")
    session, _ = evening(group, user, hands("Anna", "Bert"))
    client = Client()
    client.force_login(user)
    with override_settings(RATINGS_UPDATE="thread"):
        response = client.post(reverse("group_evening_close", args=[group.pk, session.pk]))
        assert response.status_code == 302
        assert Session.objects.get(pk=session.pk).closed_at is not None
        wait_for_thread()
    assert RatingEntry.objects.filter(event__source_id=session.pk).count() == 4
    assert not RatingMark.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_with_the_command_setting_nothing_runs_until_the_command(user):
    from django.core.management import call_command

    group = groups.group_create(owner=user, name="Dienstag")
    session, _ = evening(group, user, hands("Anna", "Bert"))
    client = Client()
    client.force_login(user)
    client.post(reverse("group_evening_close", args=[group.pk, session.pk]))
    assert not background.running()
    assert RatingMark.objects.count() == 1 and not RatingEntry.objects.exists()
    call_command("update_ratings")
    assert RatingEntry.objects.count() == 4 and not RatingMark.objects.exists()
    call_command("update_ratings", "--all")
    assert RatingEntry.objects.count() == 4
