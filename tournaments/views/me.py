"""The player's own view from the board link (``TOURNAMENTS.md`` §14.3): Mein Tag
(``/b/<token>/me/``) and Meine Saison (``/b/<token>/me/season/``).

She gives her register number once: the phone keeps it in a cookie of the
circuit (``player_view.ME_COOKIE``), with the numbers she follows ("Freunde");
logged in, her account linked to the register finds her without it. No PIN: the
pages show only what §14.1 lets a public page show. Both pages are the board's:
counted against the phone's budget and the link's, ``no-cache``, 410 once the
link is taken away. The board's own poll is untouched: it marks her row on the
phone (``static/js/me.js``) from the register numbers its rows carry.
"""

from __future__ import annotations

from typing import Any, cast

from django.conf import settings
from django.http import HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from plumbing import caching, pages
from plumbing.requests import Request
from tournaments.core import circuit as rules
from tournaments.models import Circuit, CircuitPlayer, Tournament
from tournaments.services import cups, player_view
from tournaments.services.hall import figure
from tournaments.views import board
from tournaments.views.board import board_view, card_rounds
from tournaments.views.cups import render_season, season_page


def me_cookie(circuit: Circuit) -> str:
    return player_view.ME_COOKIE.format(circuit=circuit.pk)


def friends_cookie(circuit: Circuit) -> str:
    return player_view.FRIENDS_COOKIE.format(circuit=circuit.pk)


def kept_number(request: Request, circuit: Circuit) -> int | None:
    return player_view.number_read(request.COOKIES.get(me_cookie(circuit)))


def kept_friends(request: Request, circuit: Circuit) -> list[int]:
    return player_view.friends_read(request.COOKIES.get(friends_cookie(circuit)))


def who(request: Request, circuit: Circuit) -> tuple[CircuitPlayer | None, int | None]:
    """Her register entry: by the number the phone keeps, else by her account;
    and the number kept when it finds no one (shown with a clear message)."""
    number = kept_number(request, circuit)
    if number is not None:
        entry = player_view.entry_by_number(circuit, number)
        return entry, (number if entry is None else None)
    return player_view.entry_of_account(circuit, request.user), None


def _keep(response: HttpResponse, name: str, value: str) -> None:
    """A cookie the page's script reads too (it marks the rows): on every page of
    the site, for ``COOKIE_DAYS``; it says who the phone follows, nothing secret."""
    response.set_cookie(
        name,
        value,
        max_age=player_view.COOKIE_DAYS * 24 * 3600,
        path="/",
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=False,
        samesite="Lax",
    )


@require_http_methods(["GET", "POST"])
@board_view
def my_day(request: Request, tournament: Tournament, token: str) -> HttpResponse:
    """Mein Tag: this round's table, seat and tablemates, her round results, her
    place now with its change since the last round; the form for her number and
    the numbers she follows. A poll (``since``) with nothing changed is a 204
    (``tournaments.polls``)."""
    circuit = player_view.circuit_of(tournament)
    if request.method == "POST":
        return _posted(request, tournament, token, circuit)
    return _day_page(request, tournament, token, circuit)


def _day_page(
    request: Request,
    tournament: Tournament,
    token: str,
    circuit: Circuit | None,
    *,
    problem: str = "",
    typed: str = "",
    status: int = 200,
) -> HttpResponse:
    """Mein Tag, kept whole per version of the board and the register, per register
    entry and the numbers she follows, for ``PROGRESS_SECONDS`` at most; a refusal
    (``problem``, 400) is drawn for its request alone."""
    context: dict[str, Any] = {
        "tournament": tournament,
        "token": token,
        "circuit": circuit,
        "problem": problem,
        "typed": typed,
        "version": tournament.version,
    }
    shown: tuple[object, ...] = (tournament.name, tournament.played_on, request.user.is_authenticated)
    if circuit is not None:
        entry, unknown = who(request, circuit)
        friends = kept_friends(request, circuit)
        context.update(_day_of(tournament, circuit, entry, friends))
        context["unknown"] = unknown
        context["by_account"] = entry is not None and kept_number(request, circuit) is None
        shown += (circuit.pk, circuit.name, unknown, context["by_account"], _shown_entry(entry), friends)
        shown += (context["day_key"],)
    template = "tournaments/board/me.html#day" if request.htmx else "tournaments/board/me.html"
    return pages.render_kept(request, template, context, shown, status=status)


