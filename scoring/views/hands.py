"""Recording, previewing, correcting, deleting and restoring a hand: the login's
addresses of the hand pages (``scoring.hand_pages``)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring.hand_pages import (
    delete_hand,
    edit_hand,
    new_hand,
    preview_hand,
    restore_hand,
    show_hand,
    tells_the_outbox,
)
from scoring.services import Right
from scoring.views.common import Request, signed_in_hand, signed_in_place


@login_required
@tells_the_outbox
@never_cache
@require_http_methods(["GET", "POST"])
def hand_new(request: Request, pk: int) -> HttpResponse:
    return new_hand(request, signed_in_place(request, pk, need=Right.RECORD))


@login_required
@tells_the_outbox
@never_cache
@require_http_methods(["GET", "POST"])
def hand_edit(request: Request, pk: int, hand_id: int) -> HttpResponse:
    return edit_hand(request, *signed_in_hand(request, pk, hand_id, need=Right.RECORD))


@login_required
@require_POST
def hand_preview(request: Request, pk: int, hand_id: int | None = None) -> HttpResponse:
    if hand_id is None:
        return preview_hand(request, signed_in_place(request, pk, need=Right.RECORD), None)
    hand, place = signed_in_hand(request, pk, hand_id, need=Right.RECORD)
    return preview_hand(request, place, hand)


@login_required
@require_GET
def hand_detail(request: Request, pk: int, hand_id: int) -> HttpResponse:
    return show_hand(request, *signed_in_hand(request, pk, hand_id, need=Right.READ))


@login_required
@tells_the_outbox
@require_POST
def hand_delete(request: Request, pk: int, hand_id: int) -> HttpResponse:
    return delete_hand(request, *signed_in_hand(request, pk, hand_id, need=Right.RECORD))


@login_required
@require_POST
def hand_restore(request: Request, pk: int, hand_id: int) -> HttpResponse:
    return restore_hand(request, *signed_in_hand(request, pk, hand_id, need=Right.RECORD))
