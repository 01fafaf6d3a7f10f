"""The final of the circuit (``TOURNAMENTS.md`` §14.7) and the circuit file
through the app (§14.10): each cup's tier, ``min_events`` and whether it
qualifies, set by the circuit's organisers; the season's final and
``open_final``; the qualification list per cup, the circuit's qualified list and
the final's Gesamtwertung; the export of a circuit's season as
``tarockscore-circuit/1`` and its import.

The rules are ``tournaments.core.circuit`` (tier tables, qualification,
Finalpunkte, Gesamtwertung) and ``tournaments.core.cup`` (the season), the
file is ``tournaments.core.circuit_file``; this module reads the stored places
and cup points (written when a tournament was made provisional or final, never
judged again here) in a fixed number of statements, and writes the settings.
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_noop

from plumbing import caching, queries
from scoring import services as scoring
from scoring.engine import InvalidInput
from scoring.engine.types import invalid
from scoring.models import NAME_LENGTH, Player
from tournaments.core import circuit as rules
from tournaments.core import circuit_file as files
from tournaments.core import cup as cup_rules
from tournaments.models import (
    Circuit,
    CircuitChange,
    CircuitPlayer,
    Cup,
    CupPlayer,
    Entrant,
    SideRanking,
    Tournament,
    TournamentPlace,
)
from tournaments.services import circuit as circuits
from tournaments.services import cups, side, tournaments

COUNTED = (Tournament.Status.PROVISIONAL, Tournament.Status.FINAL)
MOST_BYTES = files.MAX_BYTES


# -- what the pages read ------------------------------------------------------------------


@dataclass(frozen=True)
class Person:
    """A register entry as the lists show it (§14.1: name per ``public_name``, place, number)."""

    number: int
    family: str
    given: str
    place: str
    public_name: str

    @property
    def name(self) -> str:
        return rules.RegisterEntry(
            self.number, self.family, self.given, self.place, (), self.public_name
        ).public()


@dataclass(frozen=True)
class QualificationLine:
    row: rules.QualificationRow
    person: Person


@dataclass(frozen=True)
class CupStanding:
    """A cup of the circuit: its tier and quota, its average attendance, its
    season as stored (``core.cup.season`` over the stored cup points) and its
    qualification list (empty when the cup does not qualify)."""

    cup: Cup
    table: tuple[int, ...]
    attendance: str | None
    held: int
    season: tuple[cup_rules.SeasonRow[int], ...]
    lines: tuple[QualificationLine, ...]

    @property
    def qualifies(self) -> bool:
        return self.cup.circuit_qualifies


@dataclass(frozen=True)
class QualifiedLine:
    row: rules.Qualified
    person: Person


@dataclass(frozen=True)
class FinalLine:
    row: rules.FinalPlace
    person: Person


@dataclass(frozen=True)
class Standings:
    circuit: Circuit
    cups: tuple[CupStanding, ...]
    qualified: tuple[QualifiedLine, ...]
    final: Tournament | None
    gesamtwertung: tuple[FinalLine, ...]
    # Entrants of the final who did not qualify although the final is not open
    # (qualification moved after they were entered): shown with 0 Vorrundenpunkte.
    unqualified: tuple[int, ...] = ()
    people: Mapping[int, Person] = field(default_factory=dict)

    def cup(self, pk: int) -> CupStanding:
        return next(standing for standing in self.cups if standing.cup.pk == pk)


def tier_table(cup: Cup) -> tuple[int, ...]:
    """The cup's Vorrundenpunkte by season place (``core.circuit.tier_table``)."""
    return rules.tier_table(cup.circuit_tier, cup.circuit_tier_table or ())


def best_n(cup: Cup) -> str | int:
    return cup.best_n if cup.best_n in cup_rules.BEST_N_WORDS else int(cup.best_n)


PERSON_FIELDS = ("number", "family", "given", "place", "public_name")
KEPT = "entrant__cup_player__circuit_player__"
MERGED = KEPT + "merged_into__"


