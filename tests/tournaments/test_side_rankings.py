"""Side rankings, rank changes and honours (TOURNAMENTS.md §14.4, §14.5, §14.8)
through the services and the pages: every number checked against a computation
made here from the typed-in sums (or against the pure rules on data read here),
the statements bounded however many players, the hall's poll as cheap as before."""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Hand, Seat
from tests.tournaments import factory
from tests.tournaments.table_support import in_english as in_english
from tests.tournaments.table_support import kontra_hand, rufer
from tournaments.core import circuit as rules
from tournaments.models import (
    CircuitPlayer,
    Cup,
    Entrant,
    SideRanking,
    TableRound,
    Tournament,
    TournamentChange,
    TournamentPlace,
)
from tournaments.services import circuit as circuits
from tournaments.services import cups, desk, honours, results, side
from tournaments.services import tournaments as tournament_services

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("nothing_kept")]

NAMES = factory.EXAMPLE_NAMES
SUMS = factory.EXAMPLE_SUMS


def places_after(rounds: int) -> dict[str, int]:
    """The places after ``rounds`` rounds, worked out here by §4.2's default chain:
    the total, then the round results best first (no two players of the example
    are equal on both, so the lots never decide)."""

    def key(name: str) -> tuple[int, ...]:
        played = [SUMS[k][name] for k in range(rounds)]
        return (-sum(played), *(-value for value in sorted(played, reverse=True)))

    assert len({key(name) for name in NAMES}) == len(NAMES)
    return {name: place for place, name in enumerate(sorted(NAMES, key=key), 1)}


def played(user: User, rounds: int, **kwargs: Any) -> Tournament:
    t = factory.tournament(user, **kwargs)
    factory.draw(t)
    for number in range(1, rounds + 1):
        factory.release(t)
        factory.desk_round(t, number, SUMS[number - 1])
    return factory.fresh(t)


# -- rank changes (§14.5) ---------------------------------------------------------------------


def test_after_round_one_no_change_is_shown_and_after_round_two_each_place_moved_as_computed(user):
    t = played(user, 1)
    assert all(row.change is None for row in results.standings(t).rows)
    t = played(user, 2, name="Zweiter Abend")
    before, now = places_after(1), places_after(2)
    table = results.standings(t)
    by_name = {row.name: row for row in table.rows}
    for name in NAMES:
        assert by_name[name].place == now[name]
        assert by_name[name].change == rules.Change(by=before[name] - now[name])
    # Stored with the snapshot and read back the same by another server process.
    results._KEPT.clear()
    assert results.standings(factory.fresh(t)).rows == table.rows


def test_the_board_and_the_hall_show_the_change_as_arrow_and_in_words(user):
    t = played(user, 2)
    results.board_share(t)
    t = factory.fresh(t)
    before, now = places_after(1), places_after(2)
    mover = max(NAMES, key=lambda n: before[n] - now[n])
    gained = before[mover] - now[mover]
    page = Client(HTTP_ACCEPT_LANGUAGE="de").get(reverse("tournament_board", args=[t.board_token]))
    html = page.content.decode()
    number = Entrant.objects.get(tournament=t, name=mover).number
    row = re.search(rf'<tr id="entrant-{number}".*?</tr>', html, re.S)
    assert row is not None
    assert f'aria-hidden="true">▲ {gained}</span>' in row.group(0)
    assert f"{gained} Plätze gewonnen" in row.group(0) or f"{gained} Platz gewonnen" in row.group(0)
    screen = Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("tournament_screen", args=[t.screen_token]))
    text = screen.content.decode()
    assert f"▲ {gained}" in text and ("up 1 place" in text or "places" in text)
    assert "Change since the previous round" in text
    card = Client(HTTP_ACCEPT_LANGUAGE="de").get(
        reverse("tournament_player_card", args=[t.board_token, number])
    )
    assert f'aria-hidden="true">▲ {gained}</span>' in card.content.decode()


