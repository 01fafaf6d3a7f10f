"""The board link (``/b/<token>/``): the ranking, the seating plan with a name
search, the tables' progress, and the hall screen (``?screen=1``); a player's
card. Read-only, no account, revocable (TOURNAMENTS.md §4.3, §6).

A poll with nothing changed reads one row (the tournament's version) and
answers 204; the ranking itself is built once per ``Tournament.results_version``
(``results.standings``), and the board's ranked part and the hall screen's ranked
rows are drawn from it once per results version and language for every server
process (``services.hall``, the hall's fast path), so a phone's redraw after a
change reads them with one row. A hand at a running table changes neither: the
polls answer 204 while the tables record.
"""

from __future__ import annotations

import secrets
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from functools import wraps
from typing import Any

from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django_htmx.http import HttpResponseStopPolling

from plumbing import caching, queries
from plumbing.budgets import Budget, fresh, too_many, within_budget
from plumbing.clients import give_cookie
from plumbing.compression import quick_gzip_page
from plumbing.qr import qr_svg
from plumbing.requests import Request
from tournaments.models import Entrant, Round, RoundResult, TableRound, TableSeat, Tournament
from tournaments.services import changes, desk, hall, player_view, results, side, teams
from tournaments.services.hall import figure

# Requests a minute through the board link (``plumbing.budgets``): a phone polls
# every 12 s (5), and opens pages, searches and cards; a first visit carries no
# cookie yet, and a hall's phones share one address behind its Wi-Fi: when the
# QR code goes up, a hall of 400 opens the board within a minute (a cup-day
# benchmark's 400 phones, 20 at a time, met 429s at 300); three hundred phones
# polling make 1,500 in all. The hall screen has a link of its own, counted apart.
BOARD_PER_PHONE = 60
BOARD_PER_ADDRESS = 1200
BOARD_PER_MINUTE = 6000  # every phone of the link together
SCREEN_PER_MINUTE = 120  # the hall screen: a poll every few seconds, and its pages
BOARD = Budget(
    "board-link",
    per_phone=BOARD_PER_PHONE,
    per_address=BOARD_PER_ADDRESS,
    per_link=BOARD_PER_MINUTE,
    own=SCREEN_PER_MINUTE,
)
BOARD_COOKIE = "tarock_board"  # what a phone is counted by on the board (random, no meaning)
BOARD_COOKIE_DAYS = 2
# How often the hall screen and a player's board ask whether anything changed:
# a sign-off, desk entry, end or correction shows on the hall within 3 s and on
# a phone within 15 s. Unchanged, each poll reads one row and answers 204.
HALL_POLL_SECONDS, BOARD_POLL_SECONDS = 2, 12
# A hand at a running table changes nothing the polls compare: the board's line
# of hands played per running table is drawn from the sessions when the board is
# drawn, and kept at most this long (a page opened or a ranked change draws it anew).
PROGRESS_SECONDS = 30


def board_of(token: str) -> Tournament | None:
    if not token or len(token) > 64:
        return None
    return Tournament.objects.filter(board_token=token, deleted_at__isnull=True).first()


