"""The player's own view (TOURNAMENTS.md §14.3) from the board link: Mein Tag
for a seated player, a bye, a player not in the tournament and a number the
register does not know; Meine Saison equal to the cup's season page and its
wording for the final; her row and her friends' marked; statements that do
not grow with the field; the board's poll untouched."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from scoring import presentation
from tests.tournaments import factory
from tests.tournaments.table_support import in_english as in_english
from tournaments.core import circuit as rules
from tournaments.models import Circuit, Cup, Entrant, Tournament
from tournaments.services import circuit as circuits
from tournaments.services import circuit_final as finals
from tournaments.services import cups, desk, player_view, results
from tournaments.views import me as me_views

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]

NAMES = (
    "Huber Maria", "Gruber Anna", "Bauer Karl", "Wagner Eva", "Moser Franz", "Berger Ida",
    "Hofer Leo", "Pichler Rosa", "Steiner Paul", "Mayer Olga", "Fuchs Otto",
)  # fmt: skip
MORE = tuple(f"Spieler{n} Test" for n in range(1, 13))


@dataclass
class World:
    circuit: Circuit
    cup: Cup
    tournament: Tournament
    token: str

    def number_of(self, start: int) -> int:
        return player_view.register_numbers(self.tournament)[start]

    def start_of(self, name: str) -> int:
        return Entrant.objects.get(tournament=self.tournament, name=name).number


def play_round(t: Tournament, number: int) -> None:
    """Release round ``number`` and type in each table's sheet."""
    factory.release(t)
    type_in(t, number)


def type_in(t: Tournament, number: int) -> None:
    """Type in each table's sheet of round ``number``: seats win 40, 20, … down."""
    for table in factory.tables(t, number):
        seats = list(table.seats.select_related("entrant").order_by("position"))
        values = [40, 20, -10, -20, -30][: len(seats)]
        values[-1] -= sum(values)
        sums = {seat.entrant.number: value for seat, value in zip(seats, values, strict=True)}
        desk.desk_enter(tournament=factory.fresh(t), user=t.owner, table_id=table.pk, sums=sums)


def build(
    owner: User, names: tuple[str, ...] = NAMES, rounds_played: int = 1, release_next: bool = True
) -> World:
    """A cup of the circuit and a tournament of ``names`` (byes for the short
    field), drawn upfront, ``rounds_played`` rounds typed in and the next released."""
    circuit = circuits.circuit_create(owner=owner, name="Tarock Österreich", season="2025/26")
    cup = factory.cup(owner, name="RTC")
    circuits.cup_join(circuit=circuit, user=owner, cup_id=cup.pk)
    t = factory.tournament(owner, names=names, cup=cup, settings={"short_field": "bye"})
    factory.draw(t)
    for number in range(1, rounds_played + 1):
        play_round(t, number)
    if release_next and rounds_played < 3:
        factory.release(t)
    t = factory.fresh(t)
    token = results.board_share(t)
    return World(circuit, cup, factory.fresh(t), token)


def phone_of(world: World, number: int | None = None, friends: str = "") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    if number is not None:
        client.cookies[player_view.ME_COOKIE.format(circuit=world.circuit.pk)] = str(number)
    if friends:
        client.cookies[player_view.FRIENDS_COOKIE.format(circuit=world.circuit.pk)] = friends
    return client


def day_url(world: World) -> str:
    return reverse("tournament_my_day", args=[world.token])


def season_url(world: World) -> str:
    return reverse("tournament_my_season", args=[world.token])


@pytest.fixture
def world(user: User) -> World:
    return build(user)


