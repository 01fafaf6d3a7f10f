"""The ratings' pages: her own view (her choice, her links and circuit numbers, her rating, its
curve, best and worst events, the CSV of her history), and the ratings a
group's statistics and a cup's register show of those who share them."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from club.models import Group
from club.services.access import group_for
from plumbing.requests import Request, whole
from ratings.chart import rating_svg
from ratings.models import RegisterLink, RosterLink
from ratings.services import links, reading
from scoring.engine import InvalidInput
from scoring.public import render_line
from tournaments.models import Circuit, Cup
from tournaments.services import circuit as circuits
from tournaments.services.cups import cup_for


@login_required
@require_http_methods(["GET", "POST"])
def rating_mine(request: Request) -> HttpResponse:
    """Her rating: the switch, the links, and (turned on) the numbers."""
    if request.method == "POST":
        try:
            _act(request)
        except InvalidInput as error:
            messages.error(request, _refusal(error))
        return redirect("rating_mine")
    ratings = reading.my_ratings(request.user)
    context = {
        "setting": links.setting_of(request.user),
        "ratings": None if ratings is None else [(r, _chart(r)) for r in ratings],
        "roster_links": RosterLink.objects.filter(user=request.user).select_related("player", "group"),
        "register_links": RegisterLink.objects.filter(user=request.user, entry__isnull=False).select_related(
            "entry__cup"
        ),
        "circuit_links": links.circuit_links(request.user),
        "circuits": circuits.circuits_listed(),
        "candidates": links.roster_candidates(request.user),
        "removed": links.removed_links(request.user),
    }
    return render(request, "ratings/mine.html", context)


def _act(request: Request) -> None:
    action, user = request.POST.get("action"), request.user
    if action == "setting":
        links.setting_set(user=user, visible="visible" in request.POST, shared="shared" in request.POST)
        messages.success(request, _("Saved."))
    elif action == "link":
        links.roster_link(user=user, player_id=whole(request.POST.get("player")) or 0)
    elif action == "unlink":
        links.roster_unlink(user=user, link_id=whole(request.POST.get("link")) or 0)
    elif action == "read":
        links.removed_read(user=user, notice_id=whole(request.POST.get("notice")) or 0)
    elif action == "link_register":
        links.register_link(
            user=user,
            circuit_id=whole(request.POST.get("circuit")) or 0,
            number=whole(request.POST.get("number")) or 0,
            pin=(request.POST.get("pin") or "").strip(),
        )
        messages.success(request, _("Your circuit number is linked."))
    elif action == "unlink_register":
        links.register_unlink(user=user, link_id=whole(request.POST.get("link")) or 0)
    else:
        raise Http404("no such action")


FIELDS = {"circuit": gettext_lazy("Circuit"), "number": gettext_lazy("Number"), "pin": gettext_lazy("PIN")}


def _refusal(error: InvalidInput) -> str:
    """The refusal, naming the form's field where it has one ("PIN: …")."""
    what = render_line(error.line)
    field = FIELDS.get(error.field)
    return what if field is None else _("%(field)s: %(what)s") % {"field": field, "what": what}


def _chart(rating: reading.FamilyRating) -> SafeString:
    if rating.rating is None:
        return SafeString("")
    title = _("Rating over events: %(family)s") % {"family": rating.label}
    return SafeString(
        rating_svg([p.number for p in rating.points], [p.rating for p in rating.points], title)
    )  # escaped there


@login_required
@require_GET
def rating_csv(request: Request) -> HttpResponse:
    """Her history, one row per event of a family whose rating is shown."""
    if reading.my_ratings(request.user) is None:
        raise Http404("ratings not turned on")
    response = HttpResponse(reading.history_csv(request.user), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="rating.csv"'
    return response


@login_required
@require_GET
def group_ratings(request: Request, gid: int) -> HttpResponse:
    """The ratings of the group's players who share theirs: for its members."""
    try:
        group = group_for(request.user, gid)
    except Group.DoesNotExist:
        raise Http404("no such group") from None
    context = {"group": group, "rows": reading.group_ratings(group)}
    return render(request, "ratings/group.html", context)


@login_required
@require_GET
def cup_ratings(request: Request, cid: int) -> HttpResponse:
    """The ratings of the register's players who share theirs: for the cup's organisers."""
    try:
        cup = cup_for(request.user, cid)
    except Cup.DoesNotExist:
        raise Http404("no such cup") from None
    return render(request, "ratings/cup.html", {"cup": cup, "rows": reading.register_ratings(cup)})


@login_required
@require_GET
def circuit_ratings(request: Request, kid: int) -> HttpResponse:
    """The ratings of the circuit's numbers whose players share theirs: for the circuit's organisers."""
    try:
        circuit = circuits.circuit_for(request.user, kid)
    except Circuit.DoesNotExist:
        raise Http404("no such circuit") from None
    return render(
        request, "ratings/circuit.html", {"circuit": circuit, "rows": reading.circuit_ratings(circuit)}
    )
