"""Teams (TOURNAMENTS.md §14.6) through the services and the pages: the draw keeps
pairs apart, the team ranking is checked against sums worked out here from the
typed-in round results, refusals name their field and change nothing, a form
sent twice is stored once, and the board tab, the hall and the PDF show the team
ranking beside the side rankings (issue 32's acceptance)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.engine import InvalidInput
from tests.tournaments import factory
from tournaments.core import circuit as rules
from tournaments.models import CircuitPlayer, Entrant, Team, TeamMember, Tournament, TournamentChange
from tournaments.services import circuit as circuits
from tournaments.services import entrants, hall, plan, printouts, results, side, teams
from tournaments.services import tournaments as tournament_services

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("nothing_kept")]

NAMES = factory.EXAMPLE_NAMES
SUMS = factory.EXAMPLE_SUMS
TOTALS = {name: sum(s[name] for s in SUMS) for name in NAMES}
PAIRS = {
    "Anna & Bernd": ("Anna", "Bernd"),
    "Christa & Dieter": ("Christa", "Dieter"),
    "Erika & Franz": ("Erika", "Franz"),
    "Gerti & Hans": ("Gerti", "Hans"),
    "Ida & Josef": ("Ida", "Josef"),
    "Karin & Leo": ("Karin", "Leo"),
}
HOME = {"Anna", "Dieter", "Gerti", "Karin"}  # from Steyr
DAMEN = {"Anna", "Christa", "Erika", "Gerti", "Ida", "Karin"}


def number_of(t: Tournament) -> dict[str, int]:
    return dict(Entrant.objects.filter(tournament=t).values_list("name", "number"))


def name_teams(t: Tournament, kind: str, named: Mapping[str, tuple[str, ...]], **kwargs: Any) -> Tournament:
    teams.team_settings_set(tournament=factory.fresh(t), user=t.owner, kind=kind, **kwargs)
    numbers = number_of(t)
    for name, members in named.items():
        teams.team_save(
            tournament=factory.fresh(t), user=t.owner, name=name, members=[numbers[m] for m in members]
        )
    return factory.fresh(t)


def played_with_teams(
    user: User, kind: str, named: Mapping[str, tuple[str, ...]], **kwargs: Any
) -> Tournament:
    """§9's day with teams named after the draw (so the seating, and with it the
    typed-in sums, stay §9's), before round 1 is released; three rounds typed in."""
    t = factory.tournament(user, names=(), cup=kwargs.pop("cup", None))
    for name in NAMES:
        entrants.entrant_add(
            tournament=factory.fresh(t), user=user, name=name, place="Steyr" if name in HOME else "Linz"
        )
    factory.draw(factory.fresh(t))
    t = name_teams(t, kind, named, **kwargs)
    for number, sums in enumerate(SUMS, 1):
        factory.release(t)
        factory.desk_round(t, number, sums)
    return factory.fresh(t)


def expected_pairs() -> list[tuple[str, int]]:
    """The pairs' ranking worked out here: sum of the members' totals, then the best member's."""
    found = [
        (name, sum(TOTALS[m] for m in members), max(TOTALS[m] for m in members))
        for name, members in PAIRS.items()
    ]
    assert len({(total, best) for _n, total, best in found}) == len(found)  # no lots needed
    return [(name, total) for name, total, _best in sorted(found, key=lambda f: (-f[1], -f[2]))]


# -- the draw ---------------------------------------------------------------------------------


def together(t: Tournament, named: Mapping[str, tuple[str, ...]]) -> int:
    """How often two team-mates sit at one table, over every round drawn."""
    count = 0
    for number in range(1, t.settings["rounds"] + 1):
        for table in factory.table_names(t, number):
            for members in named.values():
                count += sum(1 for a in members for b in members if a < b and a in table and b in table)
    return count


SEEDS = ("482915", "100001", "271828", "314159", "577215")