def test_an_entrant_without_an_earlier_round_is_new(user):
    from tournaments.services import plan

    t = factory.tournament(user, settings={"late_entry": "any_round"})
    factory.draw(t)
    factory.release(t)
    factory.desk_round(t, 1, SUMS[0])
    late = side_entrant(t, "Zoe")
    plan.round_redraw(tournament=factory.fresh(t), user=user, number=2)
    factory.release(factory.fresh(t))
    zero_sum(t, 2)
    table = results.standings(factory.fresh(t))
    row = table.row_of(late.number)
    assert row is not None and row.change == rules.Change(new=True)
    assert all(r.change is not None and not r.change.new for r in table.rows if r.number != late.number)


def zero_sum(t: Tournament, round_number: int) -> None:
    """Every table of the round typed in: the seats win and lose in turn, summing to zero."""
    for table in factory.tables(t, round_number):
        numbers = list(table.seats.order_by("position").values_list("entrant__number", flat=True))
        sums = dict(zip(numbers, (30, 10, -10, -30, 0)[: len(numbers)], strict=True))
        desk.desk_enter(tournament=factory.fresh(t), user=t.owner, table_id=table.pk, sums=sums)


def side_entrant(t: Tournament, name: str, place: str = "") -> Entrant:
    from tournaments.services import entrants

    return entrants.entrant_add(tournament=factory.fresh(t), user=t.owner, name=name, place=place)


def test_the_halls_unchanged_poll_stays_one_row_and_a_204(user):
    t = played(user, 2)
    results.board_share(t)
    t = factory.fresh(t)
    url = reverse("tournament_screen", args=[t.screen_token]) + f"?since={t.version}"
    browser = Client()
    with CaptureQueriesContext(connection) as seen:
        answer = browser.get(url, HTTP_HX_REQUEST="true")
    assert answer.status_code == 204
    assert len([q for q in seen.captured_queries if q["sql"].startswith("SELECT")]) == 1


def test_the_season_table_shows_each_places_change_since_the_previous_tournament(user):
    cup = factory.cup(user, best_n="all")
    factory.play_example(user, cup=cup)
    second = factory.tournament(user, cup=cup, name="Zweiter")
    factory.draw(second)
    for number in (1, 2, 3):
        factory.release(second)
        factory.desk_round(second, number, {name: -value for name, value in SUMS[number - 1].items()})
    tournament_services.tournament_provisional(tournament=factory.fresh(second), user=user)
    season = cups.season_ranking(Cup.objects.get(pk=cup.pk))
    # Independently: each tournament's written places, through the pure season rules.
    days = [
        rules.CupTournament(
            t.name,
            tuple(
                (place.entrant.cup_player_id or 0, Fraction(str(place.total)))
                for place in TournamentPlace.objects.filter(tournament=t)
                .order_by("place")
                .select_related("entrant")
            ),
        )
        for t in Tournament.objects.filter(cup=cup).order_by("played_on", "id")
    ]
    cup_rules_ = rules.CupRules(best_n="all")
    expected = rules.season_changes(days, cup_rules_)
    assert len(season.lines) == len(NAMES)
    for line in season.lines:
        assert line.change == expected[line.player.pk], line.player.name
    assert any(line.change.by != 0 for line in season.lines if line.change is not None)
    page = Client()
    page.force_login(user)
    html = page.get(reverse("cup_detail", args=[cup.pk])).content.decode()
    assert 'class="rank-change' in html and "visually-hidden" in html


# -- side rankings (§14.4) --------------------------------------------------------------------

HOME = {"Anna", "Dieter", "Gerti", "Karin"}  # from Steyr
DAMEN = {"Anna", "Christa", "Erika", "Gerti", "Ida", "Karin"}


def steyr_day(user: User, **kwargs: Any) -> Tournament:
    t = factory.tournament(user, names=(), **kwargs)
    for name in NAMES:
        side_entrant(t, name, "Steyr" if name in HOME else "Linz")
    factory.draw(t)
    for number, sums in enumerate(SUMS, 1):
        factory.release(t)
        factory.desk_round(t, number, sums)
    return factory.fresh(t)


