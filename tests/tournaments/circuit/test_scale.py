"""The circuit at scale (issue 32, TOURNAMENTS.md §14.9): every season page, side
ranking, qualification list, the qualified list, the Gesamtwertung, their PDFs,
the honours and the player's own view take as many statements for a circuit of
three cups of five tournaments of thirty players as for two cups of two
tournaments of eight, both when built after a change and when read again; what
they build is kept per version, and a tournament made final (or a tier set) is
on every page at once, with the cache or without it.

Circuits are made here by importing a circuit file through the import page
(results stored as a tournament made final stores them), with a running
tournament of the first cup on a board link for the player's pages."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from datetime import date, timedelta

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import formats, translation

from tests.tournaments import factory
from tests.tournaments.circuit.test_player_view import type_in
from tournaments.core import circuit_file as files
from tournaments.models import Circuit, Cup, Tournament
from tournaments.services import circuit as circuits
from tournaments.services import circuit_final as finals
from tournaments.services import cups, honours, player_view, printouts, results, side, tournaments

pytestmark = pytest.mark.django_db

SMALL = (2, 2, 8, 1)  # cups, tournaments per cup, players per cup, numbers merged
LARGE = (3, 5, 30, 3)
FIELD = 8  # the running tournament's entrants: numbers 1 to 8 of the first cup


def circuit_file(cups_count: int, days: int, players: int) -> bytes:
    """A circuit of ``cups_count`` cups of ``days`` tournaments of ``players`` each
    (every cup its own players; each day the order turned by one), and a final."""
    cups_out = []
    for c in range(cups_count):
        numbers = list(range(1 + c * players, 1 + (c + 1) * players))
        cups_out.append(
            {
                "name": f"Cup {c + 1}",
                "tier": "ABC"[c % 3],
                "min_events": 2,
                "tournaments": [
                    {
                        "name": f"Cup {c + 1} Tag {d + 1}",
                        "date": (date(2025, 9, 6) + timedelta(days=7 * d)).isoformat(),
                        "ranking": [
                            {"number": n, "total": 500 - 3 * i}
                            for i, n in enumerate(numbers[d % players :] + numbers[: d % players])
                        ],
                    }
                    for d in range(days)
                ],
            }
        )
    doc = {
        "format": "tarockscore-circuit/1",
        "name": "Tarock Österreich",
        "season": "2025/26",
        "register": [
            {"number": n, "family": f"Spieler{n:03d}", "given": "Eva", "place": "Linz"}
            for n in range(1, cups_count * players + 1)
        ],
        "cups": cups_out,
        "final": {
            "name": "Finale",
            "date": "2026-04-25",
            "open_final": True,
            "ranking": [{"number": n, "total": 200 - n} for n in range(1, players + 1)],
        },
    }
    return files.dumps(files.write_circuit(files.read_circuit(json.dumps(doc)))).encode()


@dataclass
class World:
    circuit: Circuit
    cup: Cup
    running: Tournament
    token: str
    organiser: Client
    phone: Client

    def pages(self) -> dict[str, tuple[Client, str]]:
        """Every page of the circuit's seasons, by name: who opens it, and its address."""
        k, c, t = self.circuit.pk, self.cup.pk, self.token
        organiser, phone = self.organiser, self.phone
        return {
            "cup season": (organiser, reverse("cup_detail", args=[c])),
            "cup season PDF": (organiser, reverse("cup_pdf", args=[c])),
            "cup side rankings": (organiser, reverse("cup_sides", args=[c])),
            "cup honours": (organiser, reverse("cup_honours", args=[c])),
            "circuit honours": (organiser, reverse("circuit_honours", args=[k])),
            "qualification list": (organiser, reverse("circuit_qualification", args=[k, c])),
            "qualification PDF": (organiser, reverse("circuit_qualification_pdf", args=[k, c])),
            "qualified list": (organiser, reverse("circuit_qualified", args=[k])),
            "qualified PDF": (organiser, reverse("circuit_qualified_pdf", args=[k])),
            "Gesamtwertung": (organiser, reverse("circuit_gesamtwertung", args=[k])),
            "Gesamtwertung PDF": (organiser, reverse("circuit_gesamtwertung_pdf", args=[k])),
            "tiers": (organiser, reverse("circuit_tiers", args=[k])),
            "Meine Saison": (phone, reverse("tournament_my_season", args=[t])),
            "Mein Tag": (phone, reverse("tournament_my_day", args=[t])),
            "cup season from the board": (phone, reverse("tournament_cup_season", args=[t])),
        }


