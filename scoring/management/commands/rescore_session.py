"""python manage.py rescore_session ID [--dry-run] [--yes]

Scores every hand of a session again with today's rules and shows which hands'
numbers change; on confirmation stores the new scores, each with a history
entry. A hand today's rules refuse is listed with the reason and left as it was.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.engine import Line
from scoring.engine.types import format_signed
from scoring.models import Session
from scoring.services import Rescore, RescoredHand, SessionClosed, session_rescore


class Command(BaseCommand):
    help = "Score a session's hands again with today's rules; store the new scores on confirmation."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("id", type=int, help="the session's id")
        parser.add_argument("--dry-run", action="store_true", help="only show what would change")
        parser.add_argument("--yes", action="store_true", help="store the changes without asking")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            session = Session.objects.get(pk=options["id"])
        except Session.DoesNotExist:
            raise CommandError(f"id: no session {options['id']}") from None
        preview = session_rescore(session=session, dry_run=True)
        self._report(preview)
        if options["dry_run"] or not preview.changed:
            return
        if not options["yes"] and input("Store the new scores? [y/N] ").strip().lower() not in ("y", "yes"):
            self.stdout.write("Nothing stored.")
            return
        try:
            stored = session_rescore(session=session)
        except SessionClosed:
            raise CommandError(f"id: session {session.pk} is closed; its owner reopens it first") from None
        self.stdout.write(f"Stored: {len(stored.changed)} hand(s) re-scored, each with a history entry.")

    def _report(self, result: Rescore) -> None:
        for hand in result.changed:
            self.stdout.write(f"hand {hand.number}: {'; '.join(_what_changed(hand))}")
        for hand in result.refused:
            assert hand.refused is not None
            where = f"hand {hand.number}" + (" (deleted)" if hand.deleted else "")
            self.stdout.write(f"{where}: refused, left as it was: {hand.refused.describe()}")
        unchanged = len(result.hands) - len(result.changed) - len(result.refused)
        self.stdout.write(
            f"{len(result.changed)} changed, {len(result.refused)} refused, {unchanged} unchanged."
        )


# What else a re-score may change of a hand's snapshot, in words.
OTHER_CHANGES = {
    "type": "the inputs as written",
    "dealer": "the inputs as written",
    "sitting_out": "the inputs as written",
    "inputs": "the inputs as written",
    "note": "the inputs as written",
    "breakdown": "the breakdown",
    "facts": "what the sections count",
    "stats": "the statistics",
}


def _what_changed(hand: RescoredHand) -> list[str]:
    """The numbers before → after when they change, the wording old → new when it
    changes ("wording only" when nothing else does), then whatever else differs."""
    parts = []
    if hand.numbers_changed:
        parts.append(f"{_deltas(hand.before)} → {_deltas(hand.after or {})}")
    if "description" in hand.differences:
        label = "wording only" if hand.differences == ("description",) else "wording"
        parts.append(f"{label}: {_quoted(hand.before_description)} → {_quoted(hand.after_description)}")
    others = dict.fromkeys(OTHER_CHANGES[name] for name in hand.differences if name in OTHER_CHANGES)
    if others:
        prefix = "same numbers and wording, changed: " if not parts else "also changed: "
        parts.append(prefix + ", ".join(others))
    return parts


def _quoted(line: Line | None) -> str:
    return f"“{line}”" if line is not None else "(none)"


def _deltas(values: dict[str, Any]) -> str:
    return ", ".join(f"{name} {format_signed(value)}" for name, value in values.items())
