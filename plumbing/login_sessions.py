"""Django's database-backed login sessions, read with one statement written out
once: the same table, the same signed data, the same expiry check, only the
ORM's work of building the query on every request is left out."""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session

from plumbing import queries


class SessionStore(db.SessionStore):
    def _get_session_from_db(self) -> Any:
        key = self.session_key
        data = queries.login_session_data(key) if key else None
        if key is None or data is None:
            self._session_key = None
            return None
        return Session(session_key=key, session_data=data)
