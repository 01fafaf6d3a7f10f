"""The player's own view (``TOURNAMENTS.md`` §14.3): who a phone or an account
is in a tournament's circuit, her day (this round's table, seat and tablemates,
her round results, her place now and its change since the last round) and her
season (per cup of the circuit her line of the season table, and where she
stands for the circuit's final).

Only what §14.1 lets a public page show: names, places and numbers, the
standings and the seasons. The rules are ``tournaments.core.circuit``
(``qualification``, ``final_status``, ``rank_changes``) and ``core.cup``; the
season is ``cups.season_ranking``'s, the standings ``results``'s: nothing here
is counted a second time.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q

from plumbing import caching
from scoring.engine import InvalidInput
from tournaments.core import circuit as rules
from tournaments.models import Circuit, CircuitPlayer, Cup, Entrant, Round, TableSeat, Tournament
from tournaments.services import circuit as circuits
from tournaments.services import circuit_final, cups, results
from tournaments.services.cups import SeasonLine

# The phone keeps her number and the numbers she follows, per circuit (numbers
# are the circuit's): "tarock_me_<circuit id>" and "tarock_friends_<circuit id>",
# the friends joined by "-". Readable by the page's script, which marks the rows.
ME_COOKIE = "tarock_me_{circuit}"
FRIENDS_COOKIE = "tarock_friends_{circuit}"
FRIENDS_MOST = 30
COOKIE_DAYS = 400


def circuit_of(tournament: Tournament) -> Circuit | None:
    """The circuit the tournament's cup belongs to, if any (one statement)."""
    if tournament.cup_id is None:
        return None
    return Circuit.objects.filter(cups__pk=tournament.cup_id, deleted_at__isnull=True).first()


def number_read(text: str | None) -> int | None:
    """A register number as typed or kept (1–999999), else ``None``."""
    text = (text or "").strip()
    if not text.isascii() or not text.isdecimal() or len(text) > 6:
        return None
    number = int(text)
    return number if 1 <= number <= rules.MAX_NUMBER else None


def friends_read(text: str | None) -> list[int]:
    """The numbers a phone follows, as kept ("12-345-6789"): at most ``FRIENDS_MOST``."""
    found: list[int] = []
    for part in (text or "").split("-")[: FRIENDS_MOST + 1]:
        number = number_read(part)
        if number is not None and number not in found:
            found.append(number)
    return found[:FRIENDS_MOST]


def friends_text(numbers: Sequence[int]) -> str:
    return "-".join(str(n) for n in list(dict.fromkeys(numbers))[:FRIENDS_MOST])


def entry_by_number(circuit: Circuit, number: int) -> CircuitPlayer | None:
    """The register entry a number finds (its own, or the one an alias was merged into)."""
    try:
        return circuits.entry_find(circuit, number)
    except InvalidInput:
        return None


def entry_of_account(circuit: Circuit, user: AbstractBaseUser | AnonymousUser) -> CircuitPlayer | None:
    """Her register entry in the circuit through her account: linked by the
    organisers (``CircuitPlayer.user``) or by herself with her number and PIN (the
    ratings' link, read through its relation to the register)."""
    if not user.is_authenticated:
        return None
    return (
        CircuitPlayer.objects.filter(circuit=circuit, merged_into__isnull=True)
        .filter(Q(user_id=user.pk) | Q(rating_link__user_id=user.pk))
        .order_by("number")
        .first()
    )


def public_name(entry: CircuitPlayer) -> str:
    """Her name as public pages show it (``public_name``, §14.1)."""
    return circuits.entry_of(entry).public()


def entrant_of(tournament: Tournament, entry: CircuitPlayer) -> Entrant | None:
    """Her entrant in the tournament: through the cup's register entries of her number."""
    return (
        Entrant.objects.filter(tournament=tournament, cup_player_id__in=circuits.cup_entries_of(entry))
        .order_by("number")
        .first()
    )


def register_numbers(tournament: Tournament) -> dict[int, int]:
    """Each entrant's register number by start number (one statement), for the
    rows a phone marks: the number an alias was merged into where it was."""
    found = Entrant.objects.filter(
        tournament=tournament, cup_player__circuit_player__isnull=False
    ).values_list(
        "number", "cup_player__circuit_player__number", "cup_player__circuit_player__merged_into__number"
    )
    return {start: kept or number for start, number, kept in found}


