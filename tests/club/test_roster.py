"""The roster kept tidy: players hidden (kept for history) and merged (a misspelt
name folded into the right one); the invitation link copied and shared; the
Kasse's currency and its bookings as CSV; labels saying which evenings a figure counts."""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from club.models import Booking, BookingLine, EveningResult, Group, GroupPlayer, Membership, RosterChange
from club.services import groups, kasse, stats
from scoring import services
from scoring.engine import InvalidInput
from scoring.models import Seat, Session
from tests.club.regular_table import evening, player

# Anna's garde, 2 bouts, 56 points: Anna +240, the others −80 each.
GARDE = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
# Bert's garde, 2 bouts, 56 points: Bert +240, the others −80 each.
BERTS = {"dealer": "Anna", "taker": "Bert", "contract": "garde", "bouts": 2, "points": 56}
RATE = Decimal("0.05")
MISSPELT = ("Ana", "Bert", "Carl", "Dora")


@pytest.fixture
def group(user: User) -> Group:
    return groups.group_create(owner=user, name="Dienstag", money_rate=RATE)


def closed(group: Group, user: User, hands: list[dict[str, Any]], **kwargs: Any) -> None:
    session, _ = evening(group, user, hands, money_rate=RATE, **kwargs)
    services.session_close(session=session, user=user)


def two_evenings(group: Group, user: User, second: tuple[str, ...]) -> None:
    """Anna wins the first evening; the second she wins under the name ``second[0]``;
    then Bert pays her 2.00 under that name."""
    closed(group, user, [GARDE, BERTS])
    taker = second[0]
    closed(group, user, [{**GARDE, "taker": taker}], players=second, name="Donnerstag")
    kasse.payment_record(
        group=group,
        payer=player(group, "Bert"),
        payee=player(group, taker),
        amount=Decimal("2.00"),
        user=user,
    )


def balances(group: Group) -> dict[str, Decimal]:
    return {b.player.name if b.player else "box": b.amount for b in kasse.kasse_of(group).balances}


def table(group: Group) -> list[tuple[Any, ...]]:
    chosen = stats.season_table(group, stats.season_range(group, None))
    return [
        (row.name, row.evenings, row.evenings_won, row.hands, row.total, row.money)
        for game in chosen.games
        for row in game.rows
    ]


def figures(found: stats.PlayerStats) -> tuple[Any, ...]:
    games = tuple(
        (g.evenings, g.evenings_won, g.hands, g.hands_won, g.total, g.money, g.roles, g.kinds, g.marks)
        for g in found.games
    )
    recent = tuple((e.hands, e.total, e.money, e.won) for e in found.recent)
    return (found.evenings, found.hands, found.money, games, recent)


def stored(group: Group) -> tuple[Any, ...]:
    """What a refused change must leave as it was."""
    return (
        sorted(
            Seat.objects.filter(session__group_link__group=group).values_list("pk", "roster_link__player_id")
        ),
        sorted(EveningResult.objects.filter(group=group).values_list("pk", "player_id")),
        sorted(BookingLine.objects.filter(group=group).values_list("pk", "player_id", "amount")),
        sorted(GroupPlayer.objects.filter(group=group).values_list("pk", "name", "user_id", "hidden_at")),
        RosterChange.objects.filter(group=group).count(),
        Booking.objects.filter(group=group).count(),
        Group.objects.get(pk=group.pk).version,
    )


def member(group: Group, name: str = "bert") -> User:
    account = User.objects.create_user(name, password="a-long-test-password")
    Membership.objects.create(group=group, user=account, role=Membership.Role.MEMBER)
    return account


def roster_post(client: Client, group: Group, **data: Any) -> Any:
    return client.post(reverse("group_roster", args=[group.pk]), data)


