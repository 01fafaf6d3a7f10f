"""One input policy for session files, whichever way they come in (upload,
``import_session``, ``score_session``): UTF-8 only, each key once, text without
control characters or half characters. Hand forms and the new-session form
hold their text to the same rules. A refusal names the field and writes nothing.

Decided here: a tab is kept in a note (pasted from a spreadsheet, harmless on
the sheet, in the CSV and the PDF); every other control character is refused in
every text field, line breaks included, because every text field is one line in
the app and a browser drops a line break when the hand is corrected; names
(players, the session) take no tab either.
"""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from scoring import services
from scoring.engine import InvalidInput
from scoring.exports import session_json
from scoring.models import Hand, HandChange, Player, Seat, Session
from tests.scoring.test_commands import score_session
from tests.scoring.test_concurrency import HAND as HAND_FORM

PLAYERS = ["Anna", "Bert", "Carl", "Dora"]
HAND = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56, "note": "gut"}


def text(*, ascii: bool = True, **top: Any) -> str:
    """A valid session file as JSON text; ``ascii`` writes every other character as
    an escape, as JSON may (so half characters can be written at all)."""
    document = {"name": "Freitag", "variant": "french", "players": PLAYERS, "hands": [HAND, HAND], **top}
    return json.dumps(document, ensure_ascii=ascii)


def with_note(note: str) -> str:
    return text(hands=[HAND, {**HAND, "note": note}])