def test_the_draw_seats_no_pair_of_team_mates_together_where_a_draw_without_teams_would(user):
    players = [f"Spieler {n:02d}" for n in range(1, 25)]
    named = {f"Paar {n}": (players[2 * n - 2], players[2 * n - 1]) for n in range(1, 13)}
    without = 0
    for seed in SEEDS:
        plain = factory.tournament(user, names=players, seed=seed, name=f"Ohne {seed}")
        without += together(factory.draw(plain), named)
        paired = name_teams(
            factory.tournament(user, names=players, seed=seed, name=f"Mit {seed}"), "pairs", named
        )
        assert together(factory.draw(paired), named) == 0, seed
    assert without > 0  # a draw that ignored the teams would seat some pair together


def test_a_redraw_of_round_one_keeps_the_pairs_apart_too(user):
    t = factory.tournament(user)
    factory.draw(t)
    t = name_teams(t, "pairs", PAIRS)
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(user)
    page = browser.get(reverse("tournament_teams", args=[t.pk])).content.decode()
    assert 'id="teams-redraw"' in page  # named after the draw: the page says to redraw
    plan.round_redraw(tournament=t, user=user, number=1, seed="100001")
    assert together_in_round(factory.fresh(t), 1) == 0


def together_in_round(t: Tournament, number: int) -> int:
    return sum(
        1 for table in factory.table_names(t, number) for a, b in PAIRS.values() if a in table and b in table
    )


# -- the ranking --------------------------------------------------------------------------------


def test_the_pairs_ranking_is_the_sum_of_the_members_totals_best_first(user):
    t = played_with_teams(user, "pairs", PAIRS, prizes=["Korb", "Wein"])
    found = teams.team_table(t)
    assert found is not None and found.kind == "pairs"
    assert [(row.name, row.total) for row in found.rows] == [(n, Fraction(v)) for n, v in expected_pairs()]
    assert [row.place for row in found.rows] == list(range(1, 7))
    assert [row.prize for row in found.rows] == ["Korb", "Wein", "", "", "", ""]
    first = found.rows[0]
    assert [m.name for m in first.members] == sorted(PAIRS[first.name], key=lambda m: -TOTALS[m])
    assert all(m.counted for row in found.rows for m in row.members)


def test_a_club_counts_its_best_members_only(user):
    clubs = {"Linz": tuple(n for n in NAMES if n not in HOME), "Steyr": tuple(sorted(HOME))}
    t = played_with_teams(user, "clubs", clubs, team_best=3)
    found = teams.team_table(t)
    assert found is not None

    def best(members: tuple[str, ...]) -> int:
        return sum(sorted((TOTALS[m] for m in members), reverse=True)[:3])

    expected = sorted(clubs, key=lambda name: -best(clubs[name]))
    assert [row.name for row in found.rows] == expected
    assert [row.total for row in found.rows] == [Fraction(best(clubs[name])) for name in expected]
    linz = next(row for row in found.rows if row.name == "Linz")
    assert sum(1 for m in linz.members if m.counted) == 3 and len(linz.members) == 8


def test_equal_teams_are_ordered_by_the_best_member_then_by_lots():
    totals = {
        1: Fraction(10),
        2: Fraction(-10),
        3: Fraction(5),
        4: Fraction(-5),
        5: Fraction(0),
        6: Fraction(0),
    }
    named = [rules.Team("A", (1, 2)), rules.Team("B", (3, 4)), rules.Team("C", (5, 6))]
    placed = rules.team_ranking(named, totals, "pairs", seed="482915")
    assert [p.team.name for p in placed] == ["A", "B", "C"]  # all 0: the best member decides
    assert not any(p.lots for p in placed)
    # Equal on both: the lot of each team's best member, "{seed}:lots:{number}" ascending (§4.2).
    even = {1: Fraction(10), 2: Fraction(-10), 3: Fraction(10), 4: Fraction(-10)}
    tied = [rules.Team("A", (1, 2)), rules.Team("B", (3, 4))]
    lot = {n: hashlib.sha256(f"482915:lots:{n}".encode()).hexdigest() for n in (1, 3)}
    placed = rules.team_ranking(tied, even, "pairs", seed="482915")
    assert [p.team.name for p in placed] == (["A", "B"] if lot[1] < lot[3] else ["B", "A"])
    assert all(p.lots for p in placed)


