"""The raffle of the material prizes at the ceremony (``TOURNAMENTS.md`` §4.5,
the rule in ``tournaments.core.raffle``).

Drawn once the ranking is final: the organiser ticks who is present and draws;
the result is stored on the tournament (``Tournament.raffle``) and audited.
Drawing again with another list of those present replaces it, audited again;
the same form sent twice, or the same list drawn again, stores nothing new.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext_noop

from scoring.engine.types import invalid
from tournaments.core import raffle as rule
from tournaments.models import Entrant, Tournament, TournamentChange
from tournaments.services import results
from tournaments.services.tournaments import audit, done_already, locked


@dataclass(frozen=True)
class Drawn:
    """One material prize as the stored draw gave it: ``entrant`` is ``None``
    when it stayed undrawn (more prizes than people present)."""

    order: int
    place: int
    text: str
    entrant: Entrant | None


@dataclass(frozen=True)
class Raffle:
    """The raffle as the prize list shows it. ``candidates``: who may be ticked
    present (not fillers, not on a money prize), by name. ``drawn``: the stored
    draw, empty before one. ``present``: those ticked for it. ``stale``: the money
    prizes or the prize list have changed since (the ranking was reopened and
    corrected, say): the draw no longer holds and is not printed."""

    on: bool
    final: bool
    prizes: int  # how many material prizes the list has
    candidates: tuple[Entrant, ...]
    drawn: tuple[Drawn, ...]
    present: tuple[Entrant, ...]
    stale: bool


def _candidates(tournament: Tournament) -> tuple[list[rule.Candidate], dict[int, Entrant]]:
    """Every entrant as the rule sees him, with his place in the standings as they are now."""
    places = {row.number: row.place for row in results.standings(tournament).rows}
    entrants = {e.number: e for e in tournament.entrants.all()}
    candidates = [
        rule.Candidate(number, places.get(number), e.kind == Entrant.Kind.FILLER)
        for number, e in entrants.items()
    ]
    return candidates, entrants


def _money_winners(candidates: Iterable[rule.Candidate], prizes: Iterable[rule.Prize]) -> list[int]:
    paid = rule.money_places(prizes)
    return sorted(c.number for c in candidates if c.place is not None and c.place in paid and not c.filler)


def _prizes(tournament: Tournament) -> tuple[rule.Prize, ...]:
    return rule.prizes_of(tournament.settings.get("prizes") or [])


def raffle_of(tournament: Tournament) -> Raffle:
    """What the prize list page and the printout show of the raffle."""
    prizes = _prizes(tournament)
    candidates, entrants = _candidates(tournament)
    allowed = set(rule.eligible(candidates, prizes))
    stored: dict[str, Any] = tournament.raffle or {}
    drawn = tuple(
        Drawn(
            w["order"],
            w["place"],
            w["text"],
            entrants.get(w["number"]) if w["number"] is not None else None,
        )
        for w in stored.get("drawn", [])
    )
    stale = bool(stored) and (
        stored.get("money") != _money_winners(candidates, prizes)
        or [(w["place"], w["text"]) for w in stored.get("drawn", [])] != list(rule.material(prizes))
    )
    return Raffle(
        on=bool(tournament.settings.get("prize_raffle")),
        final=tournament.status == Tournament.Status.FINAL,
        prizes=len(rule.material(prizes)),
        candidates=tuple(sorted((e for n, e in entrants.items() if n in allowed), key=_by_name)),
        drawn=drawn,
        present=tuple(
            sorted((entrants[n] for n in stored.get("present", []) if n in entrants), key=_by_name)
        ),
        stale=stale,
    )


def _by_name(entrant: Entrant) -> tuple[str, int]:
    return (entrant.name.casefold(), entrant.number)


@transaction.atomic
def raffle_draw(
    *, tournament: Tournament, user: User, present: Sequence[int], client_token: str = ""
) -> Tournament:
    """Draw the material prizes among the start numbers ``present`` and store the
    result, audited. Refused while the raffle is off, before the ranking is final,
    without material prizes, with nobody ticked, or naming someone not entered."""
    row = locked(tournament)
    if done_already(row, client_token):
        return row
    if not row.settings.get("prize_raffle"):
        raise invalid("prize_raffle", gettext_noop("the raffle of material prizes is off in the settings"))
    if row.status != Tournament.Status.FINAL:
        raise invalid("status", gettext_noop("the prizes are drawn once the ranking is final"))
    prizes = _prizes(row)
    if not rule.material(prizes):
        raise invalid("prizes", gettext_noop("the prize list has no material prizes to draw"))
    if not present:
        raise invalid("present", gettext_noop("tick who is present at the ceremony"))
    candidates, _entrants = _candidates(row)
    try:
        won = rule.draw(seed=row.seed, prizes=prizes, candidates=candidates, present=present)
    except ValueError:
        raise invalid("present", gettext_noop("only entrants of this tournament, each once")) from None
    result = {
        "present": sorted(present),
        "money": _money_winners(candidates, prizes),
        "drawn": [{"order": w.order, "place": w.place, "text": w.text, "number": w.number} for w in won],
    }
    if row.raffle == result:
        return row  # the same list drawn again: the same winners, nothing new
    before, row.raffle = row.raffle, result
    row.save(update_fields=["raffle"])
    audit(row, TournamentChange.Action.RAFFLE, user, before=before, after=result, client_token=client_token)
    results.bump(row, counted=False)
    return row
