"""Her circuit number linked to her account with its PIN (TOURNAMENTS.md §14.1,
§14.2, §15): every cup entry of that number counts for her, in every cup of the
circuit; a wrong PIN links nothing and is counted, three block the number and
say when it takes one again; a number linked to another account is refused;
sent twice it is one link; unlinked, the entries count on their own again. And
whatever was linked or unlinked, her ratings are what a recomputation from
scratch gives."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ratings.models import RatingEntry, RatingEvent, RatingMark, RegisterLink
from ratings.services import links
from ratings.services.marks import ratings_update
from ratings.services.recompute import ratings_rebuild
from scoring.engine import InvalidInput
from tests.tournaments.factory import cup as make_cup
from tests.tournaments.factory import play_example
from tournaments.models import CircuitPinTry, CircuitPlayer, Entrant
from tournaments.services import circuit as circuits

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(user: User) -> dict[str, Any]:
    """Two cups of one circuit, each with the §9 example tournament (Anna plays
    both: one circuit number), ratings followed; Anna's number has a PIN."""
    first, second = make_cup(user), make_cup(user, name="Sauwaldcup")
    play_example(user, cup=first)
    play_example(user, cup=second)
    circuit = circuits.circuit_create(owner=user, name="Tarock Österreich", season="2025/26")
    for cup in (first, second):
        circuits.cup_join(circuit=circuit, user=user, cup_id=cup.pk)
    anna = CircuitPlayer.objects.get(circuit=circuit, family="Anna", merged_into__isnull=True)
    pin = circuits.register_pin_new(circuit=circuit, user=user, number=anna.number)
    ratings_update()
    return {
        "circuit": circuit,
        "anna": anna,
        "pin": pin,
        "maria": User.objects.create_user("maria", password="pw-maria"),
        "otto": User.objects.create_user("otto", password="pw-otto"),
    }


def wrong(pin: str) -> str:
    return f"{(int(pin) + 1) % 10_000:04d}"


def link(world: dict[str, Any], who: str = "maria", pin: str | None = None, **kwargs: Any) -> RegisterLink:
    return links.register_link(
        user=world[who],
        circuit_id=world["circuit"].pk,
        number=world["anna"].number,
        pin=world["pin"] if pin is None else pin,
        **kwargs,
    )


def entries() -> list[tuple[Any, ...]]:
    return sorted(
        RatingEntry.objects.values_list("event_id", "player_key", "source", "number", "mu", "sigma")
    )


def from_scratch() -> list[tuple[Any, ...]]:
    RatingEntry.objects.all().delete()
    ratings_rebuild()
    return entries()


def test_her_number_with_its_pin_brings_every_cups_tournaments_to_her_rating(world):
    anna_entrants = Entrant.objects.filter(name="Anna")
    assert anna_entrants.count() == 2  # one per cup, one circuit number
    assert not RatingEntry.objects.filter(player_key__startswith="u:").exists()
    made = link(world)
    assert made.circuit_entry_id == world["anna"].pk and made.user_id == world["maria"].pk
    assert RatingMark.objects.filter(source__in=[f"source:e:{e.pk}" for e in anna_entrants]).count() == 2
    ratings_update()
    sources = {f"e:{e.pk}" for e in anna_entrants}
    played = [
        event.pk
        for event in RatingEvent.objects.filter(counted=True)
        if any(source in sources for source, _ in event.players)
    ]
    assert len(played) == 6  # a table in each of the three rounds of each cup's tournament
    hers = RatingEntry.objects.filter(player_key=f"u:{world['maria'].pk}")
    assert sorted(hers.values_list("event_id", flat=True)) == sorted(played)
    assert set(hers.values_list("source", flat=True)) == sources
    assert list(hers.order_by("number").values_list("number", flat=True)) == list(range(1, 7))
    followed = entries()
    assert from_scratch() == followed


def test_sent_twice_it_is_one_link_and_one_mark(world):
    first = link(world)
    marks = list(RatingMark.objects.values_list("source", "marked_at"))
    second = link(world)
    assert second.pk == first.pk
    assert RegisterLink.objects.count() == 1
    assert list(RatingMark.objects.values_list("source", "marked_at")) == marks


def test_a_wrong_pin_links_nothing_and_is_counted(world):
    before = entries()
    with pytest.raises(InvalidInput) as refused:
        link(world, pin=wrong(world["pin"]))
    assert refused.value.field == "pin"
    assert not RegisterLink.objects.exists()
    assert not RatingMark.objects.exists()
    assert entries() == before
    assert CircuitPinTry.objects.filter(entry=world["anna"]).count() == 1