def test_a_home_side_ranking_ranks_the_towns_players_in_the_main_order_and_passes_prizes_down(user):
    t = steyr_day(user, settings={"prizes": [{"from": 1, "to": 1, "text": "Pokal"}]})
    side.side_ranking_add(
        user=user,
        tournament=t,
        name="Stadtmeisterschaft",
        kind="home",
        value="steyr",
        prizes=["Wein", "Buch"],
    )
    main = places_after(3)
    winner = min(NAMES, key=lambda n: main[n])
    expected = sorted(HOME, key=lambda n: main[n])
    found = side.tournament_sides(factory.fresh(t))
    assert [s.side.name for s in found] == ["Stadtmeisterschaft"]
    rows = found[0].rows
    assert [r.name for r in rows] == expected
    assert [r.main_place for r in rows] == [main[n] for n in expected]
    assert [r.place for r in rows] == list(range(1, len(expected) + 1))
    totals = {name: sum(s[name] for s in SUMS) for name in NAMES}
    assert [r.total for r in rows] == [Fraction(totals[n]) for n in expected]
    # One prize per player: the main ranking's winner keeps his Pokal; the side's prizes pass down.
    kept = [n for n in expected if n != winner][:2]
    assert [r.prize for r in rows if r.prize] == ["Wein", "Buch"]
    assert [r.name for r in rows if r.prize] == kept
    # The main ranking is untouched.
    assert [row.name for row in results.standings(factory.fresh(t)).rows] == sorted(
        NAMES, key=lambda n: main[n]
    )


def test_without_one_prize_per_player_the_winner_takes_both(user):
    t = steyr_day(user, settings={"prizes": [{"from": 1, "to": 3, "text": "Pokal"}]})
    side.side_ranking_add(
        user=user,
        tournament=t,
        name="Stadt",
        kind="home",
        value="Steyr",
        prizes=["Wein"],
        one_prize_per_player=False,
    )
    main = places_after(3)
    rows = side.tournament_sides(factory.fresh(t))[0].rows
    assert rows[0].prize == "Wein" and rows[0].name == min(HOME, key=lambda n: main[n])


def circuit_cup(user: User) -> tuple[Cup, Any]:
    cup = factory.cup(user)
    circuit = circuits.circuit_create(owner=user, name="Tarock Österreich", season="2025/26")
    return cup, circuit


def test_a_category_side_ranking_reads_the_circuits_register(user):
    cup, circuit = circuit_cup(user)
    t = steyr_day(user, cup=cup)
    circuits.cup_join(circuit=circuit, user=user, cup_id=cup.pk)
    for entry in CircuitPlayer.objects.filter(circuit=circuit):
        name = f"{entry.family} {entry.given}".strip()
        if name in DAMEN:
            CircuitPlayer.objects.filter(pk=entry.pk).update(categories=["Damen"])
    made = side.side_ranking_add(user=user, cup=cup, name="Damenwertung", kind="category", value="damen")
    assert made.value == "Damen"  # as the register spells it
    from scoring.engine import InvalidInput

    with pytest.raises(InvalidInput) as refused:
        side.side_ranking_add(user=user, cup=cup, name="Herren", kind="category", value="Herren")
    assert refused.value.field == "value"
    t = factory.fresh(t)
    main = places_after(3)
    found = side.tournament_sides(t)
    assert [r.name for r in found[0].rows] == sorted(DAMEN, key=lambda n: main[n])
    # The board shows it as a tab of its own; the hall as a page after the ranking's.
    results.board_share(t)
    t = factory.fresh(t)
    html = Client().get(reverse("tournament_board", args=[t.board_token])).content.decode()
    assert "Damenwertung" in html and 'class="card side-ranking"' in html
    screen = Client().get(reverse("tournament_screen", args=[t.screen_token])).content.decode()
    assert 'class="hall-page hall-side"' in screen and "Damenwertung" in screen


