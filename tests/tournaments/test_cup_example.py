"""TOURNAMENTS.md §9 through the organiser's services: twelve entrants, seed 482915,
drawn upfront, each round released in turn and typed in at the desk."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.tournaments import factory
from tournaments.core import money
from tournaments.models import RoundResult, TableRound, TournamentPlace
from tournaments.services import printouts

pytestmark = pytest.mark.django_db


def test_the_three_rounds_are_seated_exactly_as_section_9(user):
    t = factory.tournament(user)
    factory.draw(t)
    for number, expected in enumerate(factory.EXAMPLE_SEATING, 1):
        assert factory.table_names(t, number) == list(expected)
        dealers = [
            table.seats.get(position=table.first_dealer).entrant.name for table in factory.tables(t, number)
        ]
        assert tuple(dealers) == factory.EXAMPLE_DEALERS[number - 1]


RANKING = [
    (1, "Erika", [92, -42, 61], 111),
    (2, "Franz", [-42, 71, 44], 73),
    (3, "Karin", [118, -19, -54], 45),
    (4, "Christa", [-43, 97, -9], 45),
    (5, "Hans", [-31, 55, 19], 43),
    (6, "Bernd", [45, 29, -45], 29),
    (7, "Leo", [-24, 8, 45], 29),
    (8, "Ida", [17, -58, 36], -5),
    (9, "Gerti", [-38, 14, -27], -51),
    (10, "Dieter", [64, -50, -80], -66),
    (11, "Anna", [-106, -35, 27], -114),
    (12, "Josef", [-52, -70, -17], -139),
]


def test_the_ranking_under_better_rounds_is_section_9s(user):
    t = factory.play_example(user)
    rows = printouts.ranking(t).rows
    shown = [
        (r.place, r.entrant.name, [int(x.replace("−", "-")) for x in r.rounds], int(r.total)) for r in rows
    ]
    assert shown == RANKING
    assert sum(r.total for r in rows) == 0
    notes = {r.entrant.name: r.tie_note for r in rows}
    assert notes["Karin"] and notes["Bernd"] and not notes["Erika"]
    stored = {p.entrant.name: (p.place, p.total) for p in TournamentPlace.objects.filter(tournament=t)}
    assert stored["Christa"] == (4, Decimal("45.0")) and stored["Josef"] == (12, Decimal("-139.0"))


def test_under_tirol_2019_leo_and_bernd_change_places(user):
    t = factory.play_example(user, settings={"tie_break": "tirol_2019"})
    order = [r.entrant.name for r in printouts.ranking(t).rows]
    expected = [name for _, name, _, _ in RANKING]
    expected[5], expected[6] = "Leo", "Bernd"
    assert order == expected


@pytest.mark.parametrize(
    ("scheme", "points"),
    [
        ("fixed", [223, 198, 180, 168, 156]),
        ("heine", [105, 73, 45, 45, 43]),
        ("tirol_formula", [200, 150, 110, 77, 52]),
    ],
)
def test_cup_points_of_the_top_five_under_each_scheme(user, scheme, points):
    cup = factory.cup(user, scheme=scheme)
    t = factory.play_example(user, cup=cup)
    top = TournamentPlace.objects.filter(tournament=t).order_by("place")[:5]
    assert [int(p.cup_points) for p in top] == points


def test_round_1_table_1_money_and_transfers(user):
    t = factory.play_example(user)
    table = TableRound.objects.get(round__tournament=t, round__number=1, number=1)
    rows = RoundResult.objects.filter(table=table).select_related("entrant")
    results = {r.entrant.name: r.money or Decimal(0) for r in rows}
    assert results == {
        "Erika": Decimal("9.20"),
        "Hans": Decimal("-3.10"),
        "Bernd": Decimal("4.50"),
        "Anna": Decimal("-10.60"),
    }
    ordered = {name: results[name] for name in ("Erika", "Hans", "Bernd", "Anna")}
    assert money.transfers(ordered) == [
        ("Hans", "Bernd", Decimal("3.10")),
        ("Anna", "Erika", Decimal("9.20")),
        ("Anna", "Bernd", Decimal("1.40")),
    ]
