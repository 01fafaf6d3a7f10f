"""The hand pages (new, preview, correct, delete, restore, a hand's own page) for
any ``Place``: one code path serves the login's pages (``scoring.views.hands``)
and a link's (a tournament table's, through ``scoring.public``), with what a view
needs to answer a phone's outbox the way the evenings do. The pages themselves,
not a door to the views: the views call these."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial, wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.models import User
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from plumbing import busy, pages
from plumbing.offline import OUTBOX_HEADER
from plumbing.requests import FORM_TOKEN, Request, whole
from scoring import kept_pages, phone_contract, services
from scoring.engine import HandType, InvalidInput
from scoring.forms import HandForm
from scoring.hand_links import HandLinks, signed_in
from scoring.models import Hand, Session
from scoring.presentation import number, render_line, signed
from scoring.services.hand_page import hand_page
from scoring.sheet import column_heads

# A phone sending what it kept offline (static/js/outbox.js) says so, and is told
# what was stored, or why nothing was: the reason as data, never a page to read it from.
STORED_HEADER, REFUSED_HEADER = "X-Tarock-Stored", "X-Tarock-Refused"


class Gone(Http404):
    """What a request was for is not there for this account; ``reason`` says so
    in the player's words (any other page answers with the usual 404)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def from_outbox(request: HttpRequest) -> bool:
    return request.headers.get(OUTBOX_HEADER) == "1"


def refused(reason: str | Sequence[str], *, status: int) -> HttpResponse:
    """Nothing was stored, and why, for a phone sending its outbox to keep beside the
    hand: each thing said (``reasons``; a refused form may say several) and all of it
    in one line (``reason``, as a phone of the version before reads it)."""
    reasons = [reason] if isinstance(reason, str) else list(reason)
    response = JsonResponse({"reason": " · ".join(reasons), "reasons": reasons}, status=status)
    response[REFUSED_HEADER] = "1"
    return response


