"""A tournament built straight from the models for the table, results and board
tests: a released round of N four-tables, entrants whose ``player`` is one of the
owner's players, each table with its link token."""

from __future__ import annotations

import datetime
import secrets
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from scoring.models import Player
from tournaments.models import Entrant, Round, TableRound, TableSeat, Tournament
from tournaments.services import tables

NAMES = [
    "Anna",
    "Bernd",
    "Christa",
    "Dieter",
    "Erika",
    "Franz",
    "Gerti",
    "Hans",
    "Ida",
    "Josef",
    "Karin",
    "Leo",
    "Maria",
    "Norbert",
    "Olga",
    "Paul",
    "Rosa",
    "Sepp",
    "Theresa",
    "Udo",
    "Vroni",
    "Walter",
    "Xaver",
    "Zita",
] + [f"Player {n}" for n in range(25, 401)]


# Erika's Besserrufer with Bernd, Pagat announced and made, kontra'd (TOURNAMENTS.md §9):
# the Schrift +3 +3 −3 −3, the money +5 +5 −5 −5.
def kontra_hand(declarer: str, partner: str, dealer: str) -> dict[str, Any]:
    return {
        "dealer": dealer,
        "declarer": declarer,
        "game": "besserrufer",
        "bird": "pagat",
        "partner": partner,
        "points": "47/0",
        "premiums": [{"type": "pagat", "side": "declarer", "announced": True, "kontra": 1}],
    }


def rufer(declarer: str, partner: str, dealer: str) -> dict[str, Any]:
    """A plain Rufer the declarer's side wins: +1 each for them, −1 for the others."""
    return {"dealer": dealer, "declarer": declarer, "game": "rufer", "partner": partner, "points": "41/2"}


def redeal(dealer: str) -> dict[str, Any]:
    return {"type": "redeal", "dealer": dealer}


@pytest.fixture
def in_english() -> Any:
    """Services say why in the active language: these tests read English."""
    with translation.override("en"):
        yield


@dataclass
class Day:
    tournament: Tournament
    round: Round
    tables: list[TableRound]
    entrants: list[Entrant]

    def table(self, number: int) -> TableRound:
        found = TableRound.objects.select_related("round__tournament", "session").get(
            pk=self.tables[number - 1].pk
        )
        return found


def tournament_day(
    owner: User,
    *,
    tables_count: int = 2,
    hands: int = 4,
    released: bool = True,
    settings: dict[str, Any] | None = None,
    rounds: int = 3,
    money_rate: Decimal | None = Decimal("0.10"),
    organisers: tuple[User, ...] = (),
    name: str = "Cupabend",
) -> Day:
    """A tournament with one round drawn (and released) over ``tables_count``
    four-tables, seat order by start number, the first seat deals first."""
    tournament = Tournament.objects.create(
        owner=owner,
        name=name,
        played_on=datetime.date(2025, 11, 21),
        variant="koenigrufen",
        options={"tariff": "ooe_2023"},
        money_rate=money_rate,
        settings={"rounds": rounds, **(settings or {})},
        seed="482915",
        status=Tournament.Status.RUNNING,
    )
    tournament.organisers.set(organisers)
    entrants = [
        Entrant.objects.create(
            tournament=tournament,
            number=index + 1,
            name=name_,
            place="Linz",
            player=Player.objects.get_or_create(owner=owner, name=name_)[0],
        )
        for index, name_ in enumerate(NAMES[: 4 * tables_count])
    ]
    status = Round.Status.RELEASED if released else Round.Status.DRAWN
    round_ = Round.objects.create(tournament=tournament, number=1, status=status)
    made = []
    for number in range(1, tables_count + 1):
        table = TableRound.objects.create(
            round=round_,
            number=number,
            size=4,
            hands_target=hands,
            first_dealer=1,
            link_token=secrets.token_urlsafe(24),
            short_code=f"T{number:03d}",
            status=TableRound.Status.OPEN if released else TableRound.Status.WAITING,
        )
        for position, entrant in enumerate(entrants[4 * (number - 1) : 4 * number], start=1):
            TableSeat.objects.create(table=table, round=round_, entrant=entrant, position=position)
        made.append(table)
    return Day(tournament, round_, made, entrants)


def phone() -> Client:
    """A phone without an account, in English."""
    return Client(HTTP_ACCEPT_LANGUAGE="en")


def claimed_phone(table: TableRound) -> Client:
    """A phone that holds the table's claim (its cookie set as the server gives it)."""
    client = phone()
    cookie = tables.new_phone_cookie()
    client.cookies[tables.PHONE_COOKIE] = cookie
    assert tables.claim(table, cookie)
    return client
