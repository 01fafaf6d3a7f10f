"""README and docs/ stay true: every repository path and make target they name
exists, every section of the rulebook the code cites is there, the README stays a
front door, and every command line of a code block tagged ``sh`` runs as written.

Blocks tagged ``console`` (or ``text``, ``json``, …) are shown, never run: they start
servers, write files or need a database or an account (docs/development.md says so).
The docs are read when the tests run, so a path that moves is caught at once."""

from __future__ import annotations

import os
import re
import subprocess
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
RULES = ROOT / "docs" / "rules.md"

# A name counts as a repository path when its first part is one of these.
TOP_FOLDERS = (
    ".ci",
    "accounts",
    "club",
    "docs",
    "locale",
    "plumbing",
    "scoring",
    "scripts",
    "static",
    "tarockscore",
    "templates",
    "tests",
)
TOP_FILES = (
    "Makefile",
    "README.md",
    "gunicorn.conf.py",
    "manage.py",
    "pyproject.toml",
    "requirements-dev.txt",
    "requirements.txt",
)

FENCE = re.compile(r"^```(\S*)\n(.*?)^```$", re.M | re.S)
INLINE = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)\)")
MAKE = re.compile(r"(?<![\w.-])make ([a-z][\w-]*)")
CITATION = re.compile(r"docs/rules\.md §(\d+(?:\.\d+)?)((?:(?:–|/|, | and )\d+(?:\.\d+)?)*)")
FOLLOWING = re.compile(r"\d+(?:\.\d+)?")
HEADING = re.compile(r"^#{2,3} (\d+(?:\.\d+)?)[. ]", re.M)


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def prose(path: Path) -> str:
    """The page without its fenced code blocks."""
    return FENCE.sub("", text(path))


def blocks(path: Path) -> list[tuple[str, str]]:
    """Each fenced code block as (its tag, its text)."""
    return [(match.group(1), match.group(2)) for match in FENCE.finditer(text(path))]


def named_paths(path: Path) -> list[str]:
    """The repository paths a page names in backticks or as relative links, from the
    repository's root (links resolved from the page's folder)."""
    found: list[str] = []
    for span in INLINE.findall(prose(path)):
        for word in span.split():
            word = word.strip(",;:()\"'")
            if (
                any(mark in word for mark in "<>{}*…")
                or "://" in word
                or re.fullmatch(r"tarockscore/\d+", word)
            ):
                continue
            first = word.split("/", 1)[0]
            if (first in TOP_FOLDERS and "/" in word) or word in TOP_FILES:
                found.append(word)
    for target in LINK.findall(prose(path)):
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            continue
        place = (path.parent / target.split("#", 1)[0]).resolve()
        found.append(place.relative_to(ROOT).as_posix())
    return found


def slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    words = "".join(
        char for char in heading.strip().lower() if char in " -_" or unicodedata.category(char)[0] in "LN"
    )
    return words.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {slug(line.lstrip("#")) for line in prose(path).splitlines() if line.startswith("#")}


def command_lines() -> list[tuple[str, str]]:
    """(page, line) for every command line of a block tagged ``sh``."""
    found = []
    for path in DOCS:
        for tag, body in blocks(path):
            if tag != "sh":
                continue
            for line in body.replace("\\\n", " ").splitlines():
                if line.strip() and not line.lstrip().startswith("#"):
                    found.append((path.relative_to(ROOT).as_posix(), line.strip()))
    return found


def test_the_readme_is_a_front_door_of_at_most_150_lines() -> None:
    lines = text(ROOT / "README.md").splitlines()
    assert len(lines) <= 150, len(lines)
    pages = ("playing", "rules", "session-file", "architecture", "adding-a-game", "deployment", "development")
    assert [page for page in (*pages, "performance") if f"(docs/{page}.md)" not in "\n".join(lines)] == []