def _places(tournament_ids: Sequence[int]) -> list[dict[str, Any]]:
    """The stored places of these tournaments' players with a register number, each
    with its kept entry (the one a merged number counts as): one statement."""
    return list(
        TournamentPlace.objects.filter(
            tournament_id__in=tournament_ids,
            entrant__kind=Entrant.Kind.PLAYER,
            entrant__cup_player__circuit_player__isnull=False,
        )
        .order_by("tournament_id", "place", "entrant__number")
        .values(
            "tournament_id",
            "place",
            "total",
            "cup_points",
            *(KEPT + name for name in PERSON_FIELDS),
            KEPT + "merged_into_id",
            *(MERGED + name for name in PERSON_FIELDS),
        )
    )


def _person(row: Mapping[str, Any]) -> Person:
    prefix = MERGED if row[KEPT + "merged_into_id"] is not None else KEPT
    return Person(*(row[prefix + name] for name in PERSON_FIELDS))


def standings_key(circuit: Circuit, cup_rows: Sequence[Cup]) -> str:
    """This version of everything §14.7's lists read, for cache keys: the circuit's
    ``version`` (its register, the tiers, the final and ``open_final``) and each
    of its cups' (places and cup points written, tournaments made provisional,
    final or reopened, joining or leaving the cup)."""
    # Read with the cups where it has any (a circuit handed in may be an older read).
    version = cup_rows[0].circuit.version if cup_rows and cup_rows[0].circuit else circuit.version
    cups_part = ".".join(f"{cup.pk}v{cup.version}" for cup in cup_rows)
    # Digested: a circuit of many cups would pass the length a cache key may have.
    digest = hashlib.sha256(cups_part.encode()).hexdigest()[:40]
    stamp = f"{circuit.created_at.timestamp():.6f}"
    return f"circuit-standings:{circuit.pk}.{version}.{stamp}:{len(cup_rows)}.{digest}"


def circuit_cups(circuit: Circuit) -> list[Cup]:
    """The circuit's cups in the order they joined, each with its circuit as stored
    now: what ``standings_key`` is made of (one statement)."""
    found: list[Cup] = queries.circuit_cups(circuit.pk)  # on every view of the lists: written out once
    return found


def standings(circuit: Circuit, cup_rows: Sequence[Cup] | None = None) -> Standings:
    """Every list of §14.7 for ``circuit``, kept per version of the circuit and its
    cups (``standings_key``): one statement (its cups, unless ``cup_rows`` are
    given as ``circuit_cups`` read them) when kept, two more when built, however
    many cups, tournaments and players. The cache only accelerates: one that does
    not answer has nothing kept, and the lists are built."""
    rows = circuit_cups(circuit) if cup_rows is None else list(cup_rows)
    return caching.cached(standings_key(circuit, rows), lambda: standings_built(circuit, rows))