def test_a_cups_venue_side_ranking_counts_only_the_tournaments_outside_the_region(user):
    cup = factory.cup(user, best_n="all")
    vienna = factory.play_example(user, cup=cup)
    side.tournament_region_set(tournament=vienna, user=user, region="Wien")
    linz = factory.play_example(user, cup=cup)
    side.tournament_region_set(tournament=factory.fresh(linz), user=user, region="Oberösterreich")
    side.side_ranking_add(user=user, cup=cup, name="Out-of-Vienna", kind="region_not", value="wien")
    found = side.cup_sides(Cup.objects.get(pk=cup.pk))
    lines = found[0].lines
    # Independently: only Linz counts, fixed points by its places.
    table = (223, 198, 180, 168, 156, 147, 138, 131, 124, 117, 110, 105)
    main = places_after(3)
    by_place = sorted(NAMES, key=lambda n: main[n])
    assert [(line.place, line.name, line.points) for line in lines] == [
        (place, name, Fraction(table[place - 1])) for place, name in enumerate(by_place, 1)
    ]
    assert all(line.participations == 1 for line in lines)
    # The main season counts both tournaments (two results each).
    season = cups.season_ranking(Cup.objects.get(pk=cup.pk))
    assert all(line.participations == 2 for line in season.lines)


def test_side_rankings_are_checked_limited_and_stored_once(user, in_english):
    t = steyr_day(user)
    args = {"user": user, "tournament": t, "name": "Stadt", "kind": "home", "value": "Steyr"}
    first = side.side_ranking_add(**args)
    assert side.side_ranking_add(**args) == first  # sent twice: stored once
    from scoring.engine import InvalidInput

    with pytest.raises(InvalidInput) as refused:
        side.side_ranking_add(**(args | {"value": "Linz"}))
    assert refused.value.field == "name"
    with pytest.raises(InvalidInput) as refused:
        side.side_ranking_add(**(args | {"name": "X", "kind": "region"}))
    assert refused.value.field == "kind"
    for n in range(2, rules.MAX_SIDE_RANKINGS + 1):
        side.side_ranking_add(**(args | {"name": f"Stadt {n}"}))
    with pytest.raises(InvalidInput):
        side.side_ranking_add(**(args | {"name": "Elfte"}))
    assert SideRanking.objects.filter(tournament=t).count() == rules.MAX_SIDE_RANKINGS
    assert TournamentChange.objects.filter(tournament=t, after__side_ranking="Stadt").count() == 1
    assert side.side_ranking_delete(user=user, side_id=first.pk, tournament=t)
    assert not side.side_ranking_delete(user=user, side_id=first.pk, tournament=t)


@pytest.mark.parametrize("players", [12, 24])
def test_side_rankings_and_the_prize_list_take_statements_that_do_not_grow_with_players(
    user, players, django_assert_max_num_queries
):
    names = [f"Spieler {n}" for n in range(1, players + 1)]
    t = factory.tournament(user, names=())
    for index, name in enumerate(names):
        side_entrant(t, name, "Steyr" if index % 3 == 0 else "")
    factory.draw(t)
    factory.release(t)
    zero_sum(t, 1)
    side.side_ranking_add(user=user, tournament=factory.fresh(t), name="Stadt", kind="home", value="Steyr")
    t = factory.fresh(t)
    results.standings(t)
    with django_assert_max_num_queries(3):
        side.tournament_sides(t)
    with django_assert_max_num_queries(4):
        honours.spiel_des_tages(t)


# -- honours (§14.8) ---------------------------------------------------------------------------


def test_the_game_of_the_day_is_the_best_declared_hand_earliest_table_first(user):
    t = factory.tournament(user)
    factory.draw(t)
    factory.release(t)
    tables = factory.tables(t, 1)
    for table, kind in zip(tables, ("rufer", "kontra", "kontra"), strict=True):
        names = _names(table)
        dealer = names[table.first_dealer - 1]
        raw = (
            rufer(names[0], names[1], dealer) if kind == "rufer" else kontra_hand(names[2], names[3], dealer)
        )
        factory.play_hand(table, raw)
        desk.table_end(tournament=factory.fresh(t), user=user, table_id=table.pk, reason="Zeit")
    best = honours.spiel_des_tages(factory.fresh(t))
    # Independently: every stored hand's declarer and his delta, read here.
    found = []
    for table in TableRound.objects.filter(round__tournament=t).select_related("round"):
        for hand in Hand.objects.filter(session_id=table.session_id or 0, deleted_at__isnull=True).order_by(
            "number"
        ):
            declarer = str(hand.inputs["declarer"])
            found.append(
                rules.DayHand(table.round.number, table.number, 1, declarer, Fraction(hand.deltas[declarer]))
            )
    expected = rules.spiel_des_tages(found)
    assert best is not None and expected is not None
    assert (best.round, best.table, best.declarer, best.schrift) == (
        1,
        2,
        expected.declarer,
        expected.schrift,
    )
    assert best.schrift == 3  # the Besserrufer's Schrift; table 3's equal hand comes later
    page = Client(HTTP_ACCEPT_LANGUAGE="en")
    page.force_login(user)
    html = page.get(reverse("tournament_prizes", args=[t.pk])).content.decode()
    assert 'id="game-of-the-day"' in html and f"{best.declarer}, round 1, table 2, hand 1" in html


