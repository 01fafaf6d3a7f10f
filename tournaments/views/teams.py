"""Teams (``TOURNAMENTS.md`` §14.6): the organisers' page to choose the kind,
name the teams with their members picked from the entrants, and set the team
prizes; the team ranking as it stands below."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from plumbing.requests import Request, posted_token, whole
from scoring.engine import InvalidInput
from tournaments.forms import TeamForm, TeamSettingsForm
from tournaments.models import Entrant, Tournament
from tournaments.services import teams
from tournaments.views.organiser import own_tournament, refuse, refused, unknown_action


@login_required
@require_http_methods(["GET", "POST"])
def tournament_teams(request: Request, tid: int) -> HttpResponse:
    """The teams: the kind and the prizes, each team with its members, a new team
    (or one changed: ``?team=<id>``), and the team ranking."""
    t = own_tournament(request, tid)
    lines = teams.teams_of(t)
    editing = next((line for line in lines if line.pk == whole(request.GET.get("team"))), None)
    action = request.POST.get("action", "") if request.method == "POST" else ""
    settings = TeamSettingsForm(
        request.POST if action == "settings" else None,
        initial={"kind": t.teams, "team_best": t.team_best, "prizes": "\n".join(t.team_prizes or ())},
    )
    form, offered = _team_form(request, t, lines, editing, action)
    if action and _posted(request, t, action, settings, form):
        return redirect("tournament_teams", tid=t.pk)
    context = {"tournament": t, "here": "teams", "settings": settings, "form": form, "lines": lines}
    context |= {"editing": editing, "offered": offered, "open": teams.named_before_round_1(t)}
    context["drawn"] = t.status != Tournament.Status.REGISTRATION
    context |= {"table": teams.team_table(t), "client_token": posted_token(request)}
    bad = settings.errors or form.errors
    return render(request, "tournaments/organiser/teams.html", context, status=400 if bad else 200)


def _team_form(
    request: Request, t: Tournament, lines: list[teams.TeamLine], editing: teams.TeamLine | None, action: str
) -> tuple[TeamForm, set[int]]:
    """The form of a new team (or of ``editing``), and the start numbers it offers:
    those in no other team. Every player is a valid choice (a form sent twice
    names members taken by then: the service knows it was stored)."""
    taken = {number for line in lines if line is not editing for number, _name in line.members}
    players = Entrant.objects.filter(tournament=t, kind=Entrant.Kind.PLAYER).order_by("number")
    offered = {e.number for e in players if e.number not in taken}
    initial = {"name": editing.name, "members": [n for n, _name in editing.members]} if editing else {}
    choices = [(e.number, e.name) for e in players]
    form = TeamForm(request.POST if action == "save" else None, entrants=choices, initial=initial)
    return form, offered


def _posted(request: Request, t: Tournament, action: str, settings: TeamSettingsForm, form: TeamForm) -> bool:
    """One action of the teams page; ``True`` when done (or a refusal shown at the top)."""
    user, token = request.user, posted_token(request)
    try:
        if action == "settings":
            if not settings.is_valid():
                return False
            data = settings.cleaned_data
            teams.team_settings_set(
                tournament=t,
                user=user,
                kind=data["kind"],
                team_best=data["team_best"],
                prizes=data["prizes"],
                client_token=token,
            )
        elif action == "save":
            if not form.is_valid():
                return False
            teams.team_save(
                tournament=t,
                user=user,
                name=form.cleaned_data["name"],
                members=form.cleaned_data["members"],
                team_id=whole(request.POST.get("team")),
                client_token=token,
            )
        elif action == "remove":
            teams.team_remove(tournament=t, user=user, team_id=whole(request.POST.get("team")) or 0)
        else:
            raise unknown_action()
    except InvalidInput as error:
        if action == "settings":
            refuse(settings, error)
            return False
        if action == "save":
            refuse(form, error)
            return False
        refused(request, error)
    return True
