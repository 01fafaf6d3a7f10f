"""The engine on the phone: the same ``scoring/engine/`` package, shipped as a
versioned bundle with the release and run by Pyodide in a worker (static/js/engine.js).

Two things are built from the release (``manage.py build_phone``, run by ``make``):

- the runtime: the files of the npm package ``pyodide`` (pinned in package.json and
  package-lock.json) the phone needs, copied from node_modules to
  ``var/pyodide/<version>/`` with a gzipped and a Brotli copy of each, served at
  ``/phone/pyodide/<version>/<name>`` for a year (the folder is the version), in the
  best encoding the browser accepts;
- the engine bundle ``var/phone/engine-<hash>.zip`` (deflated): ``scoring/engine/``
  compiled by the phone's own Python (``scripts/compile_engine.mjs``: the pinned
  Pyodide in Node writes a ``.pyc`` of each module; the server's CPython is another
  version, whose ``.pyc`` the phone could not load), so that the phone does not
  compile the engine on every cold start, and a message catalog (German, French,
  English) of every text the engine's sources hold, read from the compiled catalogs,
  so that a refusal on the phone reads the same words as on the server. The hash is
  over the engine's sources, the catalogs and the Pyodide version that compiled
  them: a deploy that changes only templates keeps the same bundle (no new download),
  one that changes the engine, its words or the runtime gets a new name.

``tests/scoring/test_phone.py`` fails when the bundle built is not the one the sources
give (a stale bundle).
"""

from __future__ import annotations

import ast
import base64
import gettext
import gzip
import hashlib
import io
import json
import os
import subprocess
import zipfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

import brotli
from django.conf import settings
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.formats import get_format

from plumbing import queries
from scoring.engine import VARIANTS, StoredHand
from scoring.engine.session_file import hand_document
from scoring.engine.types import points_from_json, points_to_json
from scoring.models import Hand

PYODIDE_VERSION = "314.0.7"
# What the phone loads of the npm package: the loader, the interpreter and its standard library.
RUNTIME_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
CONTENT_TYPES = {
    ".mjs": "text/javascript; charset=utf-8",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".json": "application/json",
}
# The runtime's encodings, best first: each file's copy beside it, sent where the browser accepts it.
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))
# Brotli at 10: 2.79 MB for the 9.6 MB interpreter against gzip's 3.53 MB, in 15 s of
# CPU, once per runtime version (copies already made are kept); its best (11) gains
# another 50 kB for 10 s more, 9 loses 310 kB.
BROTLI_QUALITY = 10
LANGUAGES = ("de", "fr", "en")
ENGINE = Path(__file__).resolve().parent / "engine"
# Put beside the engine in the bundle: an empty package for ``scoring`` (the real one is Django's).
PACKAGE_INIT = b'"""The engine on the phone (the bundle holds scoring/engine only)."""\n'
COMPILER = Path(__file__).resolve().parent.parent / "scripts" / "compile_engine.mjs"


def base() -> Path:
    return Path(settings.BASE_DIR)


def runtime_folder() -> Path:
    return base() / "var" / "pyodide" / PYODIDE_VERSION


def bundle_folder() -> Path:
    return base() / "var" / "phone"


def engine_sources() -> list[Path]:
    return sorted(ENGINE.glob("*.py"))


def catalog_files() -> list[Path]:
    return [base() / "locale" / lang / "LC_MESSAGES" / "django.mo" for lang in LANGUAGES if lang != "en"]


def engine_texts() -> set[str]:
    """Every string written in the engine's sources: its templates, labels and refusals."""
    texts: set[str] = set()
    for path in engine_sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.strip():
                texts.add(node.value)
    return texts


def catalog() -> dict[str, Any]:
    """Per language: the decimal separator and each engine text's translation (where it differs)."""
    texts = sorted(engine_texts())
    out: dict[str, Any] = {}
    for lang in LANGUAGES:
        mo = base() / "locale" / lang / "LC_MESSAGES" / "django.mo"
        words: dict[str, str] = {}
        if mo.exists():
            with mo.open("rb") as handle:
                translations = gettext.GNUTranslations(handle)
            words = {text: said for text in texts if (said := translations.gettext(text)) != text}
        with translation.override(lang):
            separator = str(get_format("DECIMAL_SEPARATOR"))
        out[lang] = {"decimal": separator, "words": words}
    return out


@cache
def engine_hash() -> str:
    """The bundle's name: a fingerprint of the engine's sources, the catalogs it reads
    and what compiles it for the phone (the Pyodide version and the compiling script)."""
    digest = hashlib.sha256(f"pyodide {PYODIDE_VERSION}\0".encode())
    for path in [*engine_sources(), *catalog_files(), COMPILER]:
        digest.update(path.name.encode() + b"\0" + (path.read_bytes() if path.exists() else b"") + b"\0")
    return digest.hexdigest()[:16]