def tells_the_outbox(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A form sent from a phone's outbox to an evening, hand or kind of hand that is
    gone is refused with the reason, not with the "Not Found" page."""

    @wraps(view)
    def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except Gone as gone:
            if not from_outbox(request):
                raise
            return refused(gone.reason, status=404)

    return answer


@dataclass(frozen=True)
class Place:
    """Where a hand page works: the session, the reader's right on it, where its
    pages are (``links``), who records (an account, or none) and, where a link
    lets a phone record, the phone's label and what the page's header says."""

    session: Session
    right: services.Right
    links: HandLinks
    user: User | None
    device: str = ""
    title: str = ""


def closed(request: HttpRequest, session: Session, sheet: str = "") -> HttpResponse:
    """Back to the sheet of a closed evening (``sheet``: its address, if not the
    login's), saying why nothing was changed (to a phone sending its outbox, the
    reason alone: 423, the evening is locked)."""
    if from_outbox(request):
        why = _("This evening is closed: reopen it to record or change hands and house rules.")
        return refused(why, status=423)
    # Said inside the sheet's closed notice, not a second time above it.
    messages.error(
        request,
        _("Nothing was changed: reopen the evening to record or change hands and house rules."),
        extra_tags="closed",
    )
    return redirect(sheet or reverse("scoreboard", args=[session.pk]))


MANAGED = gettext_noop(
    "Nothing was changed: the settings, players and names of this evening are fixed by the event it belongs to."
)


def managed(request: HttpRequest, session: Session) -> HttpResponse:
    """Back to the sheet of a managed evening (``Session.managed``), saying why
    nothing was changed (to a phone sending its outbox, the reason alone: 423)."""
    if from_outbox(request):
        return refused(_(MANAGED), status=423)
    messages.error(request, _(MANAGED))
    return redirect("scoreboard", pk=session.pk)


def on_sheet(hand: Hand, links: HandLinks | None = None) -> str:
    """The sheet scrolled to this hand's row. A hand changed since it was recorded
    (corrected, restored) may be older than the latest hands a sheet shows at
    first, so the whole sheet is shown."""
    every = "?all=1" if hand.version > 1 else ""
    return (links or signed_in(hand.session_id)).url("sheet") + f"{every}#{phone_contract.row_id(hand.pk)}"


def hand_page_context(
    hand: Hand,
    *,
    share_token: str | None = None,
    right: services.Right = services.Right.READ,
    links: HandLinks | None = None,
) -> dict[str, Any]:
    """A hand's own page: what it scored, how, and (for those who may see the
    sheet) its history; its buttons for those who may change it."""
    page = hand_page(hand, history=not share_token)
    links = links or signed_in(hand.session_id)
    return {
        "links": links,
        "sheet_url": links.url("sheet"),
        "hand_urls": links.of(hand.pk),
        "session": hand.session,
        "hand": hand,
        "number": hand.number,  # as on the sheet, for good: a deletion renumbers nothing
        "deltas": page.deltas,
        "share_token": share_token,
        "right": right,
        "changes": page.changes,
    }


def new_hand(request: Request, place: Place) -> HttpResponse:
    """A new hand's form, its count of cards, and saving it: for any ``Place``."""
    session = place.session
    if session.is_closed:
        return closed(request, session, place.links.url("sheet"))
    if request.method == "GET" and (complete := _round_complete(session)):
        messages.info(request, complete)
        return redirect(place.links.url("sheet"))
    game = services.game_of(session)
    form = _hand_form(request, session, game)
    posted = request.POST.get("token", "")
    token = posted if FORM_TOKEN.fullmatch(posted) else uuid.uuid4().hex

    def save() -> Hand:
        if posted not in ("", token):
            raise ForeignToken
        sent = {
            key: request.POST.getlist(key) for key in request.POST if key not in phone_contract.NOT_THE_HAND
        }
        return services.hand_record(
            session=session,
            raw=form.raw(),
            user=place.user,
            client_token=token,
            sent=sent,
            from_form=True,
            game=game,
            device=place.device,
        )

    page = partial(_hand_page, request, place, game, form, hand=None, token=token)
    return _submit(request, place, form, save, page)


def _round_complete(session: Session) -> str:
    """Why no new hand is offered: the session reached its target of played hands."""
    target = session.hands_target
    if target is None or (played := services.played_hands(session)) < target:
        return ""
    return _("Round complete: %(played)s of %(target)s") % {"played": played, "target": target}


class ForeignToken(Exception):
    """A new hand's form came back with a token the app did not make: it could not
    tell a resend from a new hand, so the form is shown again with a token of the
    app's own, and nothing is saved."""


def _hand_form(
    request: HttpRequest,
    session: Session,
    game: services.Game,
    hand: Hand | None = None,
    *,
    stored: bool = False,
    blank: tuple[HandType, str] | None = None,
) -> HandForm:
    """The hand form, built the one way every page and preview builds it: with
    what was posted, else (``hand``) the stored hand to correct, else empty; its
    labels are drawn in the request's language when the page renders.

    The dealer is the one posted; a form that names none keeps the corrected
    hand's dealer, and a new hand is dealt by the next in turn (a query spared
    on every save, which posts its dealer). ``stored``: the hand as stored,
    whatever was posted (a delete refused because the hand changed);
    ``blank``: an empty form of that type as it is when that player deals."""
    if blank is not None:
        return HandForm(game, blank[0], dealer=blank[1])
    data = request.POST if request.method == "POST" and not stored else None
    if hand is not None:
        initial = hand.as_session_hand() if data is None else None
        return HandForm(
            game, game.variant.hand_type(hand.type), data=data, initial=initial, dealer=hand.dealer or None
        )
    hand_type = _hand_type(game, (data if data is not None else request.GET).get("type"))
    posted = data.get("dealer") if data is not None else None
    dealer = posted if posted in game.players else services.proposed_dealer(session, game)
    return HandForm(game, hand_type, data=data, dealer=dealer)


