"""The sheet, the shared board and the PDF are rendered once per change of the
session and served from the cache until the next change; the next change shows
at once, and a long evening shows its latest hands with the rest one tap away."""

from __future__ import annotations

import gzip
import re

import pytest
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import connection
from django.http import HttpResponse
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from plumbing.compression import quick_gzip_page
from scoring import services
from scoring.models import Hand
from scoring.sheet import SHOWN_HANDS
from tests.scoring.test_views import form_data, sheet_totals

pytestmark = pytest.mark.cache  # also run with CACHE=redis://… (make test-redis)

GARDE = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}  # Anna +240


@pytest.fixture
def french(make_session):
    return make_session()


def record(session, count: int, **change) -> list[Hand]:
    return [services.hand_record(session=session, raw=GARDE | change) for _ in range(count)]


def shown_hands(html: str) -> list[str]:
    return re.findall(r'<tbody id="hand-(\d+)"', html)


def cached_rows() -> int:
    """How many hand rows the cache holds (in local memory, or in Redis)."""
    store = caches["default"]
    if isinstance(store, RedisCache):
        keys = [key.decode() for key in store._cache.get_client().scan_iter(match="*:row:*")]  # type: ignore[attr-defined]
    else:
        keys = list(store._cache)  # type: ignore[attr-defined]
    return len([key for key in keys if ":row:" in key])


def test_a_hand_saved_shows_at_once_on_the_sheet_the_shared_board_the_print_view_and_the_pdf(
    logged_in, client, french
):
    record(french, 2)
    token = services.session_share(session=french)
    pages = {
        "sheet": reverse("scoreboard", args=[french.pk]),
        "shared": reverse("shared_board", args=[token]),
        "print": reverse("session_print", args=[french.pk]),
    }
    pdf_url = reverse("session_export", args=[french.pk, "pdf"])
    before = {name: logged_in.get(url).content.decode() for name, url in pages.items()}
    first_pdf = logged_in.get(pdf_url).content
    assert sheet_totals(before["sheet"])["Anna"] == 480

    record(french, 1, points=30)  # Anna loses 2 × (25 + 6) × 2 … her total falls
    after = {
        name: client_for_page(logged_in, client, name).get(url).content.decode()
        for name, url in pages.items()
    }
    assert sheet_totals(after["sheet"])["Anna"] < 480
    assert sheet_totals(after["shared"]) == sheet_totals(after["sheet"])
    assert len(shown_hands(after["shared"])) == 3
    assert after["print"].count('<td class="what">') == before["print"].count('<td class="what">') + 1
    assert logged_in.get(pdf_url).content != first_pdf


def client_for_page(logged_in, anonymous, name: str):
    return anonymous if name == "shared" else logged_in


def test_the_second_pdf_download_is_the_first_one_from_the_cache(logged_in, french):
    record(french, 3)
    url = reverse("session_export", args=[french.pk, "pdf"])
    first = logged_in.get(url)
    with CaptureQueriesContext(connection) as queries:
        second = logged_in.get(url)
    assert second.content == first.content and second["Content-Type"] == "application/pdf"
    # the login session, the user, the session row: no seats, no hands, no rendering
    assert len(queries) == 3


def test_each_row_is_rendered_once_per_version_of_its_hand(logged_in, french):
    hands = record(french, 3)
    url = reverse("scoreboard", args=[french.pk])
    logged_in.get(url)
    assert cached_rows() == 3
    record(french, 1)
    logged_in.get(url)
    assert cached_rows() == 4  # the three earlier rows came from the cache
    services.hand_edit(hand=hands[2], raw=GARDE | {"points": 60})
    logged_in.get(url)
    assert cached_rows() == 6  # the corrected hand and the row after it, whose total changed


def test_a_correction_changes_every_later_running_total_on_the_sheet(logged_in, french):
    hands = record(french, 3)
    url = reverse("scoreboard", args=[french.pk])
    html = logged_in.get(url).content.decode()
    assert "+720" in html  # Anna after three hands
    services.hand_edit(hand=hands[0], raw=GARDE | {"taker": "Bert"})
    html = logged_in.get(url).content.decode()
    assert "+720" not in html
    assert sheet_totals(html) == {"Anna": 400, "Bert": 80, "Carl": -240, "Dora": -240}


