"""The regular table: groups, members and invitations, the group's evenings,
statistics across evenings, and the Kasse."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from club import exports
from club.forms import (
    CURRENCIES,
    GroupForm,
    GroupSettingsForm,
    InvitationForm,
    PaymentForm,
    SeasonForm,
    refuse,
)
from club.models import Booking, Group, GroupPlayer, Invitation
from club.services import groups, kasse, stats
from club.services.access import group_and_role as member_group_and_role
from club.services.access import group_for
from club.services.links import group_id_of
from plumbing import pages
from plumbing.qr import qr_svg
from plumbing.requests import Request, posted_token, whole
from scoring import services
from scoring.engine import InvalidInput, Variant
from scoring.games import registry
from scoring.models import Session, variant_choices
from scoring.public import SchemaForm, SessionForm, render_line
from scoring.services import Right


def own_group(request: Request, gid: int, *, owner_only: bool = False) -> Group:
    """The group if the user is a member (its owner, with ``owner_only``); a 404 otherwise."""
    try:
        return group_for(request.user, gid, owner_only=owner_only)
    except Group.DoesNotExist:
        raise Http404("no such group") from None


def group_and_role(request: Request, gid: int) -> tuple[Group, bool]:
    """The group if the user is a member, and whether they own it; a 404 otherwise."""
    try:
        return member_group_and_role(request.user, gid)
    except Group.DoesNotExist:
        raise Http404("no such group") from None


def _posted(request: Request) -> QueryDict | None:
    return request.POST if request.method == "POST" else None


def _status(*forms: Any) -> int:
    return 400 if any(form.errors for form in forms) else 200


@login_required
@require_http_methods(["GET", "POST"])
def group_list(request: Request) -> HttpResponse:
    """The user's groups, and a new one."""
    form = GroupForm(_posted(request))
    if form.is_valid():
        try:
            group = groups.group_create(owner=request.user, **form.cleaned_data)
        except InvalidInput as error:
            refuse(form, error)
        else:
            return redirect("group_detail", gid=group.pk)
    context = {"groups": groups.groups_of(request.user), "form": form}
    return render(request, "groups/list.html", context, status=_status(form))


@login_required
@require_GET
def group_detail(request: Request, gid: int) -> HttpResponse:
    overview = groups.group_overview(own_group(request, gid), request.user)
    return render(request, "groups/detail.html", {"overview": overview, "group": overview.group})


@login_required
@require_POST
def group_roster(request: Request, gid: int) -> HttpResponse:
    """A member adds a player to the roster; the owner links a player to a member's
    account, hides a player or shows them again, and merges a player into another."""
    group = own_group(request, gid)
    action = request.POST.get("action")
    try:
        if action in ("link", "hide", "unhide", "merge"):
            _roster_change(request, own_group(request, gid, owner_only=True), action)
        else:
            groups.roster_add(group=group, name=request.POST.get("name", ""))
    except InvalidInput as error:
        messages.error(request, f"{error.field}: {render_line(error.line)}")
    return redirect("group_detail", gid=gid)


def _roster_change(request: Request, group: Group, action: str) -> None:
    """What the owner changes on the roster (``InvalidInput`` when refused)."""
    if action == "merge":
        into = groups.roster_merge(
            group=group,
            player_id=whole(request.POST.get("player")) or 0,
            into_id=whole(request.POST.get("into")) or 0,
            user=request.user,
        )
        messages.success(request, _("The players are merged into %(name)s.") % {"name": into.name})
        return
    player = _roster_player(group, request.POST.get("player"))
    if action == "link":
        groups.roster_link(player=player, user_id=whole(request.POST.get("user")))
    else:
        groups.roster_hide(player=player, user=request.user, hidden=action == "hide")


def _roster_player(group: Group, raw: str | None) -> GroupPlayer:
    try:
        return groups.player_of(group, whole(raw) or 0)
    except GroupPlayer.DoesNotExist:
        raise Http404("no such player") from None


@login_required
@require_POST
def group_members(request: Request, gid: int) -> HttpResponse:
    """The owner takes a member out of the group."""
    group = own_group(request, gid, owner_only=True)
    user_id = whole(request.POST.get("user"))
    if user_id is not None:
        groups.member_remove(group=group, user_id=user_id)
    return redirect("group_detail", gid=gid)


