"""Every SQL statement written out by hand lives here (a test keeps it so).

For the few reads on every request (the login session, the user, the session a
page shows with the reader's right on it, a watcher's poll, a season or a
roster player of a group's page) and the sheet's stored hands, building the
query with the ORM cost more than running it (README, "Benchmark": the access
check of every session page 2.0 → 0.14 ms, the 60-hand sheet built in
2.8–3.1 → 1.6 ms).

Each statement is built once, the first time it is used (the models are looked
up by their label then: plumbing imports no app), with every value a parameter.
A row comes back as a dataclass whose fields are read by column name; a model's
columns are selected under the name ``alias.column`` and made into an instance
as the ORM makes it (``from_row``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache, lru_cache
from typing import Any, TypeVar, cast

from django.apps import apps
from django.db import connections
from django.db.models import IntegerField, Model
from django.db.models.expressions import RawSQL
from django.utils import timezone

M = TypeVar("M", bound=Model)

# The models the statements read, by label.
SESSION, HAND, HAND_CHANGE, SEAT = "scoring.Session", "scoring.Hand", "scoring.HandChange", "scoring.Seat"
GROUP, MEMBERSHIP, SEASON, GROUP_PLAYER, GROUP_SESSION = (
    "club.Group",
    "club.Membership",
    "club.Season",
    "club.GroupPlayer",
    "club.GroupSession",
)
USER, LOGIN_SESSION = "auth.User", "sessions.Session"


def model(label: str) -> type[Model]:
    return apps.get_model(label)


def table(label: str) -> str:
    return f'"{model(label)._meta.db_table}"'


def named_columns(label: str, alias: str) -> str:
    """Every column of the model's table, each selected as ``"alias.column"``, for ``from_named``."""
    return ", ".join(
        f'{alias}."{field.column}" AS "{alias}.{field.column}"'
        for field in model(label)._meta.concrete_fields
    )


def fetch_named(sql: str, params: Sequence[Any]) -> dict[str, Any] | None:
    """The first row of the statement, by column name."""
    with connections["default"].cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
        if row is None:
            return None
        return dict(zip([column[0] for column in cursor.description], row, strict=True))


def from_row(model: type[M], row: Sequence[Any]) -> M:
    """The instance of a model's columns read in field order, its values converted as
    the ORM converts them (dates, JSON, decimals, for the database in use)."""
    connection = connections["default"]
    names, converters = _converters(model, connection)
    values = list(row)
    for index, column, convert in converters:
        values[index] = convert(values[index], column, connection)
    return model.from_db("default", names, values)


@lru_cache(maxsize=64)
def _converters(model: type[Model], connection: Any) -> tuple[list[str], list[tuple[int, Any, Any]]]:
    """A model's field names, and each column's converters as the ORM finds them for this
    connection (a thread's): found once, not for every row of every request (a third
    of what reading the three rows of a save took)."""
    fields = [cast(Any, field) for field in model._meta.concrete_fields]
    converters = []
    for index, field in enumerate(fields):
        column = field.get_col(model._meta.db_table)
        for convert in [*connection.ops.get_db_converters(column), *field.get_db_converters(connection)]:
            converters.append((index, column, convert))
    return [field.attname for field in fields], converters


def from_named(label: str, row: dict[str, Any], alias: str) -> Any:
    """The instance of the model's columns read with ``named_columns(label, alias)``."""
    found = model(label)
    return from_row(found, [row[f"{alias}.{field.column}"] for field in found._meta.concrete_fields])


# -- login sessions and users ---------------------------------------------------------------


@cache
def _login_session_sql() -> str:
    return (
        f'SELECT "session_data" FROM {table(LOGIN_SESSION)} WHERE "session_key" = %s AND "expire_date" > %s'
    )


def login_session_data(key: str) -> str | None:
    """The signed data of a login session not yet expired (Django's own check)."""
    now = connections["default"].ops.adapt_datetimefield_value(timezone.now())
    row = fetch_named(_login_session_sql(), [key, now])
    return None if row is None else str(row["session_data"])


