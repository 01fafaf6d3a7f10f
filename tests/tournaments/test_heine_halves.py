"""Heine points keep a total's half (TOURNAMENTS.md §5.2: T = 1.5 → 1.5; ⌊⌋ only
where written) in the app as in the tournament file and ``score_tournament``: a
Trischaken of the ``wtc`` scheme whose two tied losers share an odd payment
gives halves in the Schrift."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from django.test import Client
from django.urls import reverse

from scoring import services as scoring
from tests.tournaments import factory
from tournaments.core import tournament_file as files
from tournaments.models import TournamentPlace
from tournaments.services import cups, desk, tables, tournaments

pytestmark = pytest.mark.django_db

OPTIONS = {"tariff": "ooe_2023", "trischaken": "wtc"}
# Bert and Carl tie as losers and pay 3 between them: 1.5 each to Anna and Dora.
TRISCHAKEN = {"declarer": "Anna", "game": "trischaken",
              "points": {"Anna": "13/1", "Bert": "26/2", "Carl": "26/2", "Dora": "3/1"}}  # fmt: skip


def test_a_half_point_total_gives_half_a_heine_point_on_every_page(user):
    cup = factory.cup(user, scheme="heine")
    t = factory.tournament(
        user, names=["Anna", "Bert", "Carl", "Dora"], cup=cup, options=OPTIONS,
        settings={"rounds": 1, "hands_at_four": 1},
    )  # fmt: skip
    factory.draw(t)
    factory.release(t)
    table = factory.tables(t, 1)[0]
    session = tables.open_table(table)
    dealer = tables.players(table)[table.first_dealer - 1]
    scoring.hand_record(session=session, raw={"dealer": dealer, **TRISCHAKEN}, user=user)
    desk.table_confirm(tournament=factory.fresh(t), user=user, table_id=table.pk)
    tournaments.tournament_provisional(tournament=factory.fresh(t), user=user)
    points = dict(TournamentPlace.objects.filter(tournament=t).values_list("entrant__name", "cup_points"))
    assert points == {"Anna": Decimal("1.5"), "Dora": Decimal("1.5"), "Bert": 0, "Carl": 0}
    season = {line.player.name: line.total for line in cups.season_ranking(cup).lines}
    assert season["Anna"] == Fraction(3, 2) and season["Dora"] == Fraction(3, 2)
    browser = Client(HTTP_ACCEPT_LANGUAGE="de")
    browser.force_login(user)
    ranking = browser.get(reverse("tournament_prizes", args=[t.pk])).content.decode()
    assert '<td class="r">1,5</td>' in ranking  # the points as every page writes numbers
    assert "−1,5" in ranking  # Bert's total, with a real minus
    season_page = browser.get(reverse("cup_detail", args=[cup.pk])).content.decode()
    assert "<strong>1,5</strong>" in season_page
    given = {"players": ["Anna", "Bert", "Carl", "Dora"], "dealer": "Anna", "hands": [TRISCHAKEN]}
    text = files.dumps(
        {
            "format": "tarockscore-tournament/1",
            "variant": "koenigrufen",
            "options": OPTIONS,
            "seed": "482915",
            "entrants": ["Anna", "Bert", "Carl", "Dora"],
            "settings": {"rounds": 1, "hands": 1, "scheme": "heine"},
            "rounds": [{"tables": [given]}],
        }
    )
    document = files.read_tournament(text)
    assert files.score_tournament(document)["cup_points"] == {"Anna": 1.5, "Dora": 1.5, "Bert": 0, "Carl": 0}
