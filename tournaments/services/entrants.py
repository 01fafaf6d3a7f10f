"""Who plays: entrants typed in or picked from the group's roster, fillers, late
entries, withdrawals and the fee (``TOURNAMENTS.md`` §1.2).

Each entrant sits at his tables as the owner's ``scoring.Player`` of that name
(found or created), so every table-round is an ordinary session of the owner's
players. Registration closes at the first draw; after it, an entrant is a late
entry per the ``late_entry`` setting.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext_noop

from club.models import GroupPlayer
from club.services import groups
from scoring import services as scoring
from scoring.engine import InvalidInput
from scoring.engine.schema import name_problem
from scoring.engine.types import invalid
from scoring.models import NAME_LENGTH
from tournaments.core import names
from tournaments.models import CupPlayer, DoorEntry, Entrant, Round, TableRound, Tournament, TournamentChange
from tournaments.services import circuit_final, cups
from tournaments.services.tournaments import audit, changed, done_already, drawn, locked, played

MOST_ENTRANTS = 400  # 100 tables (§7)
PLACE_LENGTH = 60


def check_name(value: str, field: str = "name") -> str:
    """An entrant's name: a player's name (``name_problem``) without invisible
    characters (``names.name_problem``), its spaces made single."""
    value = " ".join(value.split())
    if not value or len(value) > NAME_LENGTH:
        raise invalid(field, gettext_noop("a name of 1 to {n} characters"), n=NAME_LENGTH)
    problem = name_problem(value) or names.name_problem(value)
    if problem is not None:
        raise InvalidInput(field, problem)
    return value


def check_place(value: str) -> str:
    value = " ".join(value.split())
    if len(value) > PLACE_LENGTH or (value and name_problem(value)):
        raise invalid(
            "place", gettext_noop("empty, or a place or club of up to {n} characters"), n=PLACE_LENGTH
        )
    return value


def _unique(tournament: Tournament, name: str, *, but: int | None = None) -> None:
    """Refused when an entrant (other than start number ``but``) has a name that
    reads the same (``names.name_key``: "ANNA", "Ａｎｎａ" and the Cyrillic "Аnna" are "Anna")."""
    taken = tournament.entrants.values_list("name", flat=True)
    if but is not None:
        taken = taken.exclude(number=but)
    found = names.same_as(name, taken)
    if found is not None:
        raise invalid(
            "name",
            gettext_noop(
                '"{name}" is registered already: tell the two apart, such as "{name} J." or "{name}, Linz"'
            ),
            name=found,
        )


def first_round_open(tournament: Tournament) -> int:
    """The round a late entrant joins now: 1 before any round is released (the
    draw of round 1 is redrawn with him); else the first round not yet released."""
    released = tournament.rounds.filter(status__in=(Round.Status.RELEASED, Round.Status.COMPLETE))
    return (released.aggregate(last=Max("number"))["last"] or 0) + 1


def _joins(tournament: Tournament) -> int:
    """The round a new entrant joins; refused when the ``late_entry`` setting says no."""
    if not drawn(tournament):
        return 1
    joins = first_round_open(tournament)
    if joins > tournament.settings["rounds"]:
        raise invalid("name", gettext_noop("every round is released: no one can join any more"))
    if joins > 1 and tournament.settings["late_entry"] != "any_round":
        raise invalid(
            "name",
            gettext_noop('round 1 is released: late entries are taken only with the setting "any round"'),
        )
    if joins == 1 and played(TableRound.objects.filter(round__tournament=tournament)).exists():
        raise invalid(
            "name", gettext_noop("round 1 has recorded hands: a late entry can no longer be drawn in")
        )
    return joins


def joins_now(tournament: Tournament) -> int:
    """The round an entrant added now joins; refused when ``late_entry`` says no
    (the registration at the door asks the same, §14.2)."""
    return _joins(tournament)


@dataclass(frozen=True)
class NewEntrant:
    name: str
    place: str = ""
    filler: bool = False
    fee_paid: bool = False
    roster: bool = True  # in a group's tournament, a new name joins the roster


def _add(tournament: Tournament, new: NewEntrant, joins: int, cup_player: CupPlayer | None = None) -> Entrant:
    """One entrant with the next start number, linked to the cup's register entry of
    his name, or to ``cup_player`` where the caller knows it (a register number, §14.2)."""
    name, place = check_name(new.name), check_place(new.place)
    _unique(tournament, name)
    count = tournament.entrants.count()
    if count >= MOST_ENTRANTS:
        raise invalid(
            "name", gettext_noop("a tournament takes at most {n} entrants (100 tables)"), n=MOST_ENTRANTS
        )
    roster = _roster(tournament, name, new.roster)
    player = scoring.player_of(owner=tournament.owner, name=name)
    number = (tournament.entrants.aggregate(last=Max("number"))["last"] or 0) + 1
    if cup_player is None and not new.filler:
        cup_player = cups.register_entry(tournament.cup, name, place, roster)
    if not new.filler:
        circuit_final.refuse_unqualified(tournament, cup_player, name)
    entrant = Entrant.objects.create(
        tournament=tournament,
        number=number,
        name=name,
        place=place,
        player=player,
        roster=roster,
        cup_player=cup_player,
        kind=Entrant.Kind.FILLER if new.filler else Entrant.Kind.PLAYER,
        joined_round=joins,
        fee_paid=new.fee_paid,
    )
    return entrant


def _roster(tournament: Tournament, name: str, join: bool) -> GroupPlayer | None:
    if tournament.group is None:
        return None
    found = GroupPlayer.objects.filter(group=tournament.group, name=name).first()
    if found is None and join:
        found = groups.roster_player(tournament.group, name)
    return found


@transaction.atomic
def entrant_add(
    *,
    tournament: Tournament,
    user: User,
    name: str,
    place: str = "",
    filler: bool = False,
    fee_paid: bool = False,
    roster: bool = True,
    client_token: str = "",
) -> Entrant:
    """Register one entrant with the next start number. After the first draw he is a
    late entry (``late_entry``): before any hand of round 1 the organiser redraws
    round 1; with ``any_round`` he joins from the next round not yet released."""
    row = locked(tournament)
    found = done_already(row, client_token)
    if found is not None and found.after and "number" in found.after:
        return row.entrants.get(number=found.after["number"])
    joins = _joins(row)
    try:
        with transaction.atomic():
            entrant = _add(row, NewEntrant(name, place, filler, fee_paid, roster), joins)
    except IntegrityError:  # registered by another organiser at the same moment
        _unique(row, check_name(name))
        raise
    audit(
        row,
        TournamentChange.Action.ENTER,
        user,
        after={"number": entrant.number, "name": entrant.name, "round": joins},
        client_token=client_token,
    )
    changed(row)
    return entrant


@transaction.atomic
def entrants_add(*, tournament: Tournament, user: User, entrants: list[NewEntrant]) -> list[Entrant]:
    """Register several at once (names picked from the roster, a list typed in): all or none."""
    row = locked(tournament)
    joins = _joins(row)
    added = []
    for index, new in enumerate(entrants):
        try:
            added.append(_add(row, new, joins))
        except InvalidInput as error:
            raise InvalidInput(error.field, error.line, index + 1) from None
    if added:
        audit(row, TournamentChange.Action.ENTER, user, after={"numbers": [e.number for e in added]})
        changed(row)
    return added


def _entrant(tournament: Tournament, number: int) -> Entrant:
    found = tournament.entrants.filter(number=number).first()
    if found is None:
        raise invalid("entrant", gettext_noop("no entrant has start number {n}"), n=number)
    return found


@transaction.atomic
def entrant_edit(
    *, tournament: Tournament, user: User, number: int, name: str, place: str, fee_paid: bool
) -> Entrant:
    """Put a name or place right, tick the fee. The name is the seats' name too, so
    it is changed only before the entrant sits at a table that has been opened."""
    row = locked(tournament)
    entrant = _entrant(row, number)
    new_name = check_name(name)
    if new_name != entrant.name:
        _unique(row, new_name, but=number)
        if entrant.seats.filter(table__session__isnull=False).exists():
            raise invalid("name", gettext_noop("he sits at a table already opened: the name stays"))
        entrant.player = scoring.player_of(owner=row.owner, name=new_name)
    before = {"name": entrant.name, "place": entrant.place, "fee_paid": entrant.fee_paid}
    renamed = new_name != entrant.name
    entrant.name, entrant.place, entrant.fee_paid = new_name, check_place(place), fee_paid
    if renamed and entrant.kind == Entrant.Kind.PLAYER:  # the cup's register follows the name
        entrant.cup_player = cups.register_entry(row.cup, new_name, entrant.place, entrant.roster)
        circuit_final.refuse_unqualified(row, entrant.cup_player, new_name)
    entrant.save()
    if renamed:
        cups.register_pruned(row.cup_id)
        cups.cup_changed(row)  # a counted tournament's name in the season follows
    audit(
        row,
        TournamentChange.Action.ENTER,
        user,
        before=before,
        after={"name": entrant.name, "place": entrant.place, "fee_paid": fee_paid, "number": number},
    )
    changed(row)
    return entrant


@transaction.atomic
def entrant_remove(*, tournament: Tournament, user: User, number: int) -> None:
    """Strike an entrant registered by mistake: only before the first draw."""
    row = locked(tournament)
    entrant = _entrant(row, number)
    if drawn(row):
        raise invalid("entrant", gettext_noop("the draw is made: mark him withdrawn instead"))
    team = entrant.teams.first()
    if team is not None:
        raise invalid(
            "entrant",
            gettext_noop("plays for the team {team}: take him out of the team first"),
            team=team.name,
        )
    audit(
        row, TournamentChange.Action.ENTER, user, before={"number": number, "name": entrant.name}, after=None
    )
    DoorEntry.objects.filter(entrant=entrant).delete()  # her phone may register again
    entrant.delete()
    cups.register_pruned(row.cup_id)
    changed(row)


def active_in(tournament: Tournament, round_number: int) -> list[Entrant]:
    """Who is to be seated in round ``round_number``: joined by then and not left before it."""
    return [
        e
        for e in tournament.entrants.order_by("number")
        if e.joined_round <= round_number
        and not (e.status == Entrant.Status.WITHDRAWN and (e.left_after_round or 0) < round_number)
    ]
