"""The prize raffle as a rule (TOURNAMENTS.md §4.5): money prizes by place, the
material prizes drawn from the seed among those present, fillers and money-prize
winners skipped, more prizes than people left undrawn."""

from __future__ import annotations

import hashlib
from decimal import Decimal

import pytest

from tournaments.core import raffle
from tournaments.core.raffle import Candidate, Prize, Won

SEED = "482915"
# The twelve of §9 by place; start numbers 1–12, none a filler.
FIELD = tuple(
    Candidate(number, place) for place, number in enumerate((5, 6, 11, 3, 8, 1, 12, 2, 9, 7, 10, 4), 1)
)
# 1 € 120, 2 € 80, 3 "Sachpreis" (material), 4–6 "Sachpreis".
PRIZES = (
    Prize(1, 1, amount=Decimal("120.00")),
    Prize(2, 2, "Pokal", Decimal("80.00")),
    Prize(3, 3, "Schinken"),
    Prize(4, 6, "Sachpreis"),
)


def test_a_ticket_is_the_hash_of_seed_raffle_and_start_number():
    assert raffle.raffle_key(SEED, 7) == hashlib.sha256(b"482915:raffle:7").hexdigest()
    assert raffle.raffle_key(SEED, 7) != raffle.raffle_key("482916", 7)


def test_the_order_of_the_tickets_from_seed_482915_is_fixed():
    # Golden data: the order a reader can recompute by hand from the hashes.
    assert sorted(range(1, 13), key=lambda n: raffle.raffle_key(SEED, n)) == [
        11,
        3,
        1,
        8,
        12,
        5,
        4,
        6,
        7,
        9,
        10,
        2,
    ]


def test_a_range_of_material_prizes_is_one_prize_per_place_in_the_lists_order():
    prizes = raffle.prizes_of(
        [{"from": 1, "to": 1, "amount": "120"}, {"from": 4, "to": 25, "text": "Sachpreis"}]
    )
    assert raffle.material(prizes) == tuple((place, "Sachpreis") for place in range(4, 26))
    assert len(raffle.material(prizes)) == 22
    assert raffle.money_places(prizes) == {1}


def test_a_prize_with_text_and_amount_is_a_money_prize_and_goes_by_place():
    prizes = raffle.prizes_of([{"from": 1, "to": 2, "text": "Pokal", "amount": "50.00"}])
    assert raffle.money_places(prizes) == {1, 2} and raffle.material(prizes) == ()


def test_the_first_drawn_gets_the_first_material_prize_and_so_on():
    won = raffle.draw(seed=SEED, prizes=PRIZES, candidates=FIELD, present=range(1, 13))
    # Places 1 and 2 (start numbers 5 and 6) won money; the others in ticket order: 11, 3, 1, 8, …
    assert won == (
        Won(1, 3, "Schinken", 11),
        Won(2, 4, "Sachpreis", 3),
        Won(3, 5, "Sachpreis", 1),
        Won(4, 6, "Sachpreis", 8),
    )


def test_only_those_present_are_drawn():
    won = raffle.draw(seed=SEED, prizes=PRIZES, candidates=FIELD, present=[2, 4, 7, 9, 10, 12])
    assert [w.number for w in won] == [12, 4, 7, 9]


def test_money_prize_winners_are_skipped_though_present():
    won = raffle.draw(seed=SEED, prizes=PRIZES, candidates=FIELD, present=[5, 6, 2])
    assert [w.number for w in won] == [2, None, None, None]


def test_fillers_are_skipped_though_present():
    field = (*FIELD, Candidate(13, None, filler=True))
    tickets = sorted([13, 2], key=lambda n: raffle.raffle_key(SEED, n))
    assert tickets[0] == 13  # the filler's ticket would come first
    won = raffle.draw(seed=SEED, prizes=PRIZES, candidates=field, present=[13, 2])
    assert [w.number for w in won] == [2, None, None, None]


def test_more_prizes_than_people_leaves_the_rest_undrawn():
    won = raffle.draw(seed=SEED, prizes=PRIZES, candidates=FIELD, present=[9, 10])
    assert [(w.order, w.place, w.number) for w in won] == [(1, 3, 9), (2, 4, 10), (3, 5, None), (4, 6, None)]


def test_more_people_than_prizes_leaves_the_later_tickets_without_one():
    prizes = (Prize(3, 3, "Schinken"),)
    won = raffle.draw(seed=SEED, prizes=prizes, candidates=FIELD, present=range(1, 13))
    assert won == (Won(1, 3, "Schinken", 11),)


def test_the_draw_depends_on_who_is_present_not_on_the_order_given():
    first = raffle.draw(seed=SEED, prizes=PRIZES, candidates=FIELD, present=[12, 1, 8, 3])
    again = raffle.draw(seed=SEED, prizes=PRIZES, candidates=tuple(reversed(FIELD)), present=[3, 8, 1, 12])
    assert first == again


def test_another_seed_draws_another_order():
    one = raffle.draw(seed=SEED, prizes=PRIZES, candidates=FIELD, present=range(1, 13))
    other = raffle.draw(seed="000001", prizes=PRIZES, candidates=FIELD, present=range(1, 13))
    assert [w.number for w in one] != [w.number for w in other]


def test_without_material_prizes_nothing_is_drawn():
    prizes = (Prize(1, 3, amount=Decimal("10.00")),)
    assert raffle.draw(seed=SEED, prizes=prizes, candidates=FIELD, present=range(1, 13)) == ()


@pytest.mark.parametrize(
    ("present", "field"),
    [([99], "present"), ([1, 1], "present")],
)
def test_a_present_number_not_an_entrant_or_given_twice_is_refused(present, field):
    with pytest.raises(ValueError, match=f"^{field}:"):
        raffle.draw(seed=SEED, prizes=PRIZES, candidates=FIELD, present=present)


def test_an_empty_seed_is_refused():
    with pytest.raises(ValueError, match=r"^seed:"):
        raffle.draw(seed="", prizes=PRIZES, candidates=FIELD, present=[1])


def test_a_malformed_prize_line_is_refused_naming_prizes():
    with pytest.raises(ValueError, match=r"^prizes:"):
        raffle.prizes_of([{"to": 3, "text": "x"}])
