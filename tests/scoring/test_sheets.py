"""Score sheets (PDF and print view), CSV, and the lossless session file round trip."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import re
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.urls import reverse
from pypdf import PdfReader

from scoring import services
from scoring.engine import VARIANTS, dumps_session, read_session
from scoring.exports import session_json
from scoring.models import Hand, Player, Seat, Session
from scoring.sheet import build_sheet
from tests.engine.support import FIXTURES
from tests.scoring.test_views import head_row

MINUS = "\u2212"
SEEDS = {
    # file, the totals docs/rules.md gives for it
    "french-seed-table.json": {"Anna": "+108", "Bert": "+172", "Carl": f"{MINUS}380", "Dora": "+100"},
    "illustrated-seed-series.json": {"A": "+120", "B": "+34", "C": "+28"},
    "chambery-seed-three-players.json": {"Amélie": "+22", "Béatrice": "+6", "Cécile": f"{MINUS}28"},
}
# How each seed's printed sheet ends: the totals; for Illustriertes, each player's
# balance, what the settlement pays (docs/rules.md §2.9: A +178, B −80, C −98), never
# the sum of the series' totals (+120 +34 +28), which would contradict it.
CLOSING = {
    "french-seed-table.json": ("Total", SEEDS["french-seed-table.json"]),
    "illustrated-seed-series.json": ("Balance", {"A": "+178", "B": f"{MINUS}80", "C": f"{MINUS}98"}),
    "chambery-seed-three-players.json": ("Total", SEEDS["chambery-seed-three-players.json"]),
}
RICH = ["rich-french.json", "rich-illustrated.json", "rich-chambery.json", "rich-chambery-croise.json"]


def imported(user, name: str) -> Session:
    return services.session_import(owner=user, text=(FIXTURES / name).read_bytes(), filename=name)


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def counts():
    return (Session.objects.count(), Seat.objects.count(), Player.objects.count(), Hand.objects.count())


@pytest.mark.parametrize(("name", "totals"), SEEDS.items())
def test_each_seed_gives_a_pdf_sheet_with_its_players_hands_and_totals(logged_in, user, name, totals):
    session = imported(user, name)
    response = logged_in.get(reverse("session_export", args=[session.pk, "pdf"]))
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    assert "attachment" in response["Content-Disposition"]
    text = pdf_text(response.content)
    for player in totals:
        assert player in text
    hands = len(json.loads((FIXTURES / name).read_text())["hands"])
    positions = [re.search(rf"^{n} ", text, re.M) for n in range(1, hands + 1)]
    assert all(positions), "every hand's number starts a row"
    assert [p.start() for p in positions] == sorted(p.start() for p in positions)
    label, closing = CLOSING[name]
    total_line = next(line for line in text.splitlines() if line.startswith(label))
    assert total_line.split()[1:] == list(closing.values())


def test_the_print_view_shows_what_the_pdf_shows(logged_in, user):
    session = imported(user, "french-seed-table.json")
    html = logged_in.get(reverse("session_print", args=[session.pk])).content.decode()
    text = pdf_text(logged_in.get(reverse("session_export", args=[session.pk, "pdf"])).content)
    footer = re.search(r'<tr class="final">(.*?)</tr>', html, re.S).group(1)
    html_totals = re.search(r'<td class="n">([^<]+)</td>', footer).group(1).split()
    pdf_totals = next(line for line in text.splitlines() if line.startswith("Total")).split()[1:]
    assert html_totals == pdf_totals == ["+108", "+172", f"{MINUS}380", "+100"]
    assert "<svg" in html and 'class="player-line"' in html


def test_the_appendix_explains_every_hand(logged_in, user):
    session = imported(user, "french-seed-table.json")
    text = pdf_text(
        logged_in.get(reverse("session_export", args=[session.pk, "pdf"]) + "?appendix=1").content
    )
    assert "(25 + 15) × 2 = 80 (Garde)" in text
    assert "(25 + 4) × 2 + 20 = 78" in text


def test_a_per_series_sheet_for_illustriertes(logged_in, user):
    session = imported(user, "illustrated-seed-series.json")
    response = logged_in.get(reverse("session_export", args=[session.pk, "pdf"]) + "?series=1")
    text = pdf_text(response.content)
    assert "series 1" in text
    assert "A: 18, 26, 110 | 120" in text
    assert logged_in.get(reverse("session_export", args=[session.pk, "pdf"]) + "?series=7").status_code == 404


def test_chambery_sheets_mark_each_partie(logged_in, user):
    session = imported(user, "rich-chambery.json")
    html = logged_in.get(reverse("session_print", args=[session.pk])).content.decode()
    assert "End of Partie 1" not in html  # five hands, six at the table: no round completed yet
    for hand in range(6):
        services.hand_record(
            session=session, raw={"type": "redeal"} | ({"dealer": "Bert"} if hand == 0 else {})
        )
    html = logged_in.get(reverse("session_print", args=[session.pk])).content.decode()
    assert "End of Partie 1" in html


def test_a_long_session_of_six_flows_over_pages_with_the_header_repeated(logged_in, make_session):
    session = make_session(players=("Anna", "Bert", "Carl", "Dora", "Emil", "Fritz"))
    players = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fritz"]
    for n in range(80):
        dealer = players[n % 6]
        active = [p for p in players if p != dealer]
        services.hand_record(
            session=session,
            raw={
                "dealer": dealer,
                "taker": active[n % 5],
                "partner": active[(n + 1) % 5],
                "contract": "garde",
                "bouts": 2,
                "points": 30 + n % 40,
                "note": "a note that takes some room on the sheet" if n % 7 == 0 else "",
            }
            | ({} if n % 7 else {"note": "a note that takes some room on the sheet"}),
        )
    reader = PdfReader(io.BytesIO(logged_in.get(reverse("session_export", args=[session.pk, "pdf"])).content))
    assert len(reader.pages) >= 3
    texts = [page.extract_text() for page in reader.pages]
    for text in texts[:-1]:
        assert all(name in text for name in players)  # the table header on every page
    # the evening's totals are written once, at the end, not under every page
    assert sum(text.count("Total") for text in texts) == 1


def test_the_csv_parses_and_its_totals_equal_the_sheets(logged_in, user):
    for name in [*SEEDS, *RICH]:
        session = imported(user, name)
        response = logged_in.get(reverse("session_export", args=[session.pk, "csv"]))
        assert response["Content-Type"].startswith("text/csv")
        rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
        header, body, last = rows[0], rows[1:-1], rows[-1]
        assert len(body) == session.hands.count()
        players = [seat.name for seat in session.seats.all()]
        totals = {p: float(last[header.index(f"{p}: total")]) for p in players}
        sheet = build_sheet(session)
        # The CSV ends with the numbers the board keeps in sight at its last head row:
        # the totals, or for series games each player's balance (what the settlement pays).
        closing = sheet.closing_rows()[-1]
        assert closing.key == sheet.head_rows[-1].key, name
        assert totals == dict(zip(players, map(float, closing.values), strict=True)), name
        html = logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode()
        board = head_row(html, closing.key)
        assert totals == {p: float(v.replace(MINUS, "-")) for p, v in board.items()}, name
        assert {p: float(v) for p, v in zip(players, sheet.settlement.net.values(), strict=True)} == totals, (
            name
        )
        for row in body:  # each hand's deltas in the CSV are the stored ones
            hand_deltas = [float(row[header.index(f"{p}: points")]) for p in players]
            assert len(hand_deltas) == len(players)


@pytest.mark.parametrize("name", [*SEEDS, *RICH])
def test_export_import_export_is_byte_for_byte_identical(logged_in, user, name):
    session = imported(user, name)
    first = logged_in.get(reverse("session_export", args=[session.pk, "json"])).content
    original = read_session((FIXTURES / name).read_text())
    # the file as read, with the session's name and day (the file's own where it has them)
    expected = dataclasses.replace(original, name=session.name, date=session.played_on)
    assert first == dumps_session(expected).encode()
    again = services.session_import(owner=user, text=first, filename="again.json")
    second = logged_in.get(reverse("session_export", args=[again.pk, "json"])).content
    assert first == second
    # and the imported session scores exactly like the original
    assert build_sheet(again).summary.totals == build_sheet(session).summary.totals


@pytest.mark.parametrize("name", RICH)
def test_an_export_carries_name_date_money_rate_and_every_house_rule(logged_in, user, name):
    document = json.loads((FIXTURES / name).read_text())
    session = imported(user, name)
    exported = json.loads(logged_in.get(reverse("session_export", args=[session.pk, "json"])).content)
    assert exported["name"] == document["name"] == session.name
    assert exported["date"] == document["date"] == session.played_on.isoformat()
    assert exported.get("money_rate") == document.get("money_rate")
    assert session.money_rate == (Decimal(document["money_rate"]) if "money_rate" in document else None)
    variant = VARIANTS[document["variant"]]
    assert list(exported["options"]) == [f.name for f in variant.option_fields]


def test_the_rich_fixtures_use_every_optional_field():
    used: dict[str, set[str]] = {}
    for name in RICH:
        document = json.loads((FIXTURES / name).read_text())
        keys = used.setdefault(document["variant"], set())
        keys.update(document["options"])
        for hand in document["hands"]:
            keys.update(hand)
            for nested in ("premiums", "poignees"):
                for item in hand.get(nested, []):
                    keys.update(f"{nested}.{key}" for key in item)
            for nested in ("valat", "mondfang"):
                keys.update(f"{nested}.{key}" for key in hand.get(nested) or {})
    assert used["french"] >= {
        "five_player_split",
        "round_to",
        "dealer",
        "sitting_out",
        "type",
        "note",
        "partner",
        "petit_au_bout",
        "poignees",
        "chelem",
    }
    assert used["illustrated"] >= {
        "profile",
        "game_points",
        "uhu",
        "silent_ultimo_loss_counts",
        "all_pass",
        "series_target",
        "series_bonus",
        "kontra",
        "premiums.kontra",
        "premiums.made",
        "premiums.announced",
        "valat.kontra",
        "talon_rest",
        "mondfang",
        "renonce",
        "no_trick",
        "note",
    }
    assert used["chambery"] >= {
        "deck",
        "payment",
        "four_player_form",
        "partner",
        "soloist",
        "cards_requested",
        "sitting_out",
        "note",
        "type",
    }


def test_a_malformed_upload_writes_nothing(logged_in):
    before = counts()
    for content, expected in (
        (b"{not json", "document: not valid JSON"),
        (
            json.dumps(
                {
                    "variant": "french",
                    "players": ["A", "B", "C"],
                    "hands": [
                        {"dealer": "C", "taker": "A", "contract": "garde", "bouts": 2, "points": 50},
                        {"taker": "B", "contract": "garde", "bouts": 2, "points": 50},
                        {"taker": "C", "contract": "garde", "bouts": 4, "points": 50},
                    ],
                }
            ).encode(),
            "hand 3, bouts: Bouts: a whole number from 0 to 3",
        ),
        (b"\xff\xfe not text", "document"),
    ):
        upload = io.BytesIO(content)
        upload.name = "evening.json"
        response = logged_in.post(reverse("session_import"), {"file": upload})
        assert response.status_code == 400
        assert expected in response.content.decode()
    assert counts() == before


def test_an_oversized_upload_is_refused(logged_in):
    upload = io.BytesIO(b" " * (1024 * 1024 + 1))
    upload.name = "huge.json"
    response = logged_in.post(reverse("session_import"), {"file": upload})
    assert response.status_code == 400 and Session.objects.count() == 0


def test_an_upload_becomes_a_session(logged_in):
    upload = io.BytesIO((FIXTURES / "french-seed-table.json").read_bytes())
    upload.name = "freitag_bei_carl.json"
    response = logged_in.post(reverse("session_import"), {"file": upload})
    session = Session.objects.get()
    assert response["Location"] == reverse("scoreboard", args=[session.pk])
    assert session.name == "freitag bei carl"


def test_the_import_and_export_commands(user, tmp_path, capsys):
    call_command("import_session", str(FIXTURES / "illustrated-seed-series.json"), owner=user.username)
    session_id = int(capsys.readouterr().out.strip())
    session = Session.objects.get(pk=session_id, owner=user)
    for kind in ("json", "csv", "pdf"):
        out = tmp_path / f"sheet.{kind}"
        call_command("export_session", str(session_id), format=kind, output=str(out))
        assert out.stat().st_size > 0
    assert (tmp_path / "sheet.pdf").read_bytes().startswith(b"%PDF")
    assert json.loads((tmp_path / "sheet.json").read_text())["variant"] == "illustrated"
    assert (tmp_path / "sheet.json").read_text() == session_json(session)


def test_the_import_command_refuses_a_bad_file_and_names_hand_and_field(user, tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps({"variant": "chambery", "players": ["A", "B", "C"], "hands": [{"points": {"A": 1}}]})
    )
    with pytest.raises(SystemExit) as exit_:
        call_command("import_session", str(bad), owner=user.username)
    # as score_session: exit status 2, one line naming hand and field
    assert exit_.value.code == 2
    assert capsys.readouterr().err == "hand 1, points.B: Points of each player, B missing\n"
    assert Session.objects.count() == 0


def test_money_in_the_pdf_when_a_rate_is_set(logged_in, make_session):
    session = make_session(money_rate=Decimal("0.05"))
    for hand in json.loads((FIXTURES / "french-seed-table.json").read_text())["hands"]:
        services.hand_record(session=session, raw=hand)
    text = pdf_text(logged_in.get(reverse("session_export", args=[session.pk, "pdf"])).content)
    assert "\u221219.00" in text and "8.60" in text  # the minus of every other number


FIVE_AT_KOENIGRUFEN = ("Anna", "Bert", "Carl", "Dora", "Emil")


def koenigrufen_for_five(make_session, user):
    """Two hands at five: Emil deals and sits out the first, Anna the second."""
    session = make_session(variant="koenigrufen", players=FIVE_AT_KOENIGRUFEN)
    first = {"dealer": "Emil", "declarer": "Anna", "game": "rufer", "partner": "Carl", "points": 41}
    second = {"declarer": "Bert", "game": "dreier", "points": 40}
    for index, raw in enumerate((first, second)):
        services.hand_record(session=session, raw=raw, user=user, client_token=f"five-{index}")
    return session


def test_the_seat_that_sits_out_is_a_dash_read_as_sits_out_never_a_zero(logged_in, make_session, user):
    session = koenigrufen_for_five(make_session, user)
    html = logged_in.get(reverse("scoreboard", args=[session.pk]), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    first, second = (
        re.search(r'<tr class="scores">(.*?)</tr>', row, re.S).group(1)
        for row in re.findall(r'<tbody id="hand-\d+" class="hand">(.*?)</tbody>', html, re.S)
    )
    deltas = [
        re.sub(r"<[^>]+>", "", d).strip()
        for d in re.findall(r'<span class="delta[^"]*">(.*?)</span><span class="total">', first, re.S)
    ]
    assert deltas[4] == "—setzt aus" and "0" not in deltas[4]
    assert '<span class="visually-hidden">setzt aus</span>' in first and 'aria-hidden="true">—' in first
    assert re.findall(r'<span class="delta[^"]*">(.*?)</span><span class="total">', second, re.S)[0].count(
        "setzt aus"
    )
    # The hand's own page and the print (and so the PDF) say the same.
    hand = session.hands.order_by("number")[0]
    detail = logged_in.get(reverse("hand_detail", args=[session.pk, hand.pk]), HTTP_ACCEPT_LANGUAGE="de")
    assert re.search(r"<span>Emil</span> <strong>.*?setzt aus", detail.content.decode(), re.S)
    printed = logged_in.get(
        reverse("session_print", args=[session.pk]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    figures = re.findall(r'<td class="n">([^<]*)</td>', printed)
    assert figures[0].split("\n")[0].split()[-1] == "—"  # Emil's column of hand 1
    assert figures[1].split("\n")[0].split()[0] == "—"  # Anna's column of hand 2
    assert figures[0].split("\n")[1].split()[-1] == "0"  # his running total stays a number


@pytest.mark.parametrize(
    ("language", "one", "many"),
    [("de", "1 Punkt", "Punkte"), ("en", "1 point", "points"), ("fr", "1 point", "points")],
)
def test_the_settlement_says_one_point_and_many_points(logged_in, make_session, user, language, one, many):
    session = make_session(variant="koenigrufen", players=("Anna", "Bert", "Carl", "Dora"))
    # A Rufer won, 2 against 2: +1 +1 −1 −1, each loser pays a winner 1 point.
    raw = {"dealer": "Dora", "declarer": "Anna", "game": "rufer", "partner": "Carl", "points": 41}
    services.hand_record(session=session, raw=raw, user=user)
    html = logged_in.get(
        reverse("settlement", args=[session.pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    transfers = re.findall(r"<li><strong>[^<]+</strong> → <strong>[^<]+</strong>[^<]*?(\d[^<]*)</li>", html)
    assert transfers and all(t.strip() == one for t in transfers), transfers
    assert f"1 {many}" not in html