@cache
def _user_sql() -> str:
    return f'SELECT {named_columns(USER, "u")} FROM {table(USER)} u WHERE u."id" = %s'


def user(pk: Any) -> Any:
    """The user with this id, or None."""
    row = fetch_named(_user_sql(), [pk])
    return None if row is None else from_named(USER, row, "u")


# -- access: who may see and change an evening ----------------------------------------------

# A user's right on an evening (``scoring.services.access.Right`` takes these values).
RIGHT_NONE, RIGHT_READ, RIGHT_RECORD, RIGHT_OWN = 0, 1, 2, 3


@dataclass(frozen=True)
class Circle:
    """Those beyond the people named on an evening who have a right on it (the
    regular table's members), as another app words them in SQL; ``{session}``
    stands for the evening's row (a table alias). ``key`` selects at most one
    value, the key of the circle the evening belongs to (a group's id; no row:
    none), taking no parameter; ``granted`` selects at most one value, the right
    the circle gives the user on the evening, taking her id once (no row: none).
    Registered with ``scoring.services.circles``."""

    key: str
    granted: str


# Where an evening read with its circle's key keeps it (``session_from``): not a column.
CIRCLE_KEY = "_circle_key"


def session_columns(alias: str, circle: Circle | None) -> str:
    """The session's columns (``named_columns``) and, with a circle, the key of the
    circle it belongs to, read in the same statement as ``"alias.circle"``."""
    columns = named_columns(SESSION, alias)
    if circle is None:
        return columns
    return f'{columns}, ({circle.key.format(session=alias)}) AS "{alias}.circle"'


def session_from(row: dict[str, Any], alias: str) -> Any:
    """The session of a row read with ``session_columns``, its circle's key kept
    on it where the statement read it (``CIRCLE_KEY``, None: in no circle)."""
    session = from_named(SESSION, row, alias)
    if f"{alias}.circle" in row:
        session.__dict__[CIRCLE_KEY] = row[f"{alias}.circle"]
    return session


def right_sql(session: str, circle: Circle | None) -> str:
    """The rule (``scoring.services.access``): the user's right on the session row
    ``session`` (a table alias), taking the user's id as often as ``right_params`` gives it.
    It names the evenings' tables only; a circle's own words come with ``circle``."""
    editors = f'"{cast(Any, model(SESSION)).editors.through._meta.db_table}"'
    editor = f'SELECT 1 FROM {editors} e WHERE e."session_id" = {session}."id" AND e."user_id" = %s'
    if circle is None:
        return (
            f'CASE WHEN {session}."owner_id" = %s THEN {RIGHT_OWN:d}'
            f" WHEN EXISTS ({editor}) THEN {RIGHT_RECORD:d} ELSE {RIGHT_NONE:d} END"
        )
    key, granted = (part.format(session=session) for part in (circle.key, circle.granted))
    return (
        f'CASE WHEN {session}."owner_id" = %s AND NOT EXISTS ({key}) THEN {RIGHT_OWN:d}'
        f" ELSE COALESCE(({granted}),"
        f" CASE WHEN EXISTS ({editor}) THEN {RIGHT_RECORD:d}"
        f' WHEN {session}."owner_id" = %s THEN {RIGHT_READ:d}'  # started it in a circle she has left
        f" ELSE {RIGHT_NONE:d} END) END"
    )


def right_params(user_id: Any, circle: Circle | None) -> list[Any]:
    """The parameters of ``right_sql``: the user's id, as often as it takes it."""
    return [user_id] * (2 if circle is None else 4)


def right_of(user_id: Any, circle: Circle | None) -> RawSQL:
    """The rule as an expression for the ORM's queries of sessions."""
    return RawSQL(
        right_sql(table(SESSION), circle), right_params(user_id, circle), output_field=IntegerField()
    )


