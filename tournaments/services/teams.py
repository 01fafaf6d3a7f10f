"""Teams (``TOURNAMENTS.md`` §14.6): ``pairs``, ``fours`` or ``clubs`` named with
their members before round 1; the team ranking from the standings, with its
prizes (§4.5), on the board, the hall screen and a PDF.

- The organisers set the kind (with ``team_best`` for ``clubs``) and the team
  prizes, and add, change and remove teams; each change is kept in the audit,
  a form sent twice is stored once (its one-time token, or the same content),
  and the kind and the teams are fixed once round 1 is released.
- The draw keeps ``pairs`` and ``fours`` team-mates apart (``mates``, read by
  ``services.plan``).
- The ranking is the pure rules' (``core.circuit.team_ranking``), read from the
  standings as stored for the results version (``results.standings``) and the
  teams in one statement; a change to the teams is a new results version, so
  the board and the hall draw it again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext_noop

from scoring.engine.types import invalid
from tournaments.core import circuit as rules
from tournaments.core.names import name_key
from tournaments.models import Entrant, Round, Team, TeamKind, TeamMember, Tournament, TournamentChange
from tournaments.services import cups, results, side
from tournaments.services.tournaments import audit, done_already, locked

NAME_LENGTH = 60
MOST_BEST = 20  # ``clubs``: at most this many best members counted


# -- what a tournament has -------------------------------------------------------------------


@dataclass(frozen=True)
class TeamLine:
    """A team as the organiser's page lists it: its members' start numbers and names."""

    pk: int
    name: str
    members: tuple[tuple[int, str], ...]


def teams_of(tournament: Tournament) -> list[TeamLine]:
    """The tournament's teams in the order they were made, members by start
    number: one statement."""
    rows = (
        TeamMember.objects.filter(team__tournament=tournament)
        .order_by("team_id", "entrant__number")
        .values_list("team_id", "team__name", "entrant__number", "entrant__name")
    )
    found: dict[int, tuple[str, list[tuple[int, str]]]] = {}
    for pk, name, number, entrant in rows:
        found.setdefault(pk, (name, []))[1].append((number, entrant))
    return [TeamLine(pk, name, tuple(members)) for pk, (name, members) in found.items()]


def _core(lines: Sequence[TeamLine]) -> list[rules.Team]:
    return [rules.Team(line.name, tuple(number for number, _name in line.members)) for line in lines]


def mates(tournament: Tournament) -> list[tuple[int, int]]:
    """The pairs of start numbers the draw keeps apart (``pairs``, ``fours``; none else)."""
    if tournament.teams not in rules.TEAM_SIZES:
        return []
    return rules.team_mates(_core(teams_of(tournament)), tournament.teams)


def named_before_round_1(tournament: Tournament) -> bool:
    """Whether teams may still be named and changed: round 1 not released yet."""
    return not Round.objects.filter(
        tournament=tournament, number=1, status__in=(Round.Status.RELEASED, Round.Status.COMPLETE)
    ).exists()


def _refuse_released(tournament: Tournament) -> None:
    if not named_before_round_1(tournament):
        raise invalid("teams", gettext_noop("teams are named before round 1: round 1 is released"))


# -- the organisers' changes ---------------------------------------------------------------


@transaction.atomic
def team_settings_set(
    *,
    tournament: Tournament,
    user: User,
    kind: str,
    team_best: int = rules.TEAM_BEST,
    prizes: Sequence[str] = (),
    client_token: str = "",
) -> Tournament:
    """The kind of teams (``none``, ``pairs``, ``fours``, ``clubs``), the best
    members a ``clubs`` team counts, and the team prizes by place. The kind and
    ``team_best`` are fixed once round 1 is released (the prizes are not); a kind
    the teams already named do not fit is refused naming it. The same settings
    again change nothing. Kept in the audit."""
    row = locked(tournament)
    if done_already(row, client_token):
        return row
    if kind not in rules.TEAM_KINDS:
        raise invalid("kind", gettext_noop("one of: {allowed}"), allowed=", ".join(rules.TEAM_KINDS))
    if not isinstance(team_best, int) or not 1 <= team_best <= MOST_BEST:
        raise invalid("team_best", gettext_noop("a whole number from 1 to {n}"), n=MOST_BEST)
    after = {"teams": kind, "team_best": team_best, "team_prizes": side.prize_texts(prizes)}
    before = {"teams": row.teams, "team_best": row.team_best, "team_prizes": list(row.team_prizes)}
    if after == before:
        return row
    if (kind, team_best) != (row.teams, row.team_best):
        _refuse_released(row)
        _check(_core(teams_of(row)), kind, row)
    Tournament.objects.filter(pk=row.pk).update(**after)
    for field, value in after.items():
        setattr(row, field, value)
        setattr(tournament, field, value)
    audit(row, TournamentChange.Action.SETTINGS, user, before=before, after=after, client_token=client_token)
    results.bump(row)
    tournament.refresh_from_db(fields=["version", "results_version"])
    return row


def _check(teams: Sequence[rules.Team], kind: str, tournament: Tournament) -> None:
    """The teams as §14.6 allows them for ``kind``, each refusal naming its field."""
    if kind == TeamKind.NONE and teams:
        raise invalid("kind", gettext_noop("remove the teams first: a tournament without teams has none"))
    size = rules.TEAM_SIZES.get(kind)
    for team in teams:
        if size is not None and len(team.members) != size:
            raise invalid(
                "members",
                gettext_noop("team {team}: a team of this kind has {n} members"),
                team=team.name,
                n=size,
            )
    players = Entrant.objects.filter(tournament=tournament, kind=Entrant.Kind.PLAYER)
    try:  # what the rules refuse besides (a second team of a name, a member twice, …)
        rules.check_teams(teams, kind, players.values_list("number", flat=True))
    except ValueError as error:
        raise invalid("members", gettext_noop("not allowed: {problem}"), problem=str(error)) from None


def _described(team: rules.Team) -> dict[str, Any]:
    return {"team": team.name, "members": list(team.members)}


@transaction.atomic
def team_save(
    *,
    tournament: Tournament,
    user: User,
    name: str,
    members: Sequence[int],
    team_id: int | None = None,
    client_token: str = "",
) -> Team:
    """A new team (``team_id`` none) or a team renamed or given other members:
    ``members`` are start numbers of players of the tournament, none in another
    team; a ``pairs`` team has 2, a ``fours`` team 4, a ``clubs`` team any number.
    At most ``MAX_TEAMS``, only before round 1 is released. The same team sent
    twice is stored once. Kept in the audit; the ranking follows."""
    row = locked(tournament)
    found = done_already(row, client_token)
    if found is not None and found.after:
        done = Team.objects.filter(tournament=row, name=found.after.get("team", "")).first()
        if done is not None:
            return done
    _refuse_released(row)
    if row.teams == TeamKind.NONE:
        raise invalid("kind", gettext_noop("choose pairs, fours or clubs first"))
    name = cups.name_text("name", name, NAME_LENGTH)
    numbers = tuple(sorted(set(members)))
    if not numbers:
        raise invalid("members", gettext_noop("pick the team's members from the entrants"))
    lines = teams_of(row)
    mine = next((line for line in lines if line.pk == team_id), None)
    if team_id is not None and mine is None:
        raise invalid("team", gettext_noop("no such team: it was removed"))
    players = set(
        Entrant.objects.filter(tournament=row, kind=Entrant.Kind.PLAYER).values_list("number", flat=True)
    )
    if unknown := [str(number) for number in numbers if number not in players]:
        raise invalid(
            "members",
            gettext_noop("start numbers of players of this tournament (not {numbers})"),
            numbers=", ".join(unknown),
        )
    wanted = rules.Team(name, numbers)
    if mine is None:
        same = next((line for line in lines if name_key(line.name) == name_key(name)), None)
        if same is not None and _core([same])[0] == wanted:
            return Team.objects.get(pk=same.pk)  # sent twice: stored once
        if len(lines) >= rules.MAX_TEAMS:
            raise invalid("name", gettext_noop("at most {n} teams"), n=rules.MAX_TEAMS)
    elif _core([mine])[0] == wanted:
        return Team.objects.get(pk=mine.pk)
    others = [line for line in lines if line is not mine]
    for line in others:
        if name_key(line.name) == name_key(name):
            raise invalid("name", gettext_noop("a team of this name is there already"))
        taken = [entrant for number, entrant in line.members if number in numbers]
        if taken:
            raise invalid(
                "members",
                gettext_noop("{names} plays for {team} already"),
                names=", ".join(taken),
                team=line.name,
            )
    _check([*_core(others), wanted], row.teams, row)
    if mine is None:
        team = Team.objects.create(tournament=row, name=name)
        before = None
    else:
        team = Team.objects.get(pk=mine.pk)
        before = _described(_core([mine])[0])
        team.name = name
        team.save(update_fields=["name"])
        TeamMember.objects.filter(team=team).delete()
    entrants = Entrant.objects.filter(tournament=row, number__in=numbers)
    TeamMember.objects.bulk_create(TeamMember(team=team, entrant=entrant) for entrant in entrants)
    audit(
        row,
        TournamentChange.Action.SETTINGS,
        user,
        before=before,
        after=_described(wanted),
        client_token=client_token,
    )
    results.bump(row)
    return team


@transaction.atomic
def team_remove(*, tournament: Tournament, user: User, team_id: int) -> bool:
    """The team goes, its members stay entrants; one already gone is no error
    (sent twice, removed once): ``False`` then. Only before round 1 is released."""
    row = locked(tournament)
    line = next((line for line in teams_of(row) if line.pk == team_id), None)
    if line is None:
        return False
    _refuse_released(row)
    Team.objects.filter(pk=team_id, tournament=row).delete()
    audit(row, TournamentChange.Action.SETTINGS, user, before=_described(_core([line])[0]), after=None)
    results.bump(row)
    return True


# -- the team ranking ------------------------------------------------------------------------


@dataclass(frozen=True)
class TeamMemberRow:
    number: int
    name: str
    total: Fraction
    counted: bool  # ``clubs``: among the best ``team_best``


@dataclass(frozen=True)
class TeamRow:
    place: int
    name: str
    total: Fraction
    members: tuple[TeamMemberRow, ...]  # best first
    lots: bool  # the lot decided a tie (§4.2)
    prize: str = ""


@dataclass(frozen=True)
class TeamTable:
    kind: str
    team_best: int
    rows: tuple[TeamRow, ...]
    prizes: tuple[str, ...]


def team_table(tournament: Tournament, table: results.Standings | None = None) -> TeamTable | None:
    """The team ranking (§14.6) from the standings as stored for this results
    version, with the team prizes by place; ``None`` without teams. Two
    statements (the standings kept, and the teams) however many teams. A team a
    member left (struck before the draw) is left out until it is whole again."""
    if tournament.teams == TeamKind.NONE:
        return None
    table = table if table is not None else results.standings(tournament)
    rows = {row.number: row for row in table.rows if not row.filler}
    size = rules.TEAM_SIZES.get(tournament.teams)
    teams = [
        team
        for team in _core(teams_of(tournament))
        if all(member in rows for member in team.members) and (size is None or len(team.members) == size)
    ]
    totals = {number: row.total for number, row in rows.items()}
    placed = rules.team_ranking(
        teams, totals, tournament.teams, seed=tournament.seed, team_best=tournament.team_best
    )
    prizes = tuple(tournament.team_prizes or ())
    found = []
    for index, place in enumerate(placed):
        members = sorted(place.team.members, key=lambda n: (-totals[n], rows[n].place or 0))
        found.append(
            TeamRow(
                place.place,
                place.team.name,
                place.total,
                tuple(TeamMemberRow(n, rows[n].name, totals[n], n in place.counted) for n in members),
                place.lots,
                prizes[index] if index < len(prizes) else "",
            )
        )
    return TeamTable(tournament.teams, tournament.team_best, tuple(found), prizes)
