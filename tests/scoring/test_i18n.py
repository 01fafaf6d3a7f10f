"""German (the default), English and French: complete catalogs, and pages, numbers,
money and the PDF in the reader's language."""

from __future__ import annotations

import gettext
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from scoring import services
from scoring.engine import VARIANTS, HandType, InvalidInput, Line, Table, read_session, score_session
from scoring.engine.illustrated import TRISCHAKEN
from scoring.engine.schema import Field, clean
from scoring.engine.types import Join
from scoring.presentation import render_line, render_words
from tests.conftest import seed
from tests.engine.support import FIXTURES

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGUAGES = ("de", "fr")
PLURAL_FORMS = {"de": "nplurals=2; plural=(n != 1);", "fr": "nplurals=2; plural=(n > 1);"}
BRACE = re.compile(r"\{(\w*)\}")
PERCENT = re.compile(r"%\((\w+)\)[sd]")

# A French hand with half a point: Anna takes a Garde with 2 bouts and 41.5 points.
HALF_POINT_HAND = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": "41.5"}
HALF_POINT_LINE = {
    "de": "Anna: 41,5 Punkte, 2 Bouts, 41 nötig: um 1 gewonnen (der halbe Punkt geht an die Gewinner)",
    "fr": "Anna : 41,5 points, 2 bouts, 41 demandés : fait de 1 (le demi-point va au gagnant)",
    "en": "Anna: 41.5 points, 2 bouts, 41 needed: won by 1 (the half point goes to the winner)",
}


# -- the catalogs, read as they are on disk ----------------------------------------------


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    msgctxt: str | None = None

    @property
    def key(self) -> str:
        return self.msgid if self.msgctxt is None else f"{self.msgctxt}\x04{self.msgid}"


def _unquote(text: str) -> str:
    assert text.startswith('"') and text.endswith('"'), text
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
    return re.sub(r"\\(.)", lambda m: escapes[m.group(1)], text[1:-1])


def read_po(path: Path) -> list[Entry]:
    """Every entry of a .po file, the header first (obsolete ``#~`` entries are skipped)."""
    entries: list[Entry] = []
    current: Entry | None = None
    target: tuple[str, int] = ("msgid", 0)
    for raw in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        line = raw.strip()
        if not line or line.startswith("#~"):
            if current is not None and not line:
                entries.append(current)
                current = None
            continue
        current = current or Entry()
        if line.startswith("#,"):
            current.flags |= {flag.strip() for flag in line[2:].split(",")}
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            kind, index = target
            if kind == "msgstr":
                current.msgstr[index] += _unquote(line)
            else:
                setattr(current, kind, (getattr(current, kind) or "") + _unquote(line))
        else:
            match = re.fullmatch(r"(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?\s+(\".*\")", line)
            assert match, f"{path}: cannot read {line!r}"
            kind, index, text = match.group(1), int(match.group(2) or 0), _unquote(match.group(3))
            if kind == "msgstr":
                current.msgstr[index] = text
            else:
                setattr(current, kind, text)
            target = (kind, index)
    return entries


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / "django.po"


@pytest.fixture(scope="module", params=LANGUAGES)
def catalog(request: pytest.FixtureRequest) -> tuple[str, list[Entry]]:
    return request.param, read_po(po_path(request.param))


def translations(language: str) -> dict[str, Entry]:
    return {entry.key: entry for entry in read_po(po_path(language))[1:]}


def test_each_catalog_has_a_clean_header_for_its_language(catalog):
    language, entries = catalog
    header = entries[0]
    assert header.msgid == ""
    assert "fuzzy" not in header.flags
    fields = dict(line.split(": ", 1) for line in header.msgstr[0].splitlines() if ": " in line)
    assert fields["Language"] == language
    assert fields["Content-Type"] == "text/plain; charset=UTF-8"
    assert fields["Plural-Forms"] == PLURAL_FORMS[language]


def test_every_entry_is_translated_and_none_is_fuzzy(catalog):
    language, entries = catalog
    assert len(entries) > 300, "the catalog holds the whole app"
    untranslated = [e.msgid for e in entries[1:] if not all(e.msgstr.values()) or not e.msgstr]
    fuzzy = [e.msgid for e in entries if "fuzzy" in e.flags]
    assert untranslated == [], f"{language}: untranslated"
    assert fuzzy == [], f"{language}: fuzzy"
    plurals = [e for e in entries[1:] if e.msgid_plural is not None]
    assert plurals, "the catalog has plural entries"
    assert all(sorted(e.msgstr) == [0, 1] for e in plurals), "two plural forms each"