class TestMerge:
    def test_after_a_merge_the_kasse_and_statistics_read_as_if_the_name_had_been_right(self, user):
        right = groups.group_create(owner=user, name="Richtig", money_rate=RATE)
        two_evenings(right, user, ("Anna", "Bert", "Carl", "Dora"))
        typo = groups.group_create(owner=user, name="Vertippt", money_rate=RATE)
        two_evenings(typo, user, MISSPELT)
        ana, anna = player(typo, "Ana"), player(typo, "Anna")
        assert balances(typo) != balances(right)

        groups.roster_merge(group=typo, player_id=ana.pk, into_id=anna.pk, user=user)

        assert not GroupPlayer.objects.filter(pk=ana.pk).exists()
        assert balances(typo) == balances(right)
        assert table(typo) == table(right)
        assert figures(stats.player_stats(anna)) == figures(stats.player_stats(player(right, "Anna")))
        assert set(
            Seat.objects.filter(session__group_link__group=typo, position=0).values_list(
                "roster_link__player_id", flat=True
            )
        ) == {anna.pk}
        assert EveningResult.objects.filter(player=anna).count() == 2
        assert BookingLine.objects.filter(player=anna).count() == 3  # two evenings and the payment
        # The Kasse keeps its history: nothing reversed, nothing booked anew.
        assert Booking.objects.filter(group=typo).count() == Booking.objects.filter(group=right).count() == 3
        change = RosterChange.objects.get(group=typo)
        assert (change.action, change.name, change.into, change.user) == ("merge", "Ana", anna, user)

    def test_a_later_change_to_a_merged_evening_keeps_it_with_the_right_player(self, group, user):
        closed(group, user, [GARDE])
        session, _ = evening(group, user, [{**GARDE, "taker": "Ana"}], players=MISSPELT, money_rate=RATE)
        services.session_close(session=session, user=user)
        groups.roster_merge(
            group=group, player_id=player(group, "Ana").pk, into_id=player(group, "Anna").pk, user=user
        )
        before = balances(group)
        services.session_reopen(session=session, user=user)
        services.session_close(session=session, user=user)
        assert (
            balances(group)
            == before
            == {
                "Anna": Decimal("24.00"),
                "Bert": Decimal("-8.00"),
                "Carl": Decimal("-8.00"),
                "Dora": Decimal("-8.00"),
                "box": Decimal("0.00"),
            }
        )
        assert EveningResult.objects.filter(session=session, player__name="Anna").exists()

    def test_the_account_link_follows_the_merged_player(self, group, user):
        evening(group, user, [], players=MISSPELT)
        groups.roster_link(player=player(group, "Ana"), user_id=user.pk)
        anna = groups.roster_add(group=group, name="Anna")
        groups.roster_merge(group=group, player_id=player(group, "Ana").pk, into_id=anna.pk, user=user)
        assert player(group, "Anna").user_id == user.pk

    def test_two_players_of_the_same_evening_are_not_merged_and_nothing_is_written(self, group, user):
        closed(group, user, [GARDE], name="Dienstag")
        before = stored(group)
        with pytest.raises(InvalidInput) as refused:
            groups.roster_merge(
                group=group, player_id=player(group, "Bert").pk, into_id=player(group, "Anna").pk, user=user
            )
        assert refused.value.field == "into"
        assert refused.value.line.args["evening"] == "Dienstag"
        assert stored(group) == before

    def test_the_page_names_the_evening_that_stops_a_merge(self, group, user, logged_in):
        closed(group, user, [GARDE], name="Dienstag")
        before = stored(group)
        response = roster_post(
            logged_in, group, action="merge", player=player(group, "Bert").pk, into=player(group, "Anna").pk
        )
        assert response.status_code == 302
        page = logged_in.get(response["Location"]).content.decode()
        assert "Bert and Anna both sat at the evening “Dienstag”" in page
        assert stored(group) == before

    def test_players_linked_to_two_accounts_or_a_player_into_itself_are_refused(self, group, user):
        evening(group, user, [], players=MISSPELT)
        anna = groups.roster_add(group=group, name="Anna")
        other = member(group)
        groups.roster_link(player=player(group, "Ana"), user_id=user.pk)
        groups.roster_link(player=anna, user_id=other.pk)
        before = stored(group)
        for source, target in ((player(group, "Ana"), anna), (anna, anna)):
            with pytest.raises(InvalidInput):
                groups.roster_merge(group=group, player_id=source.pk, into_id=target.pk, user=user)
        assert stored(group) == before

    def test_a_merge_sent_again_changes_nothing_more(self, group, user, logged_in):
        two_evenings(group, user, MISSPELT)
        groups.roster_add(group=group, name="Anna")
        data = {"action": "merge", "player": player(group, "Ana").pk, "into": player(group, "Anna").pk}
        assert roster_post(logged_in, group, **data).status_code == 302
        after = stored(group)
        assert roster_post(logged_in, group, **data).status_code == 302
        assert stored(group) == after
        assert RosterChange.objects.filter(group=group, action="merge").count() == 1

    def test_the_merge_shows_on_the_roster_and_the_statistics_are_drawn_again(self, group, user, logged_in):
        two_evenings(group, user, MISSPELT)
        anna = player(group, "Anna")
        assert "Ana" in logged_in.get(reverse("season_table", args=[group.pk])).content.decode()
        roster_post(logged_in, group, action="merge", player=player(group, "Ana").pk, into=anna.pk)
        page = logged_in.get(reverse("group_detail", args=[group.pk])).content.decode()
        assert "Ana merged into Anna" in page and 'id="roster-changes"' in page
        season = logged_in.get(reverse("season_table", args=[group.pk])).content.decode()
        assert ">Ana<" not in season and ">Anna<" in season

    def test_the_merge_form_chooses_no_name_and_an_empty_merge_writes_nothing(self, group, user, logged_in):
        two_evenings(group, user, MISSPELT)
        page = logged_in.get(reverse("group_detail", args=[group.pk])).content.decode()
        for select in ('id="merge-player"', 'id="merge-into"'):
            opening = page[page.index(select) :]
            first = opening[opening.index("<option") : opening.index("</option>")]
            assert 'value=""' in first and "selected" in first
        before = stored(group)
        assert roster_post(logged_in, group, action="merge", player="", into="").status_code == 302
        assert stored(group) == before
        assert not RosterChange.objects.filter(group=group).exists()


