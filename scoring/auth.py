"""Logging in, with failed attempts limited to slow down password guessing.

The limit sits in the authentication backend and the failures are counted from
Django's ``user_login_failed`` signal, so every way in (the app's login page,
the admin's) is limited alike. The app's login page also says why it refuses.
"""

from __future__ import annotations

import ipaddress
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import LoginFailure

WINDOW = timedelta(minutes=15)
PER_USERNAME = 5  # failed attempts for one user name within the window
PER_ADDRESS = 20  # failed attempts from one address within the window


def client_address(request: Any) -> str | None:
    """The address the request came from. Behind a reverse proxy (``BEHIND_PROXY``)
    that is the last entry of X-Forwarded-For, the one the proxy itself added."""
    if request is None:
        return None
    meta = request.META
    if getattr(settings, "BEHIND_PROXY", False):
        forwarded = [part.strip() for part in meta.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        if forwarded:
            return _valid_ip(forwarded[-1])
    return _valid_ip(meta.get("REMOTE_ADDR") or "")


def _valid_ip(text: str) -> str | None:
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return None


def _username(value: Any) -> str:
    return str(value or "").strip()[:150]


def too_many_failures(username: str, address: str | None) -> bool:
    since = timezone.now() - WINDOW
    recent = LoginFailure.objects.filter(at__gte=since)
    if recent.filter(username__iexact=username).count() >= PER_USERNAME:
        return True
    return address is not None and recent.filter(ip=address).count() >= PER_ADDRESS


def record_failure(sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any) -> None:
    """``user_login_failed`` receiver: remember the attempt, forget old ones."""
    LoginFailure.objects.create(username=_username(credentials.get("username")), ip=client_address(request))
    LoginFailure.objects.filter(at__lt=timezone.now() - WINDOW).delete()


class RateLimitedBackend(ModelBackend):
    """Django's user and password check, refusing every attempt for a user name
    or from an address that failed too often within the window."""

    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        if username is not None and too_many_failures(_username(username), client_address(request)):
            raise PermissionDenied  # no further backend is asked; the attempt counts as failed
        return super().authenticate(request, username=username, password=password, **kwargs)


class RateLimitedLoginView(LoginView):
    """The login page: after too many recent failures it answers 429 with a
    message instead of the usual "wrong password"."""

    def post(self, request: Any, *args: Any, **kwargs: Any) -> HttpResponse:
        if too_many_failures(_username(request.POST.get("username")), client_address(request)):
            form = self.get_form()
            form.errors.clear()
            form.add_error(
                None, _("Too many failed attempts. Please wait a quarter of an hour and try again.")
            )
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        LoginFailure.objects.filter(username__iexact=form.get_user().get_username()).delete()
        return super().form_valid(form)