def _names(table: TableRound) -> list[str]:
    from tournaments.services import tables as table_services

    session = table_services.open_table(table)
    return list(Seat.objects.filter(session=session).order_by("position").values_list("name", flat=True))


def test_the_bestenliste_and_the_cupsieger_of_a_cup_over_its_seasons(user):
    earlier = factory.cup(user, season="2024/25")
    factory.make_final(factory.play_example(user, cup=earlier))
    cup = factory.cup(user)
    factory.make_final(factory.play_example(user, cup=cup))
    found = honours.cup_honours(Cup.objects.get(pk=cup.pk))
    totals = {name: sum(s[name] for s in SUMS) for name in NAMES}
    best_round = {name: max(s[name] for s in SUMS) for name in NAMES}
    main = places_after(3)
    winner = min(NAMES, key=lambda n: main[n])
    tables = {table.key: table.lines for table in found.all_time}
    assert [(line.name, line.value) for line in tables["wins"]] == [(winner, 2)]
    assert {(line.name, line.value) for line in tables["podiums"]} == {
        (name, Fraction(2)) for name in NAMES if main[name] <= 3
    }
    top_total = max(totals.values())
    assert tables["best_total"][0].value == top_total and tables["best_total"][0].name == winner
    top_round = max(best_round.values())
    assert tables["best_round"][0].value == top_round
    assert [line.value for line in tables["participations"]] == [2] * len(tables["participations"])
    assert [label for label, _tables in found.seasons] == ["2025/26", "2024/25"]
    season_wins = {t.key: t.lines for t in found.seasons[0][1]}["wins"]
    assert [(line.name, line.value) for line in season_wins] == [(winner, 1)]
    assert [(season, names) for season, _cup, names in found.winners] == [
        ("2025/26", (winner,)),
        ("2024/25", (winner,)),
    ]
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(user)
    html = browser.get(reverse("cup_honours", args=[cup.pk])).content.decode()
    assert "Most tournament wins" in html and winner in html


# -- pages ----------------------------------------------------------------------------------


def test_the_organiser_adds_and_removes_a_side_ranking_on_the_page(user):
    t = steyr_day(user)
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(user)
    url = reverse("tournament_sides", args=[t.pk])
    posted = {
        "name": "Stadt",
        "kind": "home",
        "value": "Steyr",
        "prizes": "Wein\nBuch",
        "one_prize_per_player": "on",
    }
    assert browser.post(url, posted).status_code == 302
    assert browser.post(url, posted).status_code == 302  # sent twice
    assert SideRanking.objects.filter(tournament=t).count() == 1
    bad = browser.post(url, posted | {"kind": "nonsense"})
    assert bad.status_code == 400 and "kind" in bad.content.decode()
    page = browser.get(url).content.decode()
    assert "Stadt" in page and "Wein" in page
    assert browser.post(url, {"action": "region", "region": "Oberösterreich"}).status_code == 302
    assert factory.fresh(t).region == "Oberösterreich"
    made = SideRanking.objects.get(tournament=t)
    assert browser.post(url, {"action": "delete", "side": made.pk}).status_code == 302
    assert browser.post(url, {"action": "delete", "side": made.pk}).status_code == 302
    assert not SideRanking.objects.filter(tournament=t).exists()