def test_every_translation_keeps_the_placeholders_of_its_msgid(catalog):
    language, entries = catalog
    broken = []
    for entry in entries[1:]:
        for index, text in entry.msgstr.items():
            source = entry.msgid if index == 0 or entry.msgid_plural is None else entry.msgid_plural
            for pattern in (BRACE, PERCENT):
                if set(pattern.findall(text)) != set(pattern.findall(source)):
                    broken.append((source, text))
            names = dict.fromkeys(BRACE.findall(source), "x")
            if names:
                try:
                    text.format(**names)
                except (KeyError, IndexError, ValueError):
                    broken.append((source, text))
    assert broken == [], f"{language}: placeholders changed"


def test_the_compiled_catalogs_hold_exactly_what_the_po_files_say(catalog):
    language, entries = catalog
    mo = po_path(language).with_suffix(".mo")
    assert mo.exists(), f"{mo} is compiled and shipped"
    with mo.open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    # The parsed catalog (msgid, or (msgid, n) for each plural form) of CPython's reader.
    expected: dict[Any, str] = {}
    for entry in entries:
        if entry.msgid_plural is None:
            expected[entry.key] = entry.msgstr[0]
        else:
            for index, text in entry.msgstr.items():
                expected[(entry.key, index)] = text
    # msgfmt leaves the POT creation date out of the compiled header.
    parsed: dict[Any, str] = compiled._catalog  # type: ignore[attr-defined]
    header = parsed.pop("")
    assert header == re.sub(r"POT-Creation-Date: .*\n", "", expected.pop(""))
    assert parsed == expected
    assert compiled.info()["language"] == language
    hands = next(e for e in entries if e.msgid_plural is not None and "hand" in e.msgid)
    assert compiled.ngettext(hands.msgid, hands.msgid_plural, 1) == hands.msgstr[0]
    assert compiled.ngettext(hands.msgid, hands.msgid_plural, 5) == hands.msgstr[1]


# -- the engine's words are all in the catalogs ----------------------------------------------


def _field_texts(fields: tuple[Field, ...]) -> Iterator[str]:
    for f in fields:
        yield f.label
        if f.help:
            yield f.help
        if f.null_label:
            yield f.null_label
        yield from f.choice_labels.values()
        yield from _field_texts(f.fields)


def engine_texts() -> set[str]:
    """Every label, help text and choice label the engine's games describe."""
    texts: set[str] = set()
    tables = {
        "french": [["A", "B", "C", "D"], ["A", "B", "C", "D", "E"]],
        "illustrated": [["A", "B", "C"]],
        "chambery": [["A", "B", "C"], ["A", "B", "C", "D"], ["A", "B", "C", "D", "E"]],
        "koenigrufen": [["A", "B", "C", "D"], ["A", "B", "C", "D", "E"]],
    }
    for key, variant in VARIANTS.items():
        texts.add(variant.name)
        texts |= set(_field_texts(variant.option_fields))
        for players in tables[key]:
            forms = [variant.default_options(players)]
            if key == "chambery" and len(players) == 4:
                forms.append(variant.parse_options({"four_player_form": "croise"}, players))
            for options in forms:
                table = Table(tuple(players), players[0])
                for hand_type in variant.allowed_hand_types(options):
                    if hand_type is HandType.REDEAL:
                        continue
                    texts |= set(_field_texts(variant.hand_fields(hand_type, table, options)))
                    counter = variant.card_counter(hand_type, table, options)
                    if counter is not None:
                        texts |= set(_field_texts(counter.fields))
    illustrated = VARIANTS["illustrated"]
    texts |= set(_field_texts(illustrated.hand_fields(TRISCHAKEN, Table(("A", "B", "C")), None)))
    return texts


def _line_texts(line: Line) -> Iterator[str]:
    yield line.text
    for arg in line.args.values():
        yield from _arg_texts(arg)