def standings_built(circuit: Circuit, cup_rows: Sequence[Cup] | None = None) -> Standings:
    """Every list of §14.7 for ``circuit`` from the stored places and cup points,
    in three statements however many cups, tournaments and players. Cups in the
    order they joined, as the file lists them (the first one names the cup of a
    player qualified through two with equal points and places)."""
    if cup_rows is None:
        cup_rows = circuit_cups(circuit)
    members = list(
        Tournament.objects.filter(
            Q(cup__in=[c.pk for c in cup_rows]) | Q(pk=circuit.final_id or 0),
            deleted_at__isnull=True,
        ).order_by("played_on", "pk")
    )
    counted = [t for t in members if t.status in COUNTED]
    people: dict[int, Person] = {}
    by_tournament: dict[int, list[tuple[int, Fraction, Fraction, int]]] = {}
    for row in _places([t.pk for t in counted]):
        person = _person(row)
        people[person.number] = person
        by_tournament.setdefault(row["tournament_id"], []).append(
            (
                person.number,
                Fraction(str(row["total"])),
                Fraction(str(row["cup_points"])),
                row["place"],
            )
        )
    final = next((t for t in members if t.pk == circuit.final_id), None)
    standing: list[CupStanding] = []
    lists: list[tuple[str, list[rules.QualificationRow]]] = []
    for cup in cup_rows:
        held = [t for t in counted if t.cup_id == cup.pk]
        results: dict[int, list[cup_rules.Result]] = {}
        for tournament in held:
            for number, _, points, place in by_tournament.get(tournament.pk, []):
                results.setdefault(number, []).append(
                    cup_rules.Result(tournament.pk, points, place, tournament.cup_final)
                )
        season = cup_rules.season(
            results,
            best_n=best_n(cup),
            final_mode=cup.final_mode,
            held=sum(1 for t in held if not t.cup_final),
        )
        table = tier_table(cup)
        rows = rules.qualification(season, table, min_events=cup.circuit_min_events)
        if cup.circuit_qualifies:
            lists.append((cup.name, rows))
        standing.append(
            CupStanding(
                cup,
                table,
                rules.attendance([len(by_tournament.get(t.pk, [])) for t in held]),
                len(held),
                tuple(season),
                tuple(QualificationLine(row, people[row.player]) for row in rows)
                if cup.circuit_qualifies
                else (),
            )
        )
    qualified = rules.circuit_qualified(lists)
    ranking = [(number, total) for number, total, _, _ in by_tournament.get(circuit.final_id or 0, [])]
    unqualified: tuple[int, ...] = ()
    try:
        wertung = rules.gesamtwertung(ranking, qualified, open_final=circuit.open_final)
    except rules.NotQualified:
        carried = {q.player for q in qualified}
        unqualified = tuple(number for number, _ in ranking if number not in carried)
        wertung = rules.gesamtwertung(ranking, qualified, open_final=True)
    return Standings(
        circuit,
        tuple(standing),
        tuple(QualifiedLine(q, people[q.player]) for q in qualified),
        final,
        tuple(FinalLine(row, people[row.player]) for row in wertung),
        unqualified,
        people,
    )


# -- what the organisers set --------------------------------------------------------------


def _locked(circuit: Circuit, user: User) -> Circuit:
    row = Circuit.objects.select_for_update().get(pk=circuit.pk)
    if row.deleted_at is not None or not circuits.is_organiser(row, user):
        raise invalid("circuit", gettext_noop("only the circuit's organisers set the final and the tiers"))
    return row


def _done(circuit: Circuit, action: str, client_token: str) -> bool:
    return (
        bool(client_token)
        and CircuitChange.objects.filter(circuit=circuit, action=action, client_token=client_token).exists()
    )


def _audit(circuit: Circuit, action: str, user: User, client_token: str, **values: Any) -> None:
    CircuitChange.objects.create(
        circuit=circuit, action=action, user=user, client_token=client_token, **values
    )
    Circuit.objects.filter(pk=circuit.pk).update(version=F("version") + 1)


def read_tier_table(text: str) -> list[int]:
    """A typed table of Vorrundenpunkte: whole numbers separated by commas or spaces."""
    words = text.replace(",", " ").split()
    if (
        not words
        or len(words) > rules.MAX_TIER_TABLE
        or not all(w.isascii() and w.isdecimal() and int(w) <= rules.MAX_VORRUNDENPUNKTE for w in words)
    ):
        raise invalid(
            "tier_table",
            gettext_noop(
                "the Vorrundenpunkte of season places 1, 2, … : 1 to {n} whole numbers from 0 to {most}"
            ),
            n=rules.MAX_TIER_TABLE,
            most=rules.MAX_VORRUNDENPUNKTE,
        )
    return [int(w) for w in words]