@dataclass(frozen=True)
class SessionAndRight:
    session: Any  # scoring.Session
    right: int


@dataclass(frozen=True)
class HandAndRight:
    hand: Any  # scoring.Hand, its ``session`` set
    right: int


@dataclass(frozen=True)
class SessionRow:
    """A session's row as read, not yet made a model instance: a watcher's poll
    with nothing changed needs only its version."""

    values: dict[str, Any]

    @property
    def version(self) -> int:
        return int(self.values["s.version"])

    def session(self) -> Any:
        return session_from(self.values, "s")


@cache
def _session_and_right_sql(circle: Circle | None) -> str:
    return (
        f'SELECT {session_columns("s", circle)}, {right_sql("s", circle)} AS "right" FROM {table(SESSION)} s'
        ' WHERE s."deleted_at" IS NULL AND s."id" = %s'
    )


def session_and_right(user_id: Any, pk: int, circle: Circle | None) -> SessionAndRight | None:
    """An evening not deleted and the user's right on it, in one statement."""
    row = fetch_named(_session_and_right_sql(circle), [*right_params(user_id, circle), pk])
    return None if row is None else SessionAndRight(session_from(row, "s"), int(row["right"]))


@cache
def _hand_and_right_sql(circle: Circle | None) -> str:
    return (
        f'SELECT {session_columns("s", circle)}, {named_columns(HAND, "h")}, {right_sql("s", circle)} AS "right"'
        f' FROM {table(HAND)} h INNER JOIN {table(SESSION)} s ON s."id" = h."session_id"'
        ' WHERE s."deleted_at" IS NULL AND h."id" = %s AND s."id" = %s'
    )


def hand_and_right(user_id: Any, hand_id: int, pk: int, circle: Circle | None) -> HandAndRight | None:
    """A hand of an evening not deleted, with its evening and the user's right on it, in one statement."""
    row = fetch_named(_hand_and_right_sql(circle), [*right_params(user_id, circle), hand_id, pk])
    if row is None:
        return None
    hand = from_named(HAND, row, "h")
    hand.session = session_from(row, "s")
    return HandAndRight(hand, int(row["right"]))


@cache
def _shared_sql(circle: Circle | None) -> str:
    return (
        f"SELECT {session_columns('s', circle)} FROM {table(SESSION)} s"
        ' WHERE s."deleted_at" IS NULL AND s."share_token" = %s'
    )


def shared_session(token: str, circle: Circle | None = None) -> SessionRow | None:
    """The row of the evening behind a share link, if not revoked or deleted."""
    row = fetch_named(_shared_sql(circle), [token]) if token else None
    return None if row is None else SessionRow(row)


@cache
def _seat_names_sql() -> str:
    return f'SELECT "name" FROM {table(SEAT)} WHERE "session_id" = %s ORDER BY "position"'


def seat_names(session_id: int) -> tuple[str, ...]:
    """The players of an evening in playing order."""
    with connections["default"].cursor() as cursor:
        cursor.execute(_seat_names_sql(), [session_id])
        at = [column[0] for column in cursor.description].index("name")
        return tuple(row[at] for row in cursor.fetchall())


# -- the regular table ----------------------------------------------------------------------


OWNER_ROLE = "owner"  # a membership's role that owns the group's evenings


@cache
def group_circle() -> Circle:
    """The regular table's members on its evenings (``club``, registered with the
    evenings' access rule): a group's owner owns its evenings, its members record
    in them."""
    return Circle(
        key=f'SELECT gs."group_id" FROM {table(GROUP_SESSION)} gs WHERE gs."session_id" = {{session}}."id"',
        granted=(
            f"SELECT CASE WHEN m.\"role\" = '{OWNER_ROLE}' THEN {RIGHT_OWN:d} ELSE {RIGHT_RECORD:d} END"
            f' FROM {table(GROUP_SESSION)} gs INNER JOIN {table(MEMBERSHIP)} m ON m."group_id" = gs."group_id"'
            ' WHERE gs."session_id" = {session}."id" AND m."user_id" = %s'
        ),
    )


