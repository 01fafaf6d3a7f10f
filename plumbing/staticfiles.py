"""The static files as served in production: compressed, under names carrying
their contents' hash (WhiteNoise), with the imports of the phone's modules
(static/js/phone/, ES modules importing one another by relative address)
rewritten to those names, so that a module a page imports is the one of the same
release, and the one the service worker keeps (``plumbing.offline.PRECACHE``).

Only the app's modules are read for imports (Django's own switch,
``support_js_module_import_aggregation``, reads every script: a vendored one,
htmx, has ``import(`` in strings that are no address)."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage  # type: ignore[import-untyped]

# Django's patterns for a module's static imports (HashedFilesMixin): ``import … from "./a.js";``
# and ``import "./a.js";``.
IMPORTS = (
    (
        r"""(?P<matched>import(?s:(?P<import>[\s\{].*?|\*\s*as\s*\w+))\s*from\s*['"](?P<url>[./].*?)["']\s*;)""",
        """import%(import)s from "%(url)s";""",
    ),
    (r"""(?P<matched>import\s*['"](?P<url>[./].*?)["']\s*;)""", """import"%(url)s";"""),
)


class StaticStorage(CompressedManifestStaticFilesStorage):  # type: ignore[misc]  # WhiteNoise ships no types
    patterns = (*CompressedManifestStaticFilesStorage.patterns, ("js/phone/*.js", IMPORTS))
