"""python manage.py export_session ID --format pdf|json|csv --output FILE"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation

from scoring import services
from scoring.models import Session

FORMATS = ("json", "csv", "pdf")


class Command(BaseCommand):
    help = "Export a session as a tarockscore/1 file (json), a CSV sheet or a PDF score sheet."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("id", type=int, help="the session's id")
        parser.add_argument("--format", choices=FORMATS, default="json")
        parser.add_argument("--output", required=True, help="the file to write ('-' for standard output)")
        parser.add_argument("--language", default="de", help="language of the sheet (de, en, fr)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            session = Session.objects.get(pk=options["id"])
        except Session.DoesNotExist:
            raise CommandError(f"id: no session {options['id']}") from None
        if options["output"] == "-" and options["format"] == "pdf":
            raise CommandError("output: a PDF needs a file name")
        with translation.override(options["language"]):
            data = export(session, options["format"])
        if options["output"] == "-":
            self.stdout.write(data.decode("utf-8"), ending="")
            return
        Path(options["output"]).write_bytes(data)


def export(session: Session, kind: str) -> bytes:
    if kind == "json":
        return services.session_export_json(session).encode("utf-8")
    if kind == "csv":
        return services.session_export_csv(services.session_sheet(session)).encode("utf-8")
    from scoring.pdf import session_pdf

    return session_pdf(session)
