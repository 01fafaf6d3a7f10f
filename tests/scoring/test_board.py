"""The board on a phone: short unique column heads with the names spelt out,
and where each series is settled on its own (Illustriertes Tarock) the head
shows the current series and each player's balance, which is what the
settlement pays; the chart draws that balance."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from django.urls import reverse

from scoring import services
from scoring.sheet import HEAD_ROOM, build_sheet, column_heads
from scoring.sheet_html import board_chart
from tests.scoring.test_views import head_row


class TestTheBoard:
    def test_six_long_names_get_short_unique_heads_and_a_legend(self, logged_in, make_session):
        players = ("Annabella", "Annemarie", "Bernhardt", "Christina", "Dorothea", "Elisabeth")
        session = make_session(players=players)
        html = logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode()
        heads = re.findall(
            r'<th scope="col" data-player="[^"]+"><abbr title="([^"]+)">([^<]+)</abbr></th>', html
        )
        assert heads == [
            ("Annabella", "Annab."),
            ("Annemarie", "Annem."),
            ("Bernhardt", "Bernh."),
            ("Christina", "Chris."),
            ("Dorothea", "Dorot."),
            ("Elisabeth", "Elisa."),
        ]
        legend = re.search(r'<p class="legend" id="legend">(.*?)</p>', html, re.S).group(1)
        assert re.findall(r"<b>([^<]+)</b> ([^<]+)</span>", legend) == [(h, n) for n, h in heads]

    def test_names_that_fit_stay_whole_and_need_no_legend(self, logged_in, make_session):
        session = make_session()
        html = logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode()
        assert re.findall(r'<th scope="col" data-player="[^"]+">([^<]+)</th>', html) == [
            "Anna",
            "Bert",
            "Carl",
            "Dora",
        ]
        assert 'id="legend"' not in html

    @pytest.mark.parametrize(
        ("players", "heads"),
        [
            (["Anna Maria", "Anna Lena", "Bert"], ["Anna Maria", "Anna Lena", "Bert"]),
            (
                ["Anna Maria", "Anna Lena", "Bert", "Carl", "Dora", "Emil"],
                ["Anna M", "Anna L", "Bert", "Carl", "Dora", "Emil"],
            ),
            (
                ["Wolfgang11", "Wolfgang12", "Bert", "Carl", "Dora", "Emil"],
                ["Wolfg1", "Wolfg2", "Bert", "Carl", "Dora", "Emil"],
            ),
        ],
    )
    def test_column_heads_are_unique_per_table(self, players, heads):
        found = column_heads(players)
        assert [found[name] for name in players] == heads
        assert len(set(found.values())) == len(players)

    def test_the_name_key_spells_out_only_the_shortened_heads_each_once(self, logged_in, make_session):
        players = ("Anna", "Bernadette", "Carl", "Franziska", "Emil")
        session = make_session(players=players)
        html = logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode()
        legend = re.search(r'<p class="legend" id="legend">(.*?)</p>', html, re.S).group(1)
        assert re.findall(r"<b>([^<]+)</b> ([^<]+)</span>", legend) == [
            ("Bernad.", "Bernadette"),
            ("Franzi.", "Franziska"),
        ]
        assert "Anna" not in legend and "Carl" not in legend

    @pytest.mark.parametrize(
        "players",
        [
            ("Bernhard", "Bernadette", "Franziska", "Friedrich", "Annemarie"),
            ("Bernhard", "Bernadette", "Franziska", "Friedrich", "Annemarie", "Anneliese"),
            ("Bernhardt", "Bernharda", "Franziska", "Friedrich", "Annemarie", "Anneliese"),
            ("Franziska", "Friedrich", "Bernhardt", "Anna", "Bert"),
        ],
    )
    def test_long_names_keep_at_least_three_letters_unique_and_as_many_as_fit(self, players):
        heads = column_heads(players)
        room = HEAD_ROOM[len(players)]
        assert len(set(heads.values())) == len(players)
        for name, head in heads.items():
            assert len(head) >= 3
            if len(name) <= room:
                assert head == name  # none cut when it fits
            elif name[: room - 1] not in (other[: room - 1] for other in players if other != name):
                assert head == name[: room - 1] + "."  # as much of the name as fits, marked as shortened
            else:
                assert len(head) <= room and head[-1].isdigit()

    def test_nine_letter_names_sharing_their_first_letters_are_prefixes(self):
        five = ("Bernhardt", "Bernadett", "Franziska", "Friedrich", "Annemarie")
        assert column_heads(five) == {
            "Bernhardt": "Bernha.",
            "Bernadett": "Bernad.",
            "Franziska": "Franzi.",
            "Friedrich": "Friedr.",
            "Annemarie": "Annema.",
        }
        six = (*five, "Anneliese")
        heads = column_heads(six)
        assert heads == {
            "Bernhardt": "Bernh.",
            "Bernadett": "Berna.",
            "Franziska": "Franz.",
            "Friedrich": "Fried.",
            "Annemarie": "Annem.",
            "Anneliese": "Annel.",
        }
        assert all(name.startswith(head.rstrip(".")) for name, head in heads.items())

    @pytest.mark.parametrize(
        ("players", "heads"),
        [
            (
                ["Anna", "Bernhard Kurz", "Bernhard Klein", "Dora"],
                ["Anna", "B. Kurz", "B.Klein", "Dora"],
            ),
            (
                ["Anna", "Bernhard Kurz", "Bernhard Klein", "Dora", "Emil"],
                ["Anna", "B. Kurz", "B.Klein", "Dora", "Emil"],
            ),
            (["Bernhard Kurz", "Anna", "Carl"], ["Bernhard K", "Anna", "Carl"]),
            (
                ["Bernhard", "Maximilian", "Carl", "Dora", "Emil"],
                ["Bernha.", "Maximi.", "Carl", "Dora", "Emil"],
            ),
        ],
    )
    def test_a_head_is_never_cut_inside_a_name_where_an_initial_form_fits(self, players, heads):
        found = column_heads(players)
        assert [found[name] for name in players] == heads
        assert len(set(found.values())) == len(players)

    def test_illustriertes_the_head_shows_the_series_and_the_balance_the_settlement_pays(
        self, logged_in, make_session
    ):
        session = make_session(variant="illustrated", players=("A", "B", "C"))
        for index, points in enumerate((60, 60, 10, 40)):
            services.hand_record(
                session=session,
                raw={"declarer": "A" if index < 2 else "B", "game": "solo", "bid": "held", "points": points},
            )
        sheet = build_sheet(session)
        html = logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode()
        balance = head_row(html, "balance")
        settlement = logged_in.get(reverse("settlement", args=[session.pk])).content.decode()
        net = dict(
            re.findall(
                r'<tr data-player="(\w)"><th scope="row">\w</th><td class="r \w+">([^<]+)</td>', settlement
            )
        )
        assert balance == net
        assert sum(sheet.summary.net.values()) == 0
        assert "Balance after each hand" in html  # the chart draws the balance, not a sum of series
        assert sheet.rows[-1].balance == tuple(sheet.summary.net[p] for p in sheet.players)

    def test_the_chart_ends_at_each_players_balance(self, make_session):
        session = make_session(variant="illustrated", players=("A", "B", "C"))
        services.hand_record(
            session=session, raw={"declarer": "A", "game": "solo", "bid": "held", "points": 60}
        )
        sheet = build_sheet(session)
        # A wrote (5 + 25) × 4 = 120, reached 100 and got the bonus: 130 against 0
        # and 0, so A settles 2 × 130 = +260, B and C −130 each.
        assert sheet.rows[0].balance == (Fraction(260), Fraction(-130), Fraction(-130))
        assert "A 260" in board_chart(sheet) and "B \u2212130" in board_chart(sheet)