class TestHide:
    def test_a_hidden_player_keeps_the_history_and_leaves_the_choices(self, group, user, logged_in):
        closed(group, user, [GARDE])
        evening(group, user, [], players=("Anna", "Bert", "Carl", "Erik"), name="Offen")
        erik = player(group, "Erik")  # nothing booked: his balance is zero
        groups.roster_hide(player=erik, user=user)
        new = logged_in.get(reverse("group_evening_new", args=[group.pk, "french"])).content.decode()
        assert '<option value="Erik">' not in new and '<option value="Anna">' in new
        assert groups.last_seating(group, "french") == ["Anna", "Bert", "Carl"]
        box = logged_in.get(reverse("group_kasse", args=[group.pk])).content.decode()
        assert 'data-player="Erik"' not in box and f'value="{erik.pk}"' not in box
        # Kept for history: his evening and his page.
        assert EveningResult.objects.filter(player=erik).count() == 1
        page = logged_in.get(reverse("group_player", args=[group.pk, erik.pk]))
        assert page.status_code == 200

    def test_a_hidden_player_with_an_open_balance_stays_in_the_kasse_marked(self, group, user, logged_in):
        closed(group, user, [GARDE])
        dora = player(group, "Dora")
        groups.roster_hide(player=dora, user=user)
        box = logged_in.get(reverse("group_kasse", args=[group.pk])).content.decode()
        row = box.split('data-player="Dora"')[1].split("</tr>")[0]
        assert "hidden" in row and ("−4.00" in row or "-4.00" in row)
        assert f'<option value="{dora.pk}">Dora</option>' in box  # her debt can still be paid

    def test_hiding_twice_changes_nothing_more_and_showing_again_brings_the_player_back(self, group, user):
        evening(group, user, [])
        dora = player(group, "Dora")
        groups.roster_hide(player=dora, user=user)
        hidden_at = player(group, "Dora").hidden_at
        groups.roster_hide(player=dora, user=user)
        assert player(group, "Dora").hidden_at == hidden_at is not None
        assert RosterChange.objects.filter(action="hide").count() == 1
        assert "Dora" not in [p.name for p in groups.roster_current(group)]
        groups.roster_hide(player=dora, user=user, hidden=False)
        assert player(group, "Dora").hidden_at is None
        assert "Dora" in [p.name for p in groups.roster_current(group)]
        assert list(RosterChange.objects.values_list("action", flat=True)) == ["unhide", "hide"]

    def test_a_hidden_player_who_sits_at_a_table_again_is_shown_again(self, group, user):
        evening(group, user, [])
        groups.roster_hide(player=player(group, "Dora"), user=user)
        evening(group, user, [])
        assert player(group, "Dora").hidden_at is None