@dataclass(frozen=True)
class GroupAndRole:
    group: Any  # club.Group
    role: str

    @property
    def owner(self) -> bool:
        return self.role == OWNER_ROLE


@cache
def _group_of_member_sql() -> str:
    return (
        f'SELECT {named_columns(GROUP, "g")}, m."role" AS "role" FROM {table(GROUP)} g'
        f' INNER JOIN {table(MEMBERSHIP)} m ON m."group_id" = g."id" AND m."user_id" = %s'
        ' WHERE g."id" = %s'
    )


def group_of_member(user_id: Any, pk: int) -> GroupAndRole | None:
    """A group the user is a member of, and her role in it, in one statement."""
    row = fetch_named(_group_of_member_sql(), [user_id, pk])
    return None if row is None else GroupAndRole(from_named(GROUP, row, "g"), str(row["role"]))


@cache
def _season_of_group_sql() -> str:
    return (
        f'SELECT {named_columns(SEASON, "s")} FROM {table(SEASON)} s WHERE s."id" = %s AND s."group_id" = %s'
    )


def season_of_group(pk: int, group_id: int) -> Any:
    """A named season of the group (read on every view of its table), or None."""
    row = fetch_named(_season_of_group_sql(), [pk, group_id])
    return None if row is None else from_named(SEASON, row, "s")


@cache
def _player_of_group_sql() -> str:
    return (
        f"SELECT {named_columns(GROUP_PLAYER, 'p')} FROM {table(GROUP_PLAYER)} p"
        ' WHERE p."id" = %s AND p."group_id" = %s'
    )


def player_of_group(pk: int, group_id: int) -> Any:
    """A player of the group's roster (read on every view of her page), or None."""
    row = fetch_named(_player_of_group_sql(), [pk, group_id])
    return None if row is None else from_named(GROUP_PLAYER, row, "p")


# -- the circuit's and the cups' pages -------------------------------------------------------

CIRCUIT, CUP, TOURNAMENT = "tournaments.Circuit", "tournaments.Cup", "tournaments.Tournament"


def fetch_all_named(sql: str, params: Sequence[Any]) -> list[dict[str, Any]]:
    """Every row of the statement, each by column name."""
    with connections["default"].cursor() as cursor:
        cursor.execute(sql, params)
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def _through(label: str, name: str) -> tuple[str, str, str]:
    """A many-to-many's table, its column naming the model's row and its column naming the other's."""
    field = cast(Any, model(label)._meta.get_field(name))
    through = field.remote_field.through._meta.db_table
    return f'"{through}"', f'"{field.m2m_column_name()}"', f'"{field.m2m_reverse_name()}"'


@cache
def _circuit_seen_sql() -> str:
    organisers, circuit, user = _through(CIRCUIT, "organisers")
    runs = (
        f'(c."owner_id" = %s OR EXISTS (SELECT 1 FROM {organisers} o'
        f' WHERE o.{circuit} = c."id" AND o.{user} = %s))'
    )
    return (
        f'SELECT {named_columns(CIRCUIT, "c")}, {runs} AS "organiser" FROM {table(CIRCUIT)} c'
        f' WHERE c."id" = %s AND c."deleted_at" IS NULL AND ({runs} OR EXISTS (SELECT 1 FROM {table(CUP)} u'
        ' WHERE u."circuit_id" = c."id" AND u."owner_id" = %s AND u."deleted_at" IS NULL))'
    )


def circuit_seen(user_id: Any, pk: int) -> tuple[Any, bool] | None:
    """A circuit the user runs (its owner or an organiser) or owns a cup of, and
    whether the user runs it, in one statement (read on every view of its lists
    and honours); None for anyone else."""
    row = fetch_named(_circuit_seen_sql(), [user_id, user_id, pk, user_id, user_id, user_id])
    return None if row is None else (from_named(CIRCUIT, row, "c"), bool(row["organiser"]))


