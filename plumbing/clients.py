"""Who sent a request without an account: the address it came from, and the
client it is counted as (its phone's cookie, else that address).

An address is counted by what one party holds: an IPv4 address as it is, an
IPv6 address by its /64 network (one line, one household, one phone's
provider lease hands out a whole /64), so that the next address of the same
network is not a fresh budget.
"""

from __future__ import annotations

import hashlib
import ipaddress
import re
from typing import Any

from django.conf import settings

# A cookie the app gives (``secrets.token_urlsafe``); anything else counts as none.
COOKIE_FORMAT = re.compile(r"[A-Za-z0-9_-]{16,64}")
IPV6_NETWORK = 64


def client_address(request: Any) -> str | None:
    """The address the request came from. Behind a reverse proxy (``BEHIND_PROXY``)
    that is the last entry of X-Forwarded-For, the one the proxy itself added."""
    if request is None:
        return None
    meta = request.META
    if getattr(settings, "BEHIND_PROXY", False):
        forwarded = [part.strip() for part in meta.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        if forwarded:
            return _valid_ip(forwarded[-1])
    return _valid_ip(meta.get("REMOTE_ADDR") or "")


def _valid_ip(text: str) -> str | None:
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return None


def counted_address(address: str | None) -> str | None:
    """The address as limits count it: IPv4 as it is, IPv6 as its /64 network."""
    if address is None:
        return None
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/{IPV6_NETWORK}", strict=False).network_address)
    return str(ip)


def client_of(request: Any, cookie: str) -> str:
    """The client a request is counted as: ``c:…`` for a phone that sends the
    cookie named ``cookie`` (a digest of it), else ``a:`` and its counted address."""
    value = request.COOKIES.get(cookie, "")
    if COOKIE_FORMAT.fullmatch(value):
        return "c:" + hashlib.sha256(value.encode()).hexdigest()[:20]
    return f"a:{counted_address(client_address(request)) or 'unknown'}"


def has_cookie(client: str) -> bool:
    return client.startswith("c:")


def give_cookie(response: Any, name: str, value: str, *, days: int, path: str) -> None:
    """Give a phone opened by a link the cookie it is counted (and known) by from now
    on: for ``days``, sent only to the link's pages under ``path``, never to scripts."""
    response.set_cookie(
        name,
        value,
        max_age=days * 24 * 3600,
        path=path,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