def row_numbers(tournament: Tournament) -> defaultdict[int, int | str]:
    """``register_numbers`` as a page's rows read it: "" for an entrant without one."""
    found: defaultdict[int, int | str] = defaultdict(str)
    found.update(register_numbers(tournament))
    return found


def names_of(circuit: Circuit, numbers: Sequence[int]) -> dict[int, str]:
    """The public names of the numbers a phone follows (one statement): by each
    number as kept on the phone, an alias finding the entry it was merged into."""
    rows = CircuitPlayer.objects.filter(circuit=circuit, number__in=list(numbers)).select_related(
        "merged_into"
    )
    return {row.number: public_name(row.merged_into or row) for row in rows}


# -- Mein Tag ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    """Where she plays the round: ``table`` and ``seat``, or a bye; her tablemates in seat order."""

    round: int
    released: bool
    table: int | None = None
    seat: int | None = None
    mates: tuple[str, ...] = ()
    bye: bool = False


def current_seat(tournament: Tournament, entrant: Entrant) -> Seat | None:
    """Her place in this round: "Runde 2: Tisch 7, Platz 3" with her tablemates,
    or a bye; ``None`` before the first draw or when she does not play that
    round (four statements at most). This round is the latest released one, or
    the next drawn once it is complete (its seats are on the board already);
    before the first release, round 1 as drawn."""
    rounds = list(
        Round.objects.filter(tournament=tournament)
        .exclude(status=Round.Status.PLANNED)
        .order_by("number")
        .only("number", "status", "draw")
    )
    current = rounds[0] if rounds else None
    for index, round_ in enumerate(rounds):
        if round_.status == Round.Status.RELEASED:
            current = round_
        elif round_.status == Round.Status.COMPLETE:
            current = rounds[index + 1] if index + 1 < len(rounds) else round_
    if current is None:
        return None
    released = current.status in (Round.Status.RELEASED, Round.Status.COMPLETE)
    if entrant.number in current.draw.get("byes", []):
        return Seat(current.number, released, bye=True)
    seat = TableSeat.objects.filter(round=current, entrant=entrant).select_related("table").first()
    if seat is None:
        return None
    mates = (
        TableSeat.objects.filter(table_id=seat.table_id)
        .exclude(entrant=entrant)
        .order_by("position")
        .values_list("entrant__name", flat=True)
    )
    return Seat(current.number, released, seat.table.number, seat.position, tuple(mates))


@dataclass(frozen=True)
class Standing:
    """Her place now (``None``: not ranked yet, or a filler) and its change since
    the last round (``None`` before a round is counted)."""

    place: int | None
    total: Fraction
    change: rules.Change | None
    rounds_counted: int


def last_counted_round(table: results.Standings) -> int:
    """The latest round with any table counted in the standings."""
    return max(
        (index for row in table.rows for index, cell in enumerate(row.cells, 1) if cell.points is not None),
        default=0,
    )


def standing_of(tournament: Tournament, number: int) -> Standing | None:
    """Her place now and its change since the previous round (§14.5), as the
    standings of this results version hold it (``results.standings``: worked out
    once with them, the same change the board and the hall show)."""
    table = results.standings(tournament)
    row = table.row_of(number)
    if row is None:
        return None
    return Standing(row.place, row.total, row.change, last_counted_round(table))


# -- Meine Saison --------------------------------------------------------------------------


@dataclass(frozen=True)
class CupSeason:
    """Her line of one cup's season table (``None``: no result in it yet) and
    her line of its qualification list for the final (``None``: outside the quota)."""

    cup: Cup
    line: SeasonLine | None
    held: int
    ended: bool
    as_of: date | None
    qualification: rules.QualificationRow | None
    quota: int
    min_events: int
    qualifies: bool = True  # the cup qualifies for the circuit's final (not the final's own)


@dataclass(frozen=True)
class MySeason:
    entry: CircuitPlayer
    cups: tuple[CupSeason, ...]
    final: rules.FinalStatus


@dataclass(frozen=True)
class SeasonVersions:
    """This version of everything Meine Saison reads: the circuit's cups as stored
    now (each with its circuit), each cup's season key, and one key of them all
    with the lists' (``circuit_final.standings_key``)."""

    cups: list[Cup]
    season_keys: dict[int, str]
    key: str


