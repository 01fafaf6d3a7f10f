"""The phone's modules under the names production serves (plumbing/staticfiles.py):
each import of a module names the hashed file of the same release, which exists,
and a vendored script's ``import(`` in a string is left alone."""

from __future__ import annotations

import re

from django.core.management import call_command
from django.test import override_settings


def test_the_modules_import_one_another_by_their_hashed_names(tmp_path):
    source = tmp_path / "static"
    (source / "js" / "phone").mkdir(parents=True)
    (source / "js" / "phone" / "main.js").write_text(
        'import { a } from "./a.js";\nimport "../outbox.js";\nself.main = a;\n'
    )
    (source / "js" / "phone" / "a.js").write_text("export const a = 1;\n")
    (source / "js" / "outbox.js").write_text("self.Outbox = {};\n")
    vendored = 'var x = "import(\\"" + name + "\\")";\n'  # as htmx has it: no address
    (source / "js" / "vendor.js").write_text(vendored)
    served = tmp_path / "served"
    with override_settings(
        STATICFILES_DIRS=[source],
        STATICFILES_FINDERS=["django.contrib.staticfiles.finders.FileSystemFinder"],
        STATIC_ROOT=served,
        STORAGES={
            "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staticfiles": {"BACKEND": "plumbing.staticfiles.StaticStorage"},
        },
    ):
        call_command("collectstatic", "--noinput", verbosity=0)
    [main] = [p for p in (served / "js" / "phone").glob("main.*.js")]
    imports = re.findall(r'import[^"]*"([^"]+)";', main.read_text())
    assert len(imports) == 2
    for name in imports:
        assert re.search(r"\.[0-9a-f]{12}\.js$", name), name
        assert (main.parent / name).resolve().is_file(), name
    [vendor] = [p for p in (served / "js").glob("vendor.*.js")]
    assert vendor.read_text() == vendored
