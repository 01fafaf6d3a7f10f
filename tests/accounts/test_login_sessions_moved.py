"""Whoever was logged in before the login backend moved to the accounts app
stays logged in: the migration points the open login sessions at its new path."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.urls import reverse

migration = importlib.import_module("accounts.migrations.0002_login_sessions_backend")


def login_session(user, backend: str) -> str:
    """A login session as Django stores it when ``backend`` logged ``user`` in."""
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = backend
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    assert store.session_key is not None
    return store.session_key


@pytest.mark.django_db
def test_a_login_session_of_the_old_backend_stays_logged_in(client, user, settings):
    key = login_session(user, migration.OLD)
    client.cookies[settings.SESSION_COOKIE_NAME] = key
    assert client.get(reverse("session_list")).status_code == 302  # the old path: logged out

    migration.forward(apps, None)
    assert client.get(reverse("session_list")).status_code == 200
    assert SessionStore(session_key=key).load()[BACKEND_SESSION_KEY] == migration.NEW


@pytest.mark.django_db
def test_other_sessions_are_left_as_they_are(user):
    other = login_session(user, "django.contrib.auth.backends.ModelBackend")
    migration.forward(apps, None)
    assert (
        SessionStore(session_key=other).load()[BACKEND_SESSION_KEY]
        == "django.contrib.auth.backends.ModelBackend"
    )
    migration.backward(apps, None)
    assert (
        SessionStore(session_key=other).load()[BACKEND_SESSION_KEY]
        == "django.contrib.auth.backends.ModelBackend"
    )