@cache
def _circuit_cups_sql() -> str:
    return (
        f"SELECT {named_columns(CUP, 'u')}, {named_columns(CIRCUIT, 'c')} FROM {table(CUP)} u"
        f' INNER JOIN {table(CIRCUIT)} c ON c."id" = u."circuit_id"'
        ' WHERE u."circuit_id" = %s AND u."deleted_at" IS NULL ORDER BY u."id"'
    )


def circuit_cups(circuit_id: int) -> list[Any]:
    """The circuit's cups not deleted, in the order they joined, each with the
    circuit as stored now (the versions a page's key is made of), in one statement."""
    found = []
    for row in fetch_all_named(_circuit_cups_sql(), [circuit_id]):
        cup = from_named(CUP, row, "u")
        cup.circuit = from_named(CIRCUIT, row, "c")
        found.append(cup)
    return found


@cache
def _cup_run_by_sql() -> str:
    organisers, tournament, user = _through(TOURNAMENT, "organisers")
    runs = (
        f'SELECT 1 FROM {table(TOURNAMENT)} t WHERE t."cup_id" = u."id" AND t."deleted_at" IS NULL'
        f' AND (t."owner_id" = %s OR EXISTS (SELECT 1 FROM {organisers} o'
        f' WHERE o.{tournament} = t."id" AND o.{user} = %s))'
    )
    return (
        f"SELECT {named_columns(CUP, 'u')}, {named_columns(CIRCUIT, 'c')} FROM {table(CUP)} u"
        f' LEFT OUTER JOIN {table(CIRCUIT)} c ON c."id" = u."circuit_id"'
        f' WHERE u."id" = %s AND u."deleted_at" IS NULL AND (u."owner_id" = %s OR EXISTS ({runs}))'
    )


def cup_run_by(user_id: Any, pk: int) -> Any:
    """A cup the user owns or runs a tournament of (its owner or a co-organiser),
    with its circuit (None outside one), in one statement (read on every view of
    its season table, side rankings and honours); None for anyone else."""
    row = fetch_named(_cup_run_by_sql(), [pk, user_id, user_id, user_id])
    if row is None:
        return None
    cup = from_named(CUP, row, "u")
    cup.circuit = from_named(CIRCUIT, row, "c") if row["c.id"] is not None else None
    return cup


# -- the sheet ------------------------------------------------------------------------------


@dataclass(slots=True)
class StoredRow:
    """A hand as the sheet reads it: never its inputs; its deltas and facts
    decoded, its description left as JSON text (read only for the rows a page shows).
    Not frozen: a frozen dataclass's ``__init__`` sets each field through
    ``object.__setattr__``, which on a 500-hand sheet is time the sheet notices;
    nothing changes one after it is read."""

    id: int
    number: int
    version: int
    type: str
    dealer: str
    sitting_out: str
    note: str
    deltas: dict[str, Any]
    description: str
    facts: list[str]
    deleted_at: datetime | None
    corrected: bool  # corrected after it was recorded (its history has an edit)
    money: dict[str, Any] | None = None  # what the hand pays, where stored apart from its deltas


# What the sheet reads of a hand, by column.
STORED_FIELDS = (
    "id",
    "number",
    "version",
    "type",
    "dealer",
    "sitting_out",
    "note",
    "deltas",
    "description",
    "facts",
    "money",
)
EDITED = "edited"  # the history's word for a correction (``HandChange.Action.EDITED``)


@cache
def _stored_rows_sql() -> str:
    return (
        "SELECT "
        + ", ".join(f'h."{name}"' for name in (*STORED_FIELDS, "deleted_at"))
        + f", EXISTS (SELECT 1 FROM {table(HAND_CHANGE)} c"
        f""" WHERE c."hand_id" = h."id" AND c."action" = '{EDITED}') AS "corrected\""""
        f' FROM {table(HAND)} h WHERE h."session_id" = %s ORDER BY h."number"'
    )