REFUSED = [
    # (case, file bytes, what the one line starts with, (field, hand))
    (
        "utf16_with_bom",
        text().encode("utf-16"),
        "document: must be UTF-8 text; this file is UTF-16",
        ("document", None),
    ),
    (
        "utf16_without_bom",
        text().encode("utf-16-le"),
        "document: must be UTF-8 text; this file is UTF-16 / UTF-32",
        ("document", None),
    ),
    (
        "utf32",
        text().encode("utf-32"),
        "document: must be UTF-8 text; this file is UTF-32",
        ("document", None),
    ),
    (
        "latin1",
        text(name="Jürgen", ascii=False).encode("latin-1"),
        "document: must be UTF-8 text (byte 12 is not)",
        ("document", None),
    ),
    (
        "variant_twice",
        text().replace('"variant": "french"', '"variant": "illustrated", "variant": "french"').encode(),
        "variant: given twice",
        ("variant", None),
    ),
    (
        "hands_twice",
        text().replace('"hands":', '"hands": [], "hands":').encode(),
        "hands: given twice",
        ("hands", None),
    ),
    (
        "a_hands_points_twice",
        text(hands=[HAND, {"dealer": "Anna", "taker": "Bert", "contract": "prise", "bouts": 1, "points": 50}])
        .replace('"points": 50', '"points": 30, "points": 50')
        .encode(),
        "hand 2, points: given twice",
        ("points", 2),
    ),
    (
        "an_option_twice",
        text(options={"round_to": 5}).replace('"round_to": 5', '"round_to": 10, "round_to": 5').encode(),
        "options.round_to: given twice",
        ("options.round_to", None),
    ),
    (
        "nul_in_a_note",
        with_note("ab\x00c").encode(),
        "hand 2, note: Note: must be text without control characters (found U+0000 at character 3)",
        ("note", 2),
    ),
    (
        "line_break_in_a_note",
        with_note("one\ntwo").encode(),
        "hand 2, note: Note: must be text without control characters (found U+000A",
        ("note", 2),
    ),
    (
        "escape_in_a_note",
        with_note("\x1b[31mred").encode(),
        "hand 2, note: Note: must be text without control characters (found U+001B",
        ("note", 2),
    ),
    (
        "c1_control_in_a_note",
        with_note("a\x85b").encode(),
        "hand 2, note: Note: must be text without control characters (found U+0085",
        ("note", 2),
    ),
    (
        "nul_in_a_player_name",
        text(players=["Anna", "Be\x00rt", "Carl", "Dora"], hands=[]).encode(),
        "players[2]: must be text without control characters (found U+0000",
        ("players[2]", None),
    ),
    (
        "tab_in_a_player_name",
        text(players=["Anna", "Be\trt", "Carl", "Dora"], hands=[]).encode(),
        "players[2]: must be text without control characters (found U+0009",
        ("players[2]", None),
    ),
    (
        "escape_in_the_name",
        text(name="Frei\x1btag").encode(),
        "name: must be text without control characters (found U+001B at character 5)",
        ("name", None),
    ),
    # A line or paragraph separator is a line break; a direction control turns the
    # text after it around: both refused in every text field, notes included.
    (
        "line_separator_in_a_note",
        with_note("one\u2028two").encode(),
        "hand 2, note: Note: must be one line: found U+2028 at character 4, a line break",
        ("note", 2),
    ),
    (
        "paragraph_separator_in_a_player_name",
        text(players=["Anna", "Be\u2029rt", "Carl", "Dora"], hands=[]).encode(),
        "players[2]: must be one line: found U+2029 at character 3, a line break",
        ("players[2]", None),
    ),
    (
        "right_to_left_override_in_a_player_name",
        text(players=["Anna", "\u202etreB", "Carl", "Dora"], hands=[]).encode(),
        "players[2]: must be text without direction controls, which turn the text after them around "
        "(found U+202E at character 1)",
        ("players[2]", None),
    ),
    (
        "isolate_in_a_note",
        with_note("gut\u2067gemacht\u2069").encode(),
        "hand 2, note: Note: must be text without direction controls, which turn the text after them "
        "around (found U+2067 at character 4)",
        ("note", 2),
    ),
    (
        "embedding_in_the_name",
        text(name="Frei\u202atag").encode(),
        "name: must be text without direction controls, which turn the text after them around "
        "(found U+202A at character 5)",
        ("name", None),
    ),
    (
        "surrogate_in_a_note",
        with_note("\ud800").encode("utf-8", "surrogatepass").replace(b"\xed\xa0\x80", b"\\ud800"),
        "hand 2, note: must be text: found U+D800 at character 1, half a character",
        ("note", 2),
    ),
    (
        "surrogate_in_a_player_name",
        text(players=["Anna", "B\udfffert", "Carl", "Dora"], hands=[]).encode(),
        "players[2]: must be text: found U+DFFF at character 2",
        ("players[2]", None),
    ),
    (
        "surrogate_in_the_name",
        text(name="\udbffFreitag").encode(),
        "name: must be text: found U+DBFF",
        ("name", None),
    ),
    (
        "surrogate_in_a_dealer",
        text(hands=[{**HAND, "dealer": "D\ud800"}]).encode(),
        "hand 1, dealer: must be text: found U+D800",
        ("dealer", 1),
    ),
    (
        "surrogate_in_a_key",
        text(hands=[{**HAND, "\ud800": 1}]).encode(),
        'hand 1, "\\ud800": must be text: found U+D800',
        ('"\\ud800"', 1),
    ),
    # A name must show: zero-width characters, format characters, marks alone
    # and spaces show nothing, so a player or an evening named only so is refused.
    (
        "zero_width_player_name",
        text(players=["Anna", "\u200b\u200c\u200d", "Carl", "Dora"], hands=[]).encode(),
        "players[2]: must contain a letter, digit, symbol or punctuation mark",
        ("players[2]", None),
    ),
    (
        "word_joiner_and_bom_as_player_name",
        text(players=["Anna", "Bert", "\u2060\ufeff", "Dora"], hands=[]).encode(),
        "players[3]: must contain a letter, digit, symbol or punctuation mark",
        ("players[3]", None),
    ),
    (
        "accent_alone_as_player_name",
        text(players=["\u0301\u0308", "Bert", "Carl", "Dora"], hands=[]).encode(),
        "players[1]: must contain a letter, digit, symbol or punctuation mark",
        ("players[1]", None),
    ),
    (
        "invisible_session_name",
        text(name="\u200b\u3164\u00a0\u200e").encode(),
        "name: must contain a letter, digit, symbol or punctuation mark",
        ("name", None),
    ),
]
CASES = [case[1:] for case in REFUSED]
IDS = [case[0] for case in REFUSED]


