"""The table link (``/t/<token>/``): no account, one table-round, nothing else
(TOURNAMENTS.md §3.1–3.3). The phone that records first claims the table; other
phones with the link watch read-only. The hand pages are the evenings' own
(``scoring.public``), reached through a ``Place`` this module resolves from
the link instead of from a login.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from decimal import Decimal
from functools import wraps
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from plumbing.budgets import Budget, fresh, over_budget
from plumbing.clients import give_cookie
from plumbing.compression import quick_gzip_page
from plumbing.requests import Request, posted_token
from scoring import public
from scoring.models import Hand, Session
from scoring.public import (
    Gone,
    HandLinks,
    Place,
    from_outbox,
    money,
    refused,
    sheet_context,
    tells_the_outbox,
)
from scoring.services import Right
from tournaments.models import TableRound, Tournament
from tournaments.services import desk, plan, results, tables

# The hand pages behind a table link, by what they are (``scoring.hand_links``).
TABLE_LINKS = {
    "sheet": "tournament_table",
    "new": "tournament_table_hand_new",
    "preview": "tournament_table_hand_preview",
    "hand": "tournament_table_hand",
    "edit": "tournament_table_hand_edit",
    "edit_preview": "tournament_table_hand_edit_preview",
    "delete": "tournament_table_hand_delete",
    "restore": "tournament_table_hand_restore",
}

# Requests a minute through a table link (``plumbing.budgets``). A watching phone
# polls every 3 s (20); the phone that writes opens the form, previews as it is
# filled in, saves, and sends what waited offline all at once. Four players and a
# few guests make about a hundred; the phone that writes is counted apart.
TABLE_PER_PHONE = 120
TABLE_PER_ADDRESS = 240  # requests without the phone's cookie, by their address
TABLE_PER_MINUTE = 1200  # every phone but the writer's together
TABLE_PER_WRITER = 240
TABLE = Budget(
    "table-link",
    per_phone=TABLE_PER_PHONE,
    per_address=TABLE_PER_ADDRESS,
    per_link=TABLE_PER_MINUTE,
    own=TABLE_PER_WRITER,
)
# The short-code page: codes typed, by address (a cookie is not asked: it costs
# nothing to drop), and by everyone together; six characters of 31 are not guessed.
CODE_PER_ADDRESS = 10
CODE_PER_MINUTE = 600
CODE = Budget(
    "table-code", per_phone=CODE_PER_ADDRESS, per_address=CODE_PER_ADDRESS, per_link=CODE_PER_MINUTE, own=0
)
ZERO = Decimal("0.00")
PHONE_COOKIE_DAYS = 2


def table_view(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The table behind the link, counted against the phone's budget and the
    link's; the phone that writes is counted apart and never held up by the
    others. A link that no longer works (reissued, or never made) answers 410.
    The phone's cookie is given on its first visit; every answer says ``no-cache``."""

    @fresh
    @wraps(view)
    def answer(request: Request, token: str, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            table = tables.table_by_token(token)
        except TableRound.DoesNotExist:
            if from_outbox(request):
                return refused(_(GONE), status=410)
            return render(request, "tournaments/table/gone.html", status=410)
        cookie = request.COOKIES.get(tables.PHONE_COOKIE, "")
        writes = tables.claim_of(table, cookie).mine
        limited = over_budget(request, TABLE, token, cookie=tables.PHONE_COOKIE, privileged=writes)
        if limited is not None:
            return limited
        given = "" if cookie else tables.new_phone_cookie()
        request.table_phone = cookie or given  # type: ignore[attr-defined]
        response = view(request, table, *args, **kwargs)
        if given:
            give_cookie(response, tables.PHONE_COOKIE, given, days=PHONE_COOKIE_DAYS, path="/t/")
        return response

    return answer


GONE = gettext_noop("This table link no longer works: the organiser has issued a new one.")
NOT_RELEASED = gettext_noop("Round %(round)s is not released yet.")


def phone_of(request: HttpRequest) -> str:
    return str(getattr(request, "table_phone", ""))


def place_of(request: HttpRequest, table: TableRound, *, right: Right) -> Place:
    session = tables.open_table(table)
    user = request.user if request.user.is_authenticated else None
    return Place(
        session=session,
        right=right,
        links=HandLinks(TABLE_LINKS, (table.link_token,)),
        user=user,
        device=tables.device_label(phone_of(request)),
        title=tables.title(table),
    )


def writer(request: HttpRequest, table: TableRound) -> Place | HttpResponse:
    """The place to record at, for the phone that holds the table or any phone
    while it is free (its forms and previews claim nothing: see ``saving``); for
    any other, why not (403, nothing changed)."""
    if not tables.is_released(table):
        return _refusal(request, table, _(NOT_RELEASED) % {"round": table.round.number})
    if table.is_locked or table.round.tournament.status == Tournament.Status.FINAL:
        return _refusal(request, table, _("This table is signed: its sheet is read-only."))
    if table.opened_by_organiser:
        return _refusal(request, table, _(OPENED_BY_ORGANISER))
    state = tables.claim_of(table, phone_of(request))
    if not (state.mine or state.free):
        return _refusal(request, table, tables.watching(table))
    return place_of(request, table, right=Right.RECORD)


def saving(request: HttpRequest, table: TableRound, page: Callable[[Place], HttpResponse]) -> HttpResponse:
    """A hand page that may store a change (new, correct, delete, restore): the
    first change it stores at a free table claims the table for this phone
    (``tables.table_save``); showing its form, a count of cards or a refusal claims nothing."""
    place = writer(request, table)
    if isinstance(place, HttpResponse):
        return place
    if request.method != "POST":
        return page(place)
    try:
        return tables.table_save(table, cookie=phone_of(request), save=lambda: page(place))
    except tables.TableRefused as refusal:
        return _refusal(request, table, refusal.reason)


OPENED_BY_ORGANISER = gettext_noop(
    "The tournament's organisers opened this table to correct it: until they sign it again, its sheet is read-only here."
)


def tournament_final(table: TableRound) -> bool:
    return table.round.tournament.status == Tournament.Status.FINAL


def _not_here(table: TableRound) -> str:
    """Why this phone only watches: the organiser corrects the table, or another phone writes."""
    return _(OPENED_BY_ORGANISER) if table.opened_by_organiser else tables.watching(table)


def _refusal(request: HttpRequest, table: TableRound, reason: str) -> HttpResponse:
    if from_outbox(request):
        return refused(reason, status=403)
    context = {
        "table": table,
        "reason": reason,
        "sheet_url": reverse("tournament_table", args=[table.link_token]),
    }
    return render(request, "tournaments/table/refused.html", context, status=403)


def _hand(table: TableRound, hand_id: int) -> Hand:
    """A hand of this table's session, else 404: a table link opens nothing else."""
    session = tables.open_table(table)
    hand = Hand.objects.filter(pk=hand_id, session_id=session.pk).first()
    if hand is None:
        raise Gone(_("This hand is no longer on this table's sheet."))
    hand.session = session
    return hand


# --------------------------------------------------------------------------
# The short code, typed when the slip's QR code cannot be read


@fresh
@require_http_methods(["GET", "POST"])
def table_code(request: Request) -> HttpResponse:
    """A field for the slip's short code; the table link it names, or why not (400)."""
    if request.method != "POST":
        return render(request, "tournaments/table/code.html", {"code": "", "error": ""})
    if (limited := over_budget(request, CODE, "typed", cookie="")) is not None:
        return limited
    code = request.POST.get("code", "")[:40]
    table = plan.table_by_code(code)
    if table is not None:
        return redirect("tournament_table", token=table.link_token)
    error = _("Code: no open table has this code. Six letters and digits, as printed beside the QR code.")
    return render(request, "tournaments/table/code.html", {"code": code, "error": error}, status=400)


# --------------------------------------------------------------------------
# The table page


@quick_gzip_page
@never_cache
@require_GET
@table_view
def table_page(request: Request, table: TableRound) -> HttpResponse:
    """The table: header, players in seat order and the first dealer, the round
    clock, the sheet; for the writing phone its buttons, for the others who
    writes and where the table is signed. Every phone's page polls, claimed or
    not, so a hand saved elsewhere shows within seconds."""
    if not tables.is_released(table):
        context = {"table": table, "reason": _(NOT_RELEASED) % {"round": table.round.number}}
        return render(request, "tournaments/table/waiting.html", context)
    session = tables.open_table(table)
    clock = desk.table_clock(table)
    version = live_version(table, session, clock)
    if request.htmx and request.GET.get("since") == version:
        return HttpResponse(status=204)  # nothing changed
    state = tables.claim_of(table, phone_of(request))
    can_write = (state.mine or state.free) and table.link_writes and not tournament_final(table)
    context = _table_context(request, table, session, state, can_write=can_write)
    context |= {"version": version, **clock_context(clock)}
    template = "tournaments/table/table.html#live" if request.htmx else "tournaments/table/table.html"
    return render(request, template, context)


# How often a table's pages ask whether anything changed: a hand saved on the
# writing phone shows on every other phone within 5 s.
POLL_SECONDS = 3


def live_version(table: TableRound, session: Session | None, clock: desk.Clock | None) -> str:
    """What a table page's poll compares, read from the rows the link resolves
    (the table, its round, tournament and session): its hands, state, claim and clock."""
    hands = session.version if session is not None else 0
    ends = int(clock.ends.timestamp()) if clock is not None else ""
    claim = table.claim_digest[:8]
    return f"{hands}.{table.status}.{claim}.{int(table.opened_by_organiser)}.{table.round.tournament.status}.{ends}"


def clock_context(clock: desk.Clock | None) -> dict[str, Any]:
    """The round clock as a page draws it: the end time in the server's clock
    (the page counts down with ``static/js/clock.js``)."""
    return {"clock": clock, "now_ms": int(timezone.now().timestamp() * 1000), "poll_seconds": POLL_SECONDS}


def _table_context(
    request: Request, table: TableRound, session: Session, state: tables.Claim, *, can_write: bool
) -> dict[str, Any]:
    """What the table page shows: the header, the players, who writes, the sums so far and the sheet."""
    place = place_of(request, table, right=Right.RECORD if can_write else Right.READ)
    played = tables.played(table)
    return {
        "table": table,
        "tournament": table.round.tournament,
        "session": session,
        "place": place,
        "links": place.links,
        "right": place.right,
        "share_token": None,
        "claim": state,
        "can_write": can_write,
        "watching": "" if can_write or table.is_locked else _not_here(table),
        "signed_where": "" if state.mine or not table.link_writes else tables.signed_where(table),
        "polls": not tournament_final(table),
        "played": played,
        "next": played + 1 if played < table.hands_target else None,
        "players": tables.players(table),
        "first_dealer": session.first_dealer,
        "seats_open": can_write and not tables.has_hands(table),
        "kontra_line": _kontra_line(table),
        "corrections": desk.corrections(table),
        "new_url": place.links.url("new"),
        **sheet_context(session, show_all="all" in request.GET),
    }


def _kontra_line(table: TableRound) -> str:
    """Under ``kontra_cash: per_hand``, what the last hand's Kontra pays: "Kontra: Hans zahlt Erika 0,20 €".
    Under any other mode, or without money, the table's hands are not read for it (a page after every save)."""
    tournament = table.round.tournament
    if tournament.money_rate is None or results.setting(tournament, "kontra_cash") != "per_hand":
        return ""
    sums = results.table_sums(table)
    if sums.kontra is None or not sums.kontra.hands:
        return ""
    paid = sums.kontra.hands[-1]
    if not paid:
        return ""
    each = [
        _("%(payer)s pays %(payee)s %(amount)s €") % {"payer": payer, "payee": payee, "amount": money(amount)}
        for payer, payee, amount in paid
    ]
    return _("Kontra: %(payments)s") % {"payments": "; ".join(each)}


# --------------------------------------------------------------------------
# The hand pages through the link


@tells_the_outbox
@never_cache
@require_http_methods(["GET", "POST"])
@table_view
def hand_new(request: Request, table: TableRound) -> HttpResponse:
    return saving(request, table, lambda place: public.new_hand(request, place))


@require_POST
@table_view
def hand_preview(request: Request, table: TableRound, hand_id: int | None = None) -> HttpResponse:
    place = writer(request, table)
    if isinstance(place, HttpResponse):
        return place
    hand = _hand(table, hand_id) if hand_id is not None else None
    return public.preview_hand(request, place, hand)


@require_GET
@table_view
def hand_detail(request: Request, table: TableRound, hand_id: int) -> HttpResponse:
    if not tables.is_released(table):
        return _refusal(request, table, _(NOT_RELEASED) % {"round": table.round.number})
    state = tables.claim_of(table, phone_of(request))
    can_write = (state.mine or state.free) and table.link_writes and not tournament_final(table)
    place = place_of(request, table, right=Right.RECORD if can_write else Right.READ)
    return public.show_hand(request, _hand(table, hand_id), place)


@tells_the_outbox
@never_cache
@require_http_methods(["GET", "POST"])
@table_view
def hand_edit(request: Request, table: TableRound, hand_id: int) -> HttpResponse:
    return saving(request, table, lambda place: public.edit_hand(request, _hand(table, hand_id), place))


@tells_the_outbox
@require_POST
@table_view
def hand_delete(request: Request, table: TableRound, hand_id: int) -> HttpResponse:
    return saving(request, table, lambda place: public.delete_hand(request, _hand(table, hand_id), place))


@require_POST
@table_view
def hand_restore(request: Request, table: TableRound, hand_id: int) -> HttpResponse:
    return saving(request, table, lambda place: public.restore_hand(request, _hand(table, hand_id), place))


# --------------------------------------------------------------------------
# Seats, hand-over, sign-off


@require_POST
@table_view
def seats(request: Request, table: TableRound) -> HttpResponse:
    """The scorer's seat order and first dealer, before the first hand (§2.3)."""
    place = writer(request, table)
    if isinstance(place, HttpResponse):
        return place
    order = [request.POST.get(f"seat{n}", "") for n in range(1, table.size + 1)]
    try:
        tables.change_seats(table, order=order, first_dealer=request.POST.get("first_dealer", ""))
    except tables.TableRefused as refusal:
        messages.error(request, refusal.reason)
        return redirect(place.links.url("sheet") + "#seats")
    messages.success(request, _("Seats saved."))
    return redirect(place.links.url("sheet"))


@never_cache
@require_POST
@table_view
def handover(request: Request, table: TableRound) -> HttpResponse:
    """The writing phone asks for a code; another phone takes the table with it."""
    sheet = reverse("tournament_table", args=[table.link_token])
    if table.is_locked:
        return _refusal(request, table, _("This table is signed: its sheet is read-only."))
    try:
        if request.POST.get("action") == "code":
            code = tables.handover_code(table, phone_of(request))
            return render(
                request, "tournaments/table/handover.html", {"table": table, "code": code, "sheet_url": sheet}
            )
        tables.take_over(table, phone_of(request), request.POST.get("code", ""))
    except tables.TableRefused as refusal:
        context = {"table": table, "reason": refusal.reason, "sheet_url": sheet}
        return render(request, "tournaments/table/refused.html", context, status=403)
    messages.success(request, _("This phone writes at this table now."))
    return redirect(sheet)


@never_cache
@require_http_methods(["GET", "POST"])
@table_view
def signoff(request: Request, table: TableRound) -> HttpResponse:
    """The column sums in large figures, the zero check, the money and who pays
    whom, and the signatures the tournament asks for (§3.3)."""
    if not tables.is_released(table):
        return _refusal(request, table, _(NOT_RELEASED) % {"round": table.round.number})
    error, field = "", ""
    if request.method == "POST":
        try:
            tables.sign_off(
                table,
                cookie=phone_of(request),
                user=request.user,
                scorer=request.POST.get("scorer", ""),
                checker=request.POST.get("checker", ""),
                client_token=posted_token(request),
            )
        except tables.TableRefused as refusal:
            error, field = refusal.reason, refusal.field
        else:
            return redirect("tournament_table_signoff", token=table.link_token)
        table = tables.table_by_token(table.link_token)
    version = live_version(table, table.session, None)
    if request.htmx and request.GET.get("since") == version:
        return HttpResponse(status=204)  # nothing changed
    return _signoff_page(request, table, error=error, field=field, version=version)


def _signoff_page(
    request: Request, table: TableRound, *, error: str, field: str, version: str
) -> HttpResponse:
    """The sign-off page; where this phone cannot sign, it says who writes and
    where the table is signed, and follows the table by itself (polled)."""
    sums = results.table_sums(table)
    organiser = tables.is_organiser(table.round.tournament, request.user)
    state = tables.claim_of(table, phone_of(request))
    writes = table.link_writes or organiser
    may_sign = writes and not table.is_locked and not tables.awaits_organiser(table)
    may_sign = may_sign and (state.mine or state.free or organiser)
    played = tables.played(table)
    ready = played >= table.hands_target or organiser
    context = {
        "table": table,
        "tournament": table.round.tournament,
        "sums": [(name, sums.sums[name]) for name in sums.names],
        "check": sums.check,
        "money": [(name, sums.money[name]) for name in sums.names] if sums.money else [],
        "transfers": sums.transfers,
        "kontra": sums.kontra,
        "kontra_rows": [(name, sums.kontra.amounts.get(name, ZERO)) for name in sums.names]
        if sums.kontra
        else [],
        "played": played,
        "mode": tables.signoff_mode(table),
        "players": list(sums.names),
        "may_sign": may_sign and ready,
        "waiting": tables.awaits_organiser(table),
        "opened": table.opened_by_organiser and not organiser,
        "opened_text": _(OPENED_BY_ORGANISER),
        "error": error,
        "field": field,
        "token": uuid.uuid4().hex,
        "sheet_url": reverse("tournament_table", args=[table.link_token]),
        "session_id": table.session_id,
        "posted": request.POST if request.method == "POST" else {},
        "mine": state.mine,
        "watching": tables.watching(table) if table.claim_digest else "",
        "signed_where": tables.signed_where(table),
        "polls": not (may_sign and ready) and not tournament_final(table),
        "version": version,
        "poll_seconds": POLL_SECONDS,
    }
    template = "tournaments/table/signoff.html#live" if request.htmx else "tournaments/table/signoff.html"
    return render(request, template, context, status=400 if error else 200)
