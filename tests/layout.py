"""Where the apps keep what the tests walk: every address of the apps' own pages
(Django's login pages apart) and every folder of templates."""

from __future__ import annotations

from pathlib import Path

from django.urls import URLPattern

ROOT = Path(__file__).resolve().parents[1]
APPS = ("scoring", "club", "accounts", "tournaments", "ratings")
# The project's templates (base.html, the evenings' pages), then each app's own.
TEMPLATE_DIRS = (
    ROOT / "templates",
    *(ROOT / app / "templates" for app in APPS if (ROOT / app / "templates").is_dir()),
)
DJANGO_ACCOUNT_PAGES = {"login", "logout", "password_change", "password_change_done"}


def app_patterns() -> list[URLPattern]:
    from accounts import urls as accounts_urls
    from club import urls as club_urls
    from ratings import urls as ratings_urls
    from scoring import urls as scoring_urls

    own = [pattern for pattern in accounts_urls.urlpatterns if pattern.name not in DJANGO_ACCOUNT_PAGES]
    return [*scoring_urls.urlpatterns, *club_urls.urlpatterns, *own, *ratings_urls.urlpatterns]


def templates() -> list[tuple[Path, Path]]:
    """Every template as (its folder of templates, its path), sorted by its name."""
    found = [(folder, path) for folder in TEMPLATE_DIRS for path in folder.rglob("*.html")]
    return sorted(found, key=lambda pair: str(pair[1].relative_to(pair[0])))
