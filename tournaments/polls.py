"""The polls of the board link and the hall screen with nothing changed (one row
read and a 204), a phone's redraw of the board already drawn for another (one
row read and the kept page) and the hall screen's redraw after a change,
answered here before the rest of the middleware runs (the polls' fast path; ``UnchangedPollMiddleware``, third in
``MIDDLEWARE``).

Every player's phone asks its board every 12 s and the hall screen its own link
every 2 s; while the tables record, nearly every answer is "nothing changed".
Through the whole stack such a poll ran the session, locale, CSRF,
authentication, messages and htmx middleware and read the tournament's whole
row (its settings among it) to compare one number: about 3 ms of the
processor, under the interpreter's lock, in a server process whose other
threads draw hand forms and boards. Here it runs the security headers, resolves
its address, reads the tournament's version and board token (one statement),
counts itself against its link's budget exactly as the page would
(``board.count_request``) and answers 204 with ``no-cache``.

A phone's poll after a change is answered here too once the board's view has
drawn that redraw for another phone (``board.redraw_key``: the same for every
phone of the link in one language, kept at most ``PROGRESS_SECONDS``): right
after a sign-off every phone of the hall asks for it within 12 s, and each
answer is then a row, a lookup and the kept page compressed, not the stack and
the templates.

The hall screen's poll after a change is drawn here too (``board.hall_redraw``,
as its view draws it): the tournament with its round's tables done in one
statement, the ranked rows kept or stored (``services.hall``), a QR code kept
per process. The hall screen is one client, so its redraw cannot be kept for
another. Through the whole stack and the ORM it took 10.9 ms in process at 300
entrants (its 204 beside it 1.2 ms), here 4.0 ms.

Whatever else comes (a phone's redraw not drawn yet, a link unknown or taken
away, a database that cannot be read) goes on uncounted through the whole
stack to the view, which answers it as it always has. A poll beyond its budget is refused
here, as the view would refuse it (429 with Retry-After, in the phone's
language). Nothing is counted twice: a request is counted here only when it is
answered here.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers

from plumbing import queries
from plumbing.budgets import too_many
from plumbing.compression import compressed
from tournaments.views import board

# The board link's polls (the board, its team tab, Mein Tag) by the board's
# token; the hall screen's by its own.
BY_BOARD_TOKEN = frozenset({"tournament_board", "tournament_board_teams", "tournament_my_day"})
BY_SCREEN_TOKEN = "tournament_screen"
# The board itself: the one poll whose redraw is the same for every phone (``board.redraw_key``).
BOARD = "tournament_board"


class UnchangedPollMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return unchanged_poll(request) or self.get_response(request)


def unchanged_poll(request: HttpRequest) -> HttpResponse | None:
    """The 204 for a board or hall poll whose version is still the tournament's, a
    phone's redraw of the board already drawn for this version (``board.redraw_key``)
    or the hall screen's redraw, counted against its budget before it is drawn;
    ``None`` for anything else."""
    since = request.GET.get("since")
    if request.method != "GET" or not since or request.headers.get("HX-Request") != "true":
        return None
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    token = match.kwargs.get("token", "")
    if match.url_name in BY_BOARD_TOKEN:
        found = _version("board_token", token)
    elif match.url_name == BY_SCREEN_TOKEN:
        found = _version("screen_token", token)
    else:
        return None
    if found is None:
        return None
    (version, board_token), screen = found, match.url_name == BY_SCREEN_TOKEN
    if not board_token:
        return None
    answer: Callable[[], HttpResponse] | None = None
    if str(version) == since:
        answer = partial(HttpResponse, status=204)
    elif match.url_name == BOARD and set(request.GET) == {"since"}:
        answer = _kept_redraw(request, token, version)
    elif screen and set(request.GET) == {"since"}:
        answer = _hall_redraw(request, token)
    if answer is None:
        return None
    # Counted before the hall's redraw is drawn: one beyond its budget costs no drawing.
    if not board.count_request(request, board_token, privileged=screen):
        with translation.override(translation.get_language_from_request(request)):
            response = too_many()
    else:
        response = answer()
        if not screen:
            board.give_board_cookie(request, response)
    patch_cache_control(response, no_cache=True)
    return response


def _kept_redraw(request: HttpRequest, token: str, version: int) -> Callable[[], HttpResponse] | None:
    """The phone's redraw of the board as the view drew it for another phone (in this
    language, compressed as the view's), or ``None`` while none is kept."""
    language = translation.get_language_from_request(request)
    try:
        kept = cache.get(board.redraw_key(token, version, language))
    except DatabaseError:  # CACHE=database, its table not answering: the view says so
        return None
    if kept is None:
        return None
    return partial(_as_the_view, request, HttpResponse(kept), language)


def _as_the_view(request: HttpRequest, response: HttpResponse, language: str) -> HttpResponse:
    """A redraw answered here with the headers the view's answer gets from the rest
    of the middleware (its language, framing), compressed as the view's."""
    response["Content-Language"] = language
    response["X-Frame-Options"] = settings.X_FRAME_OPTIONS
    patch_vary_headers(response, ("Accept-Language",))
    return compressed(request, response)


def _hall_redraw(request: HttpRequest, token: str) -> Callable[[], HttpResponse] | None:
    """How to draw the hall screen's redraw after a change here, as its view draws
    it (``board.hall_redraw``, in the hall's language, compressed as the view's),
    its tournament and tables done read already; ``None`` when the link is gone or
    the database cannot be read (the view says so). A database that fails while
    it is drawn is answered as in the view ("busy, try again" where it is busy,
    ``plumbing.busy``), not drawn a second time there."""
    try:
        found = board.hall_screen(token)
    except DatabaseError:
        return None
    if found is None or not found[0].board_token:
        return None
    tournament, done = found

    def draw() -> HttpResponse:
        language = translation.get_language_from_request(request)
        with translation.override(language):
            response = board.hall_redraw(request, tournament, done, board.screen_poll(token))
        return _as_the_view(request, response, language)

    return draw


def _version(link: str, token: str) -> tuple[int, str | None] | None:
    """The tournament's version and board token behind this link (one statement,
    written out: ``queries.poll_version``), if it is not deleted; ``None`` also when
    the database cannot be read (the view says so)."""
    if not token or len(token) > 64:
        return None
    try:
        return queries.poll_version(link, token)
    except DatabaseError:
        return None