def _day_of(
    tournament: Tournament, circuit: Circuit, entry: CircuitPlayer | None, friends: list[int]
) -> dict[str, Any]:
    """Her day and the names of the numbers she follows, read from the cache or
    built only when the page is drawn; ``day_key``: this version of her day."""
    day_key = _day_key(tournament, circuit, entry)
    found = {
        "day_key": day_key,
        # The register's names: a new version of the circuit (in ``day_key``) when they change.
        "friends": SimpleLazyObject(lambda: _friends_named(circuit, friends)),
    }
    if entry is None:
        return {**found, "entry": None}
    day = SimpleLazyObject(lambda: caching.cached(day_key, lambda: _day(tournament, entry)))
    parts = {
        field: _part(day, field) for field in ("entrant", "seat", "rounds", "standing", "total", "change")
    }
    return {**found, **parts, "entry": entry, "name": player_view.public_name(entry)}


def _part(day: Any, field: str) -> Any:
    return SimpleLazyObject(lambda: day.get(field))


def _friends_named(circuit: Circuit, friends: list[int]) -> list[tuple[int, str]]:
    names = player_view.names_of(circuit, friends) if friends else {}
    return [(number, names.get(number, "")) for number in friends]


def _day_key(tournament: Tournament, circuit: Circuit, entry: CircuitPlayer | None) -> str:
    """This version of her day: of the board (``Tournament.version``: a seat, a table
    locked, a ranking changed), of the circuit's register (her entries in its cups)
    and the language; a running table's hands played are kept at most
    ``PROGRESS_SECONDS``, as the board keeps them."""
    moment = board.progress_window()  # the board's window, looked up where it is defined
    whose = entry.pk if entry is not None else "-"
    return (
        f"my-day:{tournament.ranking_key}:c{circuit.pk}.{circuit.version}:{whose}:{get_language()}:{moment}"
    )


def _day(tournament: Tournament, entry: CircuitPlayer) -> dict[str, Any]:
    entrant = player_view.entrant_of(tournament, entry)
    context: dict[str, Any] = {"entry": entry, "name": player_view.public_name(entry), "entrant": entrant}
    if entrant is None:
        return context
    standing = player_view.standing_of(tournament, entrant.number)
    context.update(
        {
            "seat": player_view.current_seat(tournament, entrant),
            "rounds": card_rounds(entrant),
            "standing": standing,
            "total": figure(standing.total) if standing is not None else "0",
            "change": _change(standing.change) if standing is not None else None,
        }
    )
    return context


def _change(change: rules.Change | None) -> dict[str, str] | None:
    """The change as shown ("▲ 2", "neu") and in words for screen readers (§14.5)."""
    if change is None:
        return None
    if change.new:
        return {"symbol": _("new"), "words": _("new in the ranking")}
    n = abs(change.by)
    if change.by > 0:
        words = ngettext("up %(n)s place", "up %(n)s places", n) % {"n": n}
    elif change.by < 0:
        words = ngettext("down %(n)s place", "down %(n)s places", n) % {"n": n}
    else:
        words = _("place kept")
    return {"symbol": change.symbol() if change.by else "–", "words": words}


def _posted(request: Request, tournament: Tournament, token: str, circuit: Circuit | None) -> HttpResponse:
    """Her number given or forgotten, a number followed or no longer: kept on the
    phone. A refusal names the field and changes nothing; sent twice, kept once."""
    action = request.POST.get("action", "number")
    typed = (request.POST.get("number") or "").strip()[:12]
    if action not in ("number", "forget", "follow", "unfollow"):
        return _refused(
            request, tournament, token, circuit, _("Action: one of number, forget, follow, unfollow."), typed
        )
    if circuit is None:
        return _refused(
            request,
            tournament,
            token,
            circuit,
            _("Number: this tournament belongs to no circuit, so it knows no register numbers."),
            typed,
        )
    back = HttpResponseRedirect(reverse("tournament_my_day", args=[token]), status=303)
    if action == "forget":
        back.delete_cookie(me_cookie(circuit), path="/")
        return back
    number = player_view.number_read(typed)
    if number is None:
        return _refused(
            request, tournament, token, circuit, _("Number: a whole number from 1 to 999999."), typed
        )
    friends = kept_friends(request, circuit)
    if action == "unfollow":
        _keep(back, friends_cookie(circuit), player_view.friends_text([n for n in friends if n != number]))
        return back
    if player_view.entry_by_number(circuit, number) is None:
        message = _("Number: Nr. %(number)s is not in the register of %(circuit)s.") % {
            "number": number,
            "circuit": circuit.name,
        }
        return _refused(request, tournament, token, circuit, message, typed)
    if action == "number":
        _keep(back, me_cookie(circuit), str(number))
    elif number not in friends and len(friends) >= player_view.FRIENDS_MOST:
        message = _("Number: you follow %(n)s numbers already, the most a phone keeps.") % {
            "n": player_view.FRIENDS_MOST
        }
        return _refused(request, tournament, token, circuit, message, typed)
    else:
        _keep(back, friends_cookie(circuit), player_view.friends_text([*friends, number]))
    return back