@transaction.atomic
def cup_tier_set(
    *,
    circuit: Circuit,
    user: User,
    cup_id: int,
    tier: str,
    tier_table: str = "",
    min_events: int = rules.DEFAULT_MIN_EVENTS,
    qualifies: bool = True,
    client_token: str = "",
) -> Cup:
    """A cup's tier (``A``, ``B``, ``C`` or ``custom`` with its typed table), its
    ``min_events`` and whether it qualifies for the final, for its season in the
    circuit; set by the circuit's organisers, kept in the audit."""
    locked = _locked(circuit, user)
    cup = Cup.objects.select_for_update().filter(pk=cup_id, circuit=locked, deleted_at__isnull=True).first()
    if cup is None:
        raise invalid("cup", gettext_noop("one of the circuit's cups"))
    if _done(locked, "tier", client_token):
        return cup
    if tier not in rules.TIER_NAMES:
        raise invalid("tier", gettext_noop("one of: {allowed}"), allowed=", ".join(rules.TIER_NAMES))
    table = read_tier_table(tier_table) if tier == "custom" else []
    if not 1 <= min_events <= rules.MAX_TOURNAMENTS:
        raise invalid("min_events", gettext_noop("a whole number from 1 to {n}"), n=rules.MAX_TOURNAMENTS)
    if qualifies and locked.final is not None and locked.final.cup_id == cup.pk:
        raise invalid(
            "qualifies",
            gettext_noop("the cup of the circuit's final does not qualify for it: name another final first"),
        )
    before = _tier_of(cup)
    cup.circuit_tier, cup.circuit_tier_table = tier, table
    cup.circuit_min_events, cup.circuit_qualifies = min_events, qualifies
    cup.save(update_fields=["circuit_tier", "circuit_tier_table", "circuit_min_events", "circuit_qualifies"])
    _audit(locked, "tier", user, client_token, before=before, after=_tier_of(cup))
    return cup


def _tier_of(cup: Cup) -> dict[str, Any]:
    return {
        "cup": cup.pk,
        "name": str(cup),
        "tier": cup.circuit_tier,
        "tier_table": list(cup.circuit_tier_table or []),
        "min_events": cup.circuit_min_events,
        "qualifies": cup.circuit_qualifies,
    }


def final_choices(circuit: Circuit) -> list[Tournament]:
    """The tournaments that may be the circuit's final: those of its cups."""
    return list(
        Tournament.objects.filter(cup__circuit=circuit, cup__deleted_at__isnull=True, deleted_at__isnull=True)
        .select_related("cup")
        .order_by("-played_on", "name", "pk")
    )


@transaction.atomic
def final_set(
    *, circuit: Circuit, user: User, final: int | None, open_final: bool, client_token: str = ""
) -> Circuit:
    """The season's final (a tournament of a cup of the circuit, whose cup then
    does not qualify for it) and ``open_final``; with it off, every entrant
    already there must be qualified. ``final``: the tournament's id, None for no final yet."""
    locked = _locked(circuit, user)
    if _done(locked, "final", client_token):
        return locked
    chosen = _final_of(locked, final) if final is not None else None
    before = {"final": locked.final_id, "open_final": locked.open_final}
    locked.final, locked.open_final = chosen, open_final
    if chosen is not None and not open_final:
        _refuse_unqualified_entrants(locked, chosen)
    locked.save(update_fields=["final", "open_final"])
    after = {"final": locked.final_id, "name": chosen.name if chosen else "", "open_final": open_final}
    _audit(locked, "final", user, client_token, before=before, after=after)
    return locked


def _final_of(circuit: Circuit, pk: int) -> Tournament:
    """The tournament that may be the circuit's final: of one of its cups, one that does not qualify."""
    found = (
        Tournament.objects.filter(
            pk=pk, cup__circuit=circuit, cup__deleted_at__isnull=True, deleted_at__isnull=True
        )
        .select_related("cup")
        .first()
    )
    if found is None or found.cup is None:
        raise invalid("final", gettext_noop("a tournament of one of the circuit's cups"))
    if found.cup.circuit_qualifies:
        raise invalid(
            "final",
            gettext_noop(
                "{cup} qualifies for the final: its tournament cannot be the final (untick it in the tiers)"
            ),
            cup=str(found.cup),
        )
    return found


