"""Cups and seasons (TOURNAMENTS.md §5): the register, merging two entries, cup
points written when provisional and again when final, the season ranking."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse

from scoring.engine import InvalidInput
from tests.tournaments import factory
from tournaments.models import Cup, CupChange, CupPlayer, Entrant, TournamentPlace
from tournaments.services import cups, entrants, tournaments

pytestmark = pytest.mark.django_db


def test_entrants_of_a_cups_tournament_join_its_register_by_name(user):
    cup = factory.cup(user)
    first = factory.tournament(user, names=["Anna", "Bernd"], cup=cup)
    second = factory.tournament(user, names=["Anna", "Christa"], cup=cup)
    assert sorted(CupPlayer.objects.filter(cup=cup).values_list("name", flat=True)) == [
        "Anna",
        "Bernd",
        "Christa",
    ]
    assert first.entrants.get(name="Anna").cup_player == second.entrants.get(name="Anna").cup_player


def test_a_filler_stays_out_of_the_register(user):
    cup = factory.cup(user)
    t = factory.tournament(user, names=["Anna"], cup=cup)
    entrants.entrant_add(tournament=t, user=user, name="Ersatz", filler=True)
    assert not CupPlayer.objects.filter(cup=cup, name="Ersatz").exists()


def test_two_register_entries_merged_count_as_one_and_the_merge_is_audited(user):
    cup = factory.cup(user)
    factory.tournament(user, names=["Maier J."], cup=cup)
    second = factory.tournament(user, names=["Maier Josef"], cup=cup)
    short, long = (CupPlayer.objects.get(cup=cup, name=n) for n in ("Maier J.", "Maier Josef"))
    cups.cup_player_merge(cup=cup, user=user, player_id=long.pk, into_id=short.pk)
    assert second.entrants.get().cup_player == short
    assert [p.name for p in cups.register(cup)] == ["Maier J."]
    change = CupChange.objects.get(cup=cup, action="merge")
    assert (
        change.user == user and change.before["name"] == "Maier Josef" and change.after["name"] == "Maier J."
    )
    with pytest.raises(InvalidInput):
        cups.cup_player_merge(cup=cup, user=user, player_id=short.pk, into_id=short.pk)


def test_cup_points_are_written_when_provisional_and_again_when_final(user):
    cup = factory.cup(user)
    t = factory.play_example(user, cup=cup)
    places = TournamentPlace.objects.filter(tournament=t)
    assert places.count() == 12 and not places.filter(final=True).exists()
    assert int(places.get(place=1).cup_points) == 223
    factory.make_final(t)
    assert places.filter(final=True).count() == 12


def test_double_points_double_the_points(user):
    cup = factory.cup(user)
    t = factory.tournament(user, cup=cup, cup_factor=2)
    factory.draw(t)
    for number, sums in enumerate(factory.EXAMPLE_SUMS, 1):
        factory.release(t)
        factory.desk_round(t, number, sums)
    tournaments.tournament_provisional(tournament=factory.fresh(t), user=user)
    assert int(TournamentPlace.objects.get(tournament=t, place=1).cup_points) == 446


def test_the_season_counts_the_best_results_and_the_final_on_top(user):
    cup = factory.cup(user, best_n="1", final_mode="extra")
    factory.play_example(user, cup=cup)
    final = factory.tournament(user, cup=cup, cup_final=True, name="Finale", played_on=date(2026, 3, 1))
    factory.draw(final)
    for number, sums in enumerate(factory.EXAMPLE_SUMS, 1):
        factory.release(final)
        factory.desk_round(final, number, sums)
    tournaments.tournament_provisional(tournament=factory.fresh(final), user=user)
    season = cups.season_ranking(cup)
    erika = season.lines[0]
    assert erika.player.name == "Erika" and erika.total == 223 + 223 and erika.final_points == 223
    assert erika.counted == (223,) and erika.participations == 2 and erika.podiums == (2, 0, 0)
    assert not season.ended and season.as_of == date(2026, 3, 1)
    factory.make_final(final)
    assert cups.season_ranking(cup).ended


def test_a_fillers_place_gives_no_cup_points(user):
    cup = factory.cup(user)
    t = factory.tournament(user, names=factory.EXAMPLE_NAMES[:11], cup=cup)
    entrants.entrant_add(tournament=t, user=user, name="Ersatz", filler=True)
    factory.draw(t)
    assert Entrant.objects.get(tournament=t, name="Ersatz").cup_player is None


def test_a_custom_scheme_needs_its_points_table(user):
    with pytest.raises(InvalidInput) as refused:
        cups.cup_create(owner=user, name="Cup", season="2025/26", scheme="custom", points_table=[])
    assert refused.value.field == "points_table"
    assert not Cup.objects.exists()


def test_the_season_page_and_its_pdf(logged_in, user):
    cup = factory.cup(user)
    factory.play_example(user, cup=cup)
    html = logged_in.get(reverse("cup_detail", args=[cup.pk])).content.decode()
    assert "Erika" in html and "223" in html and "Standing" in html
    pdf = logged_in.get(reverse("cup_pdf", args=[cup.pk]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_the_cup_list_creates_a_cup(logged_in, user):
    data = {
        "name": "Hausruckcup",
        "season": "2025/26",
        "scheme": "fixed",
        "best_n": "6",
        "final_mode": "extra",
    }
    answer = logged_in.post(reverse("cup_list"), data)
    cup = Cup.objects.get()
    assert answer.status_code == 302 and cup.owner == user and cup.best_n == "6"
