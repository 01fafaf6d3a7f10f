"""A tournament joins or leaves a cup by any path, and the cup's season follows
exactly (TOURNAMENTS.md §5): created inside the cup, attached later in its
settings, detached, moved to another cup, made the final or double points, the
cup's scheme changed. Each path is compared with the season table, the register
and the season printout of the same tournaments created inside the cup."""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from scoring.engine import InvalidInput
from tests.tournaments import factory
from tournaments.models import Cup, CupChange, CupPlayer, Tournament, TournamentPlace
from tournaments.services import cups, tournaments

pytestmark = pytest.mark.django_db

# The second tournament: the §9 example with other names in its places, so that the
# season adds different places: Erika is 1st in the first and 2nd here (223 + 198),
# Karin 3rd and 1st (180 + 223), and Zoe plays only here.
SECOND = {"Erika": "Karin", "Franz": "Erika", "Karin": "Franz", "Josef": "Zoe"}


def played(
    owner: User,
    *,
    cup: Cup | None = None,
    rename: Mapping[str, str] | None = None,
    name: str = "Cupabend",
    day: datetime.date = datetime.date(2025, 11, 21),
    final: bool = True,
    **kwargs: Any,
) -> Tournament:
    """The §9 example typed in at the desk (``rename``: other names in its places),
    made provisional and, with ``final``, final."""
    rename = rename or {}
    names = [rename.get(n, n) for n in factory.EXAMPLE_NAMES]
    t = factory.tournament(owner, names=names, cup=cup, name=name, played_on=day, **kwargs)
    factory.draw(t)
    for number, sums in enumerate(factory.EXAMPLE_SUMS, 1):
        factory.release(t)
        factory.desk_round(t, number, {rename.get(n, n): v for n, v in sums.items()})
    tournaments.tournament_provisional(tournament=factory.fresh(t), user=owner)
    return factory.make_final(factory.fresh(t)) if final else factory.fresh(t)


def first(owner: User, cup: Cup | None = None, **kwargs: Any) -> Tournament:
    return played(owner, cup=cup, **kwargs)


def second(owner: User, cup: Cup | None = None, **kwargs: Any) -> Tournament:
    return played(
        owner, cup=cup, rename=SECOND, name="Frühjahrsturnier", day=datetime.date(2026, 2, 6), **kwargs
    )


def season_of(cup: Cup) -> dict[str, Any]:
    """What the cup shows: its season table (as the page and the printout draw it)
    and its register."""
    cup = Cup.objects.get(pk=cup.pk)
    season = cups.season_ranking(cup)
    lines = [
        (
            line.place,
            line.player.name,
            line.total,
            line.final_points,
            line.counted,
            line.participations,
            line.podiums,
            line.best_place,
        )
        for line in season.lines
    ]
    printed = render_to_string(
        "tournaments/print/season.html",
        {"season": season, "cup": cup, "printed_at": datetime.datetime(2026, 3, 1, 12, 0)},
    )
    return {
        "lines": lines,
        "held": season.held,
        "ended": season.ended,
        "register": sorted(p.name for p in cups.register(cup)),
        "printed": re.search(r"<tbody>.*</tbody>", printed, re.S)[0],
    }


update = factory.settings_saved  # the settings page saved with changes


def settings_page(browser: Client, t: Tournament, **fields: Any) -> Any:
    """The settings form posted as the page sends it (round 1 drawn: the settings are shown only)."""
    data = {"name": t.name, "played_on": t.played_on.isoformat(), "organisers": "", "cup_factor": "1"}
    data.update({k: v for k, v in fields.items() if v is not None})
    return browser.post(reverse("tournament_settings", args=[t.pk]), data)


@pytest.fixture
def browser(user: User) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def test_a_cup_made_after_its_tournament_and_attached_in_the_settings_counts_it(user, browser):
    reference = factory.cup(user, name="Referenz")
    first(user, reference)
    second(user, reference)
    before = first(user)  # played and made final before the cup existed
    cup = factory.cup(user)
    answer = settings_page(browser, before, cup=cup.pk)
    assert answer.status_code == 302, answer.content.decode()[-2000:]
    assert factory.fresh(before).cup == cup
    second(user, cup)
    season = season_of(cup)
    assert season == season_of(reference)
    assert season["lines"][0][:3] == (1, "Erika", 223 + 198)
    page = browser.get(reverse("cup_detail", args=[cup.pk])).content.decode()
    assert re.search(r"<td>Erika</td><td class=\"r\"><strong>421</strong>", page)
    assert CupChange.objects.filter(cup=cup, action="join").count() == 2


def test_attaching_a_tournament_with_its_ranking_only_provisional_counts_it_too(user):
    reference = factory.cup(user, name="Referenz")
    first(user, reference, final=False)
    t = first(user, final=False)
    cup = factory.cup(user)
    update(t, user, cup=cup)
    assert season_of(cup) == season_of(reference)
    assert TournamentPlace.objects.get(tournament=t, place=1).cup_points == 223


