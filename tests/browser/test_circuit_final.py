"""The circuit's final in the browser at a phone's size, in German: the
organiser imports a circuit file, sets a cup's tier with its own table, and
reads the qualification list, the qualified players and the Gesamtwertung.
Every page fits 390 px without scrolling sideways, passes axe and has
fingertip targets."""

from __future__ import annotations

import json
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
from tests.tournaments.circuit.test_final import canonical, probe
from tournaments.models import Circuit

pytestmark = pytest.mark.browser


def check(page: Any, what: str) -> None:
    assert horizontal_overflow(page) == 0, f"{what} scrolls sideways at 390 px"
    assert_accessible(page, what)
    assert small_targets(page) == [], what


def test_the_organiser_follows_the_final_on_her_phone(page_for: Any, live_server: Any, player: User):
    data = canonical(probe([2, 3, 4, 5, 6, 1, 7, 8, 9, 10], [120, 100, 90, 80, 80, 70, 60, 50, 40, 30]))
    phone = page_for("de-AT")
    base = live_server.url
    login(phone, base, player)
    phone.goto(f"{base}/circuits/import/")
    check(phone, "the circuit file's import")
    phone.locator("#import-file").set_input_files(
        {"name": "circuit.json", "mimeType": "application/json", "buffer": data}
    )
    phone.get_by_role("button", name="Importieren").click()
    expect(phone.locator("h1")).to_have_text("Tarock Österreich 2025/26")
    circuit = Circuit.objects.get(owner=player)
    assert json.loads(data)["name"] == circuit.name
    check(phone, "the circuit's page with its final")

    phone.goto(f"{base}/circuits/{circuit.pk}/tiers/")
    check(phone, "the tiers")
    screenshot(phone, "circuit-tiers")
    probe_cup = circuit.cups.get(name="Probe")
    phone.locator(f"#cup{probe_cup.pk}-tier_table").fill("64, 60, 50")
    phone.locator(f"#tier-{probe_cup.pk}").get_by_role("button", name="Speichern").click()
    expect(phone.locator(".messages")).to_contain_text("Stufe gespeichert")

    phone.goto(f"{base}/circuits/{circuit.pk}/cups/{probe_cup.pk}/qualification/")
    expect(phone.locator("#qualification tbody tr")).to_have_count(3)
    expect(phone.locator("#qualification tbody tr").first).to_contain_text("qualifiziert")
    check(phone, "a cup's qualification list")
    screenshot(phone, "circuit-qualification")

    phone.goto(f"{base}/circuits/{circuit.pk}/qualified/")
    expect(phone.locator("#qualified tbody tr").first).to_contain_text("64")
    check(phone, "the qualified players")

    phone.goto(f"{base}/circuits/{circuit.pk}/final/ranking/")
    expect(phone.locator("#gesamtwertung tbody tr")).to_have_count(10)
    expect(phone.locator("#final-unqualified")).to_contain_text("Nr. 4")
    check(phone, "the Gesamtwertung")
    screenshot(phone, "circuit-gesamtwertung")

    phone.goto(f"{base}/circuits/{circuit.pk}/final/")
    check(phone, "the final's settings")
