"""The hall screen's fast path: its ranked rows drawn once per change, for every
server process.

The hall asks every 2 s; while nothing changed it reads one row and gets a 204
(``views.board``). After a change its next poll shows the new ranking: the up to
60 ranked rows in pages of twelve, in the screen's language. Those rows depend on
nothing but the standings' snapshot (``results.standings``, one per
``Tournament.results_version``) and the language, so they are drawn here once
and stored as the tournament's ``HallRows`` for that language:

- the request that changes what the ranking counts draws them once it is
  committed, right after the new standings (``after_change``, from
  ``results.bump``), in each language the hall has been drawn in;
- every server process reads them with one row read (``rows``) and keeps them
  in its memory for that results version, so its next changed polls (a sign-off
  under ``signoff: organiser``, the clock's minutes, a second hall screen) read
  nothing more;
- a language not drawn yet, or a change made another way, is drawn by the first
  poll that misses it, and stored for the others.

What the hall draws per answer is its head (the round's tables done, the clock,
the QR code kept per process) around the stored rows. The rows are a piece of
history of their results version: drawn from the stored snapshot, never from
rows read again. No cache is involved: the rows are the database's, the memory
the process's, so a cache that is down changes nothing here.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from scoring.public import number
from tournaments.models import HallRows, Tournament
from tournaments.services import changes, results, side, teams

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
# Drawn once, stored, kept

# The rows as this server process last read or drew them, per results key and
# language (a few tournaments at a time, in up to three languages).
_KEPT: OrderedDict[tuple[str, str], Drawn] = OrderedDict()
_KEPT_MOST = 48
# One drawing or read at a time in this process: right after a change the hall's
# poll and a second screen may miss them together; one draws, the other takes it.
_DRAWING = threading.Lock()


def rows(tournament: Tournament) -> Drawn:
    """The hall's ranked rows for the tournament's results version in the active
    language: kept in this process, else read from its ``HallRows`` row (one row
    read), else drawn from the standings and stored there for every process."""
    language = _language()
    key = (tournament.results_key, language)
    kept = _KEPT.get(key)
    if kept is None:
        with _DRAWING:
            kept = _KEPT.get(key) or _stored(tournament, language) or _draw_and_store(tournament, language)
            _keep(key, kept)
    return kept


def after_change(tournament: Tournament) -> None:
    """Once a change to what the ranking counts is committed: the new standings
    built and stored (``results.standings``), and the hall's rows drawn and stored
    in every language the hall has been drawn in, so the hall's next poll, in any
    server process, reads one row."""
    results.standings(tournament)
    languages = set(HallRows.objects.filter(tournament=tournament).values_list("language", flat=True))
    for language in sorted(languages & {code for code, _name in settings.LANGUAGES}):
        with translation.override(language), _DRAWING:
            _keep((tournament.results_key, language), _draw_and_store(tournament, language))


def _language() -> str:
    return translation.get_language() or settings.LANGUAGE_CODE


def _keep(key: tuple[str, str], drawn: Drawn) -> None:
    _KEPT[key] = drawn
    while len(_KEPT) > _KEPT_MOST:
        _KEPT.popitem(last=False)


def _stored(tournament: Tournament, language: str) -> Drawn | None:
    found = (
        HallRows.objects.filter(
            tournament=tournament, language=language, results_version=tournament.results_version
        )
        .values_list("html", "pages", "final", "provisional")
        .first()
    )
    if found is None:
        return None
    html, pages, final, provisional = found
    return Drawn(mark_safe(html), pages, final, provisional)  # drawn here from the escaping template


def _draw_and_store(tournament: Tournament, language: str) -> Drawn:
    """The rows drawn from the standings as stored for this results version, and
    written as the tournament's row for the language unless a newer version is
    there already (two changes committed at once)."""
    table = results.standings(tournament)
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
        "round_heads": [_("Round %(n)s") % {"n": n} for n in range(1, table.rounds + 1)],
    }
    drawn = Drawn(render_to_string(TEMPLATE, context), len(sequence), table.final, table.provisional)
    fields = {
        "results_version": table.version,
        "html": str(drawn.html),
        "pages": drawn.pages,
        "final": drawn.final,
        "provisional": drawn.provisional,
    }
    mine = HallRows.objects.filter(tournament=tournament, language=language)
    if not mine.filter(results_version__lt=table.version).update(**fields):
        # None yet (else it is as new or newer: it stands); of two processes creating
        # it at once, one writes it and the other finds it.
        mine.get_or_create(tournament=tournament, language=language, defaults=fields)
    return drawn
