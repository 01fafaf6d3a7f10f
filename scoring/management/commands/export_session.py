"""python manage.py export_session ID --format pdf|json|csv --output FILE [--csv-format semicolon|comma]"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation

from scoring.exports import CSV_FORMATS, KINDS, ExportRefused, session_export
from scoring.models import Session


class Command(BaseCommand):
    help = "Export a session as a tarockscore/1 file (json), a CSV sheet or a PDF score sheet."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("id", type=int, help="the session's id")
        parser.add_argument("--format", choices=KINDS, default="json")
        parser.add_argument("--output", required=True, help="the file to write ('-' for standard output)")
        parser.add_argument("--language", default="de", help="language of the sheet (de, en, fr)")
        parser.add_argument(
            "--csv-format",
            choices=tuple(CSV_FORMATS),
            help="semicolon: ';' and a decimal comma; comma: ',' and a decimal point (default: the language's)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            session = Session.objects.get(pk=options["id"])
        except Session.DoesNotExist:
            raise CommandError(f"id: no session {options['id']}") from None
        if options["output"] == "-" and options["format"] == "pdf":
            raise CommandError("output: a PDF needs a file name")
        with translation.override(options["language"]):
            try:
                data = session_export(session, options["format"], csv_format=options["csv_format"]).data
            except ExportRefused as refused:
                raise CommandError(refused.message) from None
        if options["output"] == "-":
            self.stdout.write(data.decode("utf-8"), ending="")
            return
        Path(options["output"]).write_bytes(data)