def _refuse_unqualified_entrants(circuit: Circuit, final: Tournament, field: str = "open_final") -> None:
    carried = qualified_numbers(circuit)
    entrants = final.entrants.filter(kind=Entrant.Kind.PLAYER).select_related(
        "cup_player__circuit_player__merged_into"
    )
    for entrant in entrants.order_by("number"):
        if kept_number(entrant.cup_player) not in carried:
            raise invalid(
                field,
                gettext_noop(
                    "{name} is entered in {final} and did not qualify: open the final, or strike the entrant first"
                ),
                name=entrant.name,
                final=final.name,
            )


def final_of_circuit(tournament: Tournament) -> Circuit | None:
    """The circuit whose final ``tournament`` is, if any."""
    if tournament.pk is None:
        return None
    return Circuit.objects.filter(final_id=tournament.pk, deleted_at__isnull=True).first()


def refuse_final_moved(tournament: Tournament, cup: Cup | None) -> None:
    """The circuit's final leaves its cup: only for another cup of its circuit that
    does not qualify for it (as ``final_set`` asks of a final), else it would be a
    final outside its circuit or one its own cup qualifies for. Asked by
    ``cups.tournament_cup_set`` before the tournament moves."""
    circuit = final_of_circuit(tournament)
    if circuit is None or (cup is not None and cup.pk == tournament.cup_id):
        return
    if cup is None or cup.circuit_id != circuit.pk or cup.circuit_qualifies:
        raise invalid(
            "cup",
            gettext_noop(
                "{final} is the final of {circuit}: it moves only to a cup of the circuit that does not"
                " qualify for it (name another final first)"
            ),
            final=tournament.name,
            circuit=str(circuit),
        )


def refuse_unqualified_moved(tournament: Tournament) -> None:
    """After the final moved to another cup of its circuit, its entrants linked to
    that cup's register: while the final is not open, each must still be qualified."""
    circuit = final_of_circuit(tournament)
    if circuit is not None and not circuit.open_final:
        _refuse_unqualified_entrants(circuit, tournament, "cup")


def qualified_numbers(circuit: Circuit) -> set[int]:
    """The numbers of the circuit's qualified list. Asked inside a change that may
    still be refused and rolled back: the lists kept for these versions are read,
    never kept from here (a version rolled back comes again with other rows)."""
    cup_rows = circuit_cups(circuit)
    kept = caching.get_many([standings_key(circuit, cup_rows)])
    found = next(iter(kept.values()), None)
    table = found if isinstance(found, Standings) else standings_built(circuit, cup_rows)
    return {line.row.player for line in table.qualified}


def kept_number(entry: CupPlayer | None) -> int | None:
    """The register number a cup's name counts as, if it has one."""
    found = entry.circuit_player if entry is not None else None
    if found is None:
        return None
    return found.merged_into.number if found.merged_into is not None else found.number


def _closed_final(tournament: Tournament) -> Circuit | None:
    """The circuit whose final ``tournament`` is while that final is not open."""
    if tournament.cup_id is None:  # a final is always in a cup of its circuit
        return None
    return Circuit.objects.filter(final_id=tournament.pk, deleted_at__isnull=True, open_final=False).first()


def _not_qualified(circuit: Circuit, field: str, name: str) -> InvalidInput:
    return invalid(
        field,
        gettext_noop(
            "{name} did not qualify for the final of {circuit}: only qualified players are entered"
            " while the final is not open"
        ),
        name=name,
        circuit=str(circuit),
    )


def refuse_unqualified(tournament: Tournament, entry: CupPlayer | None, name: str) -> None:
    """Entering ``name`` in a circuit's final that is not open: only a player who
    qualified (§14.7). Asked wherever an entrant is added or renamed (typed, from a
    roster, accepted at the door or added by number, read from a file)."""
    circuit = _closed_final(tournament)
    if circuit is None:
        return
    # Read again: a name new in the cup was linked to the register by an update.
    found = (
        CupPlayer.objects.filter(pk=entry.pk).select_related("circuit_player__merged_into").first()
        if entry is not None
        else None
    )
    number = kept_number(found)
    if number is None or number not in qualified_numbers(circuit):
        raise _not_qualified(circuit, "name", name)