def test_three_wrong_pins_block_the_number_and_say_when_to_try_again(world):
    start = timezone.now()
    for minute in range(3):
        with pytest.raises(InvalidInput):
            link(world, pin=wrong(world["pin"]), now=start + datetime.timedelta(minutes=minute))
    # Blocked: even the right PIN is refused, nothing written, and the time it frees is said.
    tries = CircuitPinTry.objects.count()
    with pytest.raises(InvalidInput) as refused:
        link(world, now=start + datetime.timedelta(minutes=5))
    free = timezone.localtime(start + datetime.timedelta(minutes=15)).strftime("%H:%M")
    assert refused.value.field == "pin"
    assert refused.value.line.args["time"] == free
    assert "again after {time}" in refused.value.line.text
    assert CircuitPinTry.objects.count() == tries
    assert not RegisterLink.objects.exists()
    # Fifteen minutes after the first wrong try the right PIN links again.
    made = link(world, now=start + datetime.timedelta(minutes=15, seconds=1))
    assert made.user_id == world["maria"].pk


def test_a_number_linked_to_another_account_is_refused_naming_the_number(world):
    link(world)
    marks = RatingMark.objects.count()
    with pytest.raises(InvalidInput) as refused:
        link(world, who="otto")
    assert refused.value.field == "number"
    assert list(RegisterLink.objects.values_list("user_id", flat=True)) == [world["maria"].pk]
    assert RatingMark.objects.count() == marks
    assert not CircuitPinTry.objects.exists()


def test_an_unknown_circuit_or_number_is_refused_naming_the_field(world):
    with pytest.raises(InvalidInput) as refused:
        links.register_link(user=world["maria"], circuit_id=0, number=1, pin="1234")
    assert refused.value.field == "circuit"
    with pytest.raises(InvalidInput) as refused:
        links.register_link(user=world["maria"], circuit_id=world["circuit"].pk, number=999_999, pin="1234")
    assert refused.value.field == "number"
    assert not RegisterLink.objects.exists() and not CircuitPinTry.objects.exists()


def test_unlinked_her_tournaments_count_on_their_own_again(world):
    made = link(world)
    ratings_update()
    links.register_unlink(user=world["maria"], link_id=made.pk)
    assert not RegisterLink.objects.exists()
    ratings_update()
    assert not RatingEntry.objects.filter(player_key__startswith="u:").exists()
    followed = entries()
    assert from_scratch() == followed


def test_only_she_unlinks_her_number(world):
    made = link(world)
    with pytest.raises(InvalidInput):
        links.register_unlink(user=world["otto"], link_id=made.pk)
    assert RegisterLink.objects.filter(pk=made.pk).exists()


def test_her_page_links_with_the_pin_and_says_what_was_wrong(world):
    browser = Client(HTTP_ACCEPT_LANGUAGE="de")
    browser.force_login(world["maria"])
    data = {"action": "link_register", "circuit": world["circuit"].pk, "number": world["anna"].number}
    page = browser.post(reverse("rating_mine"), {**data, "pin": wrong(world["pin"])}, follow=True)
    assert "PIN: " in page.content.decode()
    assert not RegisterLink.objects.exists()
    page = browser.post(reverse("rating_mine"), {**data, "pin": world["pin"]}, follow=True)
    body = page.content.decode()
    assert RegisterLink.objects.get().user_id == world["maria"].pk
    assert f"Nr. {world['anna'].number} · Tarock Österreich 2025/26" in body


def another_number(world: dict[str, Any], place: str) -> tuple[CircuitPlayer, str]:
    """A second entry of Anna (another place: another number), with its PIN."""
    circuit = world["circuit"]
    added = circuits.register_add(circuit=circuit, user=circuit.owner, family="Anna", place=place)
    assert added.entry is not None
    return added.entry, circuits.register_pin_new(
        circuit=circuit, user=circuit.owner, number=added.entry.number
    )


def test_a_linked_number_merged_into_her_other_brings_its_link_along(world):
    second, pin = another_number(world, "Linz")
    made = links.register_link(
        user=world["maria"], circuit_id=world["circuit"].pk, number=second.number, pin=pin
    )
    ratings_update()
    assert not RatingEntry.objects.filter(player_key__startswith="u:").exists()  # no tournament under it yet
    circuits.register_merge(
        circuit=world["circuit"],
        user=world["circuit"].owner,
        number=world["anna"].number,
        other=second.number,
    )
    made.refresh_from_db()
    assert made.circuit_entry_id == world["anna"].pk  # the lower number is kept, the link follows
    ratings_update()
    assert RatingEntry.objects.filter(player_key=f"u:{world['maria'].pk}").count() == 6
    followed = entries()
    assert from_scratch() == followed


def test_two_accounts_linked_to_numbers_merged_the_kept_numbers_link_stays(world):
    second, pin = another_number(world, "Linz")
    link(world)
    links.register_link(user=world["otto"], circuit_id=world["circuit"].pk, number=second.number, pin=pin)
    circuits.register_merge(
        circuit=world["circuit"],
        user=world["circuit"].owner,
        number=world["anna"].number,
        other=second.number,
    )
    assert list(RegisterLink.objects.values_list("circuit_entry_id", "user_id")) == [
        (world["anna"].pk, world["maria"].pk)
    ]
    [notice] = links.removed_links(world["otto"])
    assert (notice.name, notice.into_name) == (
        f"Nr. {second.number} Anna",
        f"Nr. {world['anna'].number} Anna",
    )
