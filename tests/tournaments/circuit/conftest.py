"""Fixtures shared by the tests of the circuit's final."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.tournaments import factory
from tournaments.models import Circuit, Tournament
from tournaments.services import circuit as circuits
from tournaments.services import circuit_final as finals


@pytest.fixture
def with_final(user: User) -> tuple[Circuit, Tournament]:
    return final_of(user)


def final_of(user: User) -> tuple[Circuit, Tournament]:
    """A circuit whose cup qualifies its players (Vorrundenpunkte from an own table
    of three places) and whose final is still taking entrants."""
    cup = factory.cup(user, name="Hausruckcup")
    for _ in range(4):
        factory.play_example(user, cup=cup)
    circuit = circuits.circuit_create(owner=user, name="Tarock Österreich", season="2025/26")
    circuits.cup_join(circuit=circuit, user=user, cup_id=cup.pk)
    finals.cup_tier_set(circuit=circuit, user=user, cup_id=cup.pk, tier="custom", tier_table="30, 20, 10")
    final_cup = factory.cup(user, name="Finale")
    circuits.cup_join(circuit=circuit, user=user, cup_id=final_cup.pk)
    finals.cup_tier_set(circuit=circuit, user=user, cup_id=final_cup.pk, tier="B", qualifies=False)
    final = factory.tournament(user, names=(), cup=final_cup, name="Ö-Finale")
    finals.final_set(circuit=circuit, user=user, final=final.pk, open_final=False)
    return circuit, final