@pytest.mark.parametrize("page", DOCS, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_every_repository_path_a_page_names_exists(page: Path) -> None:
    assert [name for name in named_paths(page) if not (ROOT / name).exists()] == []


# Files of the code that name other files in their comments and descriptions.
CODE_FILES = ("*.py", "*.js", "*.mjs", "package.json", "pyproject.toml", "Makefile")
FOLDERS = "|".join(re.escape(folder) for folder in TOP_FOLDERS)
CODE_PATH = re.compile(rf"\b((?:{FOLDERS})/[\w./-]+\.(?:py|js|mjs|json|md))\b")
# Made by the build, never in the repository: the engine bundle's catalog.
BUILT = {"scoring/engine/catalog.json"}


def code_paths() -> dict[str, set[str]]:
    """The repository paths the code's own text names, with the files naming them."""
    named: dict[str, set[str]] = {}
    files = [
        path
        for pattern in CODE_FILES
        for path in ROOT.rglob(pattern)
        if not {"node_modules", ".venv", "var", "vendor"} & set(path.relative_to(ROOT).parts)
        and not path.relative_to(ROOT).parts[0].startswith(".")
    ]
    for path in files:
        for name in CODE_PATH.findall(text(path)):
            named.setdefault(name, set()).add(path.relative_to(ROOT).as_posix())
    return named


def test_every_repository_path_the_code_names_exists() -> None:
    """A comment or description naming a file that was renamed or removed is caught."""
    named = code_paths()
    assert {"scoring/phone.py", "static/js/engine-worker.js", "scoring/engine/offline.py"} <= set(named)
    missing = {
        name: sorted(files)
        for name, files in named.items()
        if name not in BUILT and not (ROOT / name).exists()
    }
    assert missing == {}


def test_the_path_check_sees_the_paths_of_a_page() -> None:
    """The check above is not vacuous: it finds the paths the README names."""
    readme = named_paths(ROOT / "README.md")
    assert {"docs/rules.md", "docs/playing.md", "docs/architecture.md"} <= set(readme)
    assert "tests/scoring/test_a_new_game.py" in named_paths(ROOT / "docs" / "adding-a-game.md")


@pytest.mark.parametrize("page", DOCS, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_every_link_to_a_heading_finds_it(page: Path) -> None:
    broken = []
    for target in LINK.findall(prose(page)):
        if re.match(r"^[a-z]+:", target) or "#" not in target:
            continue
        file, anchor = target.split("#", 1)
        place = (page.parent / file).resolve() if file else page
        if place.exists() and anchor not in anchors(place):
            broken.append(target)
    assert broken == []


def test_every_make_target_the_docs_name_is_in_the_makefile() -> None:
    makefile = text(ROOT / "Makefile")
    targets = set(re.findall(r"^([a-z][\w-]*):", makefile, re.M))
    named = set()
    for path in DOCS:
        code = "\n".join([*INLINE.findall(prose(path)), *(body for _tag, body in blocks(path))])
        named |= set(MAKE.findall(code))
    assert {"run", "test", "bench", "load"} <= named
    assert named - targets == set()


def test_every_section_of_the_rulebook_the_code_cites_is_there() -> None:
    sections = set(HEADING.findall(text(RULES)))
    cited: dict[str, set[str]] = {}
    for folder in ("scoring", "plumbing", "club", "accounts", "tarockscore", "tests", "scripts", "templates"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in (".py", ".html", ".js") or not path.is_file():
                continue
            for match in CITATION.finditer(text(path)):
                numbers = [match.group(1), *FOLLOWING.findall(match.group(2))]
                for number in numbers:
                    cited.setdefault(number, set()).add(path.relative_to(ROOT).as_posix())
    assert len(cited) >= 15, sorted(cited)  # the engine and its tests cite it throughout
    assert {number: sorted(paths) for number, paths in cited.items() if number not in sections} == {}


def test_the_old_names_of_the_rulebook_and_the_session_format_are_gone() -> None:
    stale = re.compile(r"\bRULES(\.md)? \d|\bRULES\.md\b|SESSION_FORMAT\.md")
    found = []
    for folder in ("scoring", "plumbing", "club", "accounts", "tarockscore", "tests", "scripts"):
        for path in (ROOT / folder).rglob("*.py"):
            if path != Path(__file__) and stale.search(text(path)):
                found.append(path.relative_to(ROOT).as_posix())
    assert found == []


def test_the_docs_show_commands_that_are_run() -> None:
    lines = [line for _page, line in command_lines()]
    assert any("score_session" in line and "tests/fixtures/" in line for line in lines)
    assert not any(line.startswith(("make run", "make bench", "make load")) for line in lines)


@pytest.mark.parametrize("page, line", command_lines(), ids=[f"{p}: {c}" for p, c in command_lines()])
def test_a_command_line_of_the_docs_runs_as_written(page: str, line: str) -> None:
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run(
        ["bash", "-c", line], cwd=ROOT, env=env, capture_output=True, text=True, timeout=180
    )
    assert done.returncode == 0, f"{page}: {line}\n{done.stderr[-2000:]}"
    assert done.stdout.strip(), f"{page}: {line} printed nothing"


def test_every_page_of_the_docs_the_code_names_exists() -> None:
    named: dict[str, set[str]] = {}
    for folder in ("scoring", "plumbing", "club", "accounts", "tarockscore", "tests", "scripts"):
        for path in (ROOT / folder).rglob("*.py"):
            if path == Path(__file__):
                continue
            for page in re.findall(r"\bdocs/[\w-]+\.md\b", text(path)):
                named.setdefault(page, set()).add(path.relative_to(ROOT).as_posix())
    for path in (ROOT / "gunicorn.conf.py", ROOT / "Makefile"):
        for page in re.findall(r"\bdocs/[\w-]+\.md\b", text(path)):
            named.setdefault(page, set()).add(path.name)
    assert {"docs/rules.md", "docs/session-file.md"} <= set(named)
    assert {page: sorted(paths) for page, paths in named.items() if not (ROOT / page).exists()} == {}


def test_every_migration_the_docs_name_exists() -> None:
    migrations = {path.stem for path in ROOT.glob("*/migrations/0*.py")}
    named = set()
    for path in DOCS:
        for span in INLINE.findall(prose(path)):
            named |= set(re.findall(r"\b\d{4}_[a-z_]+\b", span))
    assert "0001_initial" in named
    assert named - migrations == set()


def koenigrufen_tables() -> str:
    """docs/playing.md's Königrufen tables, drawn from the engine's own data: the five
    tariff sets (games and values, Valat, Kontra, Trischaken) and the house rules."""
    from scoring.engine import tarock54
    from scoring.engine.koenigrufen import (
        BIRD_GAMES,
        GAME_LABEL,
        OPTION_FIELDS,
        PREMIUM_LABEL,
        PREMIUM_VALUES,
        SCHEME_LABEL,
        TARIFFS,
        VALAT_FIXED,
        VALAT_MULTIPLIERS,
        BesideValat,
        Game,
        PremiumType,
        ValatModel,
    )
    from scoring.engine.schema import Kind

    beside = {
        BesideValat.ANNOUNCED_ONLY: "announced ones only",
        BesideValat.WTC: "all but a silent Trull or Vier Könige",
        BesideValat.TIROL: "birds, König ultimo, Mondfang",
    }
    sets = list(TARIFFS.items())

    def row(label: str, cells: list[str]) -> str:
        return f"| {label} | " + " | ".join(cells) + " |"

    def value(game: Game, values: dict[Game, int]) -> str:
        if game not in values:
            return "–"
        if game in BIRD_GAMES:
            return f"{values[game]} + bird"
        if game is Game.SECHSERDREIER:
            return f"{values[game]} (lost {2 * values[game]})"
        return str(values[game])

    lines = [
        row("tariff", [f"`{tariff.value}`" for tariff, _ in sets]),
        "|" + "---|" * (len(sets) + 1),
        row("whose", [tariff_set.label for _, tariff_set in sets]),
    ]
    for game in Game:
        lines.append(row(GAME_LABEL[game], [value(game, dict(tariff_set.games)) for _, tariff_set in sets]))
    lines += [
        row(
            "Valat",
            [
                "the game ×{} / ×{}".format(*VALAT_MULTIPLIERS)
                if tariff_set.valat is ValatModel.MULTIPLIER
                else "{} / {} beside the game".format(*VALAT_FIXED)
                for _, tariff_set in sets
            ],
        ),
        row("premiums beside a Valat", [beside[tariff_set.beside_valat] for _, tariff_set in sets]),
        row(
            "a made silent Valat voids the Kontra on the game",
            ["yes" if tariff_set.silent_valat_voids_kontra else "no" for _, tariff_set in sets],
        ),
        row(
            "Mondfang, 1. Sack, 2. Sack",
            ["1 / 2 each" if PremiumType.MONDFANG in tariff_set.extras else "–" for _, tariff_set in sets],
        ),
        row(
            "highest Kontra",
            [
                f"{tarock54.KONTRA_LABEL[tarock54.MAX_KONTRA]} ×{tarock54.kontra_factor(tarock54.MAX_KONTRA)}"
                for _ in sets
            ],
        ),
        row("Trischaken paid", [SCHEME_LABEL[tariff_set.scheme] for _, tariff_set in sets]),
    ]
    premiums = ", ".join(
        "{} {} / {}".format(PREMIUM_LABEL[premium], *PREMIUM_VALUES[premium]) for premium in PREMIUM_VALUES
    )
    pagat = PREMIUM_VALUES[PremiumType.PAGAT][1]
    lines += [
        "",
        f"Premiums, silent / announced, in every tariff: {premiums}. A bird game is worth its value "
        "plus its bird as an announced premium of the declarer's side, scored once: a Pagatrufer "
        f"is 1 + {pagat} = {1 + pagat}.",
        "",
        "| house rule | values | default | what it changes |",
        "|---|---|---|---|",
    ]
    for field in OPTION_FIELDS:
        if field.kind is Kind.BOOL:
            values = "`true`, `false`"
            default = f"`{str(field.default).lower()}`"
        else:
            values = ", ".join(f"`{choice}`" for choice in field.choices)
            default = f"`{field.default}`" if field.default is not None else "the tariff's"
        lines.append(f"| `{field.name}` | {values} | {default} | {field.help} |")
    lines += [
        "| `game_values` | `{game: value}` | `{}` | Changes or adds single game values of the tariff "
        '(session file only), e.g. `{"dreier": 5}`. |',
        "| `premium_values` | `{type: [silent, announced]}`, `valat` included | `{}` | Changes or adds "
        'single premium values (session file only), e.g. `{"uhu": [1, 3]}`. |',
    ]
    return "\n".join(lines)


def test_the_koenigrufen_tables_of_the_playing_guide_are_the_engines() -> None:
    assert koenigrufen_tables() in text(ROOT / "docs" / "playing.md")


def test_the_readme_lists_koenigrufen_with_the_other_games() -> None:
    games = text(ROOT / "README.md").split("## The games")[1].split("\n## ")[0]
    assert "- **Königrufen**" in games