def stored_rows(session_id: int) -> list[StoredRow]:
    """Every hand of the evening in number order, deleted ones too (what the ORM
    spent building this statement and converting each row was most of the sheet's time)."""
    with connections["default"].cursor() as cursor:
        cursor.execute(_stored_rows_sql(), [session_id])
        names = [column[0] for column in cursor.description]
        rows = cursor.fetchall()
    at = {name: names.index(name) for name in (*STORED_FIELDS, "deleted_at", "corrected")}
    deltas = _json_column([row[at["deltas"]] for row in rows])
    facts = _json_column([row[at["facts"]] for row in rows])
    money = _json_column([row[at["money"]] for row in rows])
    i, n, v, t, d, s, o = (at[name] for name in STORED_FIELDS[:7])
    text, deleted, corrected = at["description"], at["deleted_at"], at["corrected"]
    return [
        StoredRow(
            row[i],
            row[n],
            row[v],
            row[t],
            row[d],
            row[s],
            row[o],
            hand_deltas,
            _json_text(row[text]),
            hand_facts,
            None if row[deleted] is None else _moment(row[deleted]),
            bool(row[corrected]),
            hand_money,
        )
        for row, hand_deltas, hand_facts, hand_money in zip(rows, deltas, facts, money, strict=True)
    ]


# What the phone's engine reads of a live hand (``scoring.phone.evening``), by column.
LIVE_FIELDS = ("id", "type", "version", "dealer", "deltas", "facts", "money")


@cache
def _live_snapshots_sql() -> str:
    columns = ", ".join(f'h."{name}"' for name in LIVE_FIELDS)
    return (
        f'SELECT {columns} FROM {table(HAND)} h WHERE h."session_id" = %s AND h."deleted_at" IS NULL'
        ' ORDER BY h."number"'
    )


def live_snapshots(session_id: int) -> list[dict[str, Any]]:
    """The evening's live hands in number order, each its ``LIVE_FIELDS`` by name, the
    JSON columns decoded in one go (a model made of each hand was most of the time the
    hand form took for the phone's evening at 500 hands)."""
    with connections["default"].cursor() as cursor:
        cursor.execute(_live_snapshots_sql(), [session_id])
        names = [column[0] for column in cursor.description]
        rows = cursor.fetchall()
    at = {name: names.index(name) for name in LIVE_FIELDS}
    decoded = {name: _json_column([row[at[name]] for row in rows]) for name in ("deltas", "facts", "money")}
    return [
        {
            "id": row[at["id"]],
            "type": row[at["type"]],
            "version": row[at["version"]],
            "dealer": row[at["dealer"]],
            "deltas": decoded["deltas"][index],
            "facts": decoded["facts"][index],
            "money": decoded["money"][index],
        }
        for index, row in enumerate(rows)
    ]


def _json_column(values: list[Any]) -> list[Any]:
    """A JSON column's values as the database driver gave them: text (SQLite),
    decoded in one go as one array, or decoded already (PostgreSQL)."""
    if any(isinstance(value, str) for value in values):
        decoded: list[Any] = json.loads("[" + ",".join(map(_json_text, values)) + "]")
        return decoded
    return values


def _json_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _moment(value: Any) -> datetime:
    """A timestamp as the database driver gave it (text on SQLite), aware."""
    moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return moment if timezone.is_aware(moment) else moment.replace(tzinfo=UTC)


# -- hands ----------------------------------------------------------------------------------
# The save path of a hand (``scoring.services.hands``): the session's new version,
# the first statement of every change of an evening's sheet (it takes the
# session's row lock), and what recording or correcting a hand reads under that
# lock, each in one statement. Measured in process on a 60-hand evening, these
# kept recording a hand at about 0.65 ms (the ORM's queries: about twice that).