def test_mein_tag_shows_a_seated_players_table_seat_mates_results_and_place(world):
    round2 = world.tournament.rounds.get(number=2)
    table = round2.tables.order_by("number").first()
    seats = list(table.seats.select_related("entrant").order_by("position"))
    her = seats[2].entrant
    page = phone_of(world, world.number_of(her.number)).get(day_url(world))
    html = page.content.decode()
    assert page.status_code == 200 and "no-cache" in page["Cache-Control"]
    assert f"Round 2: Table {table.number}, Seat 3" in html
    mates = ", ".join(seat.entrant.name for seat in seats if seat.entrant != her)
    assert f"with {mates}" in html
    row = results.standings(world.tournament).row_of(her.number)
    assert f"Place {row.place}" in html
    assert 'id="me-rounds"' in html and "Round result" in html
    # After round 1 there is no round before to change from (§14.5), as on the board.
    assert row.change is None and "new in the ranking" not in html and "▲" not in html


def test_the_change_since_the_last_round_is_her_place_now_against_after_the_round_before(user):
    world = build(user, rounds_played=1, release_next=False)
    after_one = {
        row.number: row.place for row in results.standings(world.tournament).rows if row.place is not None
    }
    play_round(world.tournament, 2)
    factory.release(world.tournament)
    t = factory.fresh(world.tournament)
    moved = 0
    for row in results.standings(t).rows:
        assert row.place is not None
        standing = player_view.standing_of(t, row.number)
        assert standing is not None and standing.change is not None
        assert standing.change.by == after_one[row.number] - row.place and not standing.change.new
        if standing.change.by and not moved:
            moved = row.number
            by = standing.change.by
    assert moved, "two rounds of this field move someone"
    html = phone_of(world, world.number_of(moved)).get(day_url(world)).content.decode()
    assert ("▲" if by > 0 else "▼") in html
    places = "place" if abs(by) == 1 else "places"
    assert (f"up {by} {places}" if by > 0 else f"down {-by} {places}") in html


def test_mein_tag_for_a_bye(world):
    round2 = world.tournament.rounds.get(number=2)
    start = round2.draw["byes"][0]
    html = phone_of(world, world.number_of(start)).get(day_url(world)).content.decode()
    assert "Round 2: bye (0 points)" in html
    assert 'id="me-mates"' not in html


def test_a_player_of_the_register_not_in_the_tournament(world, user):
    added = circuits.register_add(circuit=world.circuit, user=user, family="Neu", given="Nina", place="Enns")
    html = phone_of(world, added.entry.number).get(day_url(world)).content.decode()
    assert f"Nr. {added.entry.number} does not play in this tournament." in html
    assert 'id="me-seat"' not in html


def test_an_unknown_number_is_refused_with_a_clear_message_and_nothing_kept(world):
    browser = phone_of(world)
    answer = browser.post(day_url(world), {"number": "999"})
    assert answer.status_code == 400
    assert "Number: Nr. 999 is not in the register of Tarock Österreich." in answer.content.decode()
    assert player_view.ME_COOKIE.format(circuit=world.circuit.pk) not in answer.cookies
    bad = browser.post(day_url(world), {"number": "12ab"})
    assert bad.status_code == 400 and "Number: a whole number from 1 to 999999." in bad.content.decode()
    kept = phone_of(world, 999).get(day_url(world)).content.decode()
    assert 'id="me-unknown"' in kept and "Nr. 999 is not in the register of Tarock Österreich" in kept


def test_a_number_given_is_kept_on_the_phone_and_shown_on_the_board(world):
    browser = phone_of(world)
    start = world.start_of("Huber Maria")
    number = world.number_of(start)
    answer = browser.post(day_url(world), {"number": str(number)})
    assert answer.status_code == 303 and answer["Location"] == day_url(world)
    cookie = answer.cookies[player_view.ME_COOKIE.format(circuit=world.circuit.pk)]
    assert cookie.value == str(number) and cookie["path"] == "/" and not cookie["httponly"]
    again = browser.post(day_url(world), {"number": str(number)})  # sent twice: the same
    assert again.cookies[player_view.ME_COOKIE.format(circuit=world.circuit.pk)].value == str(number)
    board = browser.get(reverse("tournament_board", args=[world.token])).content.decode()
    assert f'href="#entrant-{start}" id="me-jump"' in board
    assert f'id="entrant-{start}" data-nr="{number}"' in board or f'data-nr="{number}"' in board
    forgot = browser.post(day_url(world), {"action": "forget"})
    assert forgot.status_code == 303
    assert forgot.cookies[player_view.ME_COOKIE.format(circuit=world.circuit.pk)].value == ""


