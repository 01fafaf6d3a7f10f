"""Fixtures shared by the web, service and command tests."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from hypothesis import settings as hypothesis_settings

from plumbing import pdf
from scoring import services
from scoring.models import Hand, Session
from scoring.services.hands import SNAPSHOT_FIELDS
from tests.engine.support import FIXTURES

# Property tests check rules, not speed: on a shared, busy machine an example may
# take longer than Hypothesis' default deadline without anything being wrong.
hypothesis_settings.register_profile("tarockscore", deadline=None)
hypothesis_settings.load_profile("tarockscore")

DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "live_server",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks every test that touches the database ``database``: CI runs these, and only
    these, a second time on PostgreSQL (``make test-db``); the engine's tests, the
    linters and the browser tests run once."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if fixtures & DATABASE_FIXTURES or item.get_closest_marker("django_db"):
            item.add_marker(pytest.mark.database)


@pytest.fixture(autouse=True)
def patient_pdfs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A PDF's time limit is the server's answer to a slow drawing, not a measure of
    the suite: on two cores busy with browsers and a second test worker, the drawing
    (run below the tests' priority) may wait longer than a server's 40 s. The tests
    of that limit set it themselves."""
    monkeypatch.setattr(pdf, "SECONDS", 300.0)


@pytest.fixture
def pdfs_not_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every PDF answered by the drawing server as drawn, without drawing it: for tests
    of who may download what (the status and the headers), not of what is drawn. The
    page around the PDF is still read and rendered, every statement made."""

    class Drawn:
        def draw(self, html: bytes, seconds: float, memory: int) -> tuple[int, bytes]:
            return pdf.DRAWN, b"%PDF-1.7 not drawn"

    monkeypatch.setattr(pdf, "_server", Drawn())


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    """Each test starts with nothing cached (the test databases reuse ids)."""
    cache.clear()


@pytest.fixture
def redis_url() -> str:
    """The Redis database the suite keeps its cache in (``CACHE=redis://…``, as
    ``make test-redis`` runs it; the autouse ``cache.clear()`` empties that database
    number only). A test that needs Redis is skipped on the other caches."""
    default = settings.CACHES["default"]
    if not default["BACKEND"].endswith("RedisCache"):
        pytest.skip("needs the suite run with CACHE=redis://127.0.0.1:6379/1 (make test-redis)")
    return str(default["LOCATION"])


@pytest.fixture
def user(db: Any) -> User:
    return User.objects.create_user("anna", password="a-long-test-password")


@pytest.fixture
def other_user(db: Any) -> User:
    return User.objects.create_user("mallory", password="another-test-password")


@pytest.fixture
def client_for() -> Callable[[User], Client]:
    def make(account: User) -> Client:
        client = Client(HTTP_ACCEPT_LANGUAGE="en")
        client.force_login(account)
        return client

    return make


@pytest.fixture
def logged_in(user: User, client_for: Callable[[User], Client]) -> Client:
    return client_for(user)


@pytest.fixture
def make_session(user: User) -> Callable[..., Session]:
    def make(
        variant: str = "french",
        players: tuple[str, ...] = ("Anna", "Bert", "Carl", "Dora"),
        options: dict[str, Any] | None = None,
        owner: User | None = None,
        **kwargs: Any,
    ) -> Session:
        return services.session_create(
            owner=owner or user,
            name="Friday",
            variant=variant,
            players=list(players),
            options=options or {},
            **kwargs,
        )

    return make


def seed(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def fill(session: Session, count: int, raw: dict[str, Any] | None = None) -> None:
    """A session of ``count`` hands: one recorded (``raw``; a French garde unless
    given), the rest written straight to the table as copies of it (as an import
    does, only faster)."""
    first = services.hand_record(
        session=session,
        raw=raw or {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56},
    )
    snapshot = {name: getattr(first, name) for name in SNAPSHOT_FIELDS}
    Hand.objects.bulk_create(Hand(session=session, number=n, **snapshot) for n in range(2, count + 1))