@login_required
@require_http_methods(["GET", "POST"])
def group_settings(request: Request, gid: int) -> HttpResponse:
    """The owner names the group, its money rate and the minimum for the ranking by average."""
    group = own_group(request, gid, owner_only=True)
    initial = {
        "name": group.name,
        "money_rate": group.money_rate,
        "min_hands": group.min_hands,
        "currency": group.currency,
    }
    form = GroupSettingsForm(_posted(request), initial=initial)
    if form.is_valid():
        try:
            groups.group_update(group=group, **form.cleaned_data)
        except InvalidInput as error:
            refuse(form, error)
        else:
            messages.success(request, _("The group's settings are saved."))
            return redirect("group_detail", gid=gid)
    context = {"group": group, "form": form, "games": variant_choices(), "currencies": CURRENCIES}
    return render(request, "groups/settings.html", context, status=_status(form))


def _game(variant: str) -> Variant:
    if variant not in registry():
        raise Http404("no such game")
    return registry()[variant]


def _preset(group: Group, game: Variant) -> dict[str, Any]:
    """The group's house rules for a game, the rulebook's defaults where it has none."""
    return {**services.form_defaults(game), **group.presets.get(game.key, {})}


@login_required
@require_http_methods(["GET", "POST"])
def group_rules(request: Request, gid: int, variant: str) -> HttpResponse:
    """The owner keeps the group's house rules for a game; its new evenings start from them."""
    group, game = own_group(request, gid, owner_only=True), _game(variant)
    options = SchemaForm(
        game.option_fields, (), prefix="options.", data=_posted(request), initial=_preset(group, game)
    )
    if request.method == "POST" and request.POST.get("action") != "refresh":
        try:
            groups.group_preset(group=group, variant=variant, options=options.raw)
        except InvalidInput as error:
            options.add_error(error)
        else:
            messages.success(request, _("The house rules are saved."))
            return redirect("group_settings", gid=gid)
    context = {"group": group, "game": game, "options": options, "option_widgets": options.widgets()}
    return render(request, "groups/rules.html", context, status=400 if options.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def group_invitations(request: Request, gid: int) -> HttpResponse:
    """The owner makes invitation links (shown with a QR code) and revokes them."""
    group = own_group(request, gid, owner_only=True)
    form = InvitationForm(_posted(request) if request.POST.get("action") == "invite" else None)
    if request.POST.get("action") == "revoke":
        found = Invitation.objects.filter(group=group, pk=whole(request.POST.get("invitation")) or 0).first()
        if found is not None:
            groups.invitation_revoke(invitation=found)
        return redirect("group_invitations", gid=gid)
    if form.is_valid():
        groups.invitation_create(group=group, user=request.user, **form.cleaned_data)
        return redirect("group_invitations", gid=gid)
    links = [
        (invitation, _invitation_link(request, invitation)) for invitation in group.invitations.all()[:20]
    ]
    context = {"group": group, "form": form, "links": links}
    return render(request, "groups/invitations.html", context, status=_status(form))


def _invitation_link(request: Request, invitation: Invitation) -> dict[str, Any] | None:
    if not invitation.open:
        return None
    url = request.build_absolute_uri(reverse("join", args=[invitation.token]))
    return {"url": url, "qr": qr_svg(url, label=_("QR code of the invitation link"))}


# -- evenings ------------------------------------------------------------------------------


@login_required
@require_GET
def group_evening_game(request: Request, gid: int) -> HttpResponse:
    group = own_group(request, gid)
    return render(request, "groups/evening_game.html", {"group": group, "games": variant_choices()})


def _evening_forms(request: Request, group: Group, game: Variant) -> tuple[SessionForm, SchemaForm]:
    """A new evening's name, seats (last time's players, in their order) and money
    rate, and its house rules (the group's)."""
    seating = groups.last_seating(group, game.key)
    initial: dict[str, Any] = {"name": f"{group.name}, {date_format(timezone.localdate())}"}
    initial.update({f"seat_{n}": name for n, name in enumerate(seating, 1)}, money_rate=group.money_rate)
    data = _posted(request)
    form = SessionForm(data, seats=max(game.table_sizes), initial=initial)
    return form, SchemaForm(
        game.option_fields, (), prefix="options.", data=data, initial=_preset(group, game)
    )


@login_required
@require_http_methods(["GET", "POST"])
def group_evening_new(request: Request, gid: int, variant: str) -> HttpResponse:
    """Start an evening of the group: players from the roster (new names join it)."""
    group, game = own_group(request, gid), _game(variant)
    form, options = _evening_forms(request, group, game)
    if request.method == "POST" and request.POST.get("action") != "refresh" and form.is_valid():
        session = _start_evening(request, group, game, form, options)
        if session is not None:
            return redirect("scoreboard", pk=session.pk)
    context = {
        "game": game,
        "form": form,
        "options": options,
        "option_widgets": options.widgets(),
        "group": group,
    }
    context["known_players"] = [player.name for player in groups.roster_current(group)]
    return render(request, "scoring/session_new.html", context)


def _start_evening(
    request: Request, group: Group, game: Variant, form: SessionForm, options: SchemaForm
) -> Session | None:
    """The new evening, or None with the refusal shown beside its input."""
    try:
        return groups.group_session_create(
            group=group,
            owner=request.user,
            name=form.cleaned_data["name"],
            variant=game.key,
            players=form.players(),
            options=options.raw,
            money_rate=form.cleaned_data["money_rate"],
            first_dealer=form.first_dealer(),
        )
    except InvalidInput as error:
        if error.field.startswith("options."):
            options.add_error(error)
        else:
            refuse(form, error)
        return None


def _evening(request: Request, raw: Any, *, need: Right, group: Group | None = None) -> Session:
    """A session on which the user has at least the right ``need`` (the one rule,
    ``services.access``), of ``group`` if given; a deleted one is on no page but the bin."""
    try:
        session = services.session_for(request.user, whole(str(raw)) or 0, need=need)
    except Session.DoesNotExist:
        raise Http404("no such evening") from None
    if group is not None and group_id_of(session) != group.pk:
        raise Http404("no such evening in this group")
    return session


@login_required
@require_POST
def group_evening_add(request: Request, gid: int) -> HttpResponse:
    """Bring one of the user's own sessions, played before, into the group."""
    group = own_group(request, gid)
    session = _evening(request, request.POST.get("session"), need=Right.OWN)
    if group_id_of(session) is not None:
        raise Http404("the session counts for a group already")
    try:
        groups.group_session_add(group=group, session=session, user=request.user)
    except InvalidInput as error:
        messages.error(request, render_line(error.line))
    else:
        messages.success(request, _("The session counts for the group now."))
    return redirect("group_detail", gid=gid)


@login_required
@require_POST
def group_evening_close(request: Request, gid: int, pk: int) -> HttpResponse:
    """Close an evening of the group: with a money rate it is booked into the Kasse."""
    group = own_group(request, gid)  # a member: members close the group's evenings
    session = _evening(request, pk, need=Right.RECORD, group=group)
    services.session_close(session=session, user=request.user, client_token=posted_token(request))
    messages.success(request, _("The evening is closed."))
    return redirect("group_detail", gid=gid)


@login_required
@require_POST
def group_evening_reopen(request: Request, gid: int, pk: int) -> HttpResponse:
    """Open a closed evening again (the group's owner): its booking is reversed."""
    group = own_group(request, gid)
    session = _evening(request, pk, need=Right.OWN, group=group)
    services.session_reopen(session=session, user=request.user, client_token=posted_token(request))
    return redirect("group_detail", gid=gid)


# -- statistics ----------------------------------------------------------------------------

STATISTICS_CACHE_SECONDS = 24 * 60 * 60


def statistics_html(group: Group, key: str, render: Callable[[], str]) -> SafeString:
    """A statistics fragment, rendered once per version of the group's statistics
    (every change they show gives the group a new version) and per language. The
    group's creation time keeps two databases' groups of the same id apart."""
    cache_key = (
        f"group-stats:{group.pk}:{group.created_at.timestamp()}:{group.version}:{key}:{get_language()}"
    )
    html = cache.get(cache_key)
    if html is None:
        html = render()
        cache.set(cache_key, html, STATISTICS_CACHE_SECONDS)
    return SafeString(html)  # rendered by our own template, escaped there


def _player(request: Request, gid: int, pid: int) -> GroupPlayer:
    return _roster_player(own_group(request, gid), str(pid))


def _player_stats(player: GroupPlayer) -> stats.PlayerStats:
    return stats.player_stats(player)


@login_required
@require_GET
def group_player(request: Request, gid: int, pid: int) -> HttpResponse:
    """A player's statistics across the group's evenings."""
    player = _player(request, gid, pid)

    def fragment() -> str:
        return render_to_string("groups/_player_stats.html", {"stats": _player_stats(player)}, request)

    context = {
        "group": player.group,
        "player": player,
        "content": lambda: statistics_html(player.group, f"player:{player.pk}", fragment),  # read if drawn
    }
    return pages.render_kept(
        request, "groups/player.html", context, _page_key(player.group, False, player.name)
    )


@login_required
@require_GET
def group_player_pdf(request: Request, gid: int, pid: int) -> HttpResponse:
    """A player's statement: statistics, evenings and Kasse account, as a PDF."""
    player = _player(request, gid, pid)
    return _download(exports.statement_pdf(_player_stats(player), kasse.statement_of(player)))


def _download(export: Any) -> HttpResponse:
    response = HttpResponse(export.data, content_type=export.content_type)
    response["Content-Disposition"] = f'attachment; filename="{export.filename}"'
    return response


def _season(request: Request, gid: int, season: str | None) -> tuple[Group, stats.SeasonRange]:
    group = own_group(request, gid)
    return group, _season_range(group, season)


def _season_range(group: Group, season: str | None) -> stats.SeasonRange:
    try:
        return stats.season_range(group, season)
    except LookupError:
        raise Http404("no such season") from None


@login_required
@require_GET
def season_table(request: Request, gid: int, season: str | None = None) -> HttpResponse:
    """The group table of a season: this calendar year unless another is asked for."""
    group, owner = group_and_role(request, gid)
    chosen = _season_range(group, season)

    def fragment() -> str:
        context = {"table": stats.season_table(group, chosen), "seasons": stats.season_choices(group)}
        return render_to_string("groups/_season.html", context, request)

    context = {
        "group": group,
        "season": chosen,
        "content": lambda: statistics_html(group, f"season:{chosen.key}", fragment),  # read if drawn
        "form": SeasonForm() if owner else None,
    }
    return pages.render_kept(request, "groups/season.html", context, _page_key(group, owner, chosen.name))


def _page_key(group: Group, owner: bool, *names: str) -> tuple[object, ...]:
    """What a kept page of the group's statistics shows that may change: the
    statistics' version, the group's name, the viewer's role and the page's own names."""
    return (group.pk, group.created_at.timestamp(), group.version, group.name, owner, *names)


@login_required
@require_GET
def season_pdf(request: Request, gid: int, season: str) -> HttpResponse:
    group, chosen = _season(request, gid, season)
    return _download(exports.season_pdf(stats.season_table(group, chosen)))


@login_required
@require_POST
def season_new(request: Request, gid: int) -> HttpResponse:
    """The owner names a season with its first and last day."""
    group = own_group(request, gid, owner_only=True)
    form = SeasonForm(request.POST)
    if form.is_valid():
        try:
            season = groups.season_create(group=group, **form.cleaned_data)
        except InvalidInput as error:
            refuse(form, error)
        else:
            return redirect("season_table", gid=gid, season=f"s{season.pk}")
    return render(request, "groups/season_new.html", {"group": group, "form": form}, status=400)


# -- the Kasse -----------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def group_kasse(request: Request, gid: int) -> HttpResponse:
    """Open balances, the fewest transfers that clear them, the bookings; a payment."""
    group = own_group(request, gid)
    ledger = kasse.kasse_of(group)
    form = PaymentForm(_posted(request), roster=_payable(ledger))
    token = posted_token(request)
    if form.is_valid():
        try:
            kasse.payment_record(group=group, user=request.user, client_token=token, **form.payment())
        except InvalidInput as error:
            refuse(form, error)
        else:
            return redirect("group_kasse", gid=gid)
    context = {
        "group": group,
        "form": form,
        "kasse": ledger,
        "bookings": kasse.bookings_of(group),
        "token": token,  # a refused payment keeps its token: corrected, it is the same payment
    }
    return render(request, "groups/kasse.html", context, status=_status(form))


@login_required
@require_GET
def kasse_csv(request: Request, gid: int) -> HttpResponse:
    """Every booking of the Kasse as a CSV for a spreadsheet (``?format=semicolon|comma``)."""
    group = own_group(request, gid)
    return _download(exports.kasse_csv(group, csv_format=request.GET.get("format")))


def _payable(ledger: kasse.Kasse) -> list[GroupPlayer]:
    """Who a payment is booked for: the roster, a hidden player only while their balance is open."""
    return [
        balance.player
        for balance in ledger.balances
        if balance.player is not None and (balance.player.hidden_at is None or balance.amount)
    ]


@login_required
@require_POST
def kasse_reverse(request: Request, gid: int, bid: int) -> HttpResponse:
    """Cancel a payment by a counter-booking (nothing is ever changed in place)."""
    group = own_group(request, gid)
    booking = Booking.objects.filter(group=group, pk=bid).first()
    if booking is None:
        raise Http404("no such booking")
    try:
        kasse.booking_reverse(
            booking=booking,
            user=request.user,
            note=request.POST.get("note", ""),
            client_token=posted_token(request),
        )
    except kasse.KasseRefused as refused:
        messages.error(request, _(refused.reason))
    except InvalidInput as error:
        messages.error(request, f"{error.field}: {render_line(error.line)}")
    return redirect("group_kasse", gid=gid)
