"""Follow the ratings' marks now (``ratings.services.marks``), or with ``--all``
read every event again and recompute every rating from the first event."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from ratings.services.marks import ratings_update
from ratings.services.recompute import ratings_rebuild


class Command(BaseCommand):
    help = (
        "Compute the ratings of the evenings closed and the tables signed since the last run "
        "(run it from cron when RATINGS_UPDATE=command); --all recomputes every rating."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--all", action="store_true", help="read every event again and recompute everything"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["all"]:
            rated = ratings_rebuild()
            followed = ratings_update()
            self.stdout.write(f"{rated} events rated, {followed} marks followed")
        else:
            self.stdout.write(f"{ratings_update()} marks followed")
