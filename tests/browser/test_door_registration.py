"""Registration at the door on phones at 390 × 844, in German (TOURNAMENTS.md
§14.2): four players register at once on four phones, two known to the circuit's
register (name, her offer, her PIN) and two new (a number and a PIN shown once);
a fifth registers and is not accepted. The desk accepts the four on the entrants
page, ticking the fee, and draws: exactly the accepted are seated. Every page
fits 390 px without scrolling sideways and passes axe."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.browser.support import assert_accessible, expect, horizontal_overflow, login, screenshot
from tests.browser.tournament_support import Contexts
from tests.tournaments import factory
from tournaments.models import CircuitPlayer, DoorEntry, Entrant, TableSeat
from tournaments.services import circuit as circuits
from tournaments.services import door as doors

pytestmark = pytest.mark.browser

SEED = "482915"


@pytest.fixture
def contexts(browser: Any, live_server: Any) -> Iterator[Contexts]:
    made = Contexts(browser)
    yield made
    made.close()


def check(page: Any, what: str) -> None:
    assert horizontal_overflow(page) == 0, f"{what} scrolls sideways at 390 px"
    assert_accessible(page, what)


def test_four_phones_register_at_the_door_and_the_desk_accepts_them(
    contexts: Contexts, live_server: Any, player: User
):
    base = live_server.url
    circuit = circuits.circuit_create(owner=player, name="Tarock Österreich", season="2025/26")
    cup = factory.cup(player)
    circuits.cup_join(circuit=circuit, user=player, cup_id=cup.pk)
    known = {}
    for family, given, place in (("Huber", "Maria", "Linz"), ("Gruber", "Anna", "Wels")):
        entry = circuits.register_add(
            circuit=circuit, user=player, family=family, given=given, place=place
        ).entry
        assert entry is not None
        known[family] = (
            entry.number,
            circuits.register_pin_new(circuit=circuit, user=player, number=entry.number),
        )
    t = factory.tournament(player, cup=cup, settings={"entry_fee": Decimal("12")})
    doors.door_open(tournament=t, user=player)
    link = f"{base}/r/{factory.fresh(t).door_token}/"

    people = [
        ("Huber", "Maria", "Linz"),
        ("Gruber", "Anna", "Wels"),
        ("Bauer", "Karl", "Steyr"),
        ("Moser", "Eva", "Enns"),
        ("Wimmer", "Otto", "Ried"),  # registers too, and the desk does not accept him
    ]
    phones = [contexts.page() for _ in people]
    for phone in phones:  # all at once: every step on every phone before the next step
        phone.goto(link)
    check(phones[0], "the registration form")
    screenshot(phones[0], "door-form")
    for phone, (family, given, place) in zip(phones, people, strict=True):
        phone.locator("#id_family").fill(family)
        phone.locator("#id_given").fill(given)
        phone.locator("#id_place").fill(place)
    for phone in phones:
        phone.get_by_role("button", name="Weiter").click()  # tap 1
    for phone, (family, _given, _place) in zip(phones[:2], people[:2], strict=True):
        number, pin = known[family]
        expect(phone.locator(f"#offer-{number}")).to_contain_text(f"Bist du Nr. {number}")
    check(phones[0], "her entry offered")
    screenshot(phones[0], "door-offer")
    for phone, (family, _given, _place) in zip(phones[:2], people[:2], strict=True):
        number, pin = known[family]
        phone.locator(f"#pin-{number}").tap()  # tap 2
        phone.locator(f"#pin-{number}").fill(pin)
    for phone, (family, _given, _place) in zip(phones[:2], people[:2], strict=True):
        number, _pin = known[family]
        phone.locator(f"#offer-{number}").get_by_role("button", name="Ja, anmelden").click()  # tap 3
    for phone in phones[2:]:
        expect(phone.locator("#not-found")).to_be_visible()
        phone.get_by_role("button", name="Als neu anmelden").click()
    for phone in phones[:2]:
        expect(phone.locator("#door-waiting")).to_contain_text("am Handy angemeldet")
    pins = []
    for phone in phones[2:]:
        expect(phone.locator("#new-pin")).to_contain_text("Foto machen oder notieren")
        pins.append(phone.locator("#pin-value").inner_text())
    check(phones[2], "a new number and its PIN")
    screenshot(phones[2], "door-new-pin")
    assert all(len(pin) == 4 and pin.isdigit() for pin in pins)
    assert DoorEntry.objects.filter(tournament=t).count() == 5
    assert CircuitPlayer.objects.filter(circuit=circuit, family__in=["Bauer", "Moser", "Wimmer"]).count() == 3
    phones[2].reload()  # the PIN is not shown again
    expect(phones[2].locator("#door-waiting")).to_be_visible()
    expect(phones[2].locator("#pin-value")).to_have_count(0)
    phones[2].get_by_role("link", name="Meine Spielerkarte").click()
    expect(phones[2].locator("#player-card")).to_contain_text("Bauer Karl")
    check(phones[2], "the player card")
    screenshot(phones[2], "door-card")

    desk = contexts.page()
    login(desk, base, player)
    desk.goto(f"{base}/tournaments/{t.pk}/entrants/")
    expect(desk.locator("#door-pending li")).to_have_count(5)
    check(desk, "the entrants page with registrations on the phone")
    screenshot(desk, "door-desk")
    for family in ("Huber", "Gruber", "Bauer", "Moser"):
        number = CircuitPlayer.objects.get(circuit=circuit, family=family).number
        desk.locator(f"#door-{number}").get_by_role("button", name="Annehmen").click()
        expect(desk.locator(f"#door-{number}")).to_have_count(0)
    expect(desk.locator("#door-pending li")).to_have_count(1)
    accepted = Entrant.objects.filter(tournament=t, door_entry__isnull=False)
    assert sorted(accepted.values_list("name", flat=True)) == [
        "Bauer Karl",
        "Gruber Anna",
        "Huber Maria",
        "Moser Eva",
    ]
    assert all(accepted.values_list("fee_paid", flat=True))
    expect(desk.locator("#entrants")).to_contain_text("am Handy angemeldet")
    phones[0].reload()
    expect(phones[0].locator("#door-accepted")).to_contain_text("Startnummer")

    desk.goto(f"{base}/tournaments/{t.pk}/")
    desk.locator("#id_seed").fill(SEED)
    desk.locator("#first-draw button[type=submit]").click()
    expect(desk.locator("#main")).to_contain_text(f"Auslosung {SEED}")
    seated = set(
        TableSeat.objects.filter(round__tournament=t, round__number=1).values_list("entrant__name", flat=True)
    )
    assert len(seated) == 16 and {"Huber Maria", "Bauer Karl"} <= seated and "Wimmer Otto" not in seated
