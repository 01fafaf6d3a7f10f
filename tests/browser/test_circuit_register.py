"""The circuit's register in the browser at a phone's size, in German (the
default): the organiser makes a circuit, a cup of hers joins it, she types a
player who is there already (offered, not written), imports a CSV after its
preview, merges two entries and gives a PIN shown once. Every page fits 390 px
without scrolling sideways, passes axe and has fingertip targets."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.browser.support import (
    assert_accessible,
    expect,
    horizontal_overflow,
    login,
    screenshot,
    small_targets,
)
from tests.tournaments import factory
from tournaments.models import Circuit, CircuitPlayer

pytestmark = pytest.mark.browser

CSV = "Nr;Familienname;Vorname;Ort;Kategorien\r\n;Huber;Maria;;Damen\r\n;Neu;Nina;Enns;Jugend\r\n2;Anders;Otto;;\r\n"


def check(page: Any, what: str) -> None:
    assert horizontal_overflow(page) == 0, f"{what} scrolls sideways at 390 px"
    assert_accessible(page, what)
    assert small_targets(page) == [], what


def test_the_organiser_keeps_the_circuits_register_on_her_phone(
    page_for: Any, live_server: Any, player: User
):
    cup = factory.cup(player, name="Hausruckcup")
    factory.tournament(player, names=("Huber Maria", "Huber M.", "Gruber Anna", "Bauer Karl"), cup=cup)
    phone = page_for("de-AT")
    base = live_server.url
    login(phone, base, player)
    phone.goto(f"{base}/circuits/")
    check(phone, "the circuits")
    phone.locator("#id_name").fill("Tarock Österreich")
    phone.locator("#id_season").fill("2025/26")
    phone.get_by_role("button", name="Turnierserie anlegen").click()
    circuit = Circuit.objects.get(owner=player)
    expect(phone.locator("h1")).to_have_text("Tarock Österreich 2025/26")

    phone.get_by_role("link", name="Cup aufnehmen").click()
    check(phone, "a cup joins")
    phone.get_by_role("button", name="Aufnehmen").click()
    expect(phone.locator("#circuit-cups")).to_contain_text("Hausruckcup")
    check(phone, "the circuit's page")
    screenshot(phone, "circuit-page")

    phone.goto(f"{base}/circuits/{circuit.pk}/register/")
    expect(phone.locator("#register li")).to_have_count(4)
    phone.locator("#id_family").fill("GRUBER")
    phone.locator("#id_given").fill("anna")
    phone.get_by_role("button", name="In die Spielerliste aufnehmen").click()
    expect(phone.locator("#register-offered")).to_contain_text("Gruber Anna · Nr.")
    assert CircuitPlayer.objects.filter(circuit=circuit).count() == 4
    check(phone, "the register with a name offered")
    screenshot(phone, "circuit-register-offered")

    phone.goto(f"{base}/circuits/{circuit.pk}/register/import/")
    phone.locator("#id_file").set_input_files(
        {"name": "liste.csv", "mimeType": "text/csv", "buffer": CSV.encode()}
    )
    phone.get_by_role("button", name="Vorschau zeigen").click()
    expect(phone.locator("#import-new")).to_contain_text("Neu Nina, Enns")
    expect(phone.locator("#import-conflicts")).to_contain_text("die Nummer gehört einem anderen Spieler")
    check(phone, "the import's preview")
    screenshot(phone, "circuit-import-preview")
    assert CircuitPlayer.objects.filter(circuit=circuit).count() == 4
    phone.get_by_role("button", name="Import speichern").click()
    expect(phone.locator(".messages")).to_contain_text("Importiert: 1 neu, 1 zugeordnet, 1 ausgelassen")
    assert CircuitPlayer.objects.filter(circuit=circuit).count() == 5

    phone.goto(f"{base}/circuits/{circuit.pk}/register/merge/")
    phone.locator("#id_number").fill("2")
    phone.locator("#id_other").fill("1")
    check(phone, "the merge")
    phone.get_by_role("button", name="Zusammenführen").click()
    expect(phone.locator(".messages")).to_contain_text("Zusammengeführt in Nr. 1")

    phone.goto(f"{base}/circuits/{circuit.pk}/register/2/")
    expect(phone.locator("h1")).to_contain_text("Huber Maria")  # the alias finds her
    expect(phone.locator("#entry-details")).to_contain_text("Nr.\u00a02")
    phone.get_by_role("button", name="PIN vergeben").click()
    pin = phone.locator("#entry-pin strong").inner_text()
    assert len(pin) == 4 and pin.isdigit()
    expect(phone.locator("#entry-details dd").last).to_have_text("vergeben")
    expect(phone.get_by_role("button", name="Neue PIN vergeben")).to_be_visible()
    check(phone, "a PIN shown once")
    screenshot(phone, "circuit-pin-shown")
    phone.goto(f"{base}/circuits/{circuit.pk}/register/2/")
    expect(phone.locator("#entry-pin")).to_have_count(0)

    # Her name on public pages, shortened on her entry's page.
    phone.locator("#public-name-form select").select_option(label="Huber M.")
    phone.locator("#public-name-form").get_by_role("button", name="Speichern").click()
    expect(phone.locator(".messages")).to_contain_text("Name auf öffentlichen Seiten gespeichert")
    expect(phone.locator("#entry-public-name")).to_have_text("Huber M.")
    assert CircuitPlayer.objects.get(circuit=circuit, number=1).public_name == "short"
    check(phone, "the name on public pages set")

    # Someone else of her name and place: kept apart, shown with "(2)".
    phone.goto(f"{base}/circuits/{circuit.pk}/register/")
    phone.locator("#id_family").fill("Gruber")
    phone.locator("#id_given").fill("Anna")
    phone.locator("#id_keep_apart").check()
    phone.get_by_role("button", name="In die Spielerliste aufnehmen").click()
    expect(phone.locator("#register")).to_contain_text("Gruber Anna (2) · Nr.")
    other = CircuitPlayer.objects.filter(circuit=circuit, family="Gruber").order_by("-number")[0]
    phone.goto(f"{base}/circuits/{circuit.pk}/register/{other.number}/")
    expect(phone.locator("h1")).to_contain_text("Gruber Anna (2)")
    expect(phone.locator("#entry-alike")).to_contain_text("Gruber Anna · Nr.")
    check(phone, "an entry kept apart")
    screenshot(phone, "circuit-entry-kept-apart")