@cache
def _new_version_sql(open_only: bool) -> str:
    return f'UPDATE {table(SESSION)} SET "version" = "version" + 1, "changed_at" = %s WHERE "id" = %s' + (
        ' AND "closed_at" IS NULL' if open_only else ""
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
    under the token joined to its digest), the live hands, those of them that
    count toward the session's target (redeals do not; counted only where it has
    a target, else 0), and whether the seats still are the ones the caller read."""

    session: Any  # the session's row, made into the model's instance
    last_number: int | None
    last_dealer: str | None
    token_hand: int | None
    retoken_hand: int | None
    live_hands: int
    seats_changed: bool
    played_hands: int = 0


def _seats_changed_sql(players: int, session: str) -> str:
    """Whether a seat's name is none of the ``players`` names given (parameters);
    with no names given, the seats count as changed."""
    if not players:
        return "1 = 1"
    names = ", ".join(["%s"] * players)
    return (
        f"EXISTS (SELECT 1 FROM {table(SEAT)} t"
        f' WHERE t."session_id" = {session} AND t."name" NOT IN ({names}))'
    )


# The condition of the partial unique index of the forms' tokens, written as the
# index has it (``scoring.models.Hand.Meta``): SQLite uses a partial index only for
# a statement that says its condition in the same words. So a token is found in
# ``hand_client_token_unique``, and the live hands are counted in ``hand_live``,
# neither reading every hand of the evening (about 8 ms of a save at 2,000 hands).
TOKEN_GIVEN = """NOT (h."client_token" = '')"""
LIVE = 'h."deleted_at" IS NULL'


@cache
def _recording_state_sql(players: int, circle: Circle | None = None) -> str:
    hands = f'FROM {table(HAND)} h WHERE h."session_id" = s."id"'
    seats = _seats_changed_sql(players, 's."id"')
    return (
        f"SELECT {session_columns('s', circle)},"
        f' (SELECT MAX(h."number") {hands}) AS "last_number",'
        f""" (SELECT h."dealer" {hands} AND {LIVE} AND h."dealer" <> ''"""
        ' ORDER BY h."number" DESC LIMIT 1) AS "last_dealer",'
        f' (SELECT h."id" {hands} AND h."client_token" = %s AND {TOKEN_GIVEN} LIMIT 1) AS "token_hand",'
        f' (SELECT h."id" {hands} AND h."client_token" = %s AND {TOKEN_GIVEN} LIMIT 1) AS "retoken_hand",'
        f' (SELECT COUNT(*) {hands} AND {LIVE}) AS "live_hands",'
        ' CASE WHEN s."hands_target" IS NULL THEN 0 ELSE'
        f""" (SELECT COUNT(*) {hands} AND {LIVE} AND NOT (h."type" = 'redeal')) END AS "played_hands","""
        f' CASE WHEN {seats} THEN 1 ELSE 0 END AS "seats_changed"'
        f' FROM {table(SESSION)} s WHERE s."id" = %s'
    )


def recording_state(
    session_id: int,
    *,
    client_token: str,
    retoken: str,
    players: Sequence[str],
    circle: Circle | None = None,
) -> RecordingState | None:
    """The session's ``RecordingState`` (None: no such session). ``players``: the
    names the caller read, in playing order; ``circle``: the circle whose key the
    session is read with (``session_columns``)."""
    sql = _recording_state_sql(len(players), circle)
    row = fetch_named(sql, [client_token, retoken, *players, session_id])
    if row is None:
        return None
    return RecordingState(
        session=session_from(row, "s"),
        last_number=row["last_number"],
        last_dealer=row["last_dealer"],
        token_hand=row["token_hand"],
        retoken_hand=row["retoken_hand"],
        live_hands=row["live_hands"],
        seats_changed=bool(row["seats_changed"]),
        played_hands=row["played_hands"],
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
        f' FROM {table(HAND)} h WHERE h."id" = %s'
    )


def hand_state(hand_id: int, *, players: Sequence[str]) -> HandState | None:
    """The hand's ``HandState`` (None: no such hand)."""
    row = fetch_named(_hand_state_sql(len(players)), [*players, hand_id])
    if row is None:
        return None
    return HandState(
        version=row["version"], deleted=bool(row["deleted"]), seats_changed=bool(row["seats_changed"])
    )


@cache
def _hand_write_sql(fields: tuple[str, ...], players: int) -> str:
    hand = model(HAND)
    sets = ", ".join(f'"{cast(Any, hand._meta.get_field(name)).column}" = %s' for name in fields)
    seats = _seats_changed_sql(players, f'{table(HAND)}."session_id"')
    return (
        f'UPDATE {table(HAND)} SET {sets}, "version" = "version" + 1'
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


# -- a board's or hall screen's poll --------------------------------------------------------


@lru_cache(maxsize=2)
def _poll_version_sql(link: str) -> str:
    return (
        f'SELECT "version", "board_token" FROM {table(TOURNAMENT)}'
        f' WHERE "{link}" = %s AND "deleted_at" IS NULL LIMIT 1'
    )


def poll_version(link: str, token: str) -> tuple[int, str | None] | None:
    """The version and board token of the tournament behind a board link
    (``link="board_token"``) or a hall screen's (``"screen_token"``), if it is not
    deleted: the one read of every poll of the hall and the players' phones."""
    if link not in ("board_token", "screen_token"):
        raise ValueError(f"link: must be board_token or screen_token, not {link!r}")
    with connections["default"].cursor() as cursor:
        cursor.execute(_poll_version_sql(link), [token])
        row = cursor.fetchone()
    return None if row is None else (int(row[0]), row[1])


ROUND, TABLE_ROUND = "tournaments.Round", "tournaments.TableRound"


@dataclass(frozen=True)
class HallScreen:
    """A hall screen's tournament and, of its latest round whose status is one of
    ``shown``, the round (``None``: no such round), its tables and how many of
    them have a status of ``done``."""

    tournament: Any
    round: Any | None
    tables: int
    done: int


@lru_cache(maxsize=4)
def _hall_screen_sql(shown: int, done: int) -> str:
    marks = ", ".join(["%s"] * shown), ", ".join(["%s"] * done)
    tables = table(TABLE_ROUND)
    return (
        f"SELECT {named_columns(TOURNAMENT, 't')}, {named_columns(ROUND, 'r')},"
        f' (SELECT COUNT(*) FROM {tables} x WHERE x."round_id" = r."id") AS "tables",'
        f' (SELECT COUNT(*) FROM {tables} x WHERE x."round_id" = r."id" AND x."status" IN ({marks[1]})) AS "done"'
        f' FROM {table(TOURNAMENT)} t LEFT JOIN {table(ROUND)} r ON r."tournament_id" = t."id" AND r."id" = ('
        f' SELECT l."id" FROM {table(ROUND)} l WHERE l."tournament_id" = t."id" AND l."status" IN ({marks[0]})'
        ' ORDER BY l."number" DESC LIMIT 1)'
        ' WHERE t."screen_token" = %s AND t."deleted_at" IS NULL LIMIT 1'
    )


def hall_screen(token: str, *, shown: Sequence[str], done: Sequence[str]) -> HallScreen | None:
    """The tournament behind a hall screen's link, if it is not deleted, with its
    latest round shown and that round's tables done, in one statement: the hall
    screen's redraw after every change."""
    # In the order of their marks: the tables done (selected), the rounds shown (joined), the link.
    row = fetch_named(_hall_screen_sql(len(shown), len(done)), [*done, *shown, token])
    if row is None:
        return None
    found = from_named(ROUND, row, "r") if row["r.id"] is not None else None
    return HallScreen(from_named(TOURNAMENT, row, "t"), found, int(row["tables"]), int(row["done"]))