class TestOwnerOnly:
    @pytest.mark.parametrize("action", ["hide", "unhide", "merge"])
    def test_members_and_outsiders_get_404_and_nothing_changes(self, group, user, client_for, action):
        two_evenings(group, user, MISSPELT)
        groups.roster_add(group=group, name="Anna")
        if action == "unhide":
            groups.roster_hide(player=player(group, "Ana"), user=user)
        outsider = User.objects.create_user("eve", password="a-long-test-password")
        before = stored(group)
        data = {"action": action, "player": player(group, "Ana").pk, "into": player(group, "Anna").pk}
        for account in (member(group), outsider):
            assert roster_post(client_for(account), group, **data).status_code == 404
        assert stored(group) == before

    def test_members_see_the_hidden_players_but_no_buttons(self, group, user, client_for):
        evening(group, user, [])
        groups.roster_hide(player=player(group, "Dora"), user=user)
        page = client_for(member(group)).get(reverse("group_detail", args=[group.pk])).content.decode()
        assert 'id="hidden-players"' in page and "Dora" in page
        assert 'value="hide"' not in page and 'value="unhide"' not in page and 'id="merge-form"' not in page


class TestCurrency:
    def test_the_euro_by_default_on_every_money_figure_of_the_group(self, group, user, logged_in):
        closed(group, user, [GARDE])
        session = Session.objects.get(group_link__group=group)
        pages = {
            "kasse": reverse("group_kasse", args=[group.pk]),
            "table": reverse("season_table", args=[group.pk]),
            "player": reverse("group_player", args=[group.pk, player(group, "Anna").pk]),
            "settlement": reverse("settlement", args=[session.pk]),
        }
        for name, url in pages.items():
            assert "12.00\u00a0€" in logged_in.get(url).content.decode(), name

    def test_the_owner_chooses_another_currency(self, group, user, logged_in):
        closed(group, user, [GARDE])
        url = reverse("group_settings", args=[group.pk])
        settings = {"name": group.name, "money_rate": "0.05", "min_hands": "30", "currency": "CHF"}
        assert logged_in.post(url, settings).status_code == 302
        assert Group.objects.get(pk=group.pk).currency == "CHF"
        assert "12.00\u00a0CHF" in logged_in.get(reverse("group_kasse", args=[group.pk])).content.decode()
        assert "12.00\u00a0CHF" in logged_in.get(reverse("season_table", args=[group.pk])).content.decode()

    def test_a_currency_of_more_than_three_characters_is_refused(self, group, logged_in):
        url = reverse("group_settings", args=[group.pk])
        settings = {"name": group.name, "money_rate": "", "min_hands": "30", "currency": "EURO"}
        assert logged_in.post(url, settings).status_code == 400
        for sign in ("   ", "F r", "€\x07"):
            with pytest.raises(InvalidInput) as refused:
                groups.group_update(group=group, name="x", money_rate=None, min_hands=3, currency=sign)
            assert refused.value.field == "currency"
        assert Group.objects.get(pk=group.pk).currency == "€"


def read_csv(data: bytes, separator: str) -> list[dict[str, str]]:
    assert data.startswith(b"\xef\xbb\xbf")  # the byte order mark a spreadsheet needs
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig")), delimiter=separator))