def counts() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in (Session, Seat, Player, Hand, HandChange))


@pytest.mark.parametrize(("data", "line", "where"), CASES, ids=IDS)
def test_the_import_service_refuses_it_naming_the_field_and_writes_nothing(user, data, line, where):
    before = counts()
    with pytest.raises(InvalidInput) as caught:
        services.session_import(owner=user, text=data, filename="evening.json")
    assert (caught.value.field, caught.value.hand) == where
    assert caught.value.describe().startswith(line)
    assert counts() == before


@pytest.mark.parametrize(("data", "line", "where"), CASES, ids=IDS)
def test_the_upload_page_refuses_it_naming_the_field_and_writes_nothing(logged_in, data, line, where):
    before = counts()
    upload = io.BytesIO(data)
    upload.name = "evening.json"
    response = logged_in.post(reverse("session_import"), {"file": upload})
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="import-error"' in html
    assert line.replace('"', "&quot;") in html
    assert counts() == before


@pytest.mark.parametrize(("data", "line", "where"), CASES, ids=IDS)
def test_score_session_refuses_it_with_exit_2_and_one_line(data, line, where):
    result = score_session(data)
    assert result.returncode == 2
    assert result.stdout == b""
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith(line), lines


@pytest.mark.parametrize(("data", "line", "where"), CASES[:8:3] + CASES[8::4], ids=IDS[:8:3] + IDS[8::4])
def test_import_session_refuses_it_with_exit_2_and_one_line(user, tmp_path, capsys, data, line, where):
    path = tmp_path / "evening.json"
    path.write_bytes(data)
    before = counts()
    with pytest.raises(SystemExit) as exit_:
        call_command("import_session", str(path), owner=user.username)
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [captured.err.strip()] and captured.err.startswith(line)
    assert counts() == before


# -- what is accepted -----------------------------------------------------------------------


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"], ids=["utf8", "utf8_with_bom"])
def test_utf8_with_or_without_a_byte_order_mark_is_read_everywhere(user, logged_in, bom):
    data = bom + text(name="Jürgen zu Gast", ascii=False).encode()
    assert services.session_import(owner=user, text=data, filename="a.json").name == "Jürgen zu Gast"
    upload = io.BytesIO(data)
    upload.name = "b.json"
    assert logged_in.post(reverse("session_import"), {"file": upload}).status_code == 302
    result = score_session(data)
    # two Gardes won by Anna with 2 bouts and 56 points: 3 × (25 + 15) × 2 each
    assert result.returncode == 0 and json.loads(result.stdout)["totals"]["Anna"] == 480


def test_a_tab_in_a_note_is_kept(user):
    session = services.session_import(owner=user, text=with_note("Garde\t(Anna)").encode(), filename="a.json")
    assert session.hands.get(number=2).note == "Garde\t(Anna)"
    assert json.loads(session_json(session))["hands"][1]["note"] == "Garde\t(Anna)"


def test_a_paired_surrogate_escape_is_one_character_and_welcome(user):
    # "\ud83c\udccf" is how JSON may write 🃏 (U+1F0CF) in ASCII
    data = with_note("\U0001f0cf").encode()
    assert b"\\ud83c\\udccf" in data
    session = services.session_import(owner=user, text=data, filename="a.json")
    assert session.hands.get(number=2).note == "\U0001f0cf"


# -- the command line ----------------------------------------------------------------------