def bundle_name() -> str:
    return f"engine-{engine_hash()}.zip"


def bundle_sources() -> dict[str, bytes]:
    """The modules the bundle carries, by their path in it: the engine and an empty ``scoring``."""
    sources = {"scoring/__init__.py": PACKAGE_INIT}
    sources.update({f"scoring/engine/{path.name}": path.read_bytes() for path in engine_sources()})
    return sources


def compiled(sources: dict[str, bytes]) -> dict[str, bytes]:
    """Each module compiled by the pinned Pyodide in Node (node_modules/pyodide beside
    the script): its ``.pyc`` by the module's path."""
    text = json.dumps({path: source.decode() for path, source in sources.items()})
    done = subprocess.run(["node", str(COMPILER)], input=text.encode(), capture_output=True, check=False)
    if done.returncode:
        last = done.stderr.decode(errors="replace").strip().splitlines()[-1:]
        raise RuntimeError(f"the engine could not be compiled for the phone: {' '.join(last)}")
    return {path: base64.b64decode(pyc) for path, pyc in json.loads(done.stdout).items()}


def bundle_bytes() -> bytes:
    """The bundle, the same bytes for the same sources (fixed dates and order): each
    module as the phone's Python compiled it (``name.pyc`` where ``name.py`` would be:
    loaded without its source) and the catalog, every entry deflated."""
    pycs = compiled(bundle_sources())
    entries = [(path.removesuffix(".py") + ".pyc", pyc) for path, pyc in pycs.items()]
    text = json.dumps(catalog(), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    entries.append(("scoring/engine/catalog.json", text.encode()))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as bundle:
        for name, data in entries:
            entry = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            bundle.writestr(entry, data, compresslevel=9)
    return buffer.getvalue()


def build_bundle() -> Path:
    """Write this release's bundle and drop the others."""
    folder = bundle_folder()
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / bundle_name()
    for old in folder.glob("engine-*.zip"):
        if old != target:
            old.unlink()
    target.write_bytes(bundle_bytes())
    return target


def encoded(data: bytes, encoding: str) -> bytes:
    if encoding == "br":
        return bytes(brotli.compress(data, quality=BROTLI_QUALITY))
    return gzip.compress(data, compresslevel=9, mtime=0)


def copy_runtime(node_modules: Path | None = None) -> Path:
    """The runtime's files from the npm package into var/pyodide/<version>/, each with
    a gzipped and a Brotli copy (made again only where the file changed or one is missing)."""
    source = (node_modules or base() / "node_modules") / "pyodide"
    installed = json.loads((source / "package.json").read_text(encoding="utf-8"))["version"]
    if installed != PYODIDE_VERSION:
        raise RuntimeError(
            f"node_modules holds pyodide {installed}, the phone needs {PYODIDE_VERSION}: npm ci"
        )
    target = runtime_folder()
    target.mkdir(parents=True, exist_ok=True)
    copies: list[tuple[Path, bytes, str]] = []
    for name in RUNTIME_FILES:
        data = (source / name).read_bytes()
        kept = (target / name).exists() and (target / name).read_bytes() == data
        if not kept:
            (target / name).write_bytes(data)
        for encoding, suffix in ENCODINGS:
            copy = target / f"{name}{suffix}"
            if not (kept and copy.exists()):
                copies.append((copy, data, encoding))

    def write(job: tuple[Path, bytes, str]) -> None:
        copy, data, encoding = job
        copy.write_bytes(encoded(data, encoding))

    # Brotli and zlib let go of the interpreter while they compress: the copies are made
    # side by side, the interpreter's Brotli copy (most of the time) first.
    copies.sort(key=lambda job: (len(job[1]), job[2] == "br"), reverse=True)
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        list(pool.map(write, copies))
    return target


def accepted(header: str) -> set[str]:
    """The content codings an Accept-Encoding header accepts (those with q=0 refused)."""
    codings = set()
    for part in header.split(","):
        coding, *params = [piece.strip() for piece in part.split(";")]
        refused = any(p.replace(" ", "").lower() in ("q=0", "q=0.0", "q=0.00", "q=0.000") for p in params)
        if coding and not refused:
            codings.add(coding.lower())
    return codings


def encoded_copy(path: Path, header: str) -> tuple[Path, str | None]:
    """The file to send for ``path`` and its Content-Encoding: the best copy the
    browser accepts (Brotli, then gzip), else the file itself."""
    codings = accepted(header)
    for encoding, suffix in ENCODINGS:
        copy = path.with_name(path.name + suffix)
        if encoding in codings and copy.exists():
            return copy, encoding
    return path, None


def runtime_ready() -> bool:
    return all((runtime_folder() / name).exists() for name in RUNTIME_FILES)


def bundle_ready() -> bool:
    return (bundle_folder() / bundle_name()).exists()


# -- what a page tells the phone's engine ------------------------------------------------


def engine_config() -> dict[str, Any] | None:
    """Where the phone's engine comes from (the offline script's config); none while
    the runtime or this release's bundle is not built: the phone then works as before."""
    if not (runtime_ready() and bundle_ready()):
        return None
    runtime = reverse("phone_runtime", args=[PYODIDE_VERSION, RUNTIME_FILES[0]]).removesuffix(
        RUNTIME_FILES[0]
    )
    return {
        "runtime": runtime,
        "runtimeFiles": [runtime + name for name in RUNTIME_FILES],
        "runtimeCache": f"pyodide-{PYODIDE_VERSION}",
        "bundle": reverse("phone_bundle", args=[bundle_name()]),
        "bundleCache": f"engine-{engine_hash()}",
        "script": static("js/engine.js"),
        "worker": static("js/engine-worker.js"),
        "sw": static("js/sw-engine.js"),
    }


# What the phone reads of a stored hand where a hand's score depends on the hands
# before it: its record (its snapshot: ``queries.live_snapshots``).
RECORD_FIELDS = ("id", "version", "type", "dealer", "sitting_out", "inputs", "note")


def evening(
    session: Any,
    game: Any,
    hands: Sequence[StoredHand] | None = None,
    rows: Sequence[tuple[int, str, int]] = (),
) -> dict[str, Any] | None:
    """The evening as the phone's engine reads it: the game, the house rules as stored,
    the money per point, the number of hands it is played to (a tournament table's),
    and every live hand as stored (``Hand.stored``; ``hands`` and their ``rows``, each
    (id, kind, version), where the caller has them, as the sheet does), each with its id
    (a correction waiting on the phone names it) and kind (redeals do not count toward
    the target). Where a hand's score depends on the hands before it (doubled Radl),
    each also with its record, to score the hands after a corrected one again: read
    apart from the snapshots, so a hand changed in between (another version) gets none
    and is left as stored. None for a game the engine on the phone does not have (a
    deployment's own game)."""
    variant = VARIANTS.get(session.variant)
    if variant is None or variant is not game.variant:
        return None
    looks_back = variant.looks_back(game.options)
    kept: dict[tuple[int, int], Any] = {}
    if looks_back:  # one statement: the records, by hand and version
        live = Hand.objects.filter(session_id=session.pk, deleted_at__isnull=True)
        kept = {(row["id"], row["version"]): _record(row) for row in live.values(*RECORD_FIELDS)}
    if hands is None:  # the snapshots' JSON passed on as stored
        stored = [
            _stored_row(row, kept.get((row["id"], row["version"])))
            for row in queries.live_snapshots(session.pk)
        ]
    else:
        stored = [
            _stored_hand(hand, (hand_id, kind, version), kept.get((hand_id, version)))
            for hand, (hand_id, kind, version) in zip(hands, rows, strict=True)
        ]
    return {
        "variant": session.variant,
        "players": list(game.players),
        "options": session.options,
        "rate": None if session.money_rate is None else str(session.money_rate),
        "first": session.first_dealer,
        "target": session.hands_target,
        "stored": stored,
    }


def _record(row: dict[str, Any]) -> dict[str, Any]:
    """A hand as the session file writes it (``Hand.as_session_hand``), from its columns."""
    return hand_document(row["type"], row["dealer"], row["sitting_out"], row["inputs"], row["note"])


def _stored_row(row: dict[str, Any], record: Any) -> dict[str, Any]:
    """A stored hand for the phone, from its columns."""
    money = row["money"]
    return {
        "id": row["id"],
        "type": row["type"],
        "version": row["version"],
        "record": record,
        "dealer": row["dealer"] or "",
        "deltas": _points(row["deltas"]),
        "facts": sorted(row["facts"]),
        "money": None if money is None else _points(money),
    }


def _points(stored: dict[str, Any]) -> dict[str, Any]:
    """Points as stored, written as the engine writes them: an integer is passed on as
    it is, anything else read and written again (a stored hand's halves)."""
    return {
        name: value if type(value) is int else points_to_json(points_from_json(value))
        for name, value in stored.items()
    }


def _stored_hand(hand: StoredHand, row: tuple[int, str, int], record: Any) -> dict[str, Any]:
    """A stored hand for the phone, from the sheet's snapshots and its (id, kind, version)."""
    hand_id, kind, version = row
    return {
        "id": hand_id,
        "type": kind,
        "version": version,
        "record": record,
        "dealer": hand.dealer or "",
        "deltas": {name: points_to_json(value) for name, value in hand.deltas.items()},
        "facts": sorted(hand.facts),
        "money": None if hand.money is None else {name: points_to_json(v) for name, v in hand.money.items()},
    }
