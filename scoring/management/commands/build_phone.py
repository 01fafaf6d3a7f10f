"""Build what the phone runs the engine with: the Pyodide runtime's files and the engine bundle."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from scoring import phone


class Command(BaseCommand):
    help = "Copy the pinned Pyodide runtime from node_modules and build the engine bundle (scoring/phone.py)."

    def handle(self, *args: Any, **options: Any) -> None:
        runtime = phone.copy_runtime()
        bundle = phone.build_bundle()
        self.stdout.write(f"runtime: {runtime}\nbundle: {bundle} ({bundle.stat().st_size} bytes)")
