"""Logging in, with password checks limited to slow down password guessing.

The limit sits in the authentication backend, so every way in (the app's login
page, the admin's) is limited alike. Each attempt is recorded *before* its
password is checked, in one transaction that holds the lock rows of its address
and its user name: attempts sent at the same moment are counted one after the
other, so no more than ``PER_USER_AT_ADDRESS`` passwords are checked for a user
name from one address, and no more than ``PER_ADDRESS`` from an address for all
names together, within ``WINDOW``, however many arrive at once. A user name is
limited per address, never as a whole: someone guessing from one address cannot
lock its user out when she logs in from another (her phone on the hall's
network, the organiser on a cup day). Guessing from many addresses gets
``PER_USER_AT_ADDRESS`` tries from each, and each address at most
``PER_ADDRESS`` in all; an IPv6 address counts as its /64 network
(``plumbing.clients``). A refused attempt checks nothing and records nothing. A
successful login clears its user name's attempts from its address. The app's
login page also says why it refuses.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.models import User
from django.contrib.auth.views import LoginView
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Model
from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import LoginAttempt, LoginLock, SignupAttempt
from plumbing import queries
from plumbing.clients import client_address as client_address
from plumbing.clients import counted_address

WINDOW = timedelta(minutes=15)
PER_USER_AT_ADDRESS = 5  # passwords checked for one user name from one address within the window
PER_ADDRESS = 20  # passwords checked from one address within the window
SIGNUP_PER_ADDRESS = 10  # sign-ups sent from one address within the window
CLEANUP_BATCH = 500  # old rows removed per checked attempt: bounded work per request
LIMITED = "login_limited"  # set on a request whose attempt the limit refused


def _username(value: Any) -> str:
    """The user name an attempt counts against: as typed, without surrounding
    spaces, in lower case (``Anna`` and ``anna`` share one limit)."""
    return str(value or "").strip().lower()[:150]  # lower case first: it may lengthen a name


def _lock(key: str, now: datetime) -> None:
    """Hold the lock row of ``key`` until the transaction ends, creating it if missing
    (an upsert: one step either way). An attempt takes its address's row before its
    user name's, and nothing takes them the other way round, so no two attempts
    ever wait for each other."""
    LoginLock.objects.bulk_create(
        [LoginLock(key=key, at=now)], update_conflicts=True, unique_fields=["key"], update_fields=["at"]
    )


def attempt_allowed(username: str, address: str | None) -> bool:
    """Record a password check for ``username`` from ``address`` if the limits allow
    one more; False (and nothing recorded) if either limit is reached."""
    now = timezone.now()
    recent = LoginAttempt.objects.filter(at__gt=now - WINDOW)
    with transaction.atomic():
        if address is not None:
            _lock(f"ip:{address}", now)
            if recent.filter(ip=address).count() >= PER_ADDRESS:
                return False  # refused before the user name gets a row: guessed names cost nothing
        _lock(f"user:{username}", now)
        if recent.filter(username=username, ip=address).count() >= PER_USER_AT_ADDRESS:
            return False
        LoginAttempt.objects.create(username=username, ip=address, at=now)
    _forget_old(now)
    return True


def signup_allowed(address: str | None) -> bool:
    """Record a sign-up sent from ``address`` if the limit allows one more; False
    (and nothing recorded) once ``SIGNUP_PER_ADDRESS`` were sent within the window.
    Counted like the login's attempts: under the address's lock row, before the
    form is checked, so sign-ups sent at the same moment cannot get past it."""
    now, address = timezone.now(), counted_address(address)
    with transaction.atomic():
        _lock(f"signup:{address}", now)
        if SignupAttempt.objects.filter(ip=address, at__gt=now - WINDOW).count() >= SIGNUP_PER_ADDRESS:
            return False
        SignupAttempt.objects.create(ip=address, at=now)
    _forget_old(now)
    return True


def attempts_clear(username: str, address: str | None) -> None:
    """A login succeeded: its user name's attempts from its address no longer count
    (those from elsewhere still do: a right password here is no excuse for them)."""
    with transaction.atomic():
        _lock(f"user:{username}", timezone.now())
        LoginAttempt.objects.filter(username=username, ip=address).delete()


def _forget_old(now: datetime) -> None:
    """Remove attempts and lock rows older than the window, a batch at a time. Rows
    another attempt holds are skipped (left for the next one), so this never waits."""
    cutoff = now - WINDOW
    model: type[Model]
    for model in (LoginAttempt, LoginLock, SignupAttempt):
        with transaction.atomic():
            old = model._default_manager.select_for_update(skip_locked=True).filter(at__lte=cutoff)
            ids = list(old.values_list("pk", flat=True)[:CLEANUP_BATCH])
            if ids:
                model._default_manager.filter(pk__in=ids).delete()


class RateLimitedBackend(ModelBackend):
    """Django's user and password check, made only for an attempt the limits allow."""

    def get_user(self, user_id: Any) -> Any:
        """The logged-in user of every request, as Django's backend reads it (an
        inactive user is nobody), in one statement written out once."""
        try:
            pk = User._meta.pk.to_python(user_id)
        except ValidationError:
            return None
        user = queries.user(pk)
        return user if user is not None and self.user_can_authenticate(user) else None

    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        if username is None or password is None:
            return None
        name, address = _username(username), counted_address(client_address(request))
        if not attempt_allowed(name, address):
            if request is not None:
                setattr(request, LIMITED, True)
            raise PermissionDenied  # no further backend is asked; the attempt counts as failed
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is not None:
            attempts_clear(name, address)
        return user


class RateLimitedLoginView(LoginView):
    """The login page: an attempt the limit refused gets 429 and a message instead
    of the usual "wrong password". It says how one gets an account (settings.SIGNUP)."""

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs), "signup": settings.SIGNUP}

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        if not getattr(self.request, LIMITED, False):
            return super().form_invalid(form)
        form.errors.clear()
        form.add_error(None, _("Too many failed attempts. Please wait a quarter of an hour and try again."))
        return self.render_to_response(self.get_context_data(form=form), status=429)
