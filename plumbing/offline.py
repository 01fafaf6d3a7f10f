"""What the phone keeps for when the network is gone: the web app manifest, the
service worker's script and the version of its caches, and the words its
scripts show (from the translations, never written into the scripts).

The worker's caches are named after a version computed from the files it
serves and the files the server draws its pages from (templates, the app's
Python code, the compiled translations): a deploy that changes any of them (or
the worker itself) gives a new version, so the browser installs the new worker
on the next visit and it throws the old pages and files away.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponseBase
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language, gettext

WORKER = "js/sw.js"
OUTBOX = "js/outbox.js"
# Fetched when the worker is installed, so that a page opened offline has its look and scripts.
# The pages' offline scripts: ES modules, one job each, the outbox among their imports.
PHONE_MODULES = tuple(
    f"js/phone/{name}.js"
    for name in (
        "main",
        "contract",
        "dom",
        "scoring",
        "preview",
        "saving",
        "kept-form",
        "notice",
        "sending",
        "sheet",
        "worker",
    )
)
PRECACHE = (
    "css/app.css",
    *PHONE_MODULES,
    # The hand form's own script: what a tap shows (a premium's announcement, its Kontra) offline too.
    "js/hand-form.js",
    # The keys a number keypad lacks (the minus, the slash of "41/2"), beside the fields that need them.
    "js/keys.js",
    OUTBOX,
    # The engine on the phone: the pages' side and its worker (the runtime and bundle have caches of their own).
    "js/engine.js",
    "js/engine-worker.js",
    "django_htmx/htmx-2.min.js",
    "favicon.svg",
    "icons/icon-192.png",
)
ICONS = (
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/maskable-512.png", "512x512", "maskable"),
)
# The pages of which the worker keeps no copy for offline, by what their answer says
# (``NOT_KEPT_HEADER``): the accounts' own, the admin, the language switch, the worker
# and the manifest themselves, the printable sheet and the downloads.
NOT_KEPT_HEADER = "X-Tarock-Not-Kept"
NOT_KEPT_NAMES = frozenset(
    {
        "login",
        "logout",
        "password_change",
        "password_change_done",
        "signup",
        "set_language",
        "service_worker",
        "manifest",
        "session_print",
        "session_export",
        "tournament_export",
    }
)
NOT_KEPT_NAMESPACES = frozenset({"admin"})
# The login page says it is one: a phone's outbox sent to it (logged out) sends again after the next login.
LOGIN_HEADER = "X-Tarock-Login"
# Sent by the phone's own scripts, never by a person reading a page: the worker fetching
# a page to keep for later (static/js/sw.js) and the outbox sending a hand (static/js/outbox.js).
KEEP_HEADER = "X-Tarock-Keep"
OUTBOX_HEADER = "X-Tarock-Outbox"
BACKGROUND_HEADERS = (KEEP_HEADER, OUTBOX_HEADER)
THEME_COLOUR = "#0b5d4b"  # the header's colour (--accent in app.css)
BACKGROUND_COLOUR = "#f3f1ec"  # the page's ground (--ground)


def _source(name: str) -> Path:
    found = finders.find(name)
    if not isinstance(found, str):
        raise LookupError(f"static file {name} is missing")
    return Path(found)


def version_of(paths: list[Path], urls: list[str]) -> str:
    """A short fingerprint of these files' contents and the addresses or names they go by."""
    digest = hashlib.sha256()
    for url in urls:
        digest.update(url.encode() + b"\0")
    for path in paths:
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


# What the pages are drawn from, besides the static files.
PAGE_SOURCES = (".html", ".txt", ".py", ".mo")


def page_sources() -> list[Path]:
    """The files that shape the pages the worker keeps: the templates, the Python
    code of this project's own apps, of its package and of the plumbing, the
    compiled translations."""
    base, installed = Path(settings.BASE_DIR).resolve(), Path(sys.prefix).resolve()
    engines: list[dict[str, Any]] = settings.TEMPLATES
    folders = [Path(folder) for engine in engines for folder in engine.get("DIRS", [])]
    folders += [Path(folder) for folder in settings.LOCALE_PATHS]
    for config in apps.get_app_configs():  # not Django's own, even in a virtualenv inside the project
        where = Path(config.path).resolve()
        if where.is_relative_to(base) and not where.is_relative_to(installed):
            folders.append(where)
    folders.append(base / settings.ROOT_URLCONF.partition(".")[0])  # the project's package
    folders.append(Path(__file__).resolve().parent)  # this package: kept pages, compression
    found = {
        path.resolve()
        for folder in folders
        for path in folder.rglob("*")
        if path.suffix in PAGE_SOURCES and path.is_file() and "__pycache__" not in path.parts
    }
    return sorted(found)


@cache
def cache_version() -> str:
    """The worker's version: its own script, every file of the app's static
    folder and every file the pages are drawn from (computed once per process,
    reading about a megabyte; a deploy starts new processes)."""
    own = sorted(
        path for folder in settings.STATICFILES_DIRS for path in Path(folder).rglob("*") if path.is_file()
    )
    shaping = page_sources()
    paths = [_source(WORKER), *[_source(name) for name in PRECACHE], *own, *shaping]
    base = Path(settings.BASE_DIR).resolve()
    names = [str(path.relative_to(base)) if path.is_relative_to(base) else path.name for path in shaping]
    return version_of(paths, [*(static(name) for name in PRECACHE), *names])


