"""Django's database-backed login sessions, read with one statement written out
once: the same table, the same signed data, the same expiry check, only the
ORM's work of building the query on every request is left out."""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.db import connections
from django.utils import timezone

from plumbing import queries

_READ = (
    f'SELECT "session_data" FROM "{Session._meta.db_table}" WHERE "session_key" = %s AND "expire_date" > %s'
)


class SessionStore(db.SessionStore):
    def _get_session_from_db(self) -> Any:
        key = self.session_key
        now = connections["default"].ops.adapt_datetimefield_value(timezone.now())
        row = queries.fetch_one(_READ, [key, now]) if key else None
        if key is None or row is None:
            self._session_key = None
            return None
        return Session(session_key=key, session_data=row[0])
