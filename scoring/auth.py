"""Logging in, with failed attempts limited to slow down password guessing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import LoginFailure

WINDOW = timedelta(minutes=15)
PER_USERNAME = 5  # failed attempts for one user name within the window
PER_ADDRESS = 20  # failed attempts from one address within the window


def _address(request: Any) -> str | None:
    return request.META.get("REMOTE_ADDR") or None


def too_many_failures(username: str, address: str | None) -> bool:
    since = timezone.now() - WINDOW
    recent = LoginFailure.objects.filter(at__gte=since)
    if recent.filter(username__iexact=username).count() >= PER_USERNAME:
        return True
    return address is not None and recent.filter(ip=address).count() >= PER_ADDRESS


class RateLimitedLoginView(LoginView):
    """Django's login, refusing (429) after too many recent failures for a user
    name or from an address; a successful login clears that user's failures."""

    def post(self, request: Any, *args: Any, **kwargs: Any) -> HttpResponse:
        username = (request.POST.get("username") or "").strip()[:150]
        if too_many_failures(username, _address(request)):
            form = self.get_form()
            form.errors.clear()
            form.add_error(
                None, _("Too many failed attempts. Please wait a quarter of an hour and try again.")
            )
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        username = (self.request.POST.get("username") or "").strip()[:150]
        LoginFailure.objects.create(username=username, ip=_address(self.request))
        LoginFailure.objects.filter(at__lt=timezone.now() - WINDOW).delete()
        return super().form_invalid(form)

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        LoginFailure.objects.filter(username__iexact=form.get_user().get_username()).delete()
        return super().form_valid(form)