def refuse_unqualified_at_door(tournament: Tournament, entry: CircuitPlayer | None, name: str) -> None:
    """Registering at the door of a circuit's final that is not open: only a player
    who qualified, refused on her phone before anything is written (a new player,
    ``entry`` None, never has); the desk would refuse her anyway."""
    circuit = _closed_final(tournament)
    if circuit is None:
        return
    if entry is None:
        raise _not_qualified(circuit, "family", name)
    number = entry.merged_into.number if entry.merged_into is not None else entry.number
    if number not in qualified_numbers(circuit):
        raise _not_qualified(circuit, "number", name)


# -- the circuit file (§14.10) ------------------------------------------------------------


def export_file(circuit: Circuit) -> files.CircuitFile:
    """The circuit's season as the file holds it: the register with its aliases,
    every cup that qualifies (in the order they joined) with its settings and its
    provisional and final tournaments' places as stored (players with a number, in
    place order), and the final. What ``write_circuit`` writes from it is the export."""
    register = circuits.register_entries(circuit)
    cup_rows = list(
        Cup.objects.filter(circuit=circuit, deleted_at__isnull=True, circuit_qualifies=True).order_by("pk")
    )
    members = list(
        Tournament.objects.filter(
            Q(cup__in=[c.pk for c in cup_rows]) | Q(pk=circuit.final_id or 0),
            deleted_at__isnull=True,
            status__in=COUNTED,
        ).order_by("played_on", "pk")
    )
    ranking: dict[int, list[tuple[int, Fraction]]] = {}
    for row in _places([t.pk for t in members]):
        ranking.setdefault(row["tournament_id"], []).append(
            (_person(row).number, Fraction(str(row["total"])))
        )
    categories = tuple(circuit.categories or ())
    sides = _side_rankings(cup_rows, members)
    cups_out = [
        files.CupFile(
            cup.name,
            cup.circuit_tier,
            tuple(cup.circuit_tier_table or ()) if cup.circuit_tier == "custom" else (),
            rules.CupRules(cup.scheme, tuple(cup.points_table or ()), best_n(cup), cup.final_mode),
            cup.circuit_min_events,
            files.side_rankings_written(sides.get(("cup", cup.pk), ()), files.CUP_SIDE_KINDS, categories),
            tuple(
                files.TournamentEntry(
                    t.name,
                    t.played_on,
                    files.region_written(t.region),
                    t.cup_factor,
                    t.cup_final,
                    files.side_rankings_written(
                        sides.get(("tournament", t.pk), ()), files.TOURNAMENT_SIDE_KINDS, categories
                    ),
                    tuple(ranking.get(t.pk, [])),
                )
                for t in members
                if t.cup_id == cup.pk
            ),
        )
        for cup in cup_rows
    ]
    final = next((t for t in members if t.pk == circuit.final_id), None)
    return files.CircuitFile(
        circuit.name,
        circuit.season,
        tuple(circuit.categories or ()),
        tuple(register),
        tuple(cups_out),
        files.FinalFile(final.name, final.played_on, circuit.open_final, tuple(ranking.get(final.pk, [])))
        if final is not None
        else None,
    )


def _side_rankings(
    cup_rows: Sequence[Cup], members: Sequence[Tournament]
) -> dict[tuple[str, int], list[rules.SideRanking]]:
    """The side rankings of these cups and tournaments in the order they were made,
    by ("cup", id) and ("tournament", id): one statement."""
    found: dict[tuple[str, int], list[rules.SideRanking]] = {}
    rows = SideRanking.objects.filter(
        Q(cup__in=[c.pk for c in cup_rows]) | Q(tournament__in=[t.pk for t in members])
    ).order_by("pk")
    for row in rows.values_list("cup_id", "tournament_id", "name", "kind", "value"):
        cup_id, tournament_id, name, kind, value = row
        owner = ("cup", cup_id) if cup_id is not None else ("tournament", tournament_id)
        found.setdefault(owner, []).append(rules.SideRanking(name, kind, value))
    return found


def export_text(circuit: Circuit) -> str:
    """The export as text: ``write_circuit`` in its one canonical form."""
    return files.dumps(files.write_circuit(export_file(circuit)))


