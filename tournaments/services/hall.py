"""The hall's fast path: the ranking as the hall screen and the hall's phones show
it, drawn once per change for every server process.

The hall screen asks every 2 s and each player's board every 12 s; while nothing
changed each poll reads one row and gets a 204 (``tournaments.polls``). After a
change their next polls show the new ranking: the hall its up to 60 ranked rows
in pages of twelve, every phone the board's ranked part (the whole ranking, the
side rankings, the seating plan: some 20 ms of drawing at 400 entrants). Both
depend on nothing but the standings' snapshot (``results.standings``, one per
``Tournament.results_version``) and the language, so they are drawn here once
and stored as the tournament's ``RankedPart`` rows for that part and language:

- the request that changes what the ranking counts draws them once it is
  committed, right after the new standings (``after_change``, from
  ``results.bump``), in each language each part has been drawn in, the board's
  first;
- every server process reads them with one row read (``rows``, ``board_part``)
  and keeps them in its memory for that results version, so its next changed
  polls read nothing more;
- a language not drawn yet, or a change made another way, is drawn by the first
  poll that misses it, and stored for the others.

What the hall draws per answer is its head (the round's tables done, the clock,
the QR code kept per process) around the stored rows; the board's redraw its
tables' progress around the stored part (``views.board``). The parts are a piece
of history of their results version: drawn from the stored snapshot, never from
rows read again. No cache is involved: the rows are the database's, the memory
the process's, so a cache that is down changes nothing here.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from html import escape

from django.conf import settings
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from plumbing import offline
from scoring.public import number, signed
from tournaments.models import Entrant, RankedPart, Round, TableSeat, Tournament
from tournaments.services import changes, player_view, results, side, teams

HALL_ROWS, HALL_MOST = 12, 60  # a page of the hall; beyond 60 players only places 1–60
MINUS = "\u2212"
TEMPLATE = "tournaments/board/hall.html#hall-pages"


@dataclass(frozen=True)
class HallRow:
    place: str
    name: str
    cells: tuple[str, ...]
    total: str
    key: str  # what changes when the row's numbers do (the 30 s bar)
    number: int
    change: changes.Shown | None = None  # since the previous round (§14.5)


@dataclass(frozen=True)
class Drawn:
    """The hall's ranked rows of one results version in one language, drawn."""

    html: SafeString
    pages: int
    final: bool
    provisional: bool


def hall_pages(table: results.Standings) -> list[list[HallRow]]:
    """Pages of 12 ranked rows; beyond 60 players only places 1–60."""
    ranked = [row for row in table.rows if row.place is not None][:HALL_MOST]
    rows = []
    for row in ranked:
        cells, total = tuple(_cell(cell) for cell in row.cells), figure(row.total)
        rows.append(
            HallRow(
                place=str(row.place),
                name=short_name(row.name),
                cells=cells,
                total=total,
                key=f"{row.number}:{total}:{','.join(cells)}",
                number=row.number,
                change=changes.shown(row.change),
            )
        )
    return [rows[start : start + HALL_ROWS] for start in range(0, len(rows), HALL_ROWS)] or [[]]


def figure(value: Fraction | int | None) -> str:
    """A number as the hall shows it: a real minus sign, never a hyphen."""
    if value is None:
        return ""
    text = number(abs(Fraction(value)))
    return f"{MINUS}{text}" if value < 0 else text


def _cell(cell: results.Cell) -> str:
    if cell.bye:
        return "0"
    return cell.shown or figure(cell.points)


def short_name(name: str, width: int = 16) -> str:
    """A name shortened to fit a hall row: "Huber Maria" → "Huber M."."""
    if len(name) <= width:
        return name
    first, *rest = name.split()
    short = " ".join([first, *(f"{part[0]}." for part in rest)])
    return short if len(short) <= width else short[: width - 1] + "…"


@dataclass(frozen=True)
class HallTeam:
    place: int
    name: str
    members: str  # "Huber M. + Maier J.", best first
    total: str


def _team_page(tournament: Tournament, table: results.Standings) -> dict[str, object] | None:
    """The team ranking's page (§14.6): its first twelve teams, ``None`` without teams."""
    found = teams.team_table(tournament, table)
    if found is None or not found.rows:
        return None
    rows = [
        HallTeam(
            row.place,
            short_name(row.name, 24),
            " + ".join(short_name(m.name) for m in row.members if m.counted),
            figure(row.total),
        )
        for row in found.rows[:HALL_ROWS]
    ]
    return {"rows": rows}