def test_friends_are_followed_once_and_unfollowed(world):
    browser = phone_of(world, world.number_of(1))
    key = player_view.FRIENDS_COOKIE.format(circuit=world.circuit.pk)
    first = browser.post(day_url(world), {"action": "follow", "number": str(world.number_of(2))})
    assert first.status_code == 303 and first.cookies[key].value == str(world.number_of(2))
    twice = browser.post(day_url(world), {"action": "follow", "number": str(world.number_of(2))})
    assert twice.cookies[key].value == str(world.number_of(2))
    browser.post(day_url(world), {"action": "follow", "number": str(world.number_of(3))})
    html = browser.get(day_url(world)).content.decode()
    assert "Gruber Anna" in html and "Bauer Karl" in html
    refused = browser.post(day_url(world), {"action": "follow", "number": "999"})
    assert refused.status_code == 400 and key not in refused.cookies
    gone = browser.post(day_url(world), {"action": "unfollow", "number": str(world.number_of(2))})
    assert gone.cookies[key].value == str(world.number_of(3))


def test_the_boards_poll_stays_one_row_and_a_204_with_a_number_kept(world):
    browser = phone_of(world, world.number_of(1), friends=str(world.number_of(2)))
    url = reverse("tournament_board", args=[world.token]) + f"?since={world.tournament.version}"
    browser.get(reverse("tournament_board", args=[world.token]))
    with CaptureQueriesContext(connection) as seen:
        answer = browser.get(url, HTTP_HX_REQUEST="true")
    assert answer.status_code == 204
    assert len(seen.captured_queries) == 1
    day_poll = day_url(world) + f"?since={world.tournament.version}"
    assert browser.get(day_poll, HTTP_HX_REQUEST="true").status_code == 204


def test_the_board_rows_carry_register_numbers_for_the_phone_to_mark(world):
    html = Client().get(reverse("tournament_board", args=[world.token])).content.decode()
    numbers = player_view.register_numbers(world.tournament)
    for start, number in numbers.items():
        assert f'id="entrant-{start}" data-nr="{number}"' in html
    assert f'data-circuit="{world.circuit.pk}"' in html
    assert "/static/js/me.js" in html


def test_meine_saison_equals_the_cup_season_page(user):
    world = build(user, rounds_played=3, release_next=False)
    from tournaments.services import tournaments

    tournaments.tournament_provisional(tournament=factory.fresh(world.tournament), user=user)
    factory.make_final(factory.fresh(world.tournament))
    season = cups.season_ranking(Cup.objects.get(pk=world.cup.pk))
    organiser = Client(HTTP_ACCEPT_LANGUAGE="en")
    organiser.force_login(user)
    cup_page = organiser.get(reverse("cup_detail", args=[world.cup.pk])).content.decode()
    for line in season.lines[:5]:
        number = line.player.circuit_player.number
        html = phone_of(world, number).get(season_url(world)).content.decode()
        mine = html[html.index(f'id="me-cup-{world.cup.pk}"') :]
        assert f'<dd class="num me-place">{line.place}</dd>' in mine
        points = presentation.number(line.total)
        assert f"<strong>{points}</strong>" in mine
        assert f'<dd class="num me-played">{line.participations}</dd>' in mine
        assert f"{line.podiums[0]}-{line.podiums[1]}-{line.podiums[2]}" in mine
        assert f"<strong>{points}</strong>" in cup_page
    # One tournament of the four §14.7 asks for: three still missing.
    first = season.lines[0].player.circuit_player.number
    html = phone_of(world, first).get(season_url(world)).content.decode()
    assert "3 more tournaments for the minimum participation (RTC)" in html