def test_a_long_evening_shows_its_latest_hands_and_all_of_them_one_tap_away(logged_in, french):
    hands = record(french, SHOWN_HANDS + 5)
    url = reverse("scoreboard", args=[french.pk])
    html = logged_in.get(url).content.decode()
    assert shown_hands(html) == [str(hand.pk) for hand in hands[-SHOWN_HANDS:]]
    assert f"Show all {SHOWN_HANDS + 5} hands" in html
    assert sheet_totals(html)["Anna"] == 240 * (SHOWN_HANDS + 5)  # the totals count every hand
    everything = logged_in.get(url, {"all": "1"}).content.decode()
    assert shown_hands(everything) == [str(hand.pk) for hand in hands]
    assert "Show all" not in everything


def test_a_short_evening_shows_every_hand_without_a_link(logged_in, french):
    record(french, 3)
    html = logged_in.get(reverse("scoreboard", args=[french.pk])).content.decode()
    assert len(shown_hands(html)) == 3 and "Show all" not in html


def test_the_sheet_is_cached_per_language(client_for, user, french):
    record(french, 1, points=56.5)
    url = reverse("scoreboard", args=[french.pk])
    english = client_for(user).get(url).content.decode()
    german = client_for(user).get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Next to deal" in english and "Next to deal" not in german


def test_the_sheet_pages_are_compressed_for_browsers_that_accept_it(logged_in, client, french):
    record(french, SHOWN_HANDS)
    token = services.session_share(session=french)
    for page, url in (
        (logged_in, reverse("scoreboard", args=[french.pk])),
        (logged_in, reverse("session_print", args=[french.pk])),
        (logged_in, reverse("settlement", args=[french.pk])),
        (client, reverse("shared_board", args=[token])),
    ):
        response = page.get(url, HTTP_ACCEPT_ENCODING="gzip")
        assert response["Content-Encoding"] == "gzip", url
        assert "</html>" in gzip.decompress(response.content).decode()


def test_each_compressed_page_carries_random_padding_against_breach(client, french, rf):
    record(french, SHOWN_HANDS)
    board = client.get(
        reverse("shared_board", args=[services.session_share(session=french)]), HTTP_ACCEPT_ENCODING="gzip"
    )
    assert board["Content-Encoding"] == "gzip" and board.content[3] & 0x08  # a file name of random length
    page = quick_gzip_page(lambda request: HttpResponse("<p>the same sheet</p>" * 50))
    answers = [page(rf.get("/", HTTP_ACCEPT_ENCODING="gzip")) for _ in range(5)]
    assert {gzip.decompress(answer.content) for answer in answers} == {b"<p>the same sheet</p>" * 50}
    assert len({answer.content for answer in answers}) > 1  # the same page, compressed differently each time
    assert all(int(answer["Content-Length"]) == len(answer.content) for answer in answers)
    assert "Content-Encoding" not in page(rf.get("/"))  # only for browsers that ask for it


def test_a_corrected_or_restored_hand_is_shown_on_the_whole_sheet_even_in_a_long_evening(logged_in, french):
    hands = record(french, SHOWN_HANDS + 5)
    first = hands[0]
    edit = logged_in.post(
        reverse("hand_edit", args=[french.pk, first.pk]),
        form_data(GARDE | {"points": 60}, "1"),
    )
    assert edit["Location"] == reverse("scoreboard", args=[french.pk]) + f"?all=1#hand-{first.pk}"
    assert f'id="hand-{first.pk}"' in logged_in.get(edit["Location"]).content.decode()
    logged_in.post(reverse("hand_delete", args=[french.pk, first.pk]))
    restore = logged_in.post(reverse("hand_restore", args=[french.pk, first.pk]))
    assert restore["Location"] == reverse("scoreboard", args=[french.pk]) + f"?all=1#hand-{first.pk}"
    new = logged_in.post(reverse("hand_new", args=[french.pk]), form_data(GARDE, "fresh"))
    assert "?all=1" not in new["Location"]  # a new hand is the latest: the short sheet shows it