def read_file(data: bytes) -> files.CircuitFile:
    """A circuit file as ``score_circuit`` reads it: the same reader, the same
    refusals (``InvalidCircuit``, one line naming cup, tournament and field)."""
    if len(data) > MOST_BYTES:
        raise files.too_large()
    return files.read_circuit(data)


@transaction.atomic
def import_file(*, owner: User, data: bytes, client_token: str = "") -> Circuit:
    """A new circuit of ``owner`` from a circuit file: its register (numbers and
    aliases as written), a cup of ``owner`` per cup of the file with its settings,
    each tournament with its ranking as stored results (made final: places,
    totals, cup points by the cup's scheme), and the final in a cup of its own
    that does not qualify. Nothing is written when the file is refused; sent
    twice with one form's token, the circuit is made once."""
    if client_token:
        done = CircuitChange.objects.filter(action="file", user=owner, client_token=client_token).first()
        if done is not None:
            return done.circuit
    read = read_file(data)
    circuit = circuits.circuit_create(owner=owner, name=read.name, season=read.season)
    Circuit.objects.filter(pk=circuit.pk).update(categories=list(read.categories))
    circuit.categories = list(read.categories)
    kept = _register_written(circuit, read.register)
    labels = entrant_names(read.register)
    players: dict[str, Player] = {}
    numbers = rules.by_number(read.register)
    last_day = datetime.date(2000, 1, 1)
    for cup_file in read.cups:
        cup = cups.cup_create(
            owner=owner,
            name=cup_file.name,
            season=read.season,
            scheme=cup_file.cup_rules.scheme,
            points_table=list(cup_file.cup_rules.points_table),
            best_n=str(cup_file.cup_rules.best_n),
            final_mode=cup_file.cup_rules.final_mode,
        )
        Cup.objects.filter(pk=cup.pk).update(
            circuit=circuit,
            circuit_tier=cup_file.tier,
            circuit_tier_table=list(cup_file.tier_table),
            circuit_min_events=cup_file.min_events,
            circuit_qualifies=True,
        )
        cup.refresh_from_db()
        _sides_written(owner, cup_file.side_rankings, cup=cup)
        names: dict[int, CupPlayer] = {}
        for entry in cup_file.tournaments:
            made = tournaments.tournament_create(
                owner=owner,
                name=entry.name,
                played_on=entry.date,
                money_rate=None,
                cup=cup,
                cup_final=entry.final,
                cup_factor=entry.factor,
            )
            if entry.region:
                made = side.tournament_region_set(tournament=made, user=owner, region=entry.region)
            _sides_written(owner, entry.side_rankings, tournament=made)
            _results_written(made, entry.ranking, numbers, kept, labels, cup, names, players)
            last_day = max(last_day, entry.date)
    if read.final is not None:
        cup = cups.cup_create(owner=owner, name=read.final.name, season=read.season)
        Cup.objects.filter(pk=cup.pk).update(circuit=circuit, circuit_qualifies=False)
        cup.refresh_from_db()
        made = tournaments.tournament_create(
            owner=owner,
            name=read.final.name,
            played_on=read.final.date or last_day,
            money_rate=None,
            cup=cup,
        )
        _results_written(made, read.final.ranking, numbers, kept, labels, cup, {}, players)
        Circuit.objects.filter(pk=circuit.pk).update(final=made, open_final=read.final.open_final)
    counts = {"players": len(read.register), "cups": len(read.cups), "final": read.final is not None}
    _audit(circuit, "file", owner, client_token, after=counts)
    circuit.refresh_from_db()
    return circuit


def _sides_written(
    owner: User,
    sides: Iterable[rules.SideRanking],
    *,
    cup: Cup | None = None,
    tournament: Tournament | None = None,
) -> None:
    """The file's side rankings of a cup or a tournament as the organiser's page
    adds them (without prizes, one prize per player), in the file's order."""
    for found in sides:
        side.side_ranking_add(
            user=owner, cup=cup, tournament=tournament, name=found.name, kind=found.kind, value=found.value
        )