def test_import_session_refuses_a_name_over_80_characters_with_exit_2(user, tmp_path, capsys):
    path = tmp_path / "evening.json"
    path.write_text(text(), encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        call_command("import_session", str(path), owner=user.username, name="x" * 81)
    assert exit_.value.code == 2
    assert (
        capsys.readouterr().err == "name: a name has 1 to 80 characters, without leading or trailing spaces\n"
    )
    assert Session.objects.count() == 0


def test_import_session_refuses_a_control_character_in_the_name_given(user, tmp_path, capsys):
    path = tmp_path / "evening.json"
    path.write_text(text(), encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        call_command("import_session", str(path), owner=user.username, name="Frei\x07tag")
    assert exit_.value.code == 2
    assert capsys.readouterr().err.startswith("name: must be text without control characters (found U+0007")
    assert Session.objects.count() == 0


@pytest.mark.parametrize(
    ("args", "line"),
    [
        ({"owner": "nobody"}, "owner: no user named 'nobody'"),
        ({"file": "missing.json"}, "file: cannot be read: No such file or directory"),
    ],
)
def test_import_session_refuses_an_unknown_owner_or_a_missing_file_with_exit_2(
    user, tmp_path, capsys, args, line
):
    path = tmp_path / "evening.json"
    path.write_text(text(), encoding="utf-8")
    file = str(tmp_path / args.get("file", "evening.json"))
    with pytest.raises(SystemExit) as exit_:
        call_command("import_session", file, owner=args.get("owner", user.username))
    assert exit_.value.code == 2
    assert capsys.readouterr().err == line + "\n"
    assert Session.objects.count() == 0


# -- forms hold their text to the same rules -----------------------------------------------------


def test_a_hand_forms_note_with_a_control_character_is_refused_beside_the_note(logged_in, make_session):
    session = make_session()
    data = {**HAND_FORM, "token": "t", "note": "gut\x1bgemacht"}
    response = logged_in.post(reverse("hand_new", args=[session.pk]), data)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="f-note-error"' in html
    assert "must be text without control characters (found U+001B at character 4)" in html
    assert Hand.objects.count() == 0
    data["note"] = "gut\tgemacht"  # a tab is kept
    assert logged_in.post(reverse("hand_new", args=[session.pk]), data).status_code == 302
    assert Hand.objects.get().note == "gut\tgemacht"


def test_a_hand_note_with_a_nul_is_refused_by_the_service(make_session):
    session = make_session()
    with pytest.raises(InvalidInput) as caught:
        services.hand_record(session=session, raw={**HAND, "note": "a\x00b"})
    assert caught.value.field == "note"
    assert Hand.objects.count() == 0


def test_the_new_session_form_refuses_control_characters_in_names(logged_in):
    url = reverse("session_new_variant", args=["french"])
    base = {"name": "Freitag", "seat_1": "Anna", "seat_2": "Bert", "seat_3": "Carl", "seat_4": "Dora"}
    html = logged_in.post(url, {**base, "name": "Frei\x1btag"}).content.decode()
    assert "must be text without control characters (found U+001B at character 5)" in html
    html = logged_in.post(url, {**base, "seat_2": "Be\x01rt"}).content.decode()
    assert "must be text without control characters (found U+0001 at character 3)" in html
    html = logged_in.post(url, {**base, "seat_2": "\u202etreB"}).content.decode()
    assert "must be text without direction controls, which turn the text after them around" in html
    html = logged_in.post(url, {**base, "name": "Frei\u2028tag"}).content.decode()
    assert "must be one line: found U+2028 at character 5, a line break" in html
    assert Session.objects.count() == 0 and Player.objects.count() == 0


def test_a_direction_mark_in_a_name_is_kept(user):
    """U+200F (right-to-left mark) steers only its neighbours and is typed in
    right-to-left text: it is no direction control and is kept."""
    session = services.session_import(
        owner=user, text=text(players=["Anna", "\u05d3\u05e0\u05d4\u200f", "Carl", "Dora"])
    )
    assert "\u05d3\u05e0\u05d4\u200f" in [seat.player.name for seat in session.seats.all()]


def test_a_hand_forms_note_with_a_line_separator_or_a_direction_control_is_refused(logged_in, make_session):
    session = make_session()
    url = reverse("hand_new", args=[session.pk])
    for note, says in (
        ("gut\u2028gemacht", "must be one line: found U+2028 at character 4, a line break"),
        ("gut\u202egemacht", "must be text without direction controls"),
    ):
        html = logged_in.post(url, {**HAND_FORM, "token": "t", "note": note}).content.decode()
        assert 'id="f-note-error"' in html and says in html
    assert Hand.objects.count() == 0


# -- a name must show ------------------------------------------------------------------------

INVISIBLE = [
    "\u200b",
    "\u200c\u200d",
    "\u2060",
    "\ufeff",
    "\u200e\u200f",
    "\u0301",
    "\u3164",
    "\u2800",
    "\u00ad",
]
SHOWS_NOTHING = "must contain a letter, digit, symbol or punctuation mark"


@pytest.mark.parametrize("name", INVISIBLE)
def test_a_name_of_invisible_characters_is_refused_in_every_name_field(name, user, logged_in):
    from club.services import groups

    new = reverse("session_new_variant", args=["french"])
    base = {"name": "Freitag", "seat_1": "Anna", "seat_2": "Bert", "seat_3": "Carl", "seat_4": "Dora"}
    for field in ("name", "seat_2"):
        response = logged_in.post(new, {**base, field: name})
        html = response.content.decode()
        assert response.status_code == 200, field
        # Beside the field it belongs to: "Name", "Seat 2".
        assert re.search(rf'id="id_{field}-error" role="alert">{SHOWS_NOTHING}', html), field
    assert Session.objects.count() == 0 and Player.objects.count() == 0
    for write in (
        lambda: groups.group_create(owner=user, name=name),
        lambda: groups.roster_add(group=groups.group_create(owner=user, name="Club"), name=name),
    ):
        with pytest.raises(InvalidInput) as caught:
            write()
        assert caught.value.field == "name" and SHOWS_NOTHING in str(caught.value)
    session = services.session_import(owner=user, text=text())
    with pytest.raises(InvalidInput) as caught:
        services.session_rename_player(session=session, user=user, old="Bert", new=name)
    assert SHOWS_NOTHING in str(caught.value)
    settings = reverse("session_settings", args=[session.pk])
    response = logged_in.post(settings, {"name": name, "played_on": "2026-11-20", "money_rate": ""})
    assert SHOWS_NOTHING in response.content.decode()
    session.refresh_from_db()
    assert session.name == "Freitag" and [seat.name for seat in session.seats.order_by("position")] == PLAYERS


@pytest.mark.parametrize(
    "name",
    ["Ädä", "李", "٣", "★", "?!", "🃏", "Anna\u200b", "\u05d3\u05e0\u05d4\u200f", "👩\u200d👩", "Zoe\u0308"],
)
def test_a_name_with_anything_that_shows_is_kept(name, user):
    session = services.session_import(
        owner=user, text=text(name=name, players=["Anna", name, "Carl", "Dora"])
    )
    assert session.name == name and name in [seat.name for seat in session.seats.all()]


@pytest.mark.parametrize(
    ("language", "says"),
    [
        ("de", "muss einen Buchstaben, eine Ziffer, ein Symbol oder ein Satzzeichen enthalten"),
        ("fr", "doit contenir une lettre, un chiffre, un symbole ou un signe de ponctuation"),
    ],
)
def test_the_refusal_of_an_invisible_name_says_what_is_allowed_in_the_readers_language(
    user, client_for, language, says
):
    client = client_for(user)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    base = {"name": "Freitag", "seat_1": "Anna", "seat_2": "\u200b", "seat_3": "Carl", "seat_4": "Dora"}
    html = client.post(reverse("session_new_variant", args=["french"]), base).content.decode()
    assert says in html