def _refused(
    request: Request, tournament: Tournament, token: str, circuit: Circuit | None, problem: str, typed: str
) -> HttpResponse:
    return _day_page(request, tournament, token, circuit, problem=problem, typed=typed, status=400)


@require_GET
@board_view
def my_season(request: Request, tournament: Tournament, token: str) -> HttpResponse:
    """Meine Saison: per cup of the circuit her cup points, counted results best
    first, place, participations and podiums, and where she stands for the
    circuit's final ("qualifiziert über RTC, 104 Vorrundenpunkte"). Kept whole
    per version of the circuit's seasons and lists and per register entry."""
    circuit = player_view.circuit_of(tournament)
    context: dict[str, Any] = {"tournament": tournament, "token": token, "circuit": circuit}
    shown: tuple[object, ...] = (tournament.name, request.user.is_authenticated)
    if circuit is not None:
        entry, unknown = who(request, circuit)
        context.update({"unknown": unknown, "entry": entry})
        shown += (circuit.pk, circuit.name, circuit.season, unknown, _shown_entry(entry))
        if entry is not None:
            versions = player_view.season_versions(circuit)
            context.update(_season_of(entry, circuit, versions))
            shown += (versions.key,)
    return pages.render_kept(request, "tournaments/board/season.html", context, shown)


def _shown_entry(entry: CircuitPlayer | None) -> tuple[object, ...] | None:
    """What a page shows of her register entry (her number, name and place)."""
    if entry is None:
        return None
    return (entry.pk, entry.number, entry.family, entry.given, entry.place, entry.public_name)


def _season_of(
    entry: CircuitPlayer, circuit: Circuit, versions: player_view.SeasonVersions
) -> dict[str, Any]:
    """Her season, read from the cache or built only when the page is drawn."""
    season = SimpleLazyObject(lambda: player_view.my_season(entry, circuit, versions))
    return {
        "name": player_view.public_name(entry),
        "season": season,
        "final": SimpleLazyObject(lambda: final_text(cast(player_view.MySeason, season).final)),
    }


def final_text(status: rules.FinalStatus) -> str:
    """Where she stands for the final, in the reader's language (§14.3; the
    German is ``FinalStatus.text``'s)."""
    if status.qualified:
        return _("qualified through %(cup)s, %(points)s Vorrundenpunkte") % {
            "cup": status.cup,
            "points": status.vorrundenpunkte,
        }
    if status.cup is not None:
        return ngettext(
            "%(n)s more tournament for the minimum participation (%(cup)s)",
            "%(n)s more tournaments for the minimum participation (%(cup)s)",
            status.missing,
        ) % {"n": status.missing, "cup": status.cup}
    return _("not within the qualifying places")


@require_GET
@board_view
def cup_season(request: Request, tournament: Tournament, token: str) -> HttpResponse:
    """The season table of the tournament's cup (§5.4) from the board link, with
    what §14.1 lets a public page show (the register's public name, place and
    number); her row and her friends' marked (§14.3). Kept whole per version of
    the season, the marks put in per request."""
    cup = cups.cup_seen(tournament.cup_id) if tournament.cup_id is not None else None
    context: dict[str, Any] = {"tournament": tournament, "token": token, "cup": cup}
    if cup is None:
        shown = (tournament.name, request.user.is_authenticated)
        return pages.render_kept(request, "tournaments/board/cup_season.html", context, shown)
    context.update(season_page(cup, request.COOKIES, public=True))
    return render_season(request, "tournaments/board/cup_season.html", context, tournament.name)