class TestKasseCsv:
    def test_every_booking_line_read_back_sums_to_zero_per_booking(self, group, user, logged_in):
        two_evenings(group, user, MISSPELT)
        groups.roster_add(group=group, name="Anna")
        groups.roster_merge(
            group=group, player_id=player(group, "Ana").pk, into_id=player(group, "Anna").pk, user=user
        )
        groups.roster_hide(player=player(group, "Dora"), user=user)
        response = logged_in.get(reverse("kasse_csv", args=[group.pk]))
        assert response["Content-Type"] == "text/csv; charset=utf-8"
        assert response["Content-Disposition"] == 'attachment; filename="dienstag-kasse.csv"'
        rows = read_csv(response.content, ",")
        assert list(rows[0]) == ["Booking", "Date", "Kind", "Evening", "Note", "Player", "Amount (€)"]
        by_booking: dict[str, Decimal] = defaultdict(Decimal)
        by_player: dict[str, Decimal] = defaultdict(Decimal)
        for row in rows:
            by_booking[row["Booking"]] += Decimal(row["Amount (€)"])
            by_player[row["Player"]] += Decimal(row["Amount (€)"])
        assert len(by_booking) == 3 and set(by_booking.values()) == {Decimal(0)}
        assert "Ana" not in by_player and "Dora" in by_player  # merged: under the right name; hidden: kept
        assert {name: amount for name, amount in by_player.items()} == {
            name: amount for name, amount in balances(group).items() if name != "box"
        }
        kinds = {row["Booking"]: (row["Kind"], row["Evening"]) for row in rows}
        assert sorted(kinds.values()) == [("evening", "Dienstag"), ("evening", "Donnerstag"), ("payment", "")]

    def test_german_spreadsheets_get_semicolons_and_decimal_commas(self, group, user, client_for):
        closed(group, user, [GARDE])
        kasse.payment_record(
            group=group,
            payer=player(group, "Bert"),
            payee=None,
            amount=Decimal("1.50"),
            user=user,
            note="=Bier",
        )
        german = Client(HTTP_ACCEPT_LANGUAGE="de")
        german.force_login(user)
        rows = read_csv(german.get(reverse("kasse_csv", args=[group.pk])).content, ";")
        assert list(rows[0]) == ["Buchung", "Datum", "Art", "Abend", "Notiz", "Spieler", "Betrag (€)"]
        payment = [row for row in rows if row["Art"] == "Zahlung"]
        assert [(r["Spieler"], r["Betrag (€)"], r["Notiz"]) for r in payment] == [
            ("Bert", "1,50", "'=Bier"),
            ("die Kasse", "-1,50", "'=Bier"),
        ]

    def test_only_members_download_it(self, group, user, client_for):
        outsider = User.objects.create_user("eve", password="a-long-test-password")
        assert client_for(outsider).get(reverse("kasse_csv", args=[group.pk])).status_code == 404
        assert client_for(member(group)).get(reverse("kasse_csv", args=[group.pk])).status_code == 200


WHICH_EVENINGS = {
    "de": ("Hier zählen alle Abende, auch offene", "Hier zählen nur abgeschlossene Abende"),
    "en": ("All evenings count here, open ones too", "Only closed evenings count here"),
    "fr": ("Toutes les soirées comptent ici, même ouvertes", "Seules les soirées closes comptent ici"),
}


@pytest.mark.parametrize("language", ["de", "en", "fr"])
def test_each_figure_says_which_evenings_it_counts(group, user, language):
    closed(group, user, [GARDE])  # closed: Anna 12.00 in the Kasse
    evening(group, user, [GARDE], money_rate=RATE, name="Offen")  # open: Anna 12.00 more in the statistics
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    all_evenings, closed_only = WHICH_EVENINGS[language]
    comma = "," if language != "en" else "."
    season = client.get(reverse("season_table", args=[group.pk])).content.decode()
    assert all_evenings in season and f"24{comma}00\u00a0€" in season
    anna = client.get(reverse("group_player", args=[group.pk, player(group, "Anna").pk])).content.decode()
    assert all_evenings in anna and f"24{comma}00\u00a0€" in anna
    box = client.get(reverse("group_kasse", args=[group.pk])).content.decode()
    assert closed_only in box and f"12{comma}00\u00a0€" in box and f"24{comma}00\u00a0€" not in box


def test_each_invitation_link_has_copy_and_the_phones_share_menu(group, user, logged_in):
    groups.invitation_create(group=group, user=user)
    groups.invitation_create(group=group, user=user)
    page = logged_in.get(reverse("group_invitations", args=[group.pk])).content.decode()
    assert '<script src="/static/js/share.js" defer></script>' in page
    assert (
        page.count("data-share-copy") == page.count("data-share-menu") == page.count("data-share-link") == 2
    )
    assert page.count("data-share-status") == 2
    with open("static/js/share.js", encoding="utf-8") as script:
        code = script.read()
    assert 'querySelectorAll("[data-share]")' in code and "navigator.share" in code
