"""Every SQL statement written out by hand lives here, and rows read with one are
made into model instances as the ORM makes them. For the few reads on every
request (the login session, the user, the session a page shows, a watcher's
poll), building the query with the ORM cost more than running it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any, TypeVar, cast

from django.apps import apps
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


# -- hands ----------------------------------------------------------------------------------
# The save path of a hand (``scoring.services.hands``): the session's new version,
# the first statement of every change of an evening's sheet (it takes the
# session's row lock), and what recording or correcting a hand reads under that
# lock, each in one statement. Measured in process on a 60-hand evening, these
# kept recording a hand at about 0.65 ms (the ORM's queries: about twice that).


def _hands_model(label: str) -> type[Model]:
    return apps.get_model(label)


def _hands_table(label: str) -> str:
    return f'"{_hands_model(label)._meta.db_table}"'


def _hands_named(sql: str, params: Sequence[Any]) -> dict[str, Any] | None:
    """The statement's first row by column name, or None."""
    with connections["default"].cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
        return None if row is None else dict(zip([c[0] for c in cursor.description], row, strict=True))


@cache
def _new_version_sql(open_only: bool) -> str:
    return (
        f'UPDATE {_hands_table("scoring.Session")} SET "version" = "version" + 1, "changed_at" = %s'
        ' WHERE "id" = %s' + (' AND "closed_at" IS NULL' if open_only else "")
    )


def new_version(session_id: int, changed_at: datetime, *, open_only: bool = False) -> bool:
    """Give the session its next version, counted in the database (concurrent
    changes each count); this takes the session's row lock until the transaction
    ends. ``open_only``: only on an open evening. False: no row was changed."""
    connection = connections["default"]
    with connection.cursor() as cursor:
        cursor.execute(
            _new_version_sql(open_only), [connection.ops.adapt_datetimefield_value(changed_at), session_id]
        )
        return bool(cursor.rowcount)


@dataclass(frozen=True)
class RecordingState:
    """What recording a hand needs to know of its session, read under the
    session's row lock in one statement: the session's row, the last number
    given, the last dealer, a hand already stored under the form's token (or
    under the token joined to its digest), the live hands, and whether the seats
    still are the ones the caller read."""

    session: Any  # the session's row, made into the model's instance
    last_number: int | None
    last_dealer: str | None
    token_hand: int | None
    retoken_hand: int | None
    live_hands: int
    seats_changed: bool


def _seats_changed_sql(players: int, session: str) -> str:
    """Whether a seat's name is none of the ``players`` names given (parameters);
    with no names given, the seats count as changed."""
    if not players:
        return "1 = 1"
    names = ", ".join(["%s"] * players)
    return (
        f"EXISTS (SELECT 1 FROM {_hands_table('scoring.Seat')} t"
        f' WHERE t."session_id" = {session} AND t."name" NOT IN ({names}))'
    )


@cache
def _recording_state_sql(players: int) -> str:
    session = _hands_model("scoring.Session")
    hands = f'FROM {_hands_table("scoring.Hand")} h WHERE h."session_id" = s."id"'
    columns = ", ".join(
        f's."{field.column}" AS "s.{field.column}"' for field in session._meta.concrete_fields
    )
    seats = _seats_changed_sql(players, 's."id"')
    return (
        f"SELECT {columns},"
        f' (SELECT MAX(h."number") {hands}) AS "last_number",'
        f""" (SELECT h."dealer" {hands} AND h."deleted_at" IS NULL AND h."dealer" <> ''"""
        ' ORDER BY h."number" DESC LIMIT 1) AS "last_dealer",'
        f""" (SELECT h."id" {hands} AND h."client_token" = %s AND h."client_token" <> '' LIMIT 1)"""
        ' AS "token_hand",'
        f' (SELECT h."id" {hands} AND h."client_token" = %s LIMIT 1) AS "retoken_hand",'
        f' (SELECT COUNT(*) {hands} AND h."deleted_at" IS NULL) AS "live_hands",'
        f' CASE WHEN {seats} THEN 1 ELSE 0 END AS "seats_changed"'
        f' FROM {_hands_table("scoring.Session")} s WHERE s."id" = %s'
    )


def recording_state(
    session_id: int, *, client_token: str, retoken: str, players: Sequence[str]
) -> RecordingState | None:
    """The session's ``RecordingState`` (None: no such session). ``players``: the
    names the caller read, in playing order."""
    row = _hands_named(_recording_state_sql(len(players)), [client_token, retoken, *players, session_id])
    if row is None:
        return None
    model = _hands_model("scoring.Session")
    session = from_row(model, [row[f"s.{field.column}"] for field in model._meta.concrete_fields])
    return RecordingState(
        session=session,
        last_number=row["last_number"],
        last_dealer=row["last_dealer"],
        token_hand=row["token_hand"],
        retoken_hand=row["retoken_hand"],
        live_hands=row["live_hands"],
        seats_changed=bool(row["seats_changed"]),
    )


@dataclass(frozen=True)
class HandState:
    """What correcting a hand needs to know of it, read under the session's row
    lock: its version, whether it is deleted, and whether the seats still are
    the ones the caller read."""

    version: int
    deleted: bool
    seats_changed: bool


@cache
def _hand_state_sql(players: int) -> str:
    seats = _seats_changed_sql(players, 'h."session_id"')
    return (
        'SELECT h."version" AS "version", h."deleted_at" IS NOT NULL AS "deleted",'
        f' CASE WHEN {seats} THEN 1 ELSE 0 END AS "seats_changed"'
        f' FROM {_hands_table("scoring.Hand")} h WHERE h."id" = %s'
    )


def hand_state(hand_id: int, *, players: Sequence[str]) -> HandState | None:
    """The hand's ``HandState`` (None: no such hand)."""
    row = _hands_named(_hand_state_sql(len(players)), [*players, hand_id])
    if row is None:
        return None
    return HandState(
        version=row["version"], deleted=bool(row["deleted"]), seats_changed=bool(row["seats_changed"])
    )


@cache
def _hand_write_sql(fields: tuple[str, ...], players: int) -> str:
    hand = _hands_model("scoring.Hand")
    sets = ", ".join(f'"{cast(Any, hand._meta.get_field(name)).column}" = %s' for name in fields)
    seats = _seats_changed_sql(players, f'{_hands_table("scoring.Hand")}."session_id"')
    return (
        f'UPDATE {_hands_table("scoring.Hand")} SET {sets}, "version" = "version" + 1'
        f' WHERE "id" = %s AND "version" = %s AND "deleted_at" IS NULL AND NOT ({seats})'
    )


def hand_write(hand: Model, fields: Sequence[str], *, version: int, players: Sequence[str]) -> bool:
    """Write ``fields`` of ``hand`` and count its next version, only if it still
    is at ``version``, not deleted, and the seats still are ``players``: one
    statement that checks and writes. False: nothing was written."""
    connection = connections["default"]
    model = type(hand)
    values = [
        cast(Any, model._meta.get_field(name)).get_db_prep_save(getattr(hand, name), connection)
        for name in fields
    ]
    with connection.cursor() as cursor:
        cursor.execute(_hand_write_sql(tuple(fields), len(players)), [*values, hand.pk, version, *players])
        return bool(cursor.rowcount)