def test_qualification_wording_in_german_from_the_one_place_the_rules_are_read(user):
    world = build(user, rounds_played=3, release_next=False)
    from tournaments.services import tournaments

    tournaments.tournament_provisional(tournament=factory.fresh(world.tournament), user=user)
    # One tournament qualifies in this cup: set as the circuit's organisers set it.
    finals.cup_tier_set(circuit=world.circuit, user=user, cup_id=world.cup.pk, tier="B", min_events=1)
    season = cups.season_ranking(Cup.objects.get(pk=world.cup.pk))
    first = season.lines[0]
    html = (
        phone_of(world, first.player.circuit_player.number)
        .get(season_url(world), HTTP_ACCEPT_LANGUAGE="de")
        .content.decode()
    )
    assert "qualifiziert über RTC, 120 Vorrundenpunkte" in html
    with translation.override("de"):
        assert me_views.final_text(rules.FinalStatus(False, "RTC", 120, 1)) == (
            "noch 1 Turnier für die Mindestteilnahme (RTC)"
        )
        assert me_views.final_text(rules.FinalStatus(True, "RTC", 104)) == (
            "qualifiziert über RTC, 104 Vorrundenpunkte"
        )
        assert me_views.final_text(rules.FinalStatus(False)) == "nicht unter den Qualifikationsplätzen"
    # The words are the rules' own (``FinalStatus.text``), in the reader's language.
    for status in (rules.FinalStatus(False, "RTC", 120, 1), rules.FinalStatus(True, "RTC", 104)):
        with translation.override("de"):
            assert me_views.final_text(status) == status.text()


def test_the_default_tier_and_minimum_are_b_and_four(world):
    cup = Cup.objects.get(pk=world.cup.pk)
    assert finals.tier_table(cup) == rules.TIERS["B"] and cup.circuit_min_events == 4


def test_meine_saison_reads_the_cups_tier_and_min_events_as_the_qualification_list_does(user):
    world = build(user, rounds_played=3, release_next=False)
    from tournaments.services import tournaments

    tournaments.tournament_provisional(tournament=factory.fresh(world.tournament), user=user)
    finals.cup_tier_set(circuit=world.circuit, user=user, cup_id=world.cup.pk, tier="A", min_events=1)
    lines = finals.standings(Circuit.objects.get(pk=world.circuit.pk)).cup(world.cup.pk).lines
    # A season place where tier A's table differs from the default B's.
    listed = next(
        line for line in lines if rules.TIERS["A"][line.row.place - 1] != rules.TIERS["B"][line.row.place - 1]
    )
    html = phone_of(world, listed.person.number).get(season_url(world)).content.decode()
    assert listed.row.vorrundenpunkte == rules.TIERS["A"][listed.row.place - 1]
    assert f"qualified through RTC, {listed.row.vorrundenpunkte} Vorrundenpunkte" in html


def test_the_cup_season_table_marks_her_row_and_a_friends_on_the_server(user):
    world = build(user, rounds_played=3, release_next=False)
    from tournaments.services import tournaments

    tournaments.tournament_provisional(tournament=factory.fresh(world.tournament), user=user)
    season = cups.season_ranking(Cup.objects.get(pk=world.cup.pk))
    me, friend = (line.player.circuit_player.number for line in season.lines[:2])
    organiser = phone_of(world, me, friends=str(friend))
    organiser.force_login(user)
    html = organiser.get(reverse("cup_detail", args=[world.cup.pk])).content.decode()
    assert f'<tr data-nr="{me}" class="me" aria-current="true">' in html
    assert f'<tr data-nr="{friend}" class="friend">' in html


def _count(world: World, number: int, url: str) -> int:
    browser = phone_of(world, number, friends=f"{world.number_of(2)}-{world.number_of(3)}")
    browser.get(url)  # the standings kept, the cookie given
    with CaptureQueriesContext(connection) as seen:
        assert browser.get(url).status_code == 200
    return len(seen.captured_queries)


def seated(world: World) -> int:
    """The register number of a player seated at table 1 of round 2."""
    table = world.tournament.rounds.get(number=2).tables.get(number=1)
    return world.number_of(table.seats.select_related("entrant").order_by("position")[0].entrant.number)


