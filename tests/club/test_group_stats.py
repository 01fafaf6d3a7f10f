"""Statistics across a group's evenings, against numbers worked out by hand, and
that they keep their meaning when hands are corrected or deleted."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from club.chart import running_totals_svg
from club.models import BookingLine, EveningResult, Group
from club.services import groups, stats
from scoring import services
from scoring.engine import read_session, score_session
from scoring.models import Hand
from scoring.sheet import build_sheet
from tests.club.regular_table import evening, player
from tests.engine.support import FIXTURES

DAY = date(2026, 3, 3)


@pytest.fixture
def group(user):
    return groups.group_create(owner=user, name="Dienstag")


def game_of(found: stats.PlayerStats, key: str) -> stats.GameStats:
    return next(game for game in found.games if game.variant.key == key)


def role(game: stats.GameStats, name: str) -> stats.Role:
    return next(r for r in game.roles if r.role == f"role.{name}")


def by_kind(found: stats.Role) -> dict[str, tuple[int, int]]:
    return {row.kind: (row.times, row.won) for row in found.by_kind}


# Two French evenings. Worked out by hand (docs/rules.md §1.3, 1.4):
#  1. Anna garde, 2 bouts, 56: (25 + 15) × 2 = 80: Anna +240, the others −80.
#  2. Bert prise, 1 bout, 40, petit au bout to the defence: −(25 + 11) − 10 = −46:
#     Bert −138, the others +46.
#  3. a redeal.
#  Evening 2: Anna garde sans, 3 bouts, 40, her poignée simple: (25 + 4) × 4 + 20 = 136:
#     Anna +408, the others −136.
FIRST: list[dict[str, Any]] = [
    {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56},
    {"taker": "Bert", "contract": "prise", "bouts": 1, "points": 40, "petit_au_bout": "defence"},
    {"type": "redeal"},
]
SECOND: list[dict[str, Any]] = [
    {
        "dealer": "Dora",
        "taker": "Anna",
        "contract": "garde_sans",
        "bouts": 3,
        "points": 40,
        "poignees": [{"player": "Anna", "size": "simple"}],
    }
]


@pytest.fixture
def french(group, user):
    first = evening(group, user, FIRST, played_on=DAY, name="März")
    second = evening(group, user, SECOND, played_on=date(2026, 3, 10), name="Zweiter")
    return first, second


def stats_page(group: Group, name: str, variant: str) -> str:
    """One game's section of a player's statistics as the page draws it."""
    with translation.override("en"):
        html = render_to_string(
            "groups/_player_stats.html", {"stats": stats.player_stats(player(group, name))}
        )
    return html.split(f'id="game-{variant}"')[1].split("</section>")[0]


class TestFrenchPlayer:
    def test_a_players_evenings_hands_totals_and_averages(self, group, french):
        anna = stats.player_stats(player(group, "Anna"))
        assert (anna.evenings, anna.hands, anna.money) == (2, 3, None)
        game = game_of(anna, "french")
        assert (game.evenings, game.evenings_won, game.hands, game.redeals) == (2, 2, 3, 1)
        assert game.total == 694  # 240 + 46 + 408
        assert game.per_hand == Decimal("231.3") and game.per_evening == 347
        assert game.best is not None and game.best.points == 408 and game.worst is None

    def test_as_taker_by_contract_with_the_win_rate_and_what_was_made(self, group, french):
        anna = game_of(stats.player_stats(player(group, "Anna")), "french")
        taker = role(anna, "taker")
        assert (taker.times, taker.won, taker.rate) == (2, 2, 100)
        assert by_kind(taker) == {"kind.garde": (1, 1), "kind.garde_sans": (1, 1)}
        assert by_kind(role(anna, "defender")) == {"kind.prise": (1, 1)}  # Bert lost: the defence won
        assert dict(anna.marks) == {"mark.petit_au_bout": 1, "mark.poignee.simple": 1}
        assert dict(anna.kinds) == {"kind.prise": 1, "kind.garde": 1, "kind.garde_sans": 1}

        bert = game_of(stats.player_stats(player(group, "Bert")), "french")
        assert (role(bert, "taker").times, role(bert, "taker").rate) == (1, 0)
        assert bert.total == -354 and bert.worst is not None and bert.worst.points == -138
        assert bert.evenings_won == 0

    def test_the_running_total_chart_has_a_point_per_evening(self, group, french):
        with translation.override("de"):  # each game named in the reader's language
            chart = running_totals_svg(stats.player_stats(player(group, "Anna")).running, "Running")
        assert chart.startswith("<svg") and 'data-player="Französisches Tarock"' in chart
        assert ">Französisches Tarock 694</text>" in chart  # the label at the end: the running total

    def test_the_statistics_return_the_running_totals_as_values_and_draw_nothing(self, group, french):
        anna = stats.player_stats(player(group, "Anna"))
        assert anna.running is not None
        assert [variant.key for variant in anna.running.games] == ["french"]
        assert anna.running.totals[-1] == (694,) and len(anna.running.totals) == 2  # a value per evening
        drawn = [
            name
            for name, value in vars(anna).items()
            if isinstance(value, str) or "svg" in name or "chart" in name
        ]
        assert drawn == []
        assert (
            stats.player_stats(groups.roster_player(group, "Erna")).running is None
        )  # no evening, no series

    def test_a_corrected_hand_and_a_deleted_hand_change_the_statistics_at_once(self, group, user, french):
        (_, first_hands), (_, second_hands) = french
        # Bert's prise corrected: won with 55 and no petit au bout: (25 + 4) = 29.
        corrected = {"dealer": "Anna", "taker": "Bert", "contract": "prise", "bouts": 1, "points": 55}
        services.hand_edit(hand=first_hands[1], raw=corrected, user=user)
        anna = game_of(stats.player_stats(player(group, "Anna")), "french")
        assert anna.total == 240 - 29 + 408
        assert dict(anna.marks) == {"mark.poignee.simple": 1}
        assert by_kind(role(anna, "defender")) == {"kind.prise": (1, 0)}
        bert = game_of(stats.player_stats(player(group, "Bert")), "french")
        assert role(bert, "taker").won == 1

        services.hand_delete(hand=second_hands[0], user=user)
        anna = game_of(stats.player_stats(player(group, "Anna")), "french")
        assert (anna.evenings, anna.hands, anna.total, anna.evenings_won) == (2, 2, 211, 1)
        assert by_kind(role(anna, "taker")) == {"kind.garde": (1, 1)}
        services.hand_restore(hand=second_hands[0], user=user)
        assert game_of(stats.player_stats(player(group, "Anna")), "french").total == 619

    def test_statistics_are_read_from_the_snapshots_not_scored_again(self, group, user, french):
        (_, first_hands), _ = french
        # A stored snapshot that today's engine would not write: the rows follow the snapshot.
        Hand.objects.filter(pk=first_hands[0].pk).update(
            deltas={"Anna": 999, "Bert": -333, "Carl": -333, "Dora": -333}
        )
        services.hand_delete(hand=first_hands[2], user=user)  # any change writes the evening's rows again
        anna = game_of(stats.player_stats(player(group, "Anna")), "french")
        assert anna.total == 999 + 46 + 408


class TestSeasonTable:
    def test_players_ranked_by_total_with_hands_averages_and_evening_winners(self, group, french):
        table = stats.season_table(group, stats.season_range(group, "2026"))
        [french_table] = table.games
        rows = [(r.name, r.total, r.hands, r.evenings_won) for r in french_table.rows]
        assert rows == [("Anna", 694, 3, 2), ("Carl", -170, 3, 0), ("Dora", -170, 3, 0), ("Bert", -354, 3, 0)]
        assert [(w.name, w.winners) for w in table.winners] == [("März", ("Anna",)), ("Zweiter", ("Anna",))]
        assert french_table.by_average == ()  # nobody has the default 30 hands

    def test_the_ranking_by_average_needs_the_groups_minimum_of_hands(self, group, french):
        groups.group_update(group=group, name=group.name, money_rate=None, min_hands=3)
        [game] = stats.season_table(group, stats.season_range(group, "2026")).games
        assert [(r.name, r.per_hand) for r in game.by_average] == [
            ("Anna", Decimal("231.3")),
            ("Carl", Decimal("-56.7")),
            ("Dora", Decimal("-56.7")),
            ("Bert", Decimal("-118.0")),
        ]
        groups.group_update(group=group, name=group.name, money_rate=None, min_hands=4)
        assert stats.season_table(group, stats.season_range(group, "2026")).games[0].by_average == ()

    def test_a_named_season_counts_only_its_days(self, group, french):
        season = groups.season_create(group=group, name="Fasching", starts_on=DAY, ends_on=DAY)
        [game] = stats.season_table(group, stats.season_range(group, f"s{season.pk}")).games
        assert [(r.name, r.total) for r in game.rows] == [
            ("Anna", 286),
            ("Carl", -34),
            ("Dora", -34),
            ("Bert", -218),
        ]
        assert stats.season_table(group, stats.season_range(group, "2025")).games == ()

    def test_the_page_states_the_minimum_and_a_season_that_does_not_exist_is_not_found(
        self, logged_in, group, french
    ):
        page = logged_in.get(reverse("season_table", args=[group.pk, "2026"])).content.decode()
        assert "at least 30 hands" in page and 'id="table-french"' in page and "Anna" in page
        for key in ("26", "s99999", "s", "x2026", "0000"):
            assert logged_in.get(reverse("season_table", args=[group.pk, key])).status_code == 404

    def test_a_season_needs_its_last_day_after_its_first(self, logged_in, group):
        response = logged_in.post(
            reverse("season_new", args=[group.pk]),
            {"name": "X", "starts_on": "2026-05-01", "ends_on": "2026-04-01"},
        )
        assert response.status_code == 400 and 'id="id_ends_on-error"' in response.content.decode()
        assert not group.seasons.exists()


class TestIllustrated:
    # Series to 30, Trischaken when everyone passes, 0.10 a point. Worked out by hand:
    #  1. Anna's Zweiblatt, announced, 44 points, her silent Pagat: (3 + 9) × 2 = 24, Pagat
    #     5 × 2 = 10: Anna 34, which ends series 1 with her bonus of 10.
    #  2. Trischaken: Anna 30 (most: −10), Bert 0 (no trick: +10), Carl 25 (+5).
    #  Net (pair by pair, series by series): series 1 {44, 0, 0}: 88, −44, −44;
    #  series 2 {−10, 10, 5}: −35, 25, 10. Balance: 53, −19, −34; money at 0.10:
    #  5.30, −1.90, −3.40. (The block's sums, 34, 10 and 5, are not what is paid.)
    HANDS: list[dict[str, Any]] = [
        {
            "dealer": "Carl",
            "declarer": "Anna",
            "game": "zweiblatt",
            "bid": "announced",
            "points": 44,
            "premiums": [{"type": "pagat", "player": "Anna"}],
        },
        {"type": "trischaken", "points": {"Anna": 30, "Bert": 0, "Carl": 25}, "no_trick": ["Bert"]},
    ]

    def test_games_by_type_series_won_and_trischaken_lost(self, group, user):
        evening(
            group,
            user,
            self.HANDS,
            variant="illustrated",
            players=("Anna", "Bert", "Carl"),
            options={"all_pass": "trischaken", "series_target": 30},
            money_rate=Decimal("0.10"),
        )
        anna = stats.player_stats(player(group, "Anna"))
        game = game_of(anna, "illustrated")
        assert (game.total, game.hands, game.evenings_won) == (53, 2, 1)
        # A hand wins or loses what it moved the balance: the series' end +88, the Trischaken −35.
        assert game.best is not None and game.best.points == 88
        assert game.worst is not None and game.worst.points == -35
        assert (game.sections_played, game.sections_won) == (1, 1)
        assert by_kind(role(game, "declarer")) == {"kind.zweiblatt": (1, 1)}
        assert dict(game.kinds) == {"kind.zweiblatt": 1, "kind.trischaken": 1}
        assert dict(game.marks) == {"mark.pagat": 1, "mark.trischaken_lost": 1}
        assert anna.money == Decimal("5.30")
        page = stats_page(group, "Anna", "illustrated")
        assert "<dt>Series won</dt><dd>1 / 1</dd>" in page and "Parties won" not in page
        bert = game_of(stats.player_stats(player(group, "Bert")), "illustrated")
        assert dict(bert.marks) == {"mark.no_trick": 1} and bert.total == -19
        assert by_kind(role(bert, "opponent")) == {"kind.zweiblatt": (1, 0)}
        [table] = stats.season_table(group, stats.season_range(group, None)).games
        assert [(r.name, r.money) for r in table.rows] == [
            ("Anna", Decimal("5.30")),
            ("Bert", Decimal("-1.90")),
            ("Carl", Decimal("-3.40")),
        ]


class TestChambery:
    # Four players, call or solo. Worked out by hand (docs/rules.md §3.2; 72 points, tie 36):
    #  1. Dora deals and calls Bert, 40 points: won by 4: Dora and Bert +4, Anna and Carl −4.
    #  2. Anna deals, Carl's solo à point with 30: lost by 6, doubled twice: 24;
    #     Carl −72, the others +24.
    HANDS: list[dict[str, Any]] = [
        {"dealer": "Dora", "mode": "call", "partner": "Bert", "points": 40},
        {"dealer": "Anna", "mode": "solo", "soloist": "Carl", "cards_requested": 0, "points": 30},
    ]

    def test_modes_solos_and_a_shared_evening_win(self, group, user):
        evening(group, user, self.HANDS, variant="chambery")
        carl = game_of(stats.player_stats(player(group, "Carl")), "chambery")
        assert carl.total == -76 and carl.worst is not None and carl.worst.points == -72
        assert by_kind(role(carl, "soloist")) == {"kind.solo": (1, 0)}
        assert by_kind(role(carl, "opponent")) == {"kind.call": (1, 0)}
        assert dict(carl.marks) == {"mark.solo.0": 1}
        assert carl.sections_played == 0  # not everyone has dealt yet: no Partie complete
        page = stats_page(group, "Carl", "chambery")
        assert "<dt>Parties won</dt><dd>0 / 0</dd>" in page and "Series won" not in page
        dora = game_of(stats.player_stats(player(group, "Dora")), "chambery")
        assert by_kind(role(dora, "declarer")) == {"kind.call": (1, 1)}
        [table] = stats.season_table(group, stats.season_range(group, None)).games
        assert [(r.name, r.total) for r in table.rows] == [
            ("Bert", 28),
            ("Dora", 28),
            ("Anna", 20),
            ("Carl", -76),
        ]
        [winners] = stats.season_table(group, stats.season_range(group, None)).winners
        assert winners.winners == ("Bert", "Dora")


class TestTheSettlementsPoints:
    """Every number of the statistics is the evening's balance, what its settlement
    pays, never the sums the Illustriertes block writes (docs/rules.md §2.9)."""

    # Illustriertes at 0.10 a point, series to 100 (none ends), Trischaken when all pass.
    #  Evening 1 (Anna, Bert, Carl): Anna's Zweiblatt, announced, 44 points, her silent
    #    Pagat: (3 + 9) × 2 + 5 × 2 = 34. Block {34, 0, 0}; balance (3·s − Σs)
    #    {68, −34, −34}; money 6.80, −3.40, −3.40.
    #  Evening 2 (Dora, Bert, Carl): two Trischaken, Bert and Carl tied with 30 points
    #    (both lose −10), Dora without a trick (+5 +5). Block {20, −20, −20}; balance
    #    {80, −40, −40}; money 8.00, −4.00, −4.00.
    # By the block Anna (34) would lead Dora (20); by what is paid Dora (80) leads Anna (68).
    ZWEIBLATT: dict[str, Any] = TestIllustrated.HANDS[0]
    TRISCHAKEN: dict[str, Any] = {
        "type": "trischaken",
        "points": {"Dora": 0, "Bert": 30, "Carl": 30},
        "no_trick": ["Dora"],
    }
    RATE = Decimal("0.10")

    @pytest.fixture
    def evenings(self, group, user):
        options = {"all_pass": "trischaken"}
        first = evening(
            group,
            user,
            [self.ZWEIBLATT],
            variant="illustrated",
            players=("Anna", "Bert", "Carl"),
            options=options,
            money_rate=self.RATE,
            played_on=DAY,
            name="Erster",
        )
        second = evening(
            group,
            user,
            [{**self.TRISCHAKEN, "dealer": "Carl"}, self.TRISCHAKEN],
            variant="illustrated",
            players=("Dora", "Bert", "Carl"),
            options=options,
            money_rate=self.RATE,
            played_on=date(2026, 3, 10),
            name="Zweiter",
        )
        return first[0], second[0]

    def test_each_evening_counts_each_players_balance_as_the_sheet_and_the_kasse_pay_it(
        self, group, user, evenings
    ):
        for session in evenings:
            sheet = build_sheet(session)
            [balance] = sheet.closing_rows()
            paid = dict(zip(sheet.players, balance.values, strict=True))
            rows = EveningResult.objects.filter(session=session).select_related("player")
            assert {row.player.name: row.total for row in rows} == paid
            assert {row.player.name: row.money for row in rows} == sheet.settlement.money
            assert sum(row.total for row in rows) == 0
            services.session_close(session=session, user=user)
            booked = BookingLine.objects.filter(booking__session=session).select_related("player")
            assert {line.player.name: line.amount for line in booked} == sheet.settlement.money

    def test_the_player_page_counts_what_is_paid(self, group, evenings):
        anna = game_of(stats.player_stats(player(group, "Anna")), "illustrated")
        assert (anna.total, anna.per_evening, anna.per_hand) == (68, 68, 68)
        bert = stats.player_stats(player(group, "Bert"))
        game = game_of(bert, "illustrated")
        assert (game.evenings, game.hands, game.total, game.per_evening) == (2, 3, -74, -37)
        assert bert.money == Decimal("-7.40") == game.total * self.RATE
        assert game.worst is not None and game.worst.points == -34  # Anna's Zweiblatt cost him 34
        with translation.override("de"):
            chart = running_totals_svg(stats.player_stats(player(group, "Dora")).running, "Running")
        assert ">Illustriertes Tarock 80</text>" in chart  # the label at the end: the running total

    def test_the_season_table_ranks_by_what_is_paid_and_names_the_evening_winners_with_it(
        self, group, evenings
    ):
        table = stats.season_table(group, stats.season_range(group, "2026"))
        [game] = table.games
        assert [(r.name, r.total, r.money) for r in game.rows] == [
            ("Dora", 80, Decimal("8.00")),
            ("Anna", 68, Decimal("6.80")),
            ("Bert", -74, Decimal("-7.40")),
            ("Carl", -74, Decimal("-7.40")),
        ]
        assert [(w.name, w.winners, w.total) for w in table.winners] == [
            ("Erster", ("Anna",), 68),
            ("Zweiter", ("Dora",), 80),
        ]

    def test_a_corrected_or_deleted_hand_keeps_statistics_sheet_and_kasse_in_agreement(self, group, user):
        session, hands = evening(
            group,
            user,
            TestIllustrated.HANDS,
            variant="illustrated",
            players=("Anna", "Bert", "Carl"),
            options={"all_pass": "trischaken", "series_target": 30},
            money_rate=self.RATE,
        )

        def agree() -> dict[str, Decimal]:
            sheet = build_sheet(session)
            rows = EveningResult.objects.filter(session=session).select_related("player")
            totals = {row.player.name: row.total for row in rows}
            assert totals == sheet.settlement.net and sum(totals.values()) == 0
            assert {row.player.name: row.money for row in rows} == sheet.settlement.money
            return totals

        assert agree() == {"Anna": 53, "Bert": -19, "Carl": -34}
        # Anna's Zweiblatt with 30 points: lost, the series no longer ends there.
        services.hand_edit(hand=hands[0], raw={**TestIllustrated.HANDS[0], "points": 30}, user=user)
        assert agree()["Anna"] < 0
        services.hand_delete(hand=hands[1], user=user)
        after_delete = agree()
        services.session_close(session=session, user=user)
        booked = BookingLine.objects.filter(booking__session=session).select_related("player")
        assert {line.player.name: line.amount for line in booked} == {
            name: total * self.RATE for name, total in after_delete.items()
        }
        services.session_reopen(session=session, user=user)
        services.hand_restore(hand=hands[1], user=user)
        agree()

    @pytest.mark.parametrize(
        ("variant", "players", "hands"),
        [
            ("french", ("Anna", "Bert", "Carl", "Dora"), FIRST),
            ("illustrated", ("Anna", "Bert", "Carl"), TestIllustrated.HANDS),
            ("chambery", ("Anna", "Bert", "Carl", "Dora"), TestChambery.HANDS),
        ],
    )
    def test_in_every_game_the_rows_sum_to_zero_and_match_the_settlement(
        self, group, user, variant, players, hands
    ):
        options = {"all_pass": "trischaken", "series_target": 30} if variant == "illustrated" else {}
        session, _ = evening(
            group, user, hands, variant=variant, players=players, options=options, money_rate=self.RATE
        )
        sheet = build_sheet(session)
        rows = {
            r.player.name: r for r in EveningResult.objects.filter(session=session).select_related("player")
        }
        assert {name: row.total for name, row in rows.items()} == sheet.settlement.net
        assert {name: row.money for name, row in rows.items()} == sheet.settlement.money
        assert sum(row.total for row in rows.values()) == 0


class TestPages:
    def test_the_player_page_and_its_statement(self, logged_in, group, french):
        anna = player(group, "Anna")
        page = logged_in.get(reverse("group_player", args=[group.pk, anna.pk]))
        html = page.content.decode()
        assert page.status_code == 200 and 'id="game-french"' in html and "Garde sans" in html
        assert "<svg" in html and "231.3" in html
        pdf = logged_in.get(reverse("group_player_pdf", args=[group.pk, anna.pk]))
        assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
        season = logged_in.get(reverse("season_pdf", args=[group.pk, "2026"]))
        assert season["Content-Type"] == "application/pdf" and season.content.startswith(b"%PDF")

    def test_the_cached_pages_show_a_correction_and_a_new_season_at_once(
        self, logged_in, group, user, french
    ):
        (_, first_hands), _ = french
        anna = player(group, "Anna")
        page = reverse("group_player", args=[group.pk, anna.pk])
        table = reverse("season_table", args=[group.pk, "2026"])
        assert "+694" in logged_in.get(page).content.decode()
        assert "+694" in logged_in.get(table).content.decode()
        corrected = {"dealer": "Anna", "taker": "Bert", "contract": "prise", "bouts": 1, "points": 55}
        services.hand_edit(hand=first_hands[1], raw=corrected, user=user)
        assert "+619" in logged_in.get(page).content.decode()
        assert "+619" in logged_in.get(table).content.decode()
        groups.season_create(group=group, name="Fasching", starts_on=DAY, ends_on=DAY)
        assert "Fasching" in logged_in.get(table).content.decode()

    def test_the_pages_cost_the_same_number_of_queries_however_many_evenings(self, logged_in, group, user):
        def queries(url: str) -> int:
            with CaptureQueriesContext(connection) as captured:
                assert logged_in.get(url).status_code == 200
            return len(captured.captured_queries)

        evening(group, user, FIRST)
        anna = player(group, "Anna")
        urls = [reverse("group_player", args=[group.pk, anna.pk]), reverse("season_table", args=[group.pk])]
        before = [queries(url) for url in urls]
        for _ in range(4):
            evening(group, user, FIRST + SECOND)
        assert [queries(url) for url in urls] == before
        assert max(before) <= 15
        assert EveningResult.objects.filter(player=anna).count() == 5


def test_a_deleted_evening_leaves_the_statistics_and_a_restored_one_comes_back(user, group):
    garde = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}  # Anna +240
    session, _hands = evening(group, user, [garde])
    assert EveningResult.objects.filter(session=session).count() == 4
    services.session_delete(session=session, user=user)
    assert not EveningResult.objects.filter(session=session).exists()
    services.session_restore(session=session, user=user)
    assert EveningResult.objects.get(session=session, player=player(group, "Anna")).total == 240


class TestKoenigrufen:
    """The three worked Königrufen sessions (tests/fixtures/koenigrufen-*.json) brought into
    the group through the services: the 16 settlements, the nine Trischaken results and the
    seven Renonce examples (docs/rules.md §4.17). Anna declares every hand."""

    FILES = (
        "koenigrufen-ooe-settlements.json",
        "koenigrufen-ooe-trischaken.json",
        "koenigrufen-ooe-renonce.json",
    )

    @pytest.fixture
    def evenings(self, group, user):
        for name in self.FILES:
            session = services.session_import(owner=user, text=(FIXTURES / name).read_text(encoding="utf-8"))
            groups.group_session_add(group=group, session=session, user=user)

    def test_declarer_and_partner_rates_by_game(self, group, evenings):
        anna = game_of(stats.player_stats(player(group, "Anna")), "koenigrufen")
        assert (anna.evenings, anna.hands) == (3, 32)
        declarer = role(anna, "declarer")
        # Conceded (a king in the talon) and a Renonce of her own are lost; Bert's Renonce wins her Dreier.
        assert by_kind(declarer) == {
            "kind.rufer": (2, 2),
            "kind.piccolo": (1, 1),
            "kind.solorufer": (2, 1),
            "kind.besserrufer": (4, 2),
            "kind.sechserdreier": (4, 1),
            "kind.dreier": (5, 3),
            "kind.farbensolo": (1, 1),
            "kind.bettel_ouvert": (1, 0),
        }
        assert (declarer.times, declarer.won, declarer.rate) == (20, 11, 55)
        bert = game_of(stats.player_stats(player(group, "Bert")), "koenigrufen")
        partner = role(bert, "partner")
        assert by_kind(partner) == {
            "kind.rufer": (2, 2),
            "kind.solorufer": (1, 0),
            "kind.besserrufer": (2, 2),
        }
        assert (partner.times, partner.won, partner.rate) == (5, 4, 80)
        assert role(bert, "opponent").times == 15
        carl = game_of(stats.player_stats(player(group, "Carl")), "koenigrufen")
        assert by_kind(role(carl, "partner")) == {"kind.besserrufer": (1, 0)}  # Anna's Renonce
        # Every hand that is not a Trischaken has a declarer: 20 hands, 12 Trischaken.
        assert dict(anna.kinds)["kind.trischaken"] == 12
        assert sum(n for key, n in anna.kinds if key != "kind.trischaken") == 20

    def test_premiums_made_and_failed_valats_and_trischaken(self, group, evenings):
        marks = {
            name: dict(game_of(stats.player_stats(player(group, name)), "koenigrufen").marks)
            for name in ("Anna", "Bert", "Carl", "Dora")
        }
        # Pagat: Anna's announced one with Bert (hand 2), her silent one beside the Valat (10) and
        # her announced one in the Dreier (11); the opponents' silent one (4).
        assert [marks[name].get("mark.pagat") for name in marks] == [3, 2, 1, 1]
        # The Uhu Anna and Bert announced and lost (hand 9).
        assert [marks[name].get("mark.premium_failed") for name in marks] == [1, 1, None, None]
        # Valats made: Anna's silent one (10), Anna's and Bert's announced one (13), the
        # opponents' silent one (12); Anna's announced one failed (11).
        assert [marks[name].get("mark.valat") for name in marks] == [2, 2, 1, 1]
        assert [marks[name].get("mark.valat_failed") for name in marks] == [1, None, None, None]
        # Trischaken: Anna loses alone where she ties for the most (2, 7); tied losers each lose.
        assert [marks[name].get("mark.trischaken_lost") for name in marks] == [2, 7, 3, 1]
        # Bürgermeister: Anna 36/0, Bert 35/2 and 36/2.
        assert [marks[name].get("mark.buergermeister") for name in marks] == [1, 2, None, None]
        # Jungfrau: no trick at all.
        assert [marks[name].get("mark.jungfrau") for name in marks] == [3, None, None, 4]
        assert [marks[name].get("mark.renonce") for name in marks] == [3, 4, 1, None]

    def test_the_player_page_and_the_season_table_show_them(self, group, evenings):
        with translation.override("de"):
            html = render_to_string(
                "groups/_player_stats.html", {"stats": stats.player_stats(player(group, "Anna"))}
            )
        page = html.split('id="game-koenigrufen"')[1].split("</section>")[0]
        assert "<h2>Königrufen</h2>" in page
        assert "<h3>Spieler: 20 Mal</h3>" in page
        assert (
            '<th scope="row">Besserrufer</th><td class="r">4</td><td class="r">2</td><td class="r">50' in page
        )
        for label, n in [
            ("Valat", 2),
            ("Valat verloren", 1),
            ("Prämie verloren", 1),
            ("Trischaken verloren", 2),
            ("Bürgermeister", 1),
            ("Jungfrau", 3),
        ]:
            assert f"<li>{label}: <strong>{n}</strong></li>" in page
        # The season table ranks by the Schrift, as the sheets total it.
        sheets: dict[str, Fraction] = {}
        for name in self.FILES:
            result = score_session(read_session((FIXTURES / name).read_text(encoding="utf-8")))
            for who, total in result.summary.totals.items():
                sheets[who] = sheets.get(who, Fraction(0)) + total
        [game] = stats.season_table(group, stats.season_range(group, None)).games
        assert game.variant.key == "koenigrufen"
        assert [(r.name, r.total, r.hands) for r in game.rows] == [
            ("Dora", 92, 32),
            ("Carl", 70, 32),
            ("Bert", -21, 32),
            ("Anna", -141, 32),
        ]
        assert {r.name: r.total for r in game.rows} == sheets

    def test_at_five_the_dealer_sitting_out_plays_no_hand(self, group, user):
        five = ("Anna", "Bert", "Carl", "Dora", "Emil")
        hands: list[dict[str, Any]] = [
            {"dealer": "Emil", "declarer": "Anna", "game": "rufer", "partner": "Bert", "points": "40"},
            {"declarer": "Emil", "game": "dreier", "points": "40"},
            {
                "declarer": "Anna",
                "game": "trischaken",
                "points": {"Anna": "20", "Carl": "30/1", "Dora": "19/2", "Emil": "0"},
            },
        ]
        evening(group, user, hands, variant="koenigrufen", players=five)
        emil = game_of(stats.player_stats(player(group, "Emil")), "koenigrufen")
        assert (emil.hands, emil.total) == (2, 12 + 3)  # his Dreier won, 4 from each; a Jungfrau paid 3
        assert by_kind(role(emil, "declarer")) == {"kind.dreier": (1, 1)}
        assert [r.role for r in emil.roles] == ["role.declarer"]  # sitting out is no part he had
        assert dict(emil.marks) == {"mark.jungfrau": 1}
        bert = game_of(stats.player_stats(player(group, "Bert")), "koenigrufen")
        # Bert dealt the Trischaken: it is not among his games.
        assert bert.hands == 2 and dict(bert.kinds) == {"kind.rufer": 1, "kind.dreier": 1}
        carl = game_of(stats.player_stats(player(group, "Carl")), "koenigrufen")
        assert carl.hands == 3 and dict(carl.marks) == {"mark.trischaken_lost": 1}
