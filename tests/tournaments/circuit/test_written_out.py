"""The reads every view of a circuit's or a cup's pages makes, written out once
(``plumbing.queries``: the circuit a user sees and her role in it, the
circuit's cups with their versions, the cup a user runs with its circuit): the
same rows as the ORM's queries they replace, for the owner, an organiser, the
owner of a cup of the circuit, a co-organiser of a tournament of the cup, and
an outsider; nothing deleted is found."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db.models import Q
from django.forms.models import model_to_dict
from django.utils import timezone

from plumbing import queries
from tests.tournaments import factory
from tournaments.models import Circuit, Cup, Tournament
from tournaments.services import circuit as circuits

pytestmark = pytest.mark.django_db


def orm_circuit_seen(user: User, pk: int) -> tuple[Circuit, bool] | None:
    found = (
        Circuit.objects.filter(
            Q(owner=user) | Q(organisers=user) | Q(cups__owner=user, cups__deleted_at__isnull=True),
            deleted_at__isnull=True,
        )
        .distinct()
        .filter(pk=pk)
        .first()
    )
    return None if found is None else (found, circuits.is_organiser(found, user))


def orm_cup_run_by(user: User, pk: int) -> Cup | None:
    organised = Tournament.objects.filter(Q(owner=user) | Q(organisers=user), deleted_at__isnull=True)
    return (
        Cup.objects.filter(Q(owner=user) | Q(tournaments__in=organised), deleted_at__isnull=True)
        .select_related("circuit")
        .distinct()
        .filter(pk=pk)
        .first()
    )


def same(found: object, expected: object) -> bool:
    """The same row, every field as the ORM reads it (and the same circuit, for a cup)."""
    if found is None or expected is None:
        return found is expected
    if isinstance(found, Cup) and isinstance(expected, Cup):
        circuits_same = same(found.circuit, expected.circuit)
        return circuits_same and model_to_dict(found) == model_to_dict(expected)
    assert isinstance(found, Circuit) and isinstance(expected, Circuit)
    return model_to_dict(found, exclude=["organisers"]) == model_to_dict(expected, exclude=["organisers"])


@pytest.fixture
def people(user: User, other_user: User) -> dict[str, User]:
    return {
        "owner": user,
        "organiser": other_user,
        "cup owner": User.objects.create_user("cupowner", password="x"),
        "helper": User.objects.create_user("helper", password="x"),
        "outsider": User.objects.create_user("outsider", password="x"),
    }


def test_the_circuit_a_user_sees_and_her_role_as_the_orm_reads_them(people):
    owner = people["owner"]
    circuit = circuits.circuit_create(owner=owner, name="Tarock Österreich", season="2025/26")
    circuit.organisers.add(people["organiser"])
    theirs = factory.cup(people["cup owner"], name="Hausruckcup")
    circuits.cup_join(circuit=circuit, user=owner, cup_id=factory.cup(owner, name="RTC").pk)
    Cup.objects.filter(pk=theirs.pk).update(circuit=circuit)
    roles = {name: queries.circuit_seen(person.pk, circuit.pk) for name, person in people.items()}
    assert {name: None if seen is None else seen[1] for name, seen in roles.items()} == {
        "owner": True,
        "organiser": True,
        "cup owner": False,
        "helper": None,
        "outsider": None,
    }
    for name, person in people.items():
        found, expected = roles[name], orm_circuit_seen(person, circuit.pk)
        assert (found is None) == (expected is None), name
        if found is not None and expected is not None:
            assert same(found[0], expected[0]) and found[1] == expected[1], name
    Cup.objects.filter(pk=theirs.pk).update(deleted_at=timezone.now())
    assert queries.circuit_seen(people["cup owner"].pk, circuit.pk) is None
    Circuit.objects.filter(pk=circuit.pk).update(deleted_at=timezone.now())
    assert queries.circuit_seen(owner.pk, circuit.pk) is None


def test_the_circuits_cups_with_their_versions_as_the_orm_reads_them(user):
    circuit = circuits.circuit_create(owner=user, name="Tarock Österreich", season="2025/26")
    made = [factory.cup(user, name=f"Cup {n}") for n in range(3)]
    for cup in made:
        circuits.cup_join(circuit=circuit, user=user, cup_id=cup.pk)
    Cup.objects.filter(pk=made[1].pk).update(deleted_at=timezone.now())
    factory.cup(user, name="Outside")
    found = queries.circuit_cups(circuit.pk)
    expected = list(
        Cup.objects.filter(circuit=circuit, deleted_at__isnull=True).select_related("circuit").order_by("pk")
    )
    assert [cup.pk for cup in found] == [made[0].pk, made[2].pk]
    assert all(same(a, b) for a, b in zip(found, expected, strict=True))
    assert queries.circuit_cups(circuit.pk + 1000) == []


def test_the_cup_a_user_runs_with_its_circuit_as_the_orm_reads_it(people):
    owner = people["owner"]
    cup = factory.cup(owner, name="RTC")
    alone = factory.cup(owner, name="Alone")
    circuit = circuits.circuit_create(owner=owner, name="Tarock Österreich", season="2025/26")
    circuits.cup_join(circuit=circuit, user=owner, cup_id=cup.pk)
    t = factory.tournament(owner, cup=Cup.objects.get(pk=cup.pk))
    t.organisers.add(people["helper"])
    for name, person in people.items():
        for pk in (cup.pk, alone.pk):
            assert same(queries.cup_run_by(person.pk, pk), orm_cup_run_by(person, pk)), (name, pk)
    assert queries.cup_run_by(people["helper"].pk, cup.pk) is not None
    assert queries.cup_run_by(people["helper"].pk, alone.pk) is None
    assert queries.cup_run_by(owner.pk, alone.pk).circuit is None
    Tournament.objects.filter(pk=t.pk).update(deleted_at=timezone.now())
    assert queries.cup_run_by(people["helper"].pk, cup.pk) is None
    Cup.objects.filter(pk=cup.pk).update(deleted_at=timezone.now())
    assert queries.cup_run_by(owner.pk, cup.pk) is None


def test_a_polls_read_gives_the_orms_row_behind_each_link_and_nothing_deleted(user):
    t = factory.tournament(user)
    Tournament.objects.filter(pk=t.pk).update(board_token="b" * 32, screen_token="s" * 32, version=7)
    for link, token in (("board_token", "b" * 32), ("screen_token", "s" * 32)):
        orm = Tournament.objects.filter(**{link: token}, deleted_at__isnull=True).values_list(
            "version", "board_token"
        )
        assert queries.poll_version(link, token) == orm.get() == (7, "b" * 32)
        assert queries.poll_version(link, "x" * 32) is None
    Tournament.objects.filter(pk=t.pk).update(deleted_at=timezone.now())
    assert queries.poll_version("board_token", "b" * 32) is None
    with pytest.raises(ValueError, match="link: must be"):
        queries.poll_version("name", "b" * 32)