def season_versions(circuit: Circuit) -> SeasonVersions:
    """The versions of the circuit's seasons and lists, in one statement (its cups)."""
    cup_rows = circuit_final.circuit_cups(circuit)
    season_keys = {cup.pk: cups.season_key_of(cup) for cup in cup_rows}
    standings_key = circuit_final.standings_key(circuit, cup_rows)
    versions = "|".join([standings_key, *(season_keys[cup.pk] for cup in cup_rows)])
    return SeasonVersions(cup_rows, season_keys, hashlib.sha256(versions.encode()).hexdigest()[:32])


def my_season(entry: CircuitPlayer, circuit: Circuit, versions: SeasonVersions) -> MySeason:
    """Per cup of the circuit her season line and qualification, and her status
    for the final (``core.circuit.final_status`` over the lists of the cups that
    qualify). The seasons are ``cups.season_rankings``' and the qualification
    lists the circuit's own (``circuit_final.standings``, with each cup's tier and
    ``min_events``), both kept per version, and her season kept beside them under
    the same ``versions`` (read before it): a fixed number of statements however
    many cups, tournaments and players."""
    return caching.cached(
        f"my-season:{entry.pk}.{entry.number}:{versions.key}",
        lambda: _my_season(entry, circuit, versions.cups, versions.season_keys),
    )


def _my_season(
    entry: CircuitPlayer, circuit: Circuit, cup_rows: Sequence[Cup], season_keys: dict[int, str]
) -> MySeason:
    mine = set(circuits.cup_entries_of(entry))
    standing = circuit_final.standings(circuit, cup_rows)
    by_name = sorted(standing.cups, key=lambda c: (c.cup.name, c.cup.pk))
    seasons = cups.season_rankings([c.cup for c in by_name], season_keys)
    lists = [(c.cup.name, [line.row for line in c.lines]) for c in standing.cups if c.qualifies]
    found: list[CupSeason] = []
    for kept in by_name:
        season = seasons[kept.cup.pk]
        line = next((line for line in season.lines if line.player.pk in mine), None)
        qualification = next((line.row for line in kept.lines if line.person.number == entry.number), None)
        found.append(
            CupSeason(
                kept.cup,
                line,
                season.held,
                season.ended,
                season.as_of,
                qualification,
                len(kept.table),
                kept.cup.circuit_min_events,
                kept.qualifies,
            )
        )
    return MySeason(entry, tuple(found), rules.final_status(entry.number, lists))


@dataclass(frozen=True)
class Marks:
    """What a season table needs to mark a phone's rows (§14.3): each register
    entry's number by its id, the circuit the cookies belong to, her number and
    the numbers she follows as kept on the phone."""

    numbers: Mapping[int | None, int | str]
    circuit_id: int | str
    me: int | None
    friends: tuple[int, ...]
    names: Mapping[int | None, str]  # each entry's public name (§14.1), "" without one


def phone_marks(cup: Cup, cookies: Mapping[str, str]) -> Marks:
    """What a phone's cookies say of a cup's season table (no statement): the circuit,
    her number and the numbers she follows; no register numbers or names (those
    are in the table's rows as kept, ``season_marks``)."""
    numbers: defaultdict[int | None, int | str] = defaultdict(str)
    names: defaultdict[int | None, str] = defaultdict(str)
    if cup.circuit_id is None:
        return Marks(numbers, "", None, (), names)
    me = number_read(cookies.get(ME_COOKIE.format(circuit=cup.circuit_id)))
    friends = friends_read(cookies.get(FRIENDS_COOKIE.format(circuit=cup.circuit_id)))
    return Marks(numbers, cup.circuit_id, me, tuple(friends), names)


def season_marks(cup: Cup, season: cups.Season, cookies: Mapping[str, str]) -> Marks:
    """The marks of a cup's season table, in one statement (none outside a circuit)."""
    numbers: defaultdict[int | None, int | str] = defaultdict(str)
    names: defaultdict[int | None, str] = defaultdict(str)
    if cup.circuit_id is None:
        return Marks(numbers, "", None, (), names)
    ids = {line.player.circuit_player_id for line in season.lines} - {None}
    for row in CircuitPlayer.objects.filter(pk__in=ids):
        numbers[row.pk] = row.number
        names[row.pk] = public_name(row)
    me = number_read(cookies.get(ME_COOKIE.format(circuit=cup.circuit_id)))
    friends = friends_read(cookies.get(FRIENDS_COOKIE.format(circuit=cup.circuit_id)))
    return Marks(numbers, cup.circuit_id, me, tuple(friends), names)
