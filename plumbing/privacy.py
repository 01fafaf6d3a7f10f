"""Pages drawn for a logged-in account are that account's: ``Cache-Control:
private`` tells every shared cache on the way (a proxy, a company's gateway) not
to keep them, so that nobody else is ever served someone's sheet, groups or Kasse.
Pages anyone may see (a shared board opened without a login, the login page, the
static files) are left as they are."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import patch_cache_control


class PrivatePagesMiddleware:
    """``Cache-Control: private`` on every answer drawn for a logged-in account
    (what the answer already says, ``no-store`` among it, is kept). An answer that
    never read who is logged in (a watcher's poll of a shared board) shows
    nobody's own data and is not marked: reading the account only to mark it
    would cost the poll two queries."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if drawn_for_an_account(request):
            patch_cache_control(response, private=True)
        return response


def drawn_for_an_account(request: HttpRequest) -> bool:
    """Whether the answer read the logged-in account. Django's authentication
    middleware keeps the account it read in ``_cached_user``; unread, it is not there."""
    user = getattr(request, "_cached_user", None)
    return user is not None and bool(user.is_authenticated)