def hall_sequence(
    others: Sequence[tuple[str, Mapping[str, object]]], team_page: Mapping[str, object] | None
) -> list[dict[str, object]]:
    """The hall's pages in the order they rotate, numbered from 1: the ranking's
    pages, then each side ranking's; with teams (§14.6, "every third page") the
    team page after every two of those, and after the last one when they are odd
    in number, so the rotation, wrapping round, shows it every third page (with a
    single other page, every second: there is nothing to put between)."""
    found: list[dict[str, object]] = []
    for index, (kind, page) in enumerate(others):
        found.append({"kind": kind, **page})
        if team_page is not None and (index % 2 == 1 or index == len(others) - 1):
            found.append({"kind": "teams", **team_page})
    return [{"n": n, **page} for n, page in enumerate(found, 1)]


# --------------------------------------------------------------------------
# The board's ranked part

BOARD_TEMPLATE = "tournaments/board/board.html#ranking"
# What decided a tie (``core.ranking``'s notes), as the board's ranking shows it: "(bessere Runde)".
TIE_NOTES = {
    "rounds": gettext_noop("better round"),
    "best_round": gettext_noop("best round"),
    "table_ranks": gettext_noop("table ranks"),
    "lots": gettext_noop("lots"),
    "shared": gettext_noop("shared place"),
}


def tie_note(key: str) -> str:
    return _(TIE_NOTES[key]) if key in TIE_NOTES else key


@dataclass(frozen=True)
class PlanRow:
    name: str
    number: int
    tables: tuple[str, ...]  # table number per round, "" where not seated


def seating_plan(tournament: Tournament) -> list[PlanRow]:
    """Every entrant A–Z with his table in each drawn round."""
    rounds = list(
        Round.objects.filter(tournament=tournament).exclude(status=Round.Status.PLANNED).order_by("number")
    )
    seats = TableSeat.objects.filter(round__in=rounds).values_list("entrant_id", "round_id", "table__number")
    where = {(entrant, round_id): table for entrant, round_id, table in seats}
    entrants = (
        Entrant.objects.filter(tournament=tournament).order_by("name").values_list("pk", "name", "number")
    )
    return [
        PlanRow(name, number, tuple(str(where.get((pk, r.pk), "")) for r in rounds))
        for pk, name, number in entrants
    ]


def round_heads(table: results.Standings) -> list[str]:
    return [_("Round %(n)s") % {"n": n} for n in range(1, table.rounds + 1)]


def _draw_board(tournament: Tournament, table: results.Standings) -> Drawn:
    """The board's ranked part (the ranking, the side rankings, the seating plan)
    as every phone's redraw shows it; its links are relative to the board's page,
    so that it holds for the board link whatever its token. Its hundreds of rows
    are drawn here (``ranking_rows``, ``plan_rows``), the rest by the template."""
    circuit = player_view.circuit_of(tournament)
    # Register numbers by start number: the rows carry them, and a phone marks its own and its friends'.
    numbers = player_view.row_numbers(tournament)
    context = {
        "standings": table,
        "ranking_rows": ranking_rows(table, numbers),
        "sides": side.tournament_sides(tournament, table),
        "round_heads": round_heads(table),
        "plan_rows": plan_rows(seating_plan(tournament), numbers),
        "circuit_id": circuit.pk if circuit is not None else "",
    }
    return Drawn(render_to_string(BOARD_TEMPLATE, context), 1, table.final, table.provisional)


# The board's rows, drawn in one pass: through the template engine the 400 rows of
# the ranking and the seating plan took 100–140 ms per drawing (a dozen tags and
# filters per row), here about 15 ms; every value is escaped as the template
# escapes it (``html.escape``, as Django's ``escape``), each number and change
# written once per drawing.
RANKING_ROW = (
    '<tr id="entrant-{number}"{filler_class} data-nr="{nr}">'
    "<td>{place}</td><td>{name}{notes}</td>"
    '<td class="num"><strong>{total}</strong></td>{cells}</tr>'
)