def build(owner: User, size: tuple[int, int, int, int]) -> World:
    cups_count, days, players, merged = size
    organiser = Client(HTTP_ACCEPT_LANGUAGE="de")
    organiser.force_login(owner)
    upload = io.BytesIO(circuit_file(cups_count, days, players))
    upload.name = "circuit.json"
    answer = organiser.post(reverse("circuit_file_import"), {"file": upload})
    assert answer.status_code == 302, answer.content[:400]
    circuit = Circuit.objects.get(pk=int(answer["Location"].rstrip("/").split("/")[-1]))
    cup = circuit.cups.get(name="Cup 1")
    # Two numbers of one person in the first cup: the lists read the number kept.
    for k in range(merged):
        circuits.register_merge(
            circuit=circuit, user=owner, number=FIELD + 1 + 2 * k, other=FIELD + 2 + 2 * k
        )
    side.side_ranking_add(user=owner, cup=cup, name="Damen", kind="category", value="Damen")
    side.side_ranking_add(user=owner, cup=cup, name="Auswärts", kind="region_not", value="Wien")
    running = factory.tournament(
        owner,
        names=[f"Spieler{n:03d} Eva" for n in range(1, FIELD + 1)],
        cup=Cup.objects.get(pk=cup.pk),
        name="Cup 1 Tag X",
        played_on=date(2026, 3, 7),
    )
    factory.draw(running)
    factory.release(running)
    token = results.board_share(factory.fresh(running))
    phone = Client(HTTP_ACCEPT_LANGUAGE="de")
    phone.cookies[player_view.ME_COOKIE.format(circuit=circuit.pk)] = "1"
    phone.cookies[player_view.FRIENDS_COOKIE.format(circuit=circuit.pk)] = "2-3"
    return World(circuit, Cup.objects.get(pk=cup.pk), factory.fresh(running), token, organiser, phone)


@pytest.fixture
def no_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The PDFs' HTML is written, not drawn: what is counted is what the server reads."""
    monkeypatch.setattr(printouts, "html_to_pdf", lambda html: b"%PDF-1.7 " + html.encode()[:64])