def worker_config() -> dict[str, Any]:
    """What the worker's script is told: its version and the addresses it handles."""
    return {
        "version": cache_version(),
        "precache": [static(name) for name in PRECACHE],
        "static": settings.STATIC_URL if settings.STATIC_URL.startswith("/") else f"/{settings.STATIC_URL}",
        "outbox": static(OUTBOX),
        "offline": reverse("offline"),
        "logout": reverse("logout"),
        "csrfCookie": settings.CSRF_COOKIE_NAME,
    }


def worker_script(extra: dict[str, Any] | None = None) -> str:
    """The worker: its settings on the first line (with what the apps add: ``extra``),
    then the script from the static folder."""
    config = json.dumps({**worker_config(), **(extra or {})}, separators=(",", ":"), sort_keys=True)
    return f"const CONFIG = {config};\n" + _source(WORKER).read_text(encoding="utf-8")


def manifest() -> dict[str, Any]:
    """The web app manifest: the app opens on the session list, full screen like an app."""
    return {
        "id": reverse("session_list"),
        "name": "tarockscore",
        "short_name": "tarockscore",
        "description": gettext("Score Tarock at the table, hand by hand."),
        "lang": get_language(),
        "start_url": reverse("session_list"),
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": static(name), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for name, sizes, purpose in ICONS
        ],
    }


def texts() -> dict[str, str]:
    """The words the offline scripts show, in the page's language."""
    return {
        "offlineSince": gettext("Offline — showing the state of %(time)s."),
        "offline": gettext(
            "Offline. Hands you save are kept on this phone and sent when the connection returns."
        ),
        "waiting": gettext("Waiting to be sent"),
        "refused": gettext("Not stored by the server:"),
        "correct": gettext("Correct"),
        "discard": gettext("Discard"),
        "discardConfirm": gettext("Throw this hand away? It was never stored."),
        "newHand": gettext("New hand"),
        "correction": gettext("Correction"),
        "deletion": gettext("Deletion"),
        "preview": gettext("Offline: the hand is scored when it arrives at the server."),
        "needsConnection": gettext("This needs the connection."),
        "login": gettext("Log in again to send it."),
        "failed": gettext("The server answered %(status)s."),
        # The engine on the phone (static/js/engine.js); its preview's own words are in the
        # rows the hand form draws for it (templates/scoring/_phone_preview.html).
        "engineLoading": gettext("Preparing the scoring…"),
        "provisional": gettext("Provisional: scored on this phone, until the server has stored it."),
        "provisionalTotals": gettext("Provisional totals"),
        "nextDealer": gettext("Next to deal: %(name)s"),
        # A number or name worked out on the phone, until the server has stored what waits.
        "provisionalMark": gettext("provisional"),
        # The sheet's rows kept in sight, named where there is more than one (scoring/sheet/model.py).
        # A waiting hand's line, as the sheet's rows say who dealt (templates/scoring/_dealer.html).
        "deals": gettext("%(name)s deals"),
        "dealsAndSitsOut": gettext("%(name)s deals and sits out"),
        "sitsOut": gettext("%(name)s sits out"),
        # A tournament table's counters (tournaments/templates/tournaments/table/table.html).
        "nextHand": gettext("Next hand %(n)s of %(target)s"),
        "playedOf": gettext("%(n)s of %(target)s played"),
        "handOf": gettext("Hand %(n)s of %(target)s"),
        "pays": gettext("%(payer)s pays %(payee)s %(points)s"),
        "differs": gettext("The server scored differently from this phone: %(what)s"),
        "handGone": gettext(
            "This hand is deleted, or waits on this phone to be deleted: it cannot be corrected."
        ),
        "noEngine": gettext(
            "This phone cannot score offline (%(why)s): hands are scored when they reach the server."
        ),
    }


def not_kept(request: HttpRequest) -> bool:
    """Whether the worker is to keep no copy of this page (``NOT_KEPT_NAMES``)."""
    match = request.resolver_match
    if match is None:
        return False
    return match.url_name in NOT_KEPT_NAMES or bool(NOT_KEPT_NAMESPACES.intersection(match.namespaces))


class NotKeptMiddleware:
    """Marks the answers the worker keeps no copy of (``NOT_KEPT_HEADER``), and the
    login page as the login (``LOGIN_HEADER``): the worker (static/js/sw.js) and the
    outbox (static/js/outbox.js) read the answer, never its address."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if not_kept(request):
            response[NOT_KEPT_HEADER] = "1"
        match = request.resolver_match
        if match is not None and match.url_name == "login":
            response[LOGIN_HEADER] = "1"
        return response


def in_background(request: HttpRequest) -> bool:
    """Whether the phone's scripts sent this request, not a person opening a page
    (``BACKGROUND_HEADERS``; a redirect followed keeps the header)."""
    return any(request.headers.get(name) == "1" for name in BACKGROUND_HEADERS)


class PageMessages(FallbackStorage):
    """Django's messages (a cookie, else the session), left alone by the requests the
    phone makes in the background (``in_background``): such a page is read by no one,
    so it shows no notice and uses none up, and what it would say is not kept for the
    next page. Without this, the worker keeping a hand's page while the player opened
    the hand form took the form's "round complete" from the page she was sent to."""

    def __init__(self, request: HttpRequest, *args: Any, **kwargs: Any) -> None:
        super().__init__(request, *args, **kwargs)
        self.unread = in_background(request)

    def _get(self, *args: Any, **kwargs: Any) -> tuple[list[Any], bool]:
        if self.unread:
            return [], True
        return super()._get(*args, **kwargs)  # type: ignore[misc,no-any-return]  # not in the stubs

    def update(self, response: HttpResponseBase) -> list[Any] | None:
        if self.unread:
            return None
        return super().update(response)