def ranking_rows(table: results.Standings, numbers: Mapping[int, int | str]) -> SafeString:
    """The ranking's rows: place (with its change since the last round), name and
    card link, club and notes, total, each round."""
    left_after, filler_word = _("left after round %(n)s"), escape(_("filler"))
    tie_words = {key: escape(tie_note(key)) for key in TIE_NOTES}
    written: dict[Fraction | int, str] = {}
    changed: dict[object, str] = {}

    def figure(value: Fraction | int | None) -> str:
        if value is None:
            return ""
        if value not in written:
            written[value] = escape(signed(value))
        return written[value]

    def cell(found: results.Cell) -> str:
        text = "0" if found.bye else escape(found.shown) if found.shown else figure(found.points)
        return f'<td class="num">{text}</td>'

    drawn = []
    for row in table.rows:
        notes = []
        if row.club:
            notes.append(f' <span class="muted">{escape(row.club)}</span>')
        if row.tie_note:
            notes.append(
                f' <span class="muted tie">({tie_words.get(row.tie_note) or escape(row.tie_note)})</span>'
            )
        if row.withdrawn_after:
            notes.append(f' <span class="muted">{escape(left_after % {"n": row.withdrawn_after})}</span>')
        if row.filler:
            notes.append(f' <span class="muted">{filler_word}</span>')
        if row.change not in changed:
            changed[row.change] = _change(changes.shown(row.change))
        drawn.append(
            RANKING_ROW.format(
                number=row.number,
                filler_class=' class="filler"' if row.filler else "",
                nr=escape(str(numbers[row.number])),
                place=f"{row.place}{changed[row.change]}" if row.place else "–",
                name=f'<a href="players/{row.number}/">{escape(row.name)}</a>',
                notes="".join(notes),
                total=figure(row.total),
                cells="".join(cell(found) for found in row.cells),
            )
        )
    return mark_safe("\n".join(drawn))  # every value escaped above


def _change(shown: changes.Shown | None) -> str:
    """A place's change as ``tournaments/_change.html`` draws it, written out: a
    ranking of 400 has a few hundred kinds of change, and drawing each through the
    template doubled the drawing's time (18 → 40 ms)."""
    if shown is None:
        return ""
    return (
        f' <span class="rank-change {escape(shown.kind)}" aria-hidden="true">{escape(shown.symbol)}</span>'
        f'<span class="visually-hidden">({escape(shown.words)})</span>'
    )


def plan_rows(plan: Sequence[PlanRow], numbers: Mapping[int, int | str]) -> SafeString:
    """The seating plan's rows: each entrant A–Z with his table in each drawn round."""
    return mark_safe(  # every value escaped here
        "".join(
            f'<tr data-nr="{escape(str(numbers[row.number]))}"><td>{escape(row.name)}</td>'
            + "".join(f'<td class="r">{escape(table)}</td>' for table in row.tables)
            + "</tr>"
            for row in plan
        )
    )


# --------------------------------------------------------------------------
# Drawn once, stored, kept

# The parts as this server process last read or drew them, per tournament, part and
# language (a few tournaments at a time, two parts, in up to three languages), each
# with the results key it was drawn for: a new version takes the old one's place.
_KEPT: OrderedDict[tuple[int, str, str], tuple[str, Drawn]] = OrderedDict()
_KEPT_MOST = 48
# One drawing or read at a time in this process: right after a change the hall's
# poll and the phones may miss them together; one draws, the others take it.
_DRAWING = threading.Lock()


def rows(tournament: Tournament) -> Drawn:
    """The hall's ranked rows for the tournament's results version in the active
    language: kept in this process, else read from its ``RankedPart`` row (one row
    read), else drawn from the standings and stored there for every process."""
    return _part(tournament, RankedPart.Part.HALL)


def board_part(tournament: Tournament) -> SafeString:
    """The board's ranked part for the tournament's results version in the active
    language, as ``rows`` has the hall's: kept, else one row read, else drawn and stored."""
    return _part(tournament, RankedPart.Part.BOARD).html


def _part(tournament: Tournament, part: str) -> Drawn:
    language = _language()
    kept = _kept(tournament, part, language)
    if kept is None:
        with _DRAWING:
            kept = (
                _kept(tournament, part, language)
                or _stored(tournament, part, language)
                or _draw_and_store(tournament, part, language)
            )
            _keep(tournament, part, language, kept)
    return kept


