"""Making an account, and joining a group through its invitation link."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import login
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from accounts import auth, services
from accounts.forms import SignupForm
from club.models import Invitation
from club.services import groups
from plumbing.requests import Request

BACKEND = "accounts.auth.RateLimitedBackend"
REFUSED = {
    "revoked": gettext_lazy("This invitation was revoked."),
    "expired": gettext_lazy("This invitation has expired."),
    "used": gettext_lazy("This invitation has been used already."),
}


def _invitation(token: str) -> tuple[Invitation, str | None]:
    """The invitation behind a link, and why it no longer lets anyone in (None: it does)."""
    try:
        invitation = groups.invitation_by_token(token)
    except groups.InvitationRefused:
        raise Http404("no such invitation") from None
    try:
        groups.invitation_check(invitation)
    except groups.InvitationRefused as refused:
        return invitation, refused.reason
    return invitation, None


@require_http_methods(["GET", "POST"])
def join(request: Request, token: str) -> HttpResponse:
    """An invitation: whoever is logged in joins with one tap; anyone else logs in or signs up."""
    invitation, refused = _invitation(token)
    member = request.user.is_authenticated and invitation.group.memberships.filter(user=request.user).exists()
    if member:
        return redirect("group_detail", gid=invitation.group_id)
    if request.method == "POST" and request.user.is_authenticated and refused is None:
        try:
            groups.invitation_accept(token=token, user=request.user)
        except groups.InvitationRefused as late:
            refused = late.reason
        else:
            return redirect("group_detail", gid=invitation.group_id)
    context = {
        "invitation": invitation,
        "refused": REFUSED.get(refused or ""),
        "signup": settings.SIGNUP != "off",
    }
    return render(request, "groups/join.html", context, status=410 if refused else 200)


@require_http_methods(["GET", "POST"])
def join_signup(request: Request, token: str) -> HttpResponse:
    """Sign up through an invitation link (unless sign-up is off): the new account joins the group."""
    _found, refused = _invitation(token)
    if settings.SIGNUP == "off" or refused is not None:
        return redirect("join", token=token)
    return _signup(request, token)


@require_http_methods(["GET", "POST"])
def signup(request: Request) -> HttpResponse:
    """The open sign-up page; with sign-up by invitation only (or off) it says so."""
    if settings.SIGNUP != "open":
        return render(request, "registration/signup.html", {"closed": True}, status=403)
    return _signup(request, "")


def _signup(request: Request, token: str) -> HttpResponse:
    form = SignupForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and not auth.signup_allowed(auth.client_address(request)):
        form.errors.clear()
        form.add_error(
            None, _("Too many sign-ups from here. Please wait a quarter of an hour and try again.")
        )
        return render(request, "registration/signup.html", {"form": form, "token": token}, status=429)
    if form.is_valid():
        try:
            user = services.account_create(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                invitation=token,
            )
        except groups.InvitationRefused:
            return redirect("join", token=token)
        login(request, user, backend=BACKEND)
        return (
            redirect("group_detail", gid=user.memberships.get().group_id)
            if token
            else redirect("session_list")
        )
    return render(request, "registration/signup.html", {"form": form, "token": token}, status=_status(form))


def _status(form: SignupForm) -> int:
    return 400 if form.errors else 200