def board_view(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The tournament behind a board link, counted against the phone's budget and
    the link's; a link taken away answers 410. The phone's cookie is given on its
    first visit, every answer says ``no-cache`` and is compressed where the phone
    accepts it: a hall's phones fetch the board again after every change, over one wifi."""

    @fresh
    @wraps(view)
    def answer(request: Request, token: str, *args: Any, **kwargs: Any) -> HttpResponse:
        tournament = board_of(token)
        if tournament is None:
            return _gone(request)
        if not count_request(request, token):
            return too_many()
        response = view(request, tournament, token, *args, **kwargs)
        give_board_cookie(request, response)
        return response

    return quick_gzip_page(answer)


def count_request(request: Request | HttpRequest, board_token: str, *, privileged: bool = False) -> bool:
    """Count a request through the board link (``privileged``: the hall screen's own
    link, counted apart and let through when the cache cannot count): whether it is
    within its budget. The board's pages and ``tournaments.polls`` count by this."""
    return within_budget(request, BOARD, board_token, cookie=BOARD_COOKIE, privileged=privileged)


def give_board_cookie(request: Request | HttpRequest, response: HttpResponse) -> None:
    """The cookie a phone is counted by on the board, on its first visit."""
    if not request.COOKIES.get(BOARD_COOKIE):
        give_cookie(response, BOARD_COOKIE, secrets.token_urlsafe(18), days=BOARD_COOKIE_DAYS, path="/b/")


def _gone(request: Request) -> HttpResponse:
    if request.htmx:
        return HttpResponseStopPolling(render(request, "tournaments/board/gone.html#gone").content)
    return render(request, "tournaments/board/gone.html", status=410)


@require_GET
@board_view
def board(request: Request, tournament: Tournament, token: str) -> HttpResponse:
    """The board, or the hall screen's layout (``?screen=1``, counted as one more
    phone); a poll (``since``) with nothing changed never comes this far: it is
    answered 204 by ``tournaments.polls``."""
    if request.GET.get("screen") == "1":  # the hall screen on the board link, counted as a phone
        poll = reverse("tournament_board", args=[token]) + "?screen=1&"
        return _hall(request, tournament, tables_done(tournament), poll)
    query = request.GET.get("q", "").strip()[:40]
    if request.htmx and not query:  # a phone's redraw after a change: the same for every phone
        key = redraw_key(token, tournament.version, translation.get_language())
        return HttpResponse(
            caching.cached(key, lambda: _redraw(request, tournament, token), PROGRESS_SECONDS)
        )
    context = _board_page(tournament, token, query)
    if not request.htmx:
        context["me"] = me_on_board(request, tournament)
    return render(request, LIVE if request.htmx else "tournaments/board/board.html", context)


LIVE = "tournaments/board/board.html#live"


def redraw_key(token: str, version: int, language: str) -> str:
    """Where a phone's redraw of the board is kept: per board link, version and
    language, and at most ``PROGRESS_SECONDS`` (the tables' progress in it). Drawn
    by the first phone that asks after a change; ``tournaments.polls`` answers the
    others from it."""
    return f"board-redraw:{token}:{version}:{language}:{progress_window()}"


def progress_window() -> int:
    """The ``PROGRESS_SECONDS`` window a kept page with the tables' progress in it
    belongs to (the board's redraw and progress, Mein Tag): the same number for
    every server process."""
    return int(time.time()) // PROGRESS_SECONDS


def _redraw(request: Request, tournament: Tournament, token: str) -> str:
    return render_to_string(LIVE, _board_page(tournament, token, ""), request)


def _board_page(tournament: Tournament, token: str, query: str) -> dict[str, Any]:
    context = _board_context(tournament, token)
    context["query"] = query
    context["found"] = find_seats(tournament, query) if query else []
    # The ranked part as drawn once per results version and language for every
    # server process (``services.hall``, the hall's fast path): one row read at most.
    context["ranking"] = lambda: hall.board_part(tournament)
    return context


@require_GET
@board_view
def board_teams(request: Request, tournament: Tournament, token: str) -> HttpResponse:
    """The team ranking (§14.6) as a tab of the board, the side rankings below it;
    a poll with nothing changed is answered 204 as the board's is (``tournaments.polls``)."""
    table = results.standings(tournament)
    context = {
        "tournament": tournament,
        "token": token,
        "standings": table,
        "teams": teams.team_table(tournament, table),
        "sides": side.tournament_sides(tournament, table),
        "version": tournament.version,
        "poll_seconds": BOARD_POLL_SECONDS,
    }
    template = "tournaments/board/teams.html#live" if request.htmx else "tournaments/board/teams.html"
    return render(request, template, context)


def _board_context(tournament: Tournament, token: str) -> dict[str, Any]:
    """What the board shows around its ranked part (``services.hall``): the tables'
    progress (drawn when not kept)."""
    return {
        "tournament": tournament,
        "token": token,
        "progress": SimpleLazyObject(lambda: progress(tournament)),
        "progress_key": f"{tournament.ranking_key}.{progress_window()}",
        "version": tournament.version,
        "cache_seconds": caching.SECONDS,
        "poll_seconds": BOARD_POLL_SECONDS,
    }


@dataclass(frozen=True)
class MeOnBoard:
    """What the board shows of the phone's own player (§14.3): her number, name
    and start number here (``None``: she does not play in this tournament)."""

    number: int
    name: str
    start: int | None


def me_on_board(request: Request, tournament: Tournament) -> MeOnBoard | None:
    """The player this phone gave her number for, or her account links to, in the
    board's circuit; ``None`` when there is none (a few statements, on the page
    only: the board's poll never asks)."""
    circuit = player_view.circuit_of(tournament)
    if circuit is None:
        return None
    kept = player_view.number_read(request.COOKIES.get(player_view.ME_COOKIE.format(circuit=circuit.pk)))
    if kept is not None:
        entry = player_view.entry_by_number(circuit, kept)
    else:
        entry = player_view.entry_of_account(circuit, request.user)
    if entry is None:
        return None
    entrant = player_view.entrant_of(tournament, entry)
    return MeOnBoard(entry.number, player_view.public_name(entry), entrant.number if entrant else None)


@quick_gzip_page
@fresh
@require_GET
def screen(request: Request, token: str) -> HttpResponse:
    """The hall screen through its own link (the organisers open it from the
    control page): its requests count against its own budget only, never the
    public board's phones', and it is let through when the cache cannot count."""
    found = hall_screen(token)
    board_token = found[0].board_token if found is not None else None
    if found is None or board_token is None:
        return _gone(request)
    tournament, done = found
    if not count_request(request, board_token, privileged=True):
        return too_many()
    return _hall(request, tournament, done, screen_poll(token))


def screen_poll(token: str) -> str:
    """The address the hall screen on its own link polls (its query begun)."""
    return reverse("tournament_screen", args=[token]) + "?"


def _hall(request: Request, tournament: Tournament, done: Progress, poll: str) -> HttpResponse:
    """The hall screen's page, or its redraw after a change (``hall_redraw``); ``poll``
    is the address it polls (its query begun)."""
    if request.htmx:
        return hall_redraw(request, tournament, done, poll)
    return render(request, "tournaments/board/hall.html", _hall_context(request, tournament, done, poll))


def hall_redraw(request: HttpRequest, tournament: Tournament, done: Progress, poll: str) -> HttpResponse:
    """What the hall screen's poll gets after a change: the whole screen but the
    page around it, drawn from the tournament and its tables done (the request
    only for the board's address in the QR code: no session, account or template
    context of the request in it), so that ``tournaments.polls``
    answers the hall screen's own link with it, before the rest of the
    middleware, as this view answers it."""
    context = _hall_context(request, tournament, done, poll)
    return HttpResponse(render_to_string("tournaments/board/hall.html#hall", context))


def _hall_context(request: HttpRequest, tournament: Tournament, done: Progress, poll: str) -> dict[str, Any]:
    """The hall screen: its ranked rows as drawn once for this results version
    (``services.hall``, the fast path), around them the tables done, the round
    clock and a QR code to the board."""
    drawn = hall.rows(tournament)
    link = request.build_absolute_uri(reverse("tournament_board", args=[tournament.board_token]))
    return {
        "tournament": tournament,
        "version": tournament.version,
        "drawn": drawn,
        "progress": done,
        "clock": desk.Clock(done.ends) if done.ends is not None and not drawn.final else None,
        "qr": qr_svg(link, label=_("QR code of the board")),
        "poll": poll,
        "now_ms": int(timezone.now().timestamp() * 1000),
        "poll_seconds": HALL_POLL_SECONDS,
    }


# --------------------------------------------------------------------------
# Progress, seating plan, search


@dataclass(frozen=True)
class Progress:
    round: int | None
    done: int
    total: int
    # (table, played, target) of tables not yet done; the hall's (``tables_done``) has none
    running: tuple[tuple[int, int, int], ...]
    ends: datetime | None = None  # when the running round's time is up (§3.6)


SHOWN_ROUNDS = (Round.Status.RELEASED, Round.Status.COMPLETE)  # what the hall and the board show of a day
DONE = tuple(sorted(TableRound.LOCKED))


def progress(tournament: Tournament) -> Progress:
    """The latest released round: how many tables are done, and how many hands
    the others have played (``results.live_played``, as every page shows it)."""
    current = Round.objects.filter(tournament=tournament, status__in=SHOWN_ROUNDS).order_by("-number").first()
    if current is None:
        return Progress(None, 0, 0, ())
    tables = list(TableRound.objects.filter(round=current).order_by("number"))
    done = [t for t in tables if t.is_locked]
    counted = results.live_played(t for t in tables if not t.is_locked)
    running = tuple((t.number, counted.get(t.pk, 0), t.hands_target) for t in tables if not t.is_locked)
    return Progress(current.number, len(done), len(tables), running, desk.round_ends(tournament, current))


def tables_done(tournament: Tournament) -> Progress:
    """What the hall shows of the latest released round: its tables done and its
    clock, not each table's hands (``hall_screen`` reads it with the tournament)."""
    latest = (
        Round.objects.filter(tournament=tournament, status__in=SHOWN_ROUNDS)
        .annotate(tables_count=Count("tables"), done=Count("tables", filter=Q(tables__status__in=DONE)))
        .order_by("-number")
        .first()
    )
    if latest is None:
        return _tables_done(tournament, None, 0, 0)
    return _tables_done(tournament, latest, latest.tables_count, latest.done)


def hall_screen(token: str | None) -> tuple[Tournament, Progress] | None:
    """The tournament behind a hall screen's link and its tables done, in one
    statement (``plumbing.queries.hall_screen``: the hall's redraw after every change)."""
    if not token or len(token) > 64:
        return None
    found = queries.hall_screen(token, shown=SHOWN_ROUNDS, done=DONE)
    if found is None:
        return None
    return found.tournament, _tables_done(found.tournament, found.round, found.tables, found.done)


def _tables_done(tournament: Tournament, latest: Round | None, tables: int, done: int) -> Progress:
    if latest is None or not tables:  # no round released yet (a released round always has its tables)
        return Progress(None, 0, 0, ())
    return Progress(latest.number, done, tables, (), desk.round_ends(tournament, latest))


def find_seats(tournament: Tournament, query: str) -> list[tuple[str, list[str]]]:
    """Entrants whose name holds ``query``, each with "Round 2: Table 7, Seat 3" per drawn round."""
    entrants = Entrant.objects.filter(tournament=tournament, name__icontains=query).order_by("name")[:20]
    seats = (
        TableSeat.objects.filter(entrant__in=list(entrants))
        .exclude(round__status=Round.Status.PLANNED)
        .select_related("round", "table")
        .order_by("round__number")
    )
    by_entrant: dict[int, list[str]] = defaultdict(list)
    for seat in seats:
        by_entrant[seat.entrant_id].append(
            _("Round %(round)s: Table %(table)s, Seat %(seat)s")
            % {"round": seat.round.number, "table": seat.table.number, "seat": seat.position}
        )
    return [(e.name, by_entrant[e.pk]) for e in entrants]


# --------------------------------------------------------------------------
# A player's card


@dataclass(frozen=True)
class CardRound:
    round: int
    table: int | None
    seat: int | None
    opponents: tuple[str, ...]
    hands_played: int
    result: str
    table_rank: int | None
    bye: bool
    on_paper: bool = False  # typed in at the desk: its hands were counted on the slip, not here


@require_GET
@board_view
def player_card(request: Request, tournament: Tournament, token: str, number: int) -> HttpResponse:
    """One entrant: per round his table, seat, opponents, hands played, round
    result and table rank; his total and place (§6). What he paid or won is his
    table's business: the organiser's printed card shows it, the public card not."""
    entrant = Entrant.objects.filter(tournament=tournament, number=number).first()
    if entrant is None:
        return render(request, "tournaments/board/gone.html#missing", status=404)
    row = results.standings(tournament).row_of(entrant.number)
    context = {
        "tournament": tournament,
        "token": token,
        "entrant": entrant,
        "row": row,
        "tie_note": hall.tie_note(row.tie_note) if row is not None and row.tie_note else "",
        "rounds": card_rounds(entrant),
        "total": figure(row.total if row is not None else 0),
        "change": changes.shown(row.change) if row is not None else None,
    }
    return render(request, "tournaments/board/player.html", context)


def card_rounds(entrant: Entrant) -> list[CardRound]:
    found = {r.round_id: r for r in RoundResult.objects.filter(entrant=entrant).select_related("round")}
    seats = list(
        TableSeat.objects.filter(entrant=entrant).select_related("round", "table").order_by("round__number")
    )
    others: dict[int, list[str]] = defaultdict(list)
    for table_id, name in (
        TableSeat.objects.filter(table__in=[s.table_id for s in seats])
        .exclude(entrant=entrant)
        .order_by("position")
        .values_list("table_id", "entrant__name")
    ):
        others[table_id].append(name)
    # A running table's hands are read from its session: its results are written when it locks.
    played = results.live_played(seat.table for seat in seats if not seat.table.is_locked)
    rounds = []
    for seat in seats:
        result = found.get(seat.round_id)
        counted = result is not None and result.counted
        rounds.append(
            CardRound(
                round=seat.round.number,
                table=seat.table.number,
                seat=seat.position,
                opponents=tuple(others[seat.table_id]),
                hands_played=result.hands_played if counted and result else played.get(seat.table_id, 0),
                result=figure(Fraction(str(result.points))) if result and counted else "…",
                table_rank=result.table_rank if result else None,
                bye=False,
                on_paper=seat.table.status == TableRound.Status.DESK,
            )
        )
    seated = {seat.round_id for seat in seats}
    for round_id, result in found.items():
        if round_id not in seated and result.bye:
            rounds.append(CardRound(result.round.number, None, None, (), 0, "0", None, True))
    return sorted(rounds, key=lambda r: r.round)
