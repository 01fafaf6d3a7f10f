"""What the login and sign-up limits keep (``accounts.auth``): attempts and the
rows locked while they are counted. The tables were made by the scoring app and
keep their names; only Django's idea of which app owns them moved."""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class LoginAttempt(models.Model):
    """A password check, recorded before the password is checked (``accounts.auth``);
    kept for the limit's window, and removed for a user name that logs in."""

    username = models.CharField(max_length=150, db_index=True)  # as typed, in lower case
    ip = models.GenericIPAddressField(null=True, blank=True, db_index=True)
    at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        db_table = "scoring_loginattempt"  # made by the scoring app, kept as it is

    def __str__(self) -> str:
        return f"{self.username}@{self.ip}"


class LoginLock(models.Model):
    """One row per user name and per address that tried to log in recently. An
    attempt locks its rows while it counts the recent attempts and records its own,
    so attempts sent at the same moment are counted one after the other."""

    key = models.CharField(max_length=200, unique=True)  # "user:<name>" or "ip:<address>"
    at = models.DateTimeField(db_index=True)  # the latest attempt

    class Meta:
        db_table = "scoring_loginlock"  # made by the scoring app, kept as it is

    def __str__(self) -> str:
        return self.key


class SignupAttempt(models.Model):
    """A sign-up sent from an address (``accounts.auth.signup_allowed``), kept for the
    limit's window."""

    ip = models.GenericIPAddressField(null=True, blank=True, db_index=True)
    at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        db_table = "scoring_signupattempt"  # made by the scoring app, kept as it is

    def __str__(self) -> str:
        return f"{self.ip}@{self.at}"
