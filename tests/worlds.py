"""A world built once per test module, each test run inside it and undone.

The access matrices ask hundreds of questions (every address × method × role) of one
world: a tournament drawn and released, a cup, a group, seven accounts. Built for each
question, the world was most of the suite's time. ``built_once(build)`` makes a
module-scoped fixture that builds it once per module (and per test worker) in a
transaction, and rolls that transaction back after the module's last test; each test
runs in a savepoint inside it (pytest-django's ``db``, as Django's ``TestCase`` with
``setUpTestData``), so whatever a test changes is gone for the next one.

Every test of such a module runs inside its world once the world is built, whether
it asks for it or not: a test there that makes its own rows takes the world's owner
(not the ``user`` fixture, whose account the world already holds).

Services change the objects they are given (a new link's token on the tournament),
so each test takes a deep copy of the world, as ``TestCase`` does with the data of
``setUpTestData``: ``copy.deepcopy(world_once)`` in the test module's own fixture.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest
from django.db import transaction

T = TypeVar("T")


def built_once(build: Callable[[], T]) -> Any:
    """A module-scoped fixture returning ``build()``'s world; ask for it together with
    ``db`` (the test's own savepoint) through a function-scoped fixture that returns a
    deep copy of it."""

    @pytest.fixture(scope="module")
    def fixture(django_db_setup: Any, django_db_blocker: Any) -> Iterator[T]:
        with django_db_blocker.unblock():
            atomic = transaction.atomic()
            atomic.__enter__()
            try:
                world = build()
            except BaseException:
                transaction.set_rollback(True)
                atomic.__exit__(None, None, None)
                raise
        try:
            yield world
        finally:
            with django_db_blocker.unblock():
                transaction.set_rollback(True)
                atomic.__exit__(None, None, None)

    return fixture
