"""The engine on the phone: the runtime and the bundle the server gives it, and the
proof that the phone's scoring (scoring/engine/offline.py, run there by Pyodide) is
the server's: every game's hands, read from the server's own hand forms, score the
same deltas, totals and next dealer, and an impossible hand is refused in the same words."""

from __future__ import annotations

import _imp
import gzip
import importlib.util
import io
import json
import re
import shutil
import subprocess
import zipfile
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import brotli
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring import phone, services
from scoring.engine import offline as on_the_phone
from scoring.models import Hand, HandChange
from scoring.schema_forms import widget_id
from tests.engine.support import FIXTURES
from tests.scoring.test_offline import config_of

RUN_BUNDLE = Path(__file__).resolve().parents[1] / "pyodide" / "run_bundle.mjs"
GAMES = [
    "rich-french.json",
    "rich-chambery.json",
    "rich-chambery-croise.json",
    "chambery-seed-three-players.json",
    "illustrated-seed-series.json",
    "rich-illustrated.json",
    "koenigrufen-ooe-settlements.json",
    "koenigrufen-ooe-trischaken.json",
]


class FormReader(HTMLParser):
    """What a browser posts of the hand form as drawn (not the fields kept in <template>s)."""

    def __init__(self) -> None:
        super().__init__()
        self.pairs: list[tuple[str, str]] = []
        self.in_form = False
        self.template = 0
        self.select: str | None = None
        self.options: list[tuple[str, bool]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("id") == "hand-form":
            self.in_form = True
        if tag == "template":
            self.template += 1
        if not self.in_form or self.template:
            return
        if tag == "input" and a.get("name"):
            kind = a.get("type", "text")
            if kind in ("radio", "checkbox") and "checked" not in a:
                return
            if kind in ("submit", "button"):
                return
            self.pairs.append((a["name"], a.get("value", "on" if kind == "checkbox" else "")))
        elif tag == "select" and a.get("name"):
            self.select, self.options = a["name"], []
        elif tag == "option" and self.select is not None:
            self.options.append((a.get("value", ""), "selected" in a))

    def handle_endtag(self, tag: str) -> None:
        if tag == "template":
            self.template -= 1
        elif tag == "form" and self.in_form and not self.template:
            self.in_form = False
        elif tag == "select" and self.select is not None:
            chosen = next((v for v, s in self.options if s), self.options[0][0] if self.options else "")
            self.pairs.append((self.select, chosen))
            self.select = None


def form_pairs(client: Client, url: str) -> list[tuple[str, str]]:
    response = client.get(url)
    assert response.status_code == 200, url
    reader = FormReader()
    reader.feed(response.content.decode())
    return [(n, v) for n, v in reader.pairs if n not in ("csrfmiddlewaretoken", "token")]


def evening_of(session: Any) -> dict[str, Any]:
    data = phone.evening(session, services.game_of(session))
    assert data is not None
    return data


@pytest.mark.parametrize("fixture", GAMES)
def test_every_hand_read_from_the_servers_form_scores_on_the_phone_as_the_server_stored_it(
    fixture, user, logged_in
):
    session = services.session_import(owner=user, text=(FIXTURES / fixture).read_text(encoding="utf-8"))
    hands = list(Hand.objects.filter(session=session, deleted_at__isnull=True).order_by("number"))
    assert hands
    evening = evening_of(session)
    forms = [form_pairs(logged_in, reverse("hand_edit", args=[session.pk, h.pk])) for h in hands]
    for index, (hand, pairs) in enumerate(zip(hands, forms, strict=True)):
        one = on_the_phone.score_table({**evening, "stored": evening["stored"][:index], "waiting": [pairs]})
        outcome = one["hands"][0]
        assert outcome["ok"], (hand.number, outcome)
        phone_deltas = {name: value for name, value, _ in outcome["deltas"]}
        assert phone_deltas == {
            name: on_the_phone.Words("en").signed(value) for name, value in hand.delta_points().items()
        }, hand.number
    # All of them waiting on the phone: the totals, the next dealer and the settlement the server's.
    waiting = on_the_phone.score_table({**evening, "stored": [], "waiting": forms})
    server = on_the_phone.score_table({**evening, "waiting": []})
    assert waiting["exact"] == server["exact"]
    assert waiting["settlement"] == server["settlement"]
    if all(h.dealer for h in hands):  # a file's hands without dealers get one in the form
        assert waiting["next_dealer"] == services.proposed_dealer(session, services.game_of(session))
    assert server["next_dealer"] == services.proposed_dealer(session, services.game_of(session))


@pytest.mark.parametrize("fixture", GAMES)
def test_the_rows_in_sight_the_phone_fills_are_the_ones_the_sheet_draws_with_the_same_numbers(
    fixture, user, logged_in
):
    from scoring.presentation import signed
    from scoring.sheet import build_sheet

    session = services.session_import(owner=user, text=(FIXTURES / fixture).read_text(encoding="utf-8"))
    hands = list(Hand.objects.filter(session=session, deleted_at__isnull=True).order_by("number"))
    forms = [form_pairs(logged_in, reverse("hand_edit", args=[session.pk, h.pk])) for h in hands]
    sheet = build_sheet(session)
    drawn = [[row.key, [signed(value) for value in row.values]] for row in sheet.head_rows]
    evening = evening_of(session)
    with translation.override("en"):
        # What the server stored, and the same hands all waiting on the phone: the sheet's rows, its numbers.
        for scored in (
            on_the_phone.score_table({**evening, "waiting": [], "lang": "en"}),
            on_the_phone.score_table({**evening, "stored": [], "waiting": forms, "lang": "en"}),
        ):
            assert [[key, [value for value, _ in cells]] for key, _, cells in scored["heads"]] == drawn


def test_sixty_waiting_hands_are_scored_in_one_call_each_in_its_place(user, logged_in):
    source = services.session_import(
        owner=user, text=(FIXTURES / "rich-french.json").read_text(encoding="utf-8")
    )
    hands = list(
        Hand.objects.filter(session=source, deleted_at__isnull=True, type="played").order_by("number")
    )
    forms = [form_pairs(logged_in, reverse("hand_edit", args=[source.pk, h.pk])) for h in hands]
    sixty = [forms[i % len(forms)] for i in range(60)]
    evening = evening_of(source)
    result = on_the_phone.score_table({**evening, "stored": [], "waiting": sixty})
    assert result["count"] == 60
    assert all(outcome["ok"] for outcome in result["hands"])
    assert sum(Fraction(value) for value in result["exact"].values()) == 0


@pytest.mark.parametrize(
    ("variant", "players"),
    [
        ("french", ("Anna", "Bert", "Carl", "Dora")),
        ("chambery", ("Anna", "Bert", "Carl", "Dora")),
        ("illustrated", ("Anna", "Bert", "Carl")),
        ("koenigrufen", ("Anna", "Bert", "Carl", "Dora")),
    ],
)
def test_an_empty_hand_is_refused_on_the_phone_in_the_servers_words(
    variant, players, make_session, logged_in, monkeypatch
):
    monkeypatch.setattr(on_the_phone, "_catalog", phone.catalog)  # on the phone: catalog.json in the bundle
    session = make_session(variant=variant, players=players)
    page = logged_in.get(reverse("hand_new", args=[session.pk])).content.decode()
    drawn = json.loads(
        re.search(r'<script id="hand-inputs" type="application/json">(.*?)</script>', page).group(1)
    )
    pairs = form_pairs(logged_in, reverse("hand_new", args=[session.pk]))
    posted = {name: value for name, value in pairs}
    response = logged_in.post(
        reverse("hand_new", args=[session.pk]), {**posted, "action": "save"}, HTTP_ACCEPT_LANGUAGE="de"
    )
    found = re.search(r'data-summary role="alert">(.*?)</p>', response.content.decode(), re.S)
    assert found
    # The summary beside the save button: each problem linked to its input, in the form's order.
    server = [
        (anchor, " ".join(re.sub(r"<[^>]+>", " ", link).split()))
        for anchor, link in re.findall(r"<a href=\"#([^\"]*)\">(.*?)</a>", found.group(1), re.S)
    ]
    assert len(server) >= 2
    result = on_the_phone.score_table(
        {**evening_of(session), "waiting": [pairs], "lang": "de", "inputs": drawn}
    )
    outcome = result["hands"][0]
    assert not outcome["ok"]
    # The same problems in the same order, each placed at the same input as the server's.
    assert [p["words"] for p in outcome["problems"]] == [_unescape(words) for _, words in server]
    assert [widget_id(p["input"]) if p["input"] else "hand-fields" for p in outcome["problems"]] == [
        anchor for anchor, _ in server
    ]
    assert Hand.objects.filter(session=session).count() == 0


def deleted_from(client: Client, session: Any, hand: Hand, version: int) -> Any:
    """The hand deleted from its page as drawn at ``version``."""
    return client.post(reverse("hand_delete", args=[session.pk, hand.pk]), {"version": str(version)})


# Corrections and deletions waiting on the phone: each game, and doubled Radl, where a
# hand's score depends on the hands before it and the hands after a change score anew.
CHANGED = [
    *((fixture, False) for fixture in GAMES if fixture != "chambery-seed-three-players.json"),  # one hand
    ("koenigrufen-ooe-trischaken.json", True),
    ("koenigrufen-ooe-settlements.json", True),
]


@pytest.mark.parametrize(("fixture", "doubled_radl"), CHANGED)
def test_corrections_and_deletions_waiting_on_the_phone_score_as_the_server_then_stores_them(
    fixture, doubled_radl, user, logged_in
):
    document = json.loads((FIXTURES / fixture).read_text(encoding="utf-8"))
    if doubled_radl:
        document["options"]["doubled_radl"] = True
    session = services.session_import(owner=user, text=json.dumps(document))
    hands = list(Hand.objects.filter(session=session, deleted_at__isnull=True).order_by("number"))
    assert len(hands) >= 2
    evening = evening_of(session)
    assert all(("record" in h) and ((h["record"] is not None) == doubled_radl) for h in evening["stored"])
    # A hand is corrected to what a later one of its kind was (a correction keeps the
    # hand's kind, as its form does); the first other hand is deleted.
    corrected, model = next(
        (a, b)
        for a in hands[1:] + hands[:1]
        for b in reversed(hands)
        if a.number < b.number and a.type == b.type
    )
    deleted = next((h for h in hands if h not in (corrected, model)), None)
    deletion = [] if deleted is None else [{"hand": deleted.pk, "delete": True}]
    edit = reverse("hand_edit", args=[session.pk, corrected.pk])
    pairs = form_pairs(logged_in, reverse("hand_edit", args=[session.pk, model.pk]))
    phone_side = on_the_phone.score_table(
        {
            **evening,
            "changes": [*deletion, {"hand": corrected.pk, "fields": pairs}],
            "waiting": [],
        }
    )
    outcome = phone_side["changes"][-1]
    assert outcome["ok"], outcome
    assert phone_side["changes"][:-1] == [{"ok": True, "deleted": True}] * len(deletion)
    assert phone_side["count"] == len(hands) - len(deletion)

    # The server is sent the same, in the same order, each with the version its page was
    # drawn at (under doubled Radl the deletion scores the corrected hand again meanwhile).
    drawn_at = corrected.version
    if deleted is not None:
        assert deleted_from(logged_in, session, deleted, deleted.version).status_code == 302
    response = logged_in.post(edit, {**dict(pairs), "token": str(drawn_at), "action": "save"})
    assert response.status_code == 302, response.content.decode()[:2000]
    corrected.refresh_from_db()
    assert {name: value for name, value, _ in outcome["deltas"]} == {
        name: on_the_phone.Words("en").signed(value) for name, value in corrected.delta_points().items()
    }
    server_side = on_the_phone.score_table({**evening_of(session), "waiting": []})
    assert phone_side["exact"] == server_side["exact"]
    assert phone_side["settlement"] == server_side["settlement"]
    assert phone_side["next_dealer"] == server_side["next_dealer"]
    if doubled_radl and deleted is not None and fixture.endswith("trischaken.json"):
        # Deleting a Trischaken changes what doubles the hands after it: the phone scored
        # them anew, as the server did (their snapshots alone would sum to other totals).
        unscored = [{**h, "record": None} for h in evening["stored"]]
        alone = on_the_phone.score_table(
            {**evening, "stored": unscored, "changes": [{"hand": deleted.pk, "delete": True}], "waiting": []}
        )
        assert (
            alone["exact"]
            != on_the_phone.score_table(
                {**evening, "changes": [{"hand": deleted.pk, "delete": True}], "waiting": []}
            )["exact"]
        )


def test_a_correction_of_a_hand_the_page_does_not_know_is_left_to_the_server(user):
    session = services.session_import(
        owner=user, text=(FIXTURES / "rich-french.json").read_text(encoding="utf-8")
    )
    evening = evening_of(session)
    result = on_the_phone.score_table(
        {
            **evening,
            "changes": [{"hand": 10**9, "fields": []}, {"hand": 10**9, "delete": True}],
            "waiting": [],
        }
    )
    assert [c.get("unknown") for c in result["changes"]] == [True, True]
    assert result["exact"] == on_the_phone.score_table({**evening, "waiting": []})["exact"]


def _unescape(text: str) -> str:
    import html

    return html.unescape(text)


# -- the runtime and the bundle --------------------------------------------------------


def built_bundle() -> zipfile.ZipFile:
    return zipfile.ZipFile(phone.bundle_folder() / phone.bundle_name())


def compiled_from(pyc: bytes, source: bytes) -> bool:
    """Whether an unchecked hash-based .pyc was compiled from ``source``: its header
    holds the source's hash keyed by the magic number of the Python that wrote it."""
    unchecked_hash_based = 0b01
    magic = int.from_bytes(pyc[:4], "little")
    return int.from_bytes(pyc[4:8], "little") == unchecked_hash_based and pyc[8:16] == _imp.source_hash(
        magic, source
    )


def test_the_built_bundle_is_this_releases_engine_not_a_stale_one():
    built = phone.bundle_folder() / phone.bundle_name()
    assert built.exists(), "make phone builds it"
    bundle = built_bundle()
    sources = phone.bundle_sources()
    assert sorted(bundle.namelist()) == sorted(
        [*(path.removesuffix(".py") + ".pyc" for path in sources), "scoring/engine/catalog.json"]
    )
    stale = [path for path, source in sources.items() if not compiled_from(bundle.read(path + "c"), source)]
    assert stale == [], "the bundle is stale: make phone"
    assert json.loads(bundle.read("scoring/engine/catalog.json")) == phone.catalog()
    assert [p.name for p in phone.bundle_folder().glob("engine-*.zip")] == [built.name]


def test_the_bundle_carries_the_engine_compiled_and_the_servers_words():
    bundle = built_bundle()
    names = set(bundle.namelist())
    assert {f"scoring/engine/{p.stem}.pyc" for p in phone.engine_sources()} <= names
    assert not [name for name in names if name.endswith(".py")]  # compiled: no sources to compile again
    magics = {bundle.read(name)[:4] for name in names if name.endswith(".pyc")}
    assert len(magics) == 1 and magics != {importlib.util.MAGIC_NUMBER}  # the phone's Python, not ours
    catalog = json.loads(bundle.read("scoring/engine/catalog.json"))
    assert catalog["de"]["words"]["{field} missing"] == "{field}: nicht angegeben"
    assert catalog["de"]["decimal"] == "," and catalog["en"]["decimal"] == "."


def test_the_phones_python_runs_the_built_bundle_compiled_and_scores_as_the_server(user, logged_in):
    session = services.session_import(
        owner=user, text=(FIXTURES / "koenigrufen-ooe-trischaken.json").read_text(encoding="utf-8")
    )
    hands = list(Hand.objects.filter(session=session, deleted_at__isnull=True).order_by("number"))
    evening = evening_of(session)
    forms = [form_pairs(logged_in, reverse("hand_edit", args=[session.pk, h.pk])) for h in hands[-3:]]
    argument = json.dumps({**evening, "stored": evening["stored"][:-3], "waiting": forms, "lang": "en"})
    done = subprocess.run(
        ["node", str(RUN_BUNDLE), str(phone.bundle_folder() / phone.bundle_name()), "score_table"],
        input=argument.encode(),
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    ran = json.loads(done.stdout)
    assert ran["result"] == json.loads(on_the_phone.call("score_table", argument))
    assert len(ran["result"]["hands"]) == 3 and all(hand["ok"] for hand in ran["result"]["hands"])
    assert "/engine/scoring/engine/offline.pyc" in ran["loaded"]
    assert [name for name in ran["loaded"] if not name.endswith(".pyc")] == []


def test_a_deploy_of_templates_keeps_the_bundle_and_one_of_the_engine_replaces_it(
    tmp_path, monkeypatch, settings
):
    before = phone.engine_hash()
    phone.engine_hash.cache_clear()
    # A template changed: the bundle keeps its name (no download on the phone).
    assert phone.engine_hash() == before
    engine = tmp_path / "engine"
    shutil.copytree(phone.ENGINE, engine, ignore=shutil.ignore_patterns("__pycache__"))
    (engine / "french.py").write_text((engine / "french.py").read_text() + '\nCHANGED = "a rule changed"\n')
    monkeypatch.setattr(phone, "ENGINE", engine)
    phone.engine_hash.cache_clear()
    try:
        assert phone.engine_hash() != before
        settings.BASE_DIR = tmp_path
        built = phone.build_bundle()
        assert built.name == phone.bundle_name() and [p.name for p in built.parent.iterdir()] == [built.name]
        pyc = zipfile.ZipFile(built).read("scoring/engine/french.pyc")
        assert b"a rule changed" in pyc
        assert compiled_from(pyc, (engine / "french.py").read_bytes())
    finally:
        phone.engine_hash.cache_clear()


def test_a_new_runtime_version_gives_a_new_bundle(monkeypatch):
    """A .pyc loads only on the Python that wrote it: another Pyodide, another bundle."""
    before = phone.engine_hash()
    monkeypatch.setattr(phone, "PYODIDE_VERSION", "315.0.0")
    phone.engine_hash.cache_clear()
    try:
        assert phone.engine_hash() != before
    finally:
        phone.engine_hash.cache_clear()


def test_the_bundle_is_sent_deflated_smaller_than_the_engines_sources(client, db):
    """What the phone downloads once per engine change: every entry of the zip
    deflated (so no Content-Encoding on top), well under the sources' size."""
    response = client.get(
        reverse("phone_bundle", args=[phone.bundle_name()]), HTTP_ACCEPT_ENCODING="gzip, br"
    )
    body = b"".join(response.streaming_content)
    assert response.status_code == 200 and "Content-Encoding" not in response
    entries = zipfile.ZipFile(io.BytesIO(body)).infolist()
    assert {entry.compress_type for entry in entries} == {zipfile.ZIP_DEFLATED}
    assert len(body) < sum(entry.file_size for entry in entries) / 2
    sources = sum(len(source) for source in phone.bundle_sources().values())
    assert len(body) < sources * 0.7, (len(body), sources)


def test_the_worker_keeps_the_runtime_and_bundle_in_caches_named_after_their_versions(client, db):
    config = config_of(client.get("/sw.js").content.decode())
    engine = config["engine"]
    assert engine["runtimeCache"] == f"pyodide-{phone.PYODIDE_VERSION}"
    assert engine["bundleCache"] == f"engine-{phone.engine_hash()}"
    assert engine["bundle"] == f"/phone/{phone.bundle_name()}"
    for url in [*engine["runtimeFiles"], engine["bundle"], engine["script"], engine["worker"]]:
        response = client.get(url)
        assert response.status_code == 200, url
        response.close()


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("pyodide.asm.wasm", "application/wasm"),
        ("pyodide.mjs", "text/javascript; charset=utf-8"),
        ("python_stdlib.zip", "application/zip"),
    ],
)
def test_runtime_files_are_served_typed_compressed_and_immutable(client, db, name, kind):
    url = reverse("phone_runtime", args=[phone.PYODIDE_VERSION, name])
    original = (phone.runtime_folder() / name).read_bytes()
    sent = {}
    for accepts, encoding, decode in [
        ("gzip, deflate, br, zstd", "br", brotli.decompress),
        ("br;q=0, gzip", "gzip", gzip.decompress),
        ("identity", None, bytes),
    ]:
        response = client.get(url, HTTP_ACCEPT_ENCODING=accepts)
        assert response.status_code == 200
        assert response["Content-Type"] == kind
        assert response.get("Content-Encoding") == encoding, accepts
        assert "Accept-Encoding" in response["Vary"]
        assert "immutable" in response["Cache-Control"] and "max-age=31536000" in response["Cache-Control"]
        body = b"".join(response.streaming_content)
        assert decode(body) == original, accepts
        sent[encoding] = len(body)
    assert sent["br"] <= sent["gzip"] <= sent[None]
    if name != "python_stdlib.zip":  # already a zip: little left to gain
        assert sent["br"] < sent["gzip"] < sent[None] * 0.6