def _arg_texts(arg: Any) -> Iterator[str]:
    if isinstance(arg, Line):
        yield from _line_texts(arg)
    elif isinstance(arg, Join):
        for item in arg.items:
            yield from _arg_texts(item)


SESSIONS = [
    "french-seed-table.json",
    "illustrated-seed-series.json",
    "chambery-seed-three-players.json",
    "rich-french.json",
    "rich-illustrated.json",
    "rich-chambery.json",
    "rich-chambery-croise.json",
    "koenigrufen-ooe-settlements.json",
    "koenigrufen-ooe-trischaken.json",
    "koenigrufen-ooe-renonce.json",
]


def breakdown_lines() -> list[Line]:
    """Every breakdown and description line of the rich test sessions."""
    lines: list[Line] = []
    for name in SESSIONS:
        result = score_session(read_session((FIXTURES / name).read_text(encoding="utf-8")))
        variant = result.session.variant
        for record, score in zip(result.session.hands, result.hands, strict=True):
            lines += [*score.breakdown, variant.describe_record(record)]
    return lines


def test_every_engine_label_help_and_choice_is_translated():
    texts = engine_texts()
    assert {"Taker", "Premiums", "Cards requested", "Garde contre", "after the talon"} <= texts
    for language in LANGUAGES:
        known = translations(language)
        missing = sorted(text for text in texts if text not in known)
        assert missing == [], f"{language}: engine texts missing from the catalog"


def test_every_breakdown_line_of_the_test_sessions_is_translated_and_renders():
    lines = breakdown_lines()
    templates = {text for line in lines for text in _line_texts(line) if not re.fullmatch(r"\{\w+\}", text)}
    assert len(templates) > 60
    for language in LANGUAGES:
        known = translations(language)
        missing = sorted(text for text in templates if text not in known)
        assert missing == [], f"{language}: breakdown templates missing from the catalog"
        with translation.override(language):
            for line in lines:
                # Rendering with the translated template, never the English fallback.
                line.render(translation.gettext, lambda value: str(value))


# -- pages in the reader's language ------------------------------------------------------------


def client_in(user, language: str | None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language) if language else Client()
    client.force_login(user)
    return client


def heading(html: str) -> str:
    match = re.search(r"<h1>(.*?)</h1>", html, re.S)
    assert match
    return match.group(1).strip()


@pytest.mark.parametrize(
    ("language", "title", "lang_attribute"),
    [
        ("de", "Spielabende", "de"),
        ("fr", "Séances", "fr"),
        ("en", "Sessions", "en"),
        (None, "Spielabende", "de"),
    ],
)
def test_the_session_list_speaks_the_requested_language_german_by_default(
    user, language, title, lang_attribute
):
    html = client_in(user, language).get(reverse("session_list")).content.decode()
    assert heading(html) == title
    assert f'<html lang="{lang_attribute}">' in html


@pytest.mark.parametrize(
    ("language", "game", "label", "help_text"),
    [
        (
            "de",
            "Französisches Tarock",
            "Geld pro Punkt (optional)",
            "Zum Beispiel 0,01 für einen Cent pro Punkt.",
        ),
        ("fr", "Tarot", "Argent par point (facultatif)", "Par exemple 0,01 pour un centime le point."),
        ("en", "French Tarot", "Money per point (optional)", "For example 0.01 for one cent a point."),
    ],
)
def test_the_new_session_form_labels_and_house_rules_are_translated(user, language, game, label, help_text):
    client = client_in(user, language)
    html = client.get(reverse("session_new_variant", args=["french"])).content.decode()
    assert heading(html) == game
    assert f'<label for="id_money_rate">{label}</label>' in html
    assert help_text in html
    rule = {"de": "Wert aufrunden auf", "fr": "Arrondir la valeur à", "en": "Round the value up to"}[language]
    assert f"<legend>{rule}</legend>" in html
    games = client.get(reverse("session_new")).content.decode()
    assert f"<strong>{game}</strong>" in games


@pytest.mark.parametrize("language", ["de", "fr", "en"])
def test_a_recorded_hand_is_explained_in_the_reader_language_with_its_decimal_separator(
    user, make_session, language
):
    session = make_session()
    hand = services.hand_record(session=session, raw=HALF_POINT_HAND)
    html = client_in(user, language).get(reverse("hand_detail", args=[session.pk, hand.pk])).content.decode()
    assert HALF_POINT_LINE[language] in html
    description = {"de": "Anna · Garde · 2 Bouts · 41,5", "fr": "Anna · Garde · 2 bouts · 41,5"}
    assert description.get(language, "Anna · Garde · 2 bouts · 41.5") in html


