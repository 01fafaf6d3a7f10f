"""Files people open: a CSV each spreadsheet reads right, and download names
that say what each file is."""

from __future__ import annotations

import csv
import datetime
import io
import re
from fractions import Fraction
from urllib.parse import unquote

import pytest
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.sheet import build_sheet
from tests.scoring.test_sheets import imported

BOM = b"\xef\xbb\xbf"
PLAYERS = ("Anna", "=Bert", "Carl", "@Dora", "Émile")


@pytest.fixture
def half_points(make_session, user):
    """Five at the table, equal shares: half points on the sheet; two names a
    spreadsheet would take for formulas."""
    session = make_session(players=PLAYERS, options={"five_player_split": "equal"})
    for hand in (
        {"taker": "Anna", "partner": "Carl", "contract": "garde", "bouts": 2, "points": 56},
        {"taker": "=Bert", "partner": "@Dora", "contract": "petite", "bouts": 1, "points": 41},
    ):
        services.hand_record(session=session, raw=hand, user=user)
    return session


def client_in(user, language: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def spreadsheet(data: bytes, *, separator: str, decimal: str) -> list[list[str | Fraction]]:
    """The file as a spreadsheet opens it: the byte order mark says UTF-8, cells
    split at ``separator``, a cell that is a number in its locale becomes one."""
    assert data.startswith(BOM)
    number = re.compile(rf"-?[0-9]+(\{decimal}[0-9]+)?")
    rows = csv.reader(io.StringIO(data[len(BOM) :].decode("utf-8")), delimiter=separator)
    return [
        [Fraction(cell.replace(decimal, ".")) if number.fullmatch(cell) else cell for cell in row]
        for row in rows
    ]


def expected_cells(session) -> list[Fraction | int]:
    """Each hand's deltas and running totals, as the sheet has them."""
    return [value for row in build_sheet(session).rows for cell in row.cells for value in cell]


def test_a_german_spreadsheet_reads_semicolons_a_decimal_comma_and_german_headers(user, half_points):
    response = client_in(user, "de").get(reverse("session_export", args=[half_points.pk, "csv"]))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    rows = spreadsheet(response.content, separator=";", decimal=",")
    header = rows[0]
    assert header[:4] == ["Spiel", "Geber", "Setzt aus", "Art des Spiels"]
    assert "Émile: Punkte" in header and "Émile: Stand" in header
    # a name that reads like a formula stays text
    assert "'=Bert: Punkte" in header and "'@Dora: Stand" in header
    assert ";" in response.content.decode("utf-8-sig").splitlines()[1]
    cells = [row[5:] for row in rows[1:-1]]
    assert [value for row in cells for value in row] == expected_cells(half_points)
    numbers = [value for row in cells for value in row if isinstance(value, Fraction)]
    assert any(value.denominator == 2 for value in numbers), "half points come through"
    assert any(value < 0 for value in numbers), "negative numbers are numbers"
    assert rows[-1][0] == "Summe"
    assert [cell for cell in rows[-1][5:] if cell != ""] == build_sheet(half_points).totals


def test_an_english_spreadsheet_reads_commas_and_a_decimal_point(user, half_points):
    response = client_in(user, "en").get(reverse("session_export", args=[half_points.pk, "csv"]))
    rows = spreadsheet(response.content, separator=",", decimal=".")
    assert rows[0][:4] == ["Hand", "Dealer", "Sits out", "Kind of hand"]
    assert [value for row in rows[1:-1] for value in row[5:]] == expected_cells(half_points)
    assert "'=Bert: points" in rows[0]


def test_a_french_spreadsheet_reads_semicolons_and_french_headers(user, half_points):
    response = client_in(user, "fr").get(reverse("session_export", args=[half_points.pk, "csv"]))
    rows = spreadsheet(response.content, separator=";", decimal=",")
    assert rows[0][1] == "Donneur"
    assert [value for row in rows[1:-1] for value in row[5:]] == expected_cells(half_points)


def test_the_format_can_be_chosen_whatever_the_language(user, half_points):
    german = client_in(user, "de")
    url = reverse("session_export", args=[half_points.pk, "csv"])
    rows = spreadsheet(german.get(url + "?format=comma").content, separator=",", decimal=".")
    assert rows[0][0] == "Spiel"  # German headers, English separators
    assert [value for row in rows[1:-1] for value in row[5:]] == expected_cells(half_points)
    english = client_in(user, "en")
    rows = spreadsheet(english.get(url + "?format=semicolon").content, separator=";", decimal=",")
    assert [value for row in rows[1:-1] for value in row[5:]] == expected_cells(half_points)
    refused = english.get(url + "?format=tab")
    assert refused.status_code == 400
    assert refused.content.decode() == "format: must be one of semicolon, comma"


def test_the_series_column_counts_the_series(user):
    session = imported(user, "illustrated-seed-series.json")
    rows = spreadsheet(
        client_in(user, "de").get(reverse("session_export", args=[session.pk, "csv"])).content,
        separator=";",
        decimal=",",
    )
    assert rows[0][4] == "Serie"
    sheet = build_sheet(session)
    series = [row[4] for row in rows[1:-1]]
    ends = [section.last for section in sheet.sections]
    assert series == [
        next(n for n, last in enumerate(ends, 1) if index <= last) for index in range(len(sheet.rows))
    ]


# -- file names ------------------------------------------------------------------------------


def downloaded_name(response) -> str:
    disposition = response["Content-Disposition"]
    assert disposition.startswith("attachment; ")
    quoted = re.search(r"filename\*=utf-8''(.+)$", disposition)
    return unquote(quoted.group(1)) if quoted else re.search(r'filename="(.+)"', disposition).group(1)


@pytest.mark.parametrize(
    ("language", "series", "appendix"),
    [
        ("de", "2026-11-22-dienstagsrunde-serie-1.pdf", "2026-11-22-dienstagsrunde-mit-rechnungen.pdf"),
        ("en", "2026-11-22-dienstagsrunde-series-1.pdf", "2026-11-22-dienstagsrunde-with-breakdowns.pdf"),
        ("fr", "2026-11-22-dienstagsrunde-série-1.pdf", "2026-11-22-dienstagsrunde-avec-les-calculs.pdf"),
    ],
)
def test_every_download_has_its_own_name_from_the_day_and_the_session(user, language, series, appendix):
    session = imported(user, "illustrated-seed-series.json")
    services.session_edit(
        session=session,
        user=user,
        name="Dienstagsrunde",
        played_on=datetime.date(2026, 11, 22),
        money_rate=None,
    )
    client = client_in(user, language)
    url = reverse("session_export", args=[session.pk, "pdf"])
    names = [
        downloaded_name(client.get(url)),
        downloaded_name(client.get(url + "?series=1")),
        downloaded_name(client.get(url + "?appendix=1")),
        downloaded_name(client.get(reverse("session_export", args=[session.pk, "csv"]))),
        downloaded_name(client.get(reverse("session_export", args=[session.pk, "json"]))),
    ]
    assert names == [
        "2026-11-22-dienstagsrunde.pdf",
        series,
        appendix,
        "2026-11-22-dienstagsrunde.csv",
        "2026-11-22-dienstagsrunde.tarock.json",
    ]


def test_a_file_name_keeps_the_names_letters(user, make_session):
    session = make_session(played_on=datetime.date(2026, 1, 6))
    services.session_edit(
        session=session, user=user, name="Tarot zu fünft", played_on=session.played_on, money_rate=None
    )
    response = client_in(user, "de").get(reverse("session_export", args=[session.pk, "pdf"]))
    assert downloaded_name(response) == "2026-01-06-tarot-zu-fünft.pdf"


def test_export_session_writes_the_csv_in_the_format_asked_for(user, half_points, tmp_path):
    from django.core.management import call_command

    out = tmp_path / "evening.csv"
    call_command(
        "export_session",
        str(half_points.pk),
        "--format",
        "csv",
        "--language",
        "de",
        "--csv-format",
        "comma",
        "--output",
        str(out),
    )
    rows = spreadsheet(out.read_bytes(), separator=",", decimal=".")
    assert rows[0][0] == "Spiel"
    assert [value for row in rows[1:-1] for value in row[5:]] == expected_cells(half_points)


def test_the_printed_sheet_is_dated_the_day_it_was_played(user, make_session):
    import io

    from pypdf import PdfReader

    session = make_session(played_on=datetime.date(2026, 11, 17))
    response = client_in(user, "en").get(reverse("session_export", args=[session.pk, "pdf"]))
    text = PdfReader(io.BytesIO(response.content)).pages[0].extract_text()
    assert "17 Nov 2026" in text