def test_the_runtime_is_sent_in_under_half_its_size_where_brotli_is_taken():
    """The whole runtime as the view picks its files (the test above follows each
    through the view): the standard library is a zip already, the interpreter is not."""
    sizes = {}
    for accepts in ("", "gzip", "gzip, br"):
        picked = [phone.encoded_copy(phone.runtime_folder() / name, accepts) for name in phone.RUNTIME_FILES]
        assert {encoding for _, encoding in picked} == {(accepts.split(", ")[-1] or None)}
        sizes[accepts] = sum(path.stat().st_size for path, _ in picked)
    assert sizes["gzip, br"] < sizes["gzip"] < sizes[""]
    assert sizes["gzip, br"] < 0.45 * sizes[""], sizes


def test_accept_encoding_is_read_by_its_codings_and_weights():
    assert phone.accepted("gzip, deflate, br") == {"gzip", "deflate", "br"}
    assert phone.accepted("br;q=0, GZIP;q=0.5") == {"gzip"}
    assert phone.accepted("br; q=0.0,gzip") == {"gzip"}
    assert phone.accepted("") == set()
    assert phone.accepted("brotli, xgzip") == {"brotli", "xgzip"}  # no substring matches


@pytest.mark.parametrize("who", ["anonymous", "user"])
def test_only_the_pinned_runtime_and_this_releases_bundle_are_served_and_nothing_is_posted(
    client, logged_in, who, db
):
    reader = client if who == "anonymous" else logged_in
    assert reader.get(reverse("phone_runtime", args=["0.0.1", "pyodide.mjs"])).status_code == 404
    assert (
        reader.get(reverse("phone_runtime", args=[phone.PYODIDE_VERSION, "package.json"])).status_code == 404
    )
    assert reader.get(reverse("phone_bundle", args=["engine-0000000000000000.zip"])).status_code == 404
    bundle = reader.get(reverse("phone_bundle", args=[phone.bundle_name()]))
    assert bundle.status_code == 200 and bundle["Content-Type"] == "application/zip"
    assert b"".join(bundle.streaming_content) == (phone.bundle_folder() / phone.bundle_name()).read_bytes()
    assert "private" not in bundle["Cache-Control"]
    for url in (
        reverse("phone_bundle", args=[phone.bundle_name()]),
        reverse("phone_runtime", args=[phone.PYODIDE_VERSION, "pyodide.mjs"]),
    ):
        assert reader.post(url).status_code in (403, 405)