def statements(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as seen:
        answer = client.get(url)
    assert answer.status_code == 200, (url, answer.status_code)
    return len(seen.captured_queries)


def counts(world: World) -> dict[str, tuple[int, int]]:
    """Per page: its statements right after a change (nothing kept) and when read again."""
    found = {}
    for name, (client, url) in world.pages().items():
        client.get(url)  # the login session and the board's budget settled
        cache.clear()
        built = statements(client, url)
        found[name] = (built, statements(client, url))
    return found


@pytest.mark.usefixtures("no_drawing", "one_progress_window")
def test_every_season_page_takes_as_many_statements_for_a_larger_circuit(user, other_user):
    small, large = counts(build(user, SMALL)), counts(build(other_user, LARGE))
    assert small == large
    for name, (built, kept) in large.items():
        assert kept <= built <= 20, name
    # What is kept is not built again: the lists' pages read their cups and the cache.
    for name in (
        "qualification list",
        "qualified list",
        "Gesamtwertung",
        "cup season",
        "circuit honours",
        "Meine Saison",
        "Mein Tag",
    ):
        built, kept = large[name]
        assert kept < built, name


def test_the_lists_are_kept_per_version_and_read_from_the_cache(user, django_assert_max_num_queries):
    world = build(user, SMALL)
    circuit = Circuit.objects.get(pk=world.circuit.pk)
    first = finals.standings(circuit)
    with django_assert_max_num_queries(1):  # its cups (with the circuit): the key
        again = finals.standings(circuit)
    assert again == first and again is not first  # from the cache, as another process reads it
    cup = Cup.objects.get(pk=world.cup.pk)
    season = cups.season_ranking(cup)
    with django_assert_max_num_queries(1):
        assert cups.season_ranking(cup) == season
    # Keys stay within what every cache takes (250 characters), however many cups.
    many = [*finals.circuit_cups(circuit)] * 40
    keys = [finals.standings_key(circuit, many), honours.honours_key("circuit", many)]
    assert all(len(key) < 150 for key in keys), keys


def finished(world: World) -> Tournament:
    """The running tournament played through at the desk, provisional, then made final."""
    t = world.running
    type_in(t, 1)
    for number in (2, 3):
        factory.release(t)
        type_in(t, number)
    tournaments.tournament_provisional(tournament=factory.fresh(t), user=t.owner)
    return factory.make_final(factory.fresh(t))


def test_a_tournament_made_final_is_on_every_page_at_once(user):
    world = build(user, SMALL)
    pages = world.pages()
    before = {name: client.get(url) for name, (client, url) in pages.items() if "PDF" not in name}
    season = before["cup season"].context["season"]
    assert season.held == 2
    finished(world)
    after = {name: client.get(url) for name, (client, url) in pages.items() if "PDF" not in name}
    season = after["cup season"].context["season"]
    assert season.held == 3 and season.as_of == date(2026, 3, 7)
    # The pages' tables as drawn and kept follow too, not only what they were drawn from.
    with translation.override("de"):
        day = formats.date_format(date(2026, 3, 7), "SHORT_DATE_FORMAT")
    for name in ("cup season", "cup season from the board"):
        shown = f"Stand: {day}"
        assert shown in after[name].content.decode() and shown not in before[name].content.decode(), name
    first = next(line for line in season.lines if line.player.name == "Spieler001 Eva")
    row = after["cup season"].content.decode().split(f'data-nr="{first.player.circuit_player.number}"')[1]
    assert f'<td class="r">{first.participations}</td>' in row.split("</tr>")[0]
    assert season == cups._seasons_built([Cup.objects.get(pk=world.cup.pk)])[world.cup.pk]
    built = finals.standings_built(Circuit.objects.get(pk=world.circuit.pk))
    assert after["qualified list"].context["standing"].qualified == built.qualified
    assert after["qualification list"].context["cup"].season == built.cup(world.cup.pk).season
    assert after["qualification list"].context["cup"].held == 3
    mine = after["Meine Saison"].context["season"].cups
    assert next(c for c in mine if c.cup.pk == world.cup.pk).held == 3

    # The Bestenliste as built from the rows now, with the new tournament in it.
    every = list(Cup.objects.filter(circuit=world.circuit).select_related("circuit"))
    shown = after["circuit honours"].context["honours"]
    assert shown == honours._honours(every, by_circuit=True) != before["circuit honours"].context["honours"]
    assert after["cup season from the board"].context["season"] == season


def test_a_tier_set_by_the_organisers_is_on_the_lists_at_once(user):
    world = build(user, SMALL)
    url = reverse("circuit_qualification", args=[world.circuit.pk, world.cup.pk])
    first = world.organiser.get(url).context["cup"]
    assert first.table == finals.tier_table(Cup.objects.get(pk=world.cup.pk))
    finals.cup_tier_set(
        circuit=world.circuit, user=user, cup_id=world.cup.pk, tier="custom", tier_table="9 8 7"
    )
    shown = world.organiser.get(url).context["cup"]
    assert shown.table == (9, 8, 7)
    assert [line.row.vorrundenpunkte for line in shown.lines] == [9, 8, 7][: len(shown.lines)]


def test_a_renamed_entrant_of_a_counted_tournament_moves_the_season_at_once(user):
    world = build(user, SMALL)
    t = finished(world)
    url = reverse("cup_detail", args=[world.cup.pk])
    before = {line.player.name for line in world.organiser.get(url).context["season"].lines}
    from tournaments.services import entrants

    entrants.entrant_edit(
        tournament=factory.fresh(t), user=user, number=1, name="Neu Erna", place="", fee_paid=False
    )
    after = {line.player.name for line in world.organiser.get(url).context["season"].lines}
    assert "Neu Erna" in after and "Neu Erna" not in before


def test_each_printout_is_drawn_once_per_version(user, monkeypatch):
    drawn: list[str] = []

    def drawing(html: str) -> bytes:
        drawn.append(html)
        return b"%PDF-1.7 " + str(len(drawn)).encode()

    monkeypatch.setattr(printouts, "html_to_pdf", drawing)
    world = build(user, SMALL)
    pdfs = {name: url for name, (_, url) in world.pages().items() if name.endswith("PDF")}
    first = {name: world.organiser.get(url).content for name, url in pdfs.items()}
    again = {name: world.organiser.get(url).content for name, url in pdfs.items()}
    assert again == first and len(drawn) == len(pdfs) == 4
    # A new version of what they show: each is drawn again, once.
    finals.cup_tier_set(circuit=world.circuit, user=user, cup_id=world.cup.pk, tier="C")
    finished(world)
    for _ in range(2):
        for url in pdfs.values():
            assert world.organiser.get(url).status_code == 200
    assert len(drawn) == 2 * len(pdfs)