def test_a_refused_hand_names_its_field_in_the_reader_language(user, make_session):
    session = make_session()
    data = {"type": "played", "action": "save", "dealer": "Dora", "taker": "Anna", "contract": "garde"}
    data |= {"bouts": "3", "points": "10"}
    html = client_in(user, "de").post(reverse("hand_new", args=[session.pk]), data).content.decode()
    assert "mit 3 Bouts hat der Alleinspieler 13,5 bis 91 Punkte (angegeben: 10)" in html
    assert session.hands.count() == 0


def hand_forms() -> Iterator[tuple[tuple[Field, ...], tuple[str, ...]]]:
    """Every hand form's fields and its players: each game, table size and hand type."""
    tables: dict[str, list[tuple[str, ...]]] = {
        "french": [("A", "B", "C", "D"), ("A", "B", "C", "D", "E")],
        "illustrated": [("A", "B", "C")],
        "chambery": [("A", "B", "C"), ("A", "B", "C", "D"), ("A", "B", "C", "D", "E")],
        "koenigrufen": [("A", "B", "C", "D"), ("A", "B", "C", "D", "E")],
    }
    extra = {"illustrated": {"all_pass": "trischaken"}, "chambery": {"four_player_form": "croise"}}
    for key, variant in VARIANTS.items():
        for players in tables[key]:
            forms = [variant.default_options(players)]
            if key in extra and (key != "chambery" or len(players) == 4):
                forms.append(variant.parse_options(extra[key], players))
            for options in forms:
                table = Table(players, players[0])
                for hand_type in variant.allowed_hand_types(options):
                    if hand_type is not HandType.REDEAL:
                        yield variant.form_fields(hand_type, table, options), players
                        counter = variant.card_counter(hand_type, table, options)
                        if counter is not None:
                            yield counter.fields, players


def missing_words(language: str) -> set[str]:
    """What every hand form says of each choice or number not given yet, and of
    each one inside a premium row or a valat, in this language."""
    said: set[str] = set()
    with translation.override(language):
        for fields, players in hand_forms():
            groups: list[tuple[tuple[Field, ...], Line | None]] = [(fields, None)]
            groups += [(f.fields, Line(f.label)) for f in fields if f.fields]
            for group, within in groups:
                # Fields asked for one game only (a solo's cards) once that game is chosen.
                chosen = [{f.shown_when[0]: game} for f in group if f.shown_when for game in f.shown_when[1]]
                for raw in [{}, *chosen]:
                    try:
                        clean(group, raw, players, from_form=True, within=within)
                    except InvalidInput as refused:
                        said |= {render_words(p) for p in refused.problems if p.field not in raw}
    return said


@pytest.mark.parametrize(
    ("language", "neutral", "examples"),
    [
        ("de", ": nicht angegeben", {"Punkte: nicht angegeben", "Geforderte Karten: nicht angegeben"}),
        ("fr", " : à indiquer", {"Points : à indiquer", "Cartes demandées : à indiquer"}),
    ],
)
def test_what_is_missing_is_said_in_a_form_that_fits_every_field(language, neutral, examples):
    """German and French make a verb or an adjective agree with the field ("Punkte
    fehlen", "Kontrakt fehlt"); a neutral form after the field's name fits them all."""
    said = missing_words(language)
    assert examples <= said
    assert {words for words in said if not words.endswith(neutral)} == set()


def test_an_import_refusal_names_hand_and_field_in_german(user):
    upload = io.BytesIO(
        b'{"variant": "chambery", "players": ["A", "B", "C"], "hands": [{"points": {"A": 1}}]}'
    )
    upload.name = "evening.json"
    response = client_in(user, "de").post(reverse("session_import"), {"file": upload})
    assert response.status_code == 400
    assert "Spiel 1, points.B: Punkte jedes Spielers, B: nicht angegeben" in response.content.decode()