def edit_hand(request: Request, hand: Hand, place: Place) -> HttpResponse:
    """A hand's correction form and saving it: for any ``Place``."""
    if hand.is_deleted and request.method != "POST":
        raise Http404("this hand was deleted")  # a form sent meanwhile gets the conflict page
    if hand.session.is_closed:
        return closed(request, hand.session, place.links.url("sheet"))
    session, game = hand.session, services.game_of(hand.session)
    form = _hand_form(request, session, game, hand)
    # The version the form was opened at; a posted form without one is taken as
    # based on an unknown version and refused like any other conflict.
    token = str(whole(request.POST.get("token")) or 0) if request.method == "POST" else str(hand.version)

    def save() -> Hand:
        raw = form.raw()
        return services.hand_edit(
            hand=hand,
            raw=raw,
            user=place.user,
            expected_version=int(token),
            from_form=True,
            game=game,
            reason=form.reason,
        )

    return _submit(
        request, place, form, save, partial(_hand_page, request, place, game, form, hand=hand, token=token)
    )


def _stored(request: HttpRequest, hand: Hand, then: str) -> HttpResponse:
    """The answer to a change the server has stored: on to the sheet, or for a
    phone sending its outbox, a plain "stored" naming the hand, so that nothing
    but this answer (never a redirect elsewhere) takes a waiting hand off the phone.
    Either names the hand stored (``STORED_HEADER``): what a caller behind a link
    reads to know that the request stored a change (a table is claimed by it)."""
    response = HttpResponse(status=204) if from_outbox(request) else redirect(then)
    response[STORED_HEADER] = str(hand.pk)
    return response


def _deleted_meanwhile() -> HttpResponse:
    """A correction from a phone's outbox of a hand deleted since: 410, gone."""
    return refused(_conflict_words(None), status=410)


def _conflict_words(current: Hand | None) -> str:
    """What the conflict notice of the hand form says (``current``: the hand as it
    is now, None where it was deleted), for a phone sending its outbox."""
    if current is None or current.is_deleted:
        why = [
            _("Someone deleted this hand while you were editing it."),
            _(
                "Your correction was not saved. The hand can be put back from the sheet's undo, "
                "or recorded again as a new hand."
            ),
        ]
    else:
        line = current.description_line()
        now = ", ".join(f"{name} {signed(value)}" for name, value in current.delta_points().items())
        why = [
            _("Someone else changed this hand while you were editing it."),
            _("It now reads:"),
            f"{render_line(line) if line is not None else ''} ({now})",
        ]
    return " ".join(" ".join(why).split())


def _form_refused(form: HandForm, error: InvalidInput | None, *, status: int) -> HttpResponse:
    """A hand form a phone sent from its outbox and the server did not store: what
    its page would say, as data (``HandForm.refusal_words``)."""
    return refused(form.refusal_words(error), status=status)


def _version_seen(request: HttpRequest) -> int | None:
    """The hand's version the deleting page showed. A page without one (from before
    pages sent it) deletes as it always did; one not understood matches no version."""
    sent = request.POST.get("version")
    if sent is None:
        return None
    seen = whole(sent)
    return -1 if seen is None else seen


