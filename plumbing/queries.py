"""Every SQL statement written out by hand lives here, and rows read with one are
made into model instances as the ORM makes them. For the few reads on every
request (the login session, the user, the session a page shows, a watcher's
poll), building the query with the ORM cost more than running it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar, cast

from django.db import connections
from django.db.models import Model

M = TypeVar("M", bound=Model)


def columns(model: type[Model], alias: str) -> str:
    """Every column of ``model``'s table, in field order, for ``from_row``."""
    return ", ".join(f'{alias}."{field.column}"' for field in model._meta.concrete_fields)


def fetch_one(sql: str, params: Sequence[Any]) -> tuple[Any, ...] | None:
    with connections["default"].cursor() as cursor:
        cursor.execute(sql, params)
        row: tuple[Any, ...] | None = cursor.fetchone()
        return row


def from_row(model: type[M], row: Sequence[Any]) -> M:
    """The instance of a row read with ``columns(model)``, its values converted as
    the ORM converts them (dates, JSON, decimals, for the database in use)."""
    connection = connections["default"]
    fields = model._meta.concrete_fields
    values = list(row)
    for index, field in enumerate(fields):
        field = cast(Any, field)
        column = field.get_col(model._meta.db_table)
        for convert in [*connection.ops.get_db_converters(column), *field.get_db_converters(connection)]:
            values[index] = convert(values[index], column, connection)
    return model.from_db("default", [field.attname for field in fields], values)