def test_the_pages_allow_webassembly_from_the_apps_own_files(client, db):
    policy = client.get("/accounts/login/")["Content-Security-Policy"]
    assert "script-src 'self' 'wasm-unsafe-eval'" in policy
    assert "unsafe-eval'" not in policy.replace("'wasm-unsafe-eval'", "")


def test_without_a_built_runtime_the_pages_do_not_offer_the_engine(
    monkeypatch, settings, tmp_path, logged_in, make_session
):
    settings.BASE_DIR = Path(tmp_path)
    session = make_session()
    page = logged_in.get(reverse("scoreboard", args=[session.pk])).content.decode()
    config = json.loads(
        re.search(r'id="offline-config" type="application/json">(.*?)</script>', page).group(1)
    )
    assert config["engine"] is None


# -- a change sent from a form drawn before another hand's change scored its hand again --


def _doubled_radl_evening(user):
    document = json.loads((FIXTURES / "koenigrufen-ooe-trischaken.json").read_text(encoding="utf-8"))
    document["options"]["doubled_radl"] = True
    session = services.session_import(owner=user, text=json.dumps(document))
    return session, list(Hand.objects.filter(session=session).order_by("number"))


def test_a_change_from_a_form_drawn_before_the_hand_was_only_scored_again_is_not_a_conflict(user, logged_in):
    session, hands = _doubled_radl_evening(user)
    first, second, third = hands[0], hands[1], hands[2]
    drawn_at = second.version
    edit = reverse("hand_edit", args=[session.pk, second.pk])
    form = {name: value for name, value in form_pairs(logged_in, edit)}
    # Another hand is deleted: the hands after it are scored again (a new version, same inputs).
    assert deleted_from(logged_in, session, first, first.version).status_code == 302
    second.refresh_from_db()
    assert second.version > drawn_at
    assert [c.action for c in second.changes.order_by("at", "id")][-1] == HandChange.Action.RESCORED
    # The correction made from the form drawn before stands.
    posted = {**form, "token": str(drawn_at), "action": "save"}
    response = logged_in.post(edit, posted)
    assert response.status_code == 302, response.content.decode()[:1500]
    second.refresh_from_db()
    assert [c.action for c in second.changes.order_by("at", "id")][-1] == HandChange.Action.EDITED
    # So does a deletion from a page drawn before the hand was scored again.
    third_drawn = third.version
    assert deleted_from(logged_in, session, second, second.version).status_code == 302
    third.refresh_from_db()
    assert third.version > third_drawn
    response = deleted_from(logged_in, session, third, third_drawn)
    assert response.status_code == 302
    third.refresh_from_db()
    assert third.deleted_at is not None


def test_a_change_from_a_form_drawn_before_someone_corrected_the_hand_is_still_a_conflict(
    user, other_user, logged_in
):
    session, hands = _doubled_radl_evening(user)
    second = hands[1]
    drawn_at = second.version
    edit = reverse("hand_edit", args=[session.pk, second.pk])
    form = {name: value for name, value in form_pairs(logged_in, edit)}
    services.hand_edit(hand=Hand.objects.get(pk=second.pk), raw=second.as_session_hand(), user=other_user)
    second.refresh_from_db()
    assert second.version > drawn_at
    response = logged_in.post(edit, {**form, "token": str(drawn_at), "action": "save"})
    assert response.status_code == 409
    response = deleted_from(logged_in, session, second, drawn_at)
    assert response.status_code == 409
    assert Hand.objects.get(pk=second.pk).deleted_at is None
