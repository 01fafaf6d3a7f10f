"""The board's ranked part on the hall's fast path (``services.hall``): drawn once per
results version and language by the request that changed the ranking, once it is
committed, and stored beside the hall's rows, so that a phone's redraw in any server
process reads one row instead of drawing the whole ranking again (60–80 ms at 400
entrants, which each of a server's processes spent after every sign-off)."""

from __future__ import annotations

import re
from fractions import Fraction
from urllib.parse import urljoin

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from tests.tournaments import factory
from tests.tournaments.test_hall_rows_stored import enter, running
from tournaments.core.circuit import Change
from tournaments.models import RankedPart, Tournament
from tournaments.services import circuit as circuits
from tournaments.services import hall, results

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("nothing_kept")]

RANKED_ROW = re.compile(r'<tr id="entrant-(\d+)".*?</tr>', re.S)


def board_url(t: Tournament) -> str:
    return reverse("tournament_board", args=[t.board_token])


def redraw(t: Tournament, since: int, language: str = "de") -> tuple[int, str]:
    """A phone's poll of the board after a change, as its page sends it."""
    answer = Client(HTTP_ACCEPT_LANGUAGE=language).get(
        board_url(t) + f"?since={since}", HTTP_HX_REQUEST="true"
    )
    return answer.status_code, answer.content.decode()


def ranked(html: str) -> list[str]:
    return RANKED_ROW.findall(html)


def leader(html: str) -> str:
    """The first ranked row's place and name."""
    first = RANKED_ROW.search(html)
    assert first is not None
    return " ".join(re.sub(r"<[^>]+>", " ", first.group(0)).split()[:2])


def test_a_change_draws_the_boards_part_once_committed_and_another_process_reads_it(
    user, django_capture_on_commit_callbacks, monkeypatch
):
    t = running(user)
    assert Client().get(board_url(t)).status_code == 200  # a phone opened the board: German is drawn
    assert (
        RankedPart.objects.get(tournament=t, part="board", language="de").results_version == t.results_version
    )
    changed = enter(user, t, (92, -31, 45, -106), django_capture_on_commit_callbacks)
    # Drawn by the change's own request once committed, in the language the phones use.
    stored = RankedPart.objects.get(tournament=t, part="board", language="de")
    assert stored.results_version == changed.results_version
    factory.forget_kept()  # a process that kept nothing of it
    cache.clear()  # nor a redraw of another phone
    monkeypatch.setattr(hall, "render_to_string", lambda *args, **kwargs: pytest.fail("drawn again"))
    monkeypatch.setattr(results, "build_standings", lambda tournament: pytest.fail("built again"))
    with CaptureQueriesContext(connection) as queries:
        status, html = redraw(changed, since=t.version)
    assert status == 200 and f"since={changed.version}" in html
    assert leader(html) == "1 Erika"
    assert stored.html in html
    stored_reads = [q["sql"] for q in queries if "tournaments_rankedpart" in q["sql"]]
    assert len(stored_reads) == 1, stored_reads


def test_the_stored_part_is_the_part_drawn_anew(user, django_capture_on_commit_callbacks):
    t = running(user)
    Client().get(board_url(t))
    changed = enter(user, t, (10, -10, 3, -3), django_capture_on_commit_callbacks)
    stored = RankedPart.objects.get(tournament=t, part="board", language="de").html
    RankedPart.objects.all().delete()
    factory.forget_kept()
    assert hall.board_part(changed) == stored
    assert len(ranked(stored)) == Tournament.objects.get(pk=t.pk).entrants.count()


def test_every_language_a_phone_used_is_drawn_again_after_a_change(user, django_capture_on_commit_callbacks):
    t = running(user)
    heads = {"de": "Sitzplan", "en": "Seating plan", "fr": "Plan de table"}
    for language in heads:
        assert Client(HTTP_ACCEPT_LANGUAGE=language).get(board_url(t)).status_code == 200
    changed = enter(user, t, (3, -3, 1, -1), django_capture_on_commit_callbacks)
    stored = dict(
        RankedPart.objects.filter(tournament=t, part="board").values_list("language", "results_version")
    )
    assert stored == dict.fromkeys(heads, changed.results_version)
    for language, head in heads.items():
        html = redraw(changed, since=t.version, language=language)[1]
        assert head in html and all(other not in html for other in heads.values() if other != head)


def test_the_rankings_links_lead_to_each_players_card_under_any_board_link(user):
    t = running(user)
    html = Client().get(board_url(t)).content.decode()
    first = re.search(r'<tr id="entrant-(\d+)".*?<a href="([^"]+)"', html, re.S)
    assert first is not None
    number, href = first.groups()
    assert urljoin(board_url(t), href) == reverse("tournament_player_card", args=[t.board_token, int(number)])
    # The link given anew (the old one taken away): the stored part holds for the new one.
    new_token = results.board_share(tournament=factory.fresh(t))
    page = Client().get(reverse("tournament_board", args=[new_token])).content.decode()
    assert f'href="{href}"' in page
    card = Client().get(urljoin(reverse("tournament_board", args=[new_token]), href))
    assert card.status_code == 200