def _submit(
    request: HttpRequest,
    place: Place,
    form: HandForm,
    save: Callable[[], Hand],
    page: Callable[..., HttpResponse],
) -> HttpResponse:
    """The hand form's one sequence: count the cards, or save and go to the new
    row on the sheet, or show the form again with what is missing or refused."""
    action = request.POST.get("action", "save") if request.method == "POST" else ""
    if action == "count":
        form.count_cards()
    if action == "save":
        try:
            hand = save()
        except InvalidInput as error:
            if error.field == "hands" and from_outbox(request):
                return refused(error.words(_, number), status=409)  # the target reached, say
            form.add_error(error)
            if from_outbox(request):
                return _form_refused(form, error, status=422)
        except services.HandConflict as conflict:
            if conflict.current.is_deleted and from_outbox(request):
                return _deleted_meanwhile()
            if from_outbox(request):
                return refused(_conflict_words(conflict.current), status=409)
            return page(conflict=conflict.current, status=409)
        except (OperationalError, InterfaceError) as error:
            if not busy.is_busy(error):
                raise
            form.other_errors.append(busy.message())
            return busy.answer(page())
        except ForeignToken:
            why = _(
                "This form came back with a one-time mark the app did not give it, so nothing was saved. "
                "Check the hand and save it again."
            )
            form.other_errors.append(why)
            if from_outbox(request):
                return _form_refused(form, None, status=400)
            return page(status=400)
        except services.SessionClosed as refusal:
            return closed(request, refusal.session, place.links.url("sheet"))
        else:
            return _stored(request, hand, on_sheet(hand, place.links))
    return page()


def _hand_type(game: services.Game, raw: str | None) -> HandType:
    allowed = {t.value: t for t in game.variant.allowed_hand_types(game.options)}
    if raw and raw not in allowed:
        raise Gone(_("This evening's house rules do not allow this kind of hand."))
    return allowed.get(raw or "", HandType.PLAYED)


def _preview(game: services.Game, form: HandForm, session: Session, hand: Hand | None) -> dict[str, Any]:
    """The live preview: the deltas and the breakdown, or every problem still
    open (each with the input it belongs to), in the players' words; scored in
    the hand's place, as saving it will (doubled Radl)."""
    earlier = services.earlier_hands(session.pk, game, before=hand.number if hand is not None else None)
    try:
        scored = services.hand_check(game=game, raw=form.raw(), from_form=True, earlier=earlier)
    except InvalidInput as error:
        return {"problems": form.locate(error)}
    heads = column_heads(game.players)
    return {
        "deltas": [(name, scored.deltas[name]) for name in game.players],
        "short": [(heads[name], name, scored.deltas[name]) for name in game.players],
        "lines": scored.breakdown,
        "description": scored.description,
        "conversions": form.conversions(),
    }


def _hand_page(
    request: HttpRequest,
    place: Place,
    game: services.Game,
    form: HandForm,
    *,
    hand: Hand | None,
    token: str,
    conflict: Hand | None = None,
    status: int = 200,
) -> HttpResponse:
    session, links = place.session, place.links
    preview_url = links.url("preview") if hand is None else links.url("edit_preview", hand.pk)
    context = {
        "place": place,
        "sheet_url": links.url("sheet"),
        "form_url": links.url("new") if hand is None else links.url("edit", hand.pk),
        "conflict_url": links.url("edit", conflict.pk) if conflict is not None else "",
        "hand_count": _hand_count(session, hand),
        "session": session,
        "game": game,
        "form": form,
        "hand": hand,
        "token": token,
        # A redeal has nothing to fill in: what it scores shows at once.
        "preview": _preview(game, form, session, hand)
        if (request.method == "POST" or hand or form.hand_type is HandType.REDEAL)
        else None,
        "preview_url": preview_url,
        "conflict": conflict,
        "hand_types": game.variant.allowed_hand_types(game.options),
        # The quick bar's heads for the phone's preview offline (templates/scoring/_phone_preview.html).
        "phone_heads": [(head, name) for name, head in column_heads(game.players).items()],
        **_fields_per_dealer(request, session, game, form.hand_type),
    }
    if request.method == "GET" and hand is None and pages.keeps(request):
        # The fields follow the dealer only through who sits out (``Variant.form_fields``).
        # Only the form asked for without a query is kept: the default kind of hand, no
        # preview (a redeal's, scored at once, is asked for with ``?type=``).
        chosen = (game.players, form.hand_type.value, form.sitting_out, place.title)
        return kept_pages.new_hand_form(request, "scoring/hand_form.html", context, session, chosen)
    return render(request, "scoring/hand_form.html", context, status=status)