@pytest.mark.usefixtures("one_progress_window")
def test_the_players_view_takes_as_many_statements_for_a_larger_field(user, other_user):
    small = build(user)
    large = build(other_user, names=NAMES + MORE)
    for url in (day_url, season_url):
        few = _count(small, seated(small), url(small))
        many = _count(large, seated(large), url(large))
        assert many <= few, url
        assert few <= 40


def test_a_tournament_outside_a_circuit_explains_and_refuses_a_number(user):
    t = factory.tournament(user, names=NAMES[:8])
    token = results.board_share(t)
    html = Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("tournament_my_day", args=[token])).content.decode()
    assert 'id="me-no-circuit"' in html
    refused = Client(HTTP_ACCEPT_LANGUAGE="en").post(
        reverse("tournament_my_day", args=[token]), {"number": "1"}
    )
    assert refused.status_code == 400 and "belongs to no circuit" in refused.content.decode()


def test_numbers_and_friends_read_from_the_phone_are_checked():
    assert player_view.number_read("4711") == 4711
    assert [player_view.number_read(text) for text in ("0", "1000000", "-1", "١٢", "", None)] == [None] * 6
    assert player_view.friends_read("3-3-x-5") == [3, 5]
    many = "-".join(str(n) for n in range(1, 100))
    assert len(player_view.friends_read(many)) == player_view.FRIENDS_MOST


def test_the_cups_season_table_from_the_board_shows_public_names_and_marks_her_row(user):
    world = build(user, rounds_played=3, release_next=False)
    from tournaments.services import tournaments

    tournaments.tournament_provisional(tournament=factory.fresh(world.tournament), user=user)
    season = cups.season_ranking(Cup.objects.get(pk=world.cup.pk))
    me, friend = (line.player.circuit_player.number for line in season.lines[:2])
    page = phone_of(world, me, friends=str(friend)).get(reverse("tournament_cup_season", args=[world.token]))
    html = page.content.decode()
    assert page.status_code == 200 and "no-cache" in page["Cache-Control"]
    assert f'<tr data-nr="{me}" class="me" aria-current="true">' in html
    assert f'<tr data-nr="{friend}" class="friend">' in html
    first = season.lines[0].player.circuit_player
    assert f"{first.family} {first.given} · Nr. {first.number}" in html
    board = Client().get(reverse("tournament_board", args=[world.token])).content.decode()
    assert reverse("tournament_cup_season", args=[world.token]) in board


def test_the_players_pages_count_against_the_boards_budget_per_phone(world, monkeypatch):
    from dataclasses import replace

    from plumbing import budgets
    from tournaments.views import board as board_views

    monkeypatch.setattr(budgets, "WINDOW_SECONDS", 3600)
    monkeypatch.setattr(board_views, "BOARD", replace(board_views.BOARD, per_phone=3))
    busy = phone_of(world, world.number_of(1))
    busy.cookies[board_views.BOARD_COOKIE] = "a-phone-of-the-hall-0123"
    calm = phone_of(world, world.number_of(2))
    calm.cookies[board_views.BOARD_COOKIE] = "another-phone-of-the-hall"
    answers = [busy.get(url).status_code for url in (day_url(world), season_url(world), day_url(world))]
    assert answers == [200, 200, 200]
    assert busy.get(day_url(world)).status_code == 429
    assert busy.post(day_url(world), {"number": "2"}).status_code == 429
    assert calm.get(season_url(world)).status_code == 200


def test_mein_tag_and_meine_saison_stay_within_a_fixed_number_of_statements(
    user, django_assert_max_num_queries
):
    world = build(user, names=NAMES + MORE)
    browser = phone_of(world, seated(world), friends=f"{world.number_of(2)}-{world.number_of(3)}")
    for url in (day_url(world), season_url(world), reverse("tournament_cup_season", args=[world.token])):
        browser.get(url)
        with django_assert_max_num_queries(16):
            assert browser.get(url).status_code == 200
