"""The static files as served in production: compressed, under names carrying
their contents' hash (WhiteNoise), with the imports of the phone's modules
(static/js/phone/, ES modules importing one another by relative address)
rewritten to those names, so that a module a page imports is the one of the same
release, and the one the service worker keeps (``plumbing.offline.PRECACHE``).

Only the app's modules are read for imports: a vendored script (htmx) has
``import(`` in strings that are no address."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage

# Django's own patterns for a module's imports (HashedFilesMixin), but the dynamic import().
_IMPORTS = tuple(
    pattern
    for pattern in CompressedManifestStaticFilesStorage._js_module_import_aggregation_patterns[1]
    if "import\\(" not in pattern[0]
)


class StaticStorage(CompressedManifestStaticFilesStorage):
    patterns = (*CompressedManifestStaticFilesStorage.patterns, ("js/phone/*.js", _IMPORTS))
