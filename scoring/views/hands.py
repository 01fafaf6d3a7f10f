"""Recording, previewing, correcting, deleting and restoring a hand."""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable
from functools import partial
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from plumbing import busy, caching, pages
from scoring import phone_contract, services
from scoring.engine import HandType, InvalidInput
from scoring.forms import HandForm
from scoring.models import Hand, Session
from scoring.presentation import number
from scoring.services import Right
from scoring.sheet import column_heads
from scoring.views.common import (
    FORM_TOKEN,
    STORED_HEADER,
    Gone,
    Place,
    Request,
    closed,
    from_outbox,
    hand_page_context,
    on_sheet,
    refused,
    signed_in_hand,
    signed_in_place,
    tells_the_outbox,
    whole,
)

# Sent with every hand form but not part of the hand (``outbox``: what the phone files it as).
NOT_THE_HAND = ("csrfmiddlewaretoken", "token", "action", phone_contract.FIELD)


@login_required
@tells_the_outbox
@never_cache
@require_http_methods(["GET", "POST"])
def hand_new(request: Request, pk: int) -> HttpResponse:
    return new_hand(request, signed_in_place(request, pk, need=Right.RECORD))


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
        sent = {key: request.POST.getlist(key) for key in request.POST if key not in NOT_THE_HAND}
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


@login_required
@tells_the_outbox
@never_cache
@require_http_methods(["GET", "POST"])
def hand_edit(request: Request, pk: int, hand_id: int) -> HttpResponse:
    return edit_hand(request, *signed_in_hand(request, pk, hand_id, need=Right.RECORD))


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
    why = [
        _("Someone deleted this hand while you were editing it."),
        _(
            "Your correction was not saved. The hand can be put back from the sheet's undo, "
            "or recorded again as a new hand."
        ),
    ]
    return refused(" ".join(why), status=410)


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
        except services.HandConflict as conflict:
            if conflict.current.is_deleted and from_outbox(request):
                return _deleted_meanwhile()
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
        **_fields_per_dealer(request, session, game, form.hand_type),
    }
    if request.method == "GET" and hand is None and pages.keeps(request):
        return _kept_new_hand(request, place, game, form, context)
    return render(request, "scoring/hand_form.html", context, status=status)


# What the new hand's form shows of the evening's hands, drawn again for each version.
NEW_HAND_HOLES = ("count", "evening")


def _kept_new_hand(
    request: HttpRequest, place: Place, game: services.Game, form: HandForm, context: dict[str, Any]
) -> HttpResponse:
    """The new hand's form, opened before every hand and each time at a new version
    of the evening, kept (``plumbing.pages``): the frame, everything but what it shows
    of the hands (``NEW_HAND_HOLES``: "hand n of T" and the phone's evening, which the
    sheet a save leads to has drawn already), across versions, one per dealer, kind
    of hand and language; the one-time token and the CSRF token put in per view."""
    session = place.session
    frame = (
        session.pk,
        session.created_at,
        session.name,
        session.variant,
        session.options,
        game.players,
        form.hand_type.value,
        form.dealer,
        place.title,
        request.user.is_authenticated,
    )
    context = {**context, "token": pages.ONCE_MARK}
    key = (session.sheet_key, *frame)
    return pages.render_kept(
        request, "scoring/hand_form.html", context, key, frame=frame, holes=NEW_HAND_HOLES
    )


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
    (static/js/phone/kept-form.js). Only in the pages the phone keeps (opened, not sent).
    Blank fields depend on nothing but the game, the kind of hand and the page's
    address: they are drawn once under that key (``dealer_fields_key``) and the
    forms (``fields_per_dealer``) are built only when they are drawn."""
    someone_sits_out = any(game.variant.sitting_out(game.players, d) for d in game.players)
    if not someone_sits_out or request.method != "GET":
        return {"dealer_fields_key": None}
    rules = json.dumps(session.options, sort_keys=True)
    described = repr((request.path, session.variant, game.players, rules, hand_type.value))
    return {
        "dealer_fields_key": hashlib.md5(described.encode(), usedforsecurity=False).hexdigest(),
        "fields_per_dealer": SimpleLazyObject(
            lambda: [_hand_form(request, session, game, blank=(hand_type, dealer)) for dealer in game.players]
        ),
        "cache_seconds": caching.SECONDS,
    }


@login_required
@require_POST
def hand_preview(request: Request, pk: int, hand_id: int | None = None) -> HttpResponse:
    if hand_id is None:
        return preview_hand(request, signed_in_place(request, pk, need=Right.RECORD), None)
    hand, place = signed_in_hand(request, pk, hand_id, need=Right.RECORD)
    return preview_hand(request, place, hand)


def preview_hand(request: Request, place: Place, hand: Hand | None) -> HttpResponse:
    """The live preview of a new hand (``hand`` None) or of a correction: for any ``Place``."""
    session = place.session
    game = services.game_of(session)
    form = _hand_form(request, session, game, hand)
    context = {"preview": _preview(game, form, session, hand), "game": game, "form": form}
    return render(request, "scoring/hand_form.html#live", context)


@login_required
@require_GET
def hand_detail(request: Request, pk: int, hand_id: int) -> HttpResponse:
    return show_hand(request, *signed_in_hand(request, pk, hand_id, need=Right.READ))


def show_hand(request: Request, hand: Hand, place: Place) -> HttpResponse:
    """A hand's own page: for any ``Place``."""
    context = hand_page_context(hand, right=place.right, links=place.links)
    return render(request, "scoring/hand_detail.html", {**context, "place": place})


@login_required
@tells_the_outbox
@require_POST
def hand_delete(request: Request, pk: int, hand_id: int) -> HttpResponse:
    return delete_hand(request, *signed_in_hand(request, pk, hand_id, need=Right.RECORD))


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
    """The hand changed since the deleting page was drawn: show what it is now, delete nothing."""
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


@login_required
@require_POST
def hand_restore(request: Request, pk: int, hand_id: int) -> HttpResponse:
    return restore_hand(request, *signed_in_hand(request, pk, hand_id, need=Right.RECORD))


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