def test_each_ranked_row_says_what_the_board_showed_escaped_in_the_readers_language():
    """The rows drawn in one pass (``hall.ranking_rows``, ``hall.plan_rows``): place
    with its change, the card's link, club and notes, total and rounds, every value
    escaped, the words in the active language."""
    cells = (results.Cell(Fraction(7, 2), ""), results.Cell(None, "–"), results.Cell(None, "", bye=True))
    rows = (
        results.Row(
            1,
            4,
            'Anna <b>"&"</b>',
            "SV 'Trull'",
            cells,
            Fraction(7, 2),
            "lots",
            "lots",
            None,
            1,
            change=Change(by=2),
        ),
        results.Row(
            None,
            9,
            "Lückenfüller",
            "",
            (results.Cell(Fraction(-3), ""),) * 3,
            Fraction(-3),
            "",
            None,
            None,
            None,
            filler=True,
        ),
    )
    table = results.Standings(1, 3, rows, True, False, 1, 2)
    with translation.override("de"):
        drawn = hall.ranking_rows(table, {4: 1234, 9: ""})
        plan = hall.plan_rows([hall.PlanRow("Anna <b>", 4, ("3", ""))], {4: 1234})
    first, second = drawn.split("\n")
    assert first == (
        '<tr id="entrant-4" data-nr="1234"><td>1 <span class="rank-change up" aria-hidden="true">▲ 2</span>'
        '<span class="visually-hidden">(2 Plätze gewonnen)</span></td>'
        '<td><a href="players/4/">Anna &lt;b&gt;&quot;&amp;&quot;&lt;/b&gt;</a> <span class="muted">SV &#x27;Trull&#x27;</span>'
        ' <span class="muted tie">(Los)</span> <span class="muted">nach Runde 1 ausgeschieden</span></td>'
        '<td class="num"><strong>+3,5</strong></td><td class="num">+3,5</td><td class="num">–</td>'
        '<td class="num">0</td></tr>'
    )
    assert second == (
        '<tr id="entrant-9" class="filler" data-nr=""><td>–</td><td><a href="players/9/">Lückenfüller</a>'
        ' <span class="muted">Ersatzspieler</span></td><td class="num"><strong>−3</strong></td>'
        + '<td class="num">−3</td>' * 3
        + "</tr>"
    )
    assert plan == '<tr data-nr="1234"><td>Anna &lt;b&gt;</td><td class="r">3</td><td class="r"></td></tr>'


def test_a_cup_joining_a_circuit_draws_its_boards_again_with_the_register_numbers(user):
    """The board's rows carry the register numbers of the cup's circuit (a phone marks
    its own and its friends'): a cup joining, an import or a merge in the circuit
    gives its tournaments a new results version, so the stored part is drawn again."""
    cup = factory.cup(user)
    t = factory.tournament(user, names=("Huber Maria", "Maier Josef", "Gruber Anna", "Bauer Karl"), cup=cup)
    factory.draw(t)
    factory.release(t)
    results.board_share(factory.fresh(t))
    t = factory.fresh(t)
    before = Client().get(board_url(t)).content.decode()
    assert 'data-nr=""' in before and 'data-circuit=""' in before
    circuit = circuits.circuit_create(owner=user, name="Tarockcup Österreich", season="2026/27")
    circuits.cup_join(circuit=circuit, user=user, cup_id=cup.pk)
    factory.forget_kept()
    joined = factory.fresh(t)
    assert joined.results_version > t.results_version and joined.version > t.version
    after = Client().get(board_url(joined)).content.decode()
    assert 'data-nr=""' not in after and f'data-circuit="{circuit.pk}"' in after
    numbers = set(re.findall(r'<tr id="entrant-\d+" data-nr="(\d+)"', after))
    assert len(numbers) == 4


def test_a_round_released_draws_the_boards_part_once_committed(user, django_capture_on_commit_callbacks):
    """The moment every phone looks at the seating plan: the organiser's release draws
    the new part in its own request, as a sign-off does."""
    t = factory.draw(factory.tournament(user))
    results.board_share(factory.fresh(t))
    t = factory.fresh(t)
    assert Client().get(board_url(t)).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        factory.release(t)
    released = factory.fresh(t)
    stored = RankedPart.objects.get(tournament=t, part="board", language="de")
    assert stored.results_version == released.results_version > t.results_version
    assert '<td class="r">1</td>' in stored.html  # round 1's tables in the seating plan
