"""Accounts: what a player can do about a password here, and what not."""

from __future__ import annotations

import pytest
from django.urls import NoReverseMatch, reverse

RESET_PATHS = [
    "/accounts/password_reset/",
    "/accounts/password_reset/done/",
    "/accounts/reset/MQ/set-password/",
    "/accounts/reset/MQ/abc-123/",
    "/accounts/reset/done/",
]


@pytest.mark.parametrize("path", RESET_PATHS)
def test_there_is_no_password_reset_because_no_mail_is_sent(client, logged_in, path):
    for visitor in (client, logged_in):
        assert visitor.get(path).status_code == 404, path
        assert visitor.post(path, {"email": "anna@example.org"}).status_code == 404, path


def test_no_page_links_to_a_password_reset(client):
    with pytest.raises(NoReverseMatch):
        reverse("password_reset")
    for path in (reverse("login"), reverse("admin:login")):
        assert "reset" not in client.get(path).content.decode().lower(), path


def test_a_logged_in_player_still_changes_the_password_and_logs_out(logged_in, user):
    changed = logged_in.post(
        reverse("password_change"),
        {
            "old_password": "a-long-test-password",
            "new_password1": "another-long-password-2",
            "new_password2": "another-long-password-2",
        },
    )
    assert changed.status_code == 302 and changed["Location"] == reverse("password_change_done")
    assert logged_in.get(reverse("password_change_done")).status_code == 200
    user.refresh_from_db()
    assert user.check_password("another-long-password-2")
    assert logged_in.post(reverse("logout")).status_code == 302
    assert "_auth_user_id" not in logged_in.session