def test_the_prize_list_and_the_season_pdf_carry_the_side_rankings(user, monkeypatch):
    captured: dict[str, Any] = {}

    def fake(template: str, context: Mapping[str, Any], stem: str) -> Any:
        from django.template.loader import render_to_string

        captured[template] = render_to_string(template, {**context, "printed_at": None})
        return None

    from tournaments.services import printouts

    monkeypatch.setattr(printouts, "_pdf", fake)
    cup = factory.cup(user)
    t = steyr_day(user, cup=cup)
    tournament_services.tournament_provisional(tournament=t, user=user)
    side.side_ranking_add(
        user=user, tournament=factory.fresh(t), name="Stadt", kind="home", value="Steyr", prizes=["Wein"]
    )
    printouts.prizes_pdf(factory.fresh(t))
    assert "Stadt" in captured["tournaments/print/prizes.html"]
    side.side_ranking_add(user=user, cup=cup, name="Wienfrei", kind="region_not", value="Wien")
    printouts.season_pdf(cups.season_ranking(cup), side.cup_sides(cup))
    assert "Wienfrei" in captured["tournaments/print/season.html"]


def finished_day(user: User, cup: Cup, players: int, name: str) -> Tournament:
    """A final tournament of the cup with ``players`` entrants, three rounds typed in."""
    t = factory.tournament(user, cup=cup, name=name, names=[f"Spieler {n}" for n in range(1, players + 1)])
    factory.draw(t)
    for number in (1, 2, 3):
        factory.release(t)
        zero_sum(t, number)
    tournament_services.tournament_provisional(tournament=factory.fresh(t), user=user)
    return factory.make_final(factory.fresh(t))


def test_the_cups_season_sides_and_honours_take_statements_that_do_not_grow_with_players(user):
    counts = []
    for players in (12, 24):
        cup = factory.cup(user, name=f"Cup {players}")
        finished_day(user, cup, players, "Erster")
        finished_day(user, cup, players, "Zweiter")
        side.side_ranking_add(user=user, cup=cup, name="Wienfrei", kind="region_not", value="Wien")
        cup = Cup.objects.get(pk=cup.pk)
        with CaptureQueriesContext(connection) as seen:
            side.cup_sides(cup)
            honours.cup_honours(cup)
        counts.append(len(seen.captured_queries))
    assert counts[0] == counts[1] and counts[0] <= 8


def test_a_circuits_honours_know_a_player_by_his_number_across_its_cups(user):
    circuit = circuits.circuit_create(owner=user, name="Tarock Österreich", season="2025/26")
    first, second = factory.cup(user, name="Hausruckcup"), factory.cup(user, name="Sauwaldcup")
    factory.make_final(factory.play_example(user, cup=first))
    factory.make_final(factory.play_example(user, cup=second))
    for cup in (first, second):
        circuits.cup_join(circuit=circuit, user=user, cup_id=cup.pk)
    found = honours.circuit_honours(circuit)
    winner = min(NAMES, key=lambda n: places_after(3)[n])
    wins = {table.key: table.lines for table in found.all_time}["wins"]
    assert [(line.name, line.value) for line in wins] == [(winner, 2)]
    assert sorted(cup for _season, cup, _names in found.winners) == ["Hausruckcup", "Sauwaldcup"]
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(user)
    html = browser.get(reverse("circuit_honours", args=[circuit.pk])).content.decode()
    assert "Most tournament wins" in html and "Sauwaldcup" in html


def test_a_circuits_honours_name_a_player_as_his_public_name_says(user):
    circuit = circuits.circuit_create(owner=user, name="Tarock Österreich", season="2025/26")
    cup = factory.cup(user, name="Hausruckcup")
    t = factory.tournament(user, cup=cup, names=("Huber Maria", "Gruber Anna", "Bauer Karl", "Maier Hans"))
    factory.draw(t)
    for number in (1, 2, 3):
        factory.release(t)
        zero_sum(t, number)
    tournament_services.tournament_provisional(tournament=factory.fresh(t), user=user)
    factory.make_final(factory.fresh(t))
    circuits.cup_join(circuit=circuit, user=user, cup_id=cup.pk)
    CircuitPlayer.objects.filter(circuit=circuit, family="Huber").update(public_name="short")
    shown = {line.name for table in honours.circuit_honours(circuit).all_time for line in table.lines}
    assert "Huber M." in shown and "Huber Maria" not in shown and "Gruber Anna" in shown