def test_the_team_ranking_takes_statements_that_do_not_grow_with_teams(user):
    counts = []
    for size in (12, 24):
        players = [f"Spieler {n:02d}" for n in range(1, size + 1)]
        named = {f"Paar {n}": (players[2 * n - 2], players[2 * n - 1]) for n in range(1, size // 2 + 1)}
        t = name_teams(factory.tournament(user, names=players, name=f"Tag {size}"), "pairs", named)
        results.standings(t)  # kept for this results version, as the board's
        with CaptureQueriesContext(connection) as seen:
            found = teams.team_table(t)
        assert found is not None and len(found.rows) == size // 2
        counts.append(len(seen))
    assert counts[0] == counts[1] <= 2


# -- refusals, idempotence, audit ------------------------------------------------------------


def refusal(call: Any, **kwargs: Any) -> str:
    with pytest.raises(InvalidInput) as refused:
        call(**kwargs)
    return refused.value.field


def test_refusals_name_their_field_and_change_nothing(user, monkeypatch):
    t = factory.tournament(user)
    n = number_of(t)
    add = {"tournament": t, "user": user}
    assert refusal(teams.team_save, **add, name="A", members=[n["Anna"], n["Bernd"]]) == "kind"
    assert refusal(teams.team_settings_set, **add, kind="trios") == "kind"
    assert refusal(teams.team_settings_set, **add, kind="clubs", team_best=0) == "team_best"
    t = name_teams(t, "pairs", {"A": ("Anna", "Bernd")})
    add["tournament"] = t
    assert refusal(teams.team_save, **add, name="B", members=[n["Christa"]]) == "members"
    assert refusal(teams.team_save, **add, name="B", members=[n["Anna"], n["Christa"]]) == "members"
    assert refusal(teams.team_save, **add, name="a", members=[n["Christa"], n["Dieter"]]) == "name"
    assert refusal(teams.team_save, **add, name="B", members=[n["Christa"], 99]) == "members"
    assert refusal(teams.team_save, **add, name="", members=[n["Christa"], n["Dieter"]]) == "name"
    assert refusal(teams.team_settings_set, **add, kind="fours") == "members"  # A has two
    assert refusal(teams.team_settings_set, **add, kind="none") == "kind"
    assert refusal(entrants.entrant_remove, **add, number=n["Anna"]) == "entrant"
    monkeypatch.setattr(rules, "MAX_TEAMS", 1)
    assert refusal(teams.team_save, **add, name="B", members=[n["Christa"], n["Dieter"]]) == "name"
    assert [(line.name, [m for m, _ in line.members]) for line in teams.teams_of(t)] == [
        ("A", [n["Anna"], n["Bernd"]])
    ]
    assert factory.fresh(t).teams == "pairs"


def test_teams_are_fixed_once_round_one_is_released(user):
    t = factory.tournament(user)
    factory.draw(t)
    t = name_teams(t, "pairs", {"A": ("Anna", "Bernd")})
    factory.release(t)
    t = factory.fresh(t)
    n = number_of(t)
    assert (
        refusal(teams.team_save, tournament=t, user=user, name="B", members=[n["Ida"], n["Leo"]]) == "teams"
    )
    line = teams.teams_of(t)[0]
    assert refusal(teams.team_remove, tournament=t, user=user, team_id=line.pk) == "teams"
    assert refusal(teams.team_settings_set, tournament=t, user=user, kind="clubs") == "teams"
    # The prizes may still change.
    teams.team_settings_set(tournament=t, user=user, kind="pairs", prizes=["Korb"])
    assert factory.fresh(t).team_prizes == ["Korb"]


def test_a_team_sent_twice_is_stored_once_and_every_change_is_audited(user):
    t = name_teams(factory.tournament(user), "pairs", {})
    n = number_of(t)
    before = TournamentChange.objects.filter(tournament=t).count()
    args = {"tournament": t, "user": user, "name": "A", "members": [n["Anna"], n["Bernd"]]}
    first = teams.team_save(**args, client_token="tok-1")
    assert teams.team_save(**args, client_token="tok-1") == first
    assert teams.team_save(**args) == first  # the same content again
    assert Team.objects.filter(tournament=t).count() == 1
    changed = teams.team_save(**{**args, "name": "Anna und Bernd"}, team_id=first.pk, client_token="tok-2")
    assert changed.pk == first.pk and Team.objects.get(pk=first.pk).name == "Anna und Bernd"
    assert teams.team_remove(tournament=t, user=user, team_id=first.pk)
    assert not teams.team_remove(tournament=t, user=user, team_id=first.pk)  # sent twice
    assert not TeamMember.objects.exists()
    audit = list(TournamentChange.objects.filter(tournament=t).order_by("id")[before:])
    assert [(c.before, c.after) for c in audit] == [
        (None, {"team": "A", "members": [n["Anna"], n["Bernd"]]}),
        (
            {"team": "A", "members": [n["Anna"], n["Bernd"]]},
            {"team": "Anna und Bernd", "members": [n["Anna"], n["Bernd"]]},
        ),
        ({"team": "Anna und Bernd", "members": [n["Anna"], n["Bernd"]]}, None),
    ]
    assert all(c.user == user for c in audit)


# -- the pages ---------------------------------------------------------------------------------


def test_the_organiser_sets_the_kind_and_names_a_team_on_the_page(user):
    t = factory.tournament(user)
    n = number_of(t)
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(user)
    url = reverse("tournament_teams", args=[t.pk])
    assert browser.get(url).status_code == 200
    settings = {"action": "settings", "kind": "pairs", "team_best": "4", "prizes": "Korb\nWein"}
    assert browser.post(url, settings).status_code == 302
    assert factory.fresh(t).team_prizes == ["Korb", "Wein"]
    posted = {"action": "save", "name": "Anna & Bernd", "members": [n["Anna"], n["Bernd"]], "token": "page-1"}
    assert browser.post(url, posted).status_code == 302
    assert browser.post(url, posted).status_code == 302  # sent twice
    assert Team.objects.filter(tournament=t).count() == 1
    bad = browser.post(url, {**posted, "name": "Drei", "members": [n["Christa"]], "token": "page-2"})
    assert bad.status_code == 400 and "2 members" in bad.content.decode()
    page = browser.get(url).content.decode()
    assert "Anna &amp; Bernd" in page and 'id="team-table"' in page
    team = Team.objects.get(tournament=t)
    assert browser.post(url, {"action": "remove", "team": team.pk}).status_code == 302
    assert not Team.objects.filter(tournament=t).exists()


def test_the_hall_puts_the_team_page_after_every_two_others():
    others = [("ranking", {"rows": [i]}) for i in range(5)] + [("side", {"name": "Damen", "rows": []})]
    kinds = [page["kind"] for page in hall.hall_sequence(others, {"rows": []})]
    assert kinds == ["ranking", "ranking", "teams", "ranking", "ranking", "teams", "ranking", "side", "teams"]
    odd = [page["kind"] for page in hall.hall_sequence(others[:3], {"rows": []})]
    assert odd == ["ranking", "ranking", "teams", "ranking", "teams"]
    assert [page["kind"] for page in hall.hall_sequence(others[:1], {"rows": []})] == ["ranking", "teams"]
    assert [page["n"] for page in hall.hall_sequence(others, None)] == list(range(1, 7))


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def day_with_teams_and_sides(user: User) -> Tournament:
    """§9's day in a circuit's cup with pairs (and their prizes), a Damenwertung of
    the cup (the register's category) and a Stadtmeisterschaft of the day (the
    home town); provisional, the board shared."""
    cup = factory.cup(user)
    circuit = circuits.circuit_create(owner=user, name="Tarock Österreich", season="2025/26")
    t = played_with_teams(user, "pairs", PAIRS, prizes=["Korb", "Wein"], cup=cup)
    circuits.cup_join(circuit=circuit, user=user, cup_id=cup.pk)
    for entry in CircuitPlayer.objects.filter(circuit=circuit):
        if f"{entry.family} {entry.given}".strip() in DAMEN:
            CircuitPlayer.objects.filter(pk=entry.pk).update(categories=["Damen"])
    side.side_ranking_add(user=user, cup=cup, name="Damenwertung", kind="category", value="Damen")
    side.side_ranking_add(
        user=user, tournament=factory.fresh(t), name="Stadtmeisterschaft", kind="home", value="Steyr"
    )
    tournament_services.tournament_provisional(tournament=factory.fresh(t), user=user)
    results.board_share(factory.fresh(t))
    return factory.fresh(t)


def test_issue_32_the_board_the_hall_and_the_pdf_show_the_team_ranking_and_the_side_rankings(
    user, monkeypatch
):
    t = day_with_teams_and_sides(user)

    # Worked out here from the typed-in sums.
    pairs = expected_pairs()
    main = sorted(NAMES, key=lambda n: (-TOTALS[n], *sorted(-s[n] for s in SUMS)))
    damen = [n for n in main if n in DAMEN]
    home = [n for n in main if n in HOME]

    def in_order(text: str, names: list[str]) -> bool:
        at = [text.find(name) for name in names]
        return all(i >= 0 for i in at) and at == sorted(at)

    # The board: a link to the Teams tab; the tab shows the teams, then the side rankings.
    board = Client().get(reverse("tournament_board", args=[t.board_token])).content.decode()
    assert 'id="teams-link"' in board
    tab = Client().get(reverse("tournament_board_teams", args=[t.board_token]))
    assert tab.status_code == 200
    html = tab.content.decode()
    ranking = html[html.index('id="team-table"') : html.index("</table>", html.index('id="team-table"'))]
    rows = re.findall(
        r'<tr class="team-row"><td class="r">(\d+)</td><td><strong>([^<]+)</strong>.*?<td class="r"><strong>([^<]+)</strong>',
        ranking,
    )
    shown = [(int(place), name.replace("&amp;", "&"), total) for place, name, total in rows]
    assert shown == [
        (i, name, f"{total:+d}".replace("-", "\u2212") if total else "0")
        for i, (name, total) in enumerate(pairs, 1)
    ], shown
    words = text_of(html)
    assert "Korb" in words and "Wein" in words
    assert "Damenwertung" in words and "Stadtmeisterschaft" in words
    damen_part = words[words.index("Damenwertung") :]
    assert in_order(damen_part, damen)
    home_part = words[words.index("Stadtmeisterschaft") :]
    assert in_order(home_part, home)

    # The hall: the team page every third page, the side rankings' pages too.
    screen = Client().get(reverse("tournament_screen", args=[t.screen_token])).content.decode()
    sections = re.findall(r'<section class="hall-page([^"]*)" data-page="(\d+)"', screen)
    kinds = [classes.strip() or "ranking" for classes, _n in sections]
    assert [int(n) for _c, n in sections] == list(range(1, len(sections) + 1))
    assert kinds == ["ranking", "hall-side", "hall-teams", "hall-side", "hall-teams"]
    team_page = screen[screen.index('class="hall-page hall-teams"') :]
    team_page = team_page[: team_page.index("</section>")]
    hall_rows = re.findall(
        r'<tr class="hall-team-row"><td class="num">(\d+)</td><td class="hall-player">([^<]+?) <span',
        team_page,
    )
    assert [(int(p), n.replace("&amp;", "&")) for p, n in hall_rows] == [
        (i, n) for i, (n, _v) in enumerate(pairs, 1)
    ]
    assert "Damenwertung" in screen and "Stadtmeisterschaft" in screen

    # The PDFs: the team ranking with its prizes, on its own and on the prize list with the side rankings.
    captured: dict[str, str] = {}

    def fake(template: str, context: Mapping[str, Any], stem: str) -> Any:
        from django.template.loader import render_to_string

        captured[template] = text_of(render_to_string(template, {**context, "printed_at": None}))
        return None

    monkeypatch.setattr(printouts, "_pdf", fake)
    printouts.KINDS["teams"](t)
    printouts.KINDS["prizes"](t)
    for printed in (captured["tournaments/print/teams.html"], captured["tournaments/print/prizes.html"]):
        assert in_order(printed, [name.replace("&", "&amp;") for name, _v in pairs])
        for (name, total), prize in zip(pairs, ["Korb", "Wein"], strict=False):
            assert re.search(
                rf"{re.escape(name.replace('&', '&amp;'))} .*? {total} {prize}",
                printed.replace("\u2212", "-"),
            )
    prizes = captured["tournaments/print/prizes.html"]
    assert in_order(prizes[prizes.index("Damenwertung") :], damen)
    assert in_order(prizes[prizes.index("Stadtmeisterschaft") :], home)