def test_the_language_chosen_on_the_page_is_remembered(user):
    client = client_in(user, "de")
    assert heading(client.get(reverse("session_list")).content.decode()) == "Spielabende"
    response = client.post(reverse("set_language"), {"language": "fr", "next": reverse("session_list")})
    assert response.status_code == 302
    assert response["Location"] == reverse("session_list")
    # The choice outweighs the browser's Accept-Language on the following requests.
    assert heading(client.get(reverse("session_list")).content.decode()) == "Séances"
    assert heading(client.get(reverse("session_new")).content.decode()) == "Quel jeu ?"
    client.post(reverse("set_language"), {"language": "en", "next": reverse("session_list")})
    assert heading(client.get(reverse("session_list")).content.decode()) == "Sessions"


def test_the_language_form_offers_the_three_languages_with_the_current_one_chosen(user):
    html = client_in(user, "fr").get(reverse("session_list")).content.decode()
    form = re.search(r'<select id="language" name="language">(.*?)</select>', html, re.S)
    assert form
    options = re.findall(r'<option value="(\w+)"( selected)?>([^<]+)</option>', form.group(1))
    assert [(code, bool(chosen), name) for code, chosen, name in options] == [
        ("de", False, "Deutsch"),
        ("en", False, "English"),
        ("fr", True, "Français"),
    ]


def record_seed_table(session) -> None:
    for hand in seed("french-seed-table.json")["hands"]:
        services.hand_record(session=session, raw=hand)


@pytest.mark.parametrize(
    ("language", "net", "transfer", "rate"),
    [
        (
            "de",
            "\u221219,00",
            "<strong>Carl</strong> → <strong>Bert</strong>: 8,60",
            "In Geld, zu 0,05 pro Punkt",
        ),
        # French sets a (no-break) space before a colon
        (
            "fr",
            "\u221219,00",
            "<strong>Carl</strong> → <strong>Bert</strong>\u00a0: 8,60",
            "En argent, à 0,05 le point",
        ),
        (
            "en",
            "\u221219.00",
            "<strong>Carl</strong> → <strong>Bert</strong>: 8.60",
            "In money, at 0.05 per point",
        ),
    ],
)
def test_money_is_shown_with_two_decimals_in_the_reader_format(
    user, make_session, language, net, transfer, rate
):
    session = make_session(money_rate=Decimal("0.05"))
    record_seed_table(session)
    html = client_in(user, language).get(reverse("settlement", args=[session.pk])).content.decode()
    assert f">{net}</td>" in html  # Carl: −380 × 0.05
    assert transfer in html
    assert rate in html


def test_a_rate_finer_than_a_cent_keeps_its_decimals(user, make_session):
    session = make_session(money_rate=Decimal("0.0025"))
    record_seed_table(session)
    html = client_in(user, "de").get(reverse("settlement", args=[session.pk])).content.decode()
    assert "In Geld, zu 0,0025 pro Punkt" in html
    assert ">0,27</td>" in html  # Anna: +108 × 0.0025


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "de",
            [
                "Französisches Tarock",
                "Spieler in Spielreihenfolge",
                "Geber",
                "Abrechnung",
                "Summe",
                "\u221221,60",
            ],
        ),
        ("fr", ["Tarot", "Joueurs dans l’ordre du jeu", "Donneur", "Règlement", "Total", "\u221221,60"]),
        ("en", ["French Tarot", "Players in playing order", "Dealer", "Settlement", "Total", "\u221221.60"]),
    ],
)
def test_the_pdf_score_sheet_is_in_the_request_language(user, make_session, language, words):
    session = make_session(money_rate=Decimal("0.05"))
    record_seed_table(session)
    services.hand_record(session=session, raw=HALF_POINT_HAND)
    url = reverse("session_export", args=[session.pk, "pdf"]) + "?appendix=1"
    response = client_in(user, language).get(url)
    assert response["Content-Type"] == "application/pdf"
    text = " ".join(pdf_text(response.content).split())
    for word in words:
        assert word in text
    assert HALF_POINT_LINE[language] in text


def test_render_line_uses_the_active_language():
    line = Line("{n} bouts", {"n": 2})
    with translation.override("de"):
        assert render_line(line) == "2 Bouts"
    with translation.override("fr"):
        assert render_line(Line("Redeal")) == "Redonne"
    with translation.override("en"):
        assert render_line(Line("Redeal")) == "Redeal"
