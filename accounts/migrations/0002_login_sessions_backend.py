# A login session names the backend that logged its user in, by its dotted path;
# Django treats a session whose backend is no longer in AUTHENTICATION_BACKENDS as
# logged out. The backend moved from scoring.auth to accounts.auth with the login
# limits: the open login sessions are pointed at its new path, so nobody is logged
# out by the move. Only Django's own code is used (the signed session data is read
# and written as Django's database session store does).

from typing import Any

from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import migrations
from django.utils import timezone

OLD = "scoring.auth.RateLimitedBackend"
NEW = "accounts.auth.RateLimitedBackend"
BATCH = 500


def repoint(apps: Any, was: str, now: str) -> None:
    Session = apps.get_model("sessions", "Session")
    store = SessionStore()
    changed = []
    for row in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        data = store.decode(row.session_data)
        if data.get(BACKEND_SESSION_KEY) == was:
            data[BACKEND_SESSION_KEY] = now
            row.session_data = store.encode(data)
            changed.append(row)
        if len(changed) >= BATCH:
            Session.objects.bulk_update(changed, ["session_data"])
            changed = []
    Session.objects.bulk_update(changed, ["session_data"])


def forward(apps: Any, schema_editor: Any) -> None:
    repoint(apps, OLD, NEW)


def backward(apps: Any, schema_editor: Any) -> None:
    repoint(apps, NEW, OLD)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("sessions", "0001_initial"),
    ]

    operations = [migrations.RunPython(forward, backward)]
