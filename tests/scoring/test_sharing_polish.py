"""The share page's QR code and buttons, and what a watching phone sees."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring import services

pytestmark = pytest.mark.cache  # also run with CACHE=redis://… (make test-redis)

GARDE_WON = {"taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}


def test_the_share_page_shows_the_link_as_a_qr_code_drawn_on_the_server(logged_in, make_session):
    session = make_session()
    token = services.session_share(session=session)
    html = logged_in.get(reverse("sharing", args=[session.pk])).content.decode()
    svg = re.search(r'<figure class="qr-box" id="qr">\s*(<svg .*?</svg>)', html, re.S).group(1)
    assert svg.startswith('<svg role="img" aria-label="QR code of the link" ') and 'class="qr"' in svg
    assert "style=" not in svg and "<script" not in svg  # the page's CSP allows it as it is
    assert f"/s/{token}/" in html
    # the buttons that need JavaScript wait for it, from the app's own script
    assert re.search(r'<button type="button" id="copy-link"[^>]* hidden', html)
    assert re.search(r'<button type="button" id="share-link-menu"[^>]* hidden', html)
    assert '<script src="/static/js/share.js" defer></script>' in html


def test_without_a_link_there_is_no_qr_code(logged_in, make_session):
    session = make_session()
    html = logged_in.get(reverse("sharing", args=[session.pk])).content.decode()
    assert 'class="qr"' not in html and 'id="copy-link"' not in html


def test_watchers_see_who_pays_whom_as_well_as_the_sheet(client, make_session, user):
    session = make_session(money_rate=None)
    services.hand_record(session=session, raw=GARDE_WON, user=user)
    token = services.session_share(session=session)
    html = client.get(reverse("shared_board", args=[token])).content.decode()
    transfers = re.search(r'<section class="card" id="transfers">(.*?)</section>', html, re.S).group(1)
    assert re.findall(r"<strong>(\w+)</strong> → <strong>(\w+)</strong>", transfers) == [
        ("Bert", "Anna"),
        ("Carl", "Anna"),
        ("Dora", "Anna"),
    ]
    assert 'id="net"' in html
    # and it comes again with every update of the board
    polled = client.get(reverse("shared_board", args=[token]) + "?since=0", HTTP_HX_REQUEST="true")
    assert 'id="transfers"' in polled.content.decode()


def test_a_deleted_sessions_link_says_it_is_not_shared_any_more(client, make_session, user):
    session = make_session()
    token = services.session_share(session=session)
    services.session_delete(session=session, user=user)
    response = client.get(reverse("shared_board", args=[token]))
    assert response.status_code == 410
    assert re.search(r'<div id="live">\s*<p class="notice" role="alert">', response.content.decode())