def _hand_count(session: Session, hand: Hand | None) -> tuple[int, int] | None:
    """ "Hand 9 of 16" for a session played to a target: the played hand this
    form records (a new one: the next), and the target."""
    target = session.hands_target
    if target is None:
        return None
    played = services.played_hands(session)
    return (played + 1 if hand is None else played, target)


def _fields_per_dealer(
    request: HttpRequest, session: Session, game: services.Game, hand_type: HandType
) -> dict[str, Any]:
    """Who sits out follows from the dealer alone: where someone does, the page
    also carries the fields as they are for each dealer, unshown, so that a phone
    whose dealer changes without a connection shows the right players
    (static/js/phone/kept-form.js). Only in the pages the phone keeps (opened, not
    sent); the new hand's form draws them once, with its frame (``kept_pages``)."""
    someone_sits_out = any(game.variant.sitting_out(game.players, d) for d in game.players)
    if not someone_sits_out or request.method != "GET":
        return {"fields_per_dealer": ()}
    return {
        "fields_per_dealer": SimpleLazyObject(
            lambda: [_hand_form(request, session, game, blank=(hand_type, dealer)) for dealer in game.players]
        )
    }


def preview_hand(request: Request, place: Place, hand: Hand | None) -> HttpResponse:
    """The live preview of a new hand (``hand`` None) or of a correction: for any ``Place``."""
    session = place.session
    game = services.game_of(session)
    form = _hand_form(request, session, game, hand)
    context = {"preview": _preview(game, form, session, hand), "game": game, "form": form}
    return render(request, "scoring/hand_form.html#live", context)


def show_hand(request: Request, hand: Hand, place: Place) -> HttpResponse:
    """A hand's own page: for any ``Place``."""
    context = hand_page_context(hand, right=place.right, links=place.links)
    return render(request, "scoring/hand_detail.html", {**context, "place": place})


def delete_hand(request: Request, hand: Hand, place: Place) -> HttpResponse:
    """Delete a hand (restorable): for any ``Place``."""
    try:
        services.hand_delete(hand=hand, user=place.user, expected_version=_version_seen(request))
    except services.SessionClosed:
        return closed(request, hand.session, place.links.url("sheet"))
    except services.HandConflict as conflict:
        return _delete_conflict(request, place, conflict.current)
    return _stored(request, hand, place.links.url("sheet") + f"?undo={hand.pk}")


def _delete_conflict(request: HttpRequest, place: Place, current: Hand) -> HttpResponse:
    """The hand changed since the deleting page was drawn: show what it is now, delete
    nothing (to a phone sending its outbox, the same words as data)."""
    if from_outbox(request):
        return refused(_conflict_words(current), status=409)
    game = services.game_of(current.session)
    form = _hand_form(request, current.session, game, current, stored=True)
    return _hand_page(
        request,
        place,
        game,
        form,
        hand=current,
        token=str(current.version),
        conflict=current,
        status=409,
    )


RESTORE_REFUSED = gettext_noop("The hand cannot come back under today's house rules: %(why)s")


def restore_hand(request: Request, hand: Hand, place: Place) -> HttpResponse:
    """Put a deleted hand back: for any ``Place``."""
    try:
        services.hand_restore(hand=hand, user=place.user)
    except services.SessionClosed:
        return closed(request, hand.session, place.links.url("sheet"))
    except InvalidInput as refusal:
        full = refusal.field == "hands"
        text = _("The hand cannot come back: %(why)s") if full else _(RESTORE_REFUSED)
        messages.error(request, text % {"why": refusal.words(_, number)})
        return redirect(place.links.url("sheet"))
    messages.success(request, _("The hand is back on the sheet."))
    return _stored(request, hand, on_sheet(hand, place.links))