def test_a_tournament_detached_from_its_cup_leaves_its_season_and_register(user):
    reference = factory.cup(user, name="Referenz")
    first(user, reference)
    cup = factory.cup(user)
    first(user, cup)
    leaving = second(user, cup)
    assert "Zoe" in season_of(cup)["register"]
    update(leaving, user, cup=None)
    assert season_of(cup) == season_of(reference)
    assert not CupPlayer.objects.filter(name="Zoe").exists()
    assert not factory.fresh(leaving).entrants.filter(cup_player__isnull=False).exists()
    assert not TournamentPlace.objects.filter(tournament=leaving).exclude(cup_points=0).exists()


def test_a_tournament_moved_to_another_cup_counts_there_and_no_longer_here(user):
    only_first, only_second = factory.cup(user, name="Nur erstes"), factory.cup(user, name="Nur zweites")
    first(user, only_first)
    second(user, only_second)
    here, there = factory.cup(user, name="Hier"), factory.cup(user, name="Dort", scheme="heine")
    first(user, here)
    moving = second(user, here)
    update(moving, user, cup=there)
    assert season_of(here) == season_of(only_first)
    heine_reference = factory.cup(user, name="Heine", scheme="heine")
    second(user, heine_reference)
    assert season_of(there) == season_of(heine_reference)
    entrant = factory.fresh(moving).entrants.get(name="Erika")
    assert entrant.cup_player.cup == there


def test_made_the_final_with_double_points_in_the_settings(user):
    reference = factory.cup(user, name="Referenz", final_mode="extra")
    first(user, reference)
    second(user, reference, cup_final=True, cup_factor=2)
    cup = factory.cup(user, final_mode="extra")
    first(user, cup)
    t = second(user, cup)
    update(t, user, cup_final=True, cup_factor=2)
    assert season_of(cup) == season_of(reference)
    assert season_of(cup)["lines"][0][3] == 2 * 223  # Karin's final, double


def test_the_cups_scheme_changed_counts_every_tournament_by_the_new_scheme(user, browser):
    reference = factory.cup(user, name="Referenz", scheme="heine", best_n="1")
    first(user, reference)
    second(user, reference)
    cup = factory.cup(user)
    first(user, cup)
    second(user, cup)
    form = {"name": cup.name, "season": cup.season, "scheme": "heine", "best_n": "1", "final_mode": "extra"}
    answer = browser.post(reverse("cup_settings", args=[cup.pk]), form)
    assert answer.status_code == 302
    assert season_of(cup) == season_of(reference)
    assert CupChange.objects.get(cup=cup, action="settings").after["scheme"] == "heine"
    # The tournaments' own rankings show the new points as well.
    t = Tournament.objects.filter(cup=cup).order_by("played_on").first()
    ranking = browser.get(reverse("tournament_prizes", args=[t.pk])).content.decode()
    assert ">111<" in ranking  # Erika's total as her Heine points, no longer 223
    assert ">223<" not in ranking


def test_only_the_cups_owner_changes_its_settings(user, other_user):
    cup = factory.cup(user)
    with pytest.raises(InvalidInput):
        cups.cup_update(cup=cup, user=other_user, name="X", season="2025/26", scheme="heine")
    assert Cup.objects.get(pk=cup.pk).scheme == "fixed"


SHARED = {"tie_break": ["rounds_desc", "shared"]}


def test_shared_places_cannot_join_a_cup_whose_points_go_by_place(user, browser):
    t = factory.draw(factory.tournament(user, settings=SHARED))  # as imported: the settings are fixed
    for scheme in ("fixed", "tirol_formula", "custom"):
        cup = factory.cup(
            user, name=scheme, scheme=scheme, points_table=[10, 5] if scheme == "custom" else None
        )
        with pytest.raises(InvalidInput) as refused:
            update(t, user, cup=cup)
        assert refused.value.field == "cup"
        assert factory.fresh(t).cup is None
    answer = settings_page(browser, t, cup=Cup.objects.get(name="fixed").pk)
    assert answer.status_code == 400 and "shares places between equal totals" in answer.content.decode()
    assert factory.fresh(t).cup is None
    assert settings_page(browser, t, name="Neuer Name").status_code == 302  # its list of criteria kept
    assert factory.fresh(t).settings["tie_break"] == ["rounds_desc", "shared"]
    heine = factory.cup(user, name="Heine", scheme="heine")
    update(t, user, cup=heine)
    assert factory.fresh(t).cup == heine
    with pytest.raises(InvalidInput) as refused:
        cups.cup_update(cup=heine, user=user, name="Heine", season="2025/26", scheme="fixed")
    assert refused.value.field == "scheme"
    assert Cup.objects.get(pk=heine.pk).scheme == "heine"


def test_shared_places_are_refused_with_place_based_points_when_created_and_with_prizes(user):
    cup = factory.cup(user)
    with pytest.raises(InvalidInput):
        factory.tournament(user, settings=SHARED, cup=cup)
    with pytest.raises(InvalidInput) as refused:
        factory.tournament(user, settings={**SHARED, "prizes": [{"from": 1, "to": 1, "amount": "50"}]})
    assert refused.value.field == "tie_break"
    assert not Tournament.objects.exists()