def _kept(tournament: Tournament, part: str, language: str) -> Drawn | None:
    found = _KEPT.get((tournament.pk, part, language))
    if found is None or found[0] != tournament.results_key:
        return None
    _KEPT.move_to_end((tournament.pk, part, language))
    return found[1]


def after_change(tournament: Tournament) -> None:
    """Once a change to what the ranking counts is committed: the new standings
    built and stored (``results.standings``), and the board's ranked part and the
    hall's rows drawn and stored in every language each has been drawn in, so the
    phones' and the hall's next polls, in any server process, read one row."""
    results.standings(tournament)
    drawn = set(RankedPart.objects.filter(tournament=tournament).values_list("part", "language"))
    languages = {code for code, _name in settings.LANGUAGES}
    # The board first: every phone of the hall asks for it within 12 s, the hall screen once.
    for part, language in sorted(drawn, key=lambda found: (found[0] != RankedPart.Part.BOARD, found[1])):
        if language in languages and _kept(tournament, part, language) is None:  # not drawn for it yet
            with translation.override(language), _DRAWING:
                _keep(tournament, part, language, _draw_and_store(tournament, part, language))


def _language() -> str:
    return translation.get_language() or settings.LANGUAGE_CODE


def _keep(tournament: Tournament, part: str, language: str, drawn: Drawn) -> None:
    _KEPT[(tournament.pk, part, language)] = (tournament.results_key, drawn)
    _KEPT.move_to_end((tournament.pk, part, language))
    while len(_KEPT) > _KEPT_MOST:
        _KEPT.popitem(last=False)


def _stored(tournament: Tournament, part: str, language: str) -> Drawn | None:
    found = (
        RankedPart.objects.filter(
            tournament=tournament,
            part=part,
            language=language,
            results_version=tournament.results_version,
            release=offline.cache_version(),
        )
        .values_list("html", "pages", "final", "provisional")
        .first()
    )
    if found is None:
        return None
    html, pages, final, provisional = found
    return Drawn(mark_safe(html), pages, final, provisional)  # drawn here from the escaping templates


def _draw_and_store(tournament: Tournament, part: str, language: str) -> Drawn:
    """The part drawn from the standings as stored for this results version, and
    written as the tournament's row for the part and language unless a newer
    version is there already (two changes committed at once); another release's
    drawing of the same version is replaced."""
    table = results.standings(tournament)
    drawn = _draw_board(tournament, table) if part == RankedPart.Part.BOARD else _draw_hall(tournament, table)
    release = offline.cache_version()
    fields = {
        "results_version": table.version,
        "release": release,
        "html": str(drawn.html),
        "pages": drawn.pages,
        "final": drawn.final,
        "provisional": drawn.provisional,
    }
    mine = RankedPart.objects.filter(tournament=tournament, part=part, language=language)
    older = Q(results_version__lt=table.version) | (Q(results_version=table.version) & ~Q(release=release))
    if not mine.filter(older).update(**fields):
        # None yet (else it is as new or newer: it stands); of two processes creating
        # it at once, one writes it and the other finds it.
        mine.get_or_create(tournament=tournament, part=part, language=language, defaults=fields)
    return drawn


def _draw_hall(tournament: Tournament, table: results.Standings) -> Drawn:
    """The hall's ranked rows, its side rankings' and its team page."""
    pages = hall_pages(table)
    # Each side ranking (§14.4) a page of its own after the ranking's, its first
    # twelve places: drawn here once per results version like the ranked rows.
    sides = [
        (found.side.name, found.rows[:HALL_ROWS])
        for found in side.tournament_sides(tournament, table)
        if found.rows
    ]
    sequence = hall_sequence(
        [("ranking", {"rows": page}) for page in pages]
        + [("side", {"name": name, "rows": rows}) for name, rows in sides],
        _team_page(tournament, table),
    )
    context = {
        "sequence": sequence,
        "all_pages": len(sequence),
        "changes": any(row.change is not None for page in pages for row in page),
        "round_heads": round_heads(table),
    }
    return Drawn(render_to_string(TEMPLATE, context), len(sequence), table.final, table.provisional)
