"""Budgets of the links opened without an account (a tournament table's link,
its board, its hall screen): how many requests a minute each client may send,
and all clients of one link together, so that no client uses up another's.

A client is its phone's cookie, or its address where it sends none
(``plumbing.clients``). An ordinary client's request counts against its own
budget first and, only if that let it through, against the link's: a client
that sends too much is refused without taking anything from the others. Those
who must never wait (the phone that writes at a table, the hall screen) are
counted apart, against their own budget only, never against the link's, and are
let through when the cache cannot count (``caching.within_rate``'s
``fail_open``). Beyond a budget the answer is 429 with ``Retry-After``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, TypeVar, cast

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _

from plumbing import caching
from plumbing.clients import client_of, has_cookie

WINDOW_SECONDS = 60
View = TypeVar("View", bound=Callable[..., HttpResponseBase])


@dataclass(frozen=True)
class Budget:
    """Requests a minute through one link of a kind (``name``)."""

    name: str
    per_phone: int  # a client known by its cookie
    per_address: int  # requests that carry no cookie, by the address they come from
    per_link: int  # every ordinary client of the link together
    own: int  # the one who must never wait, counted apart


def over_budget(
    request: HttpRequest, budget: Budget, token: str, *, cookie: str, privileged: bool = False
) -> HttpResponse | None:
    """Count this request; the 429 answer if it is beyond its client's or its link's budget."""
    allowed = within_budget(request, budget, token, cookie=cookie, privileged=privileged)
    return None if allowed else too_many()


def within_budget(
    request: HttpRequest, budget: Budget, token: str, *, cookie: str, privileged: bool = False
) -> bool:
    """Count this request: whether it is within its client's and its link's budget."""
    link = f"{budget.name}:{token}"
    client = client_of(request, cookie)
    if privileged:
        allowed = caching.within_rate(f"{link}:own:{client}", budget.own, WINDOW_SECONDS, fail_open=True)
    else:
        most = budget.per_phone if has_cookie(client) else budget.per_address
        allowed = caching.within_rate(f"{link}:{client}", most, WINDOW_SECONDS) and caching.within_rate(
            link, budget.per_link, WINDOW_SECONDS
        )
    return allowed


def too_many() -> HttpResponse:
    text = _("Too many requests for this link; try again in a minute.")
    return HttpResponse(text, status=429, headers={"Retry-After": str(WINDOW_SECONDS)})


def fresh(view: View) -> View:
    """``Cache-Control: no-cache`` on every answer of a link's page or poll: a
    phone or a proxy on the way asks again each time instead of showing an old
    ranking or sheet (what the answer says besides, ``no-store`` or ``private``, stays)."""

    @wraps(view)
    def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        response = view(request, *args, **kwargs)
        patch_cache_control(response, no_cache=True)
        return response

    return cast(View, answer)