def _register_written(circuit: Circuit, register: Iterable[rules.RegisterEntry]) -> dict[int, CircuitPlayer]:
    """The file's register as rows: each entry with its number, each alias a row
    merged into it (a number never given again). By kept number."""
    entries = list(register)
    CircuitPlayer.objects.bulk_create(
        CircuitPlayer(
            circuit=circuit,
            number=entry.number,
            family=entry.family,
            given=entry.given,
            place=entry.place,
            match_key=circuits.key_text(entry.family, entry.given, entry.place),
            categories=list(entry.categories),
            public_name=entry.public_name,
        )
        for entry in entries
    )
    kept = {row.number: row for row in CircuitPlayer.objects.filter(circuit=circuit)}
    CircuitPlayer.objects.bulk_create(
        CircuitPlayer(
            circuit=circuit,
            number=alias,
            family=entry.family,
            given=entry.given,
            place=entry.place,
            match_key=circuits.key_text(entry.family, entry.given, entry.place),
            merged_into=kept[entry.number],
        )
        for entry in entries
        for alias in entry.aliases
    )
    return kept


def entrant_names(register: Iterable[rules.RegisterEntry]) -> dict[int, str]:
    """The name each imported player is entered under: "Huber Maria" as §14.1
    writes it, cut to a player's name length; where several entries of the
    register would read alike, each with its number ("Huber Maria (Nr. 12)"),
    so names stay unique in every tournament and cup."""
    base = {entry.number: f"{entry.family} {entry.given}".strip()[:NAME_LENGTH] for entry in register}
    seen: dict[str, int] = {}
    for name in base.values():
        seen[name] = seen.get(name, 0) + 1
    out: dict[int, str] = {}
    for number, name in base.items():
        if seen[name] > 1:
            suffix = f" (Nr. {number})"
            name = name[: NAME_LENGTH - len(suffix)].rstrip() + suffix
        out[number] = name
    return out


def _results_written(
    tournament: Tournament,
    ranking: Sequence[tuple[int, Fraction]],
    numbers: Mapping[int, rules.RegisterEntry],
    kept: Mapping[int, CircuitPlayer],
    labels: Mapping[int, str],
    cup: Cup,
    names: dict[int, CupPlayer],
    players: dict[str, Player],
) -> None:
    """A ranking of the file as the tournament's stored results: an entrant per
    player (linked to the cup's name of the register entry), its place and total,
    the tournament final; the cup points by the cup's scheme (``places_rescored``)."""
    people = [numbers[number] for number, _ in ranking]
    for entry in people:  # each name once per import: the scoring app keeps its players
        name = labels[entry.number]
        if name not in players:
            players[name] = scoring.player_of(owner=tournament.owner, name=name)
    fresh = [entry for entry in people if entry.number not in names]
    made = CupPlayer.objects.bulk_create(
        CupPlayer(
            cup=cup,
            name=labels[entry.number],
            place=entry.place,
            circuit_player=kept[entry.number],
        )
        for entry in fresh
    )
    for entry, row in zip(fresh, made, strict=True):
        names[entry.number] = row
    entrants = Entrant.objects.bulk_create(
        Entrant(
            tournament=tournament,
            number=start,
            name=labels[entry.number],
            place=entry.place,
            player=players[labels[entry.number]],
            cup_player=names[entry.number],
        )
        for start, entry in enumerate(people, 1)
    )
    TournamentPlace.objects.bulk_create(
        TournamentPlace(
            tournament=tournament, entrant=entrant, place=place, total=_decimal(total), final=True
        )
        for place, (entrant, (_, total)) in enumerate(zip(entrants, ranking, strict=True), 1)
    )
    Tournament.objects.filter(pk=tournament.pk).update(
        status=Tournament.Status.FINAL, closed_at=timezone.now()
    )
    tournament.refresh_from_db()
    cups.places_rescored(tournament)
    cups.cup_changed(tournament)


def _decimal(value: Fraction) -> Decimal:
    return Decimal(value.numerator) / Decimal(value.denominator)
