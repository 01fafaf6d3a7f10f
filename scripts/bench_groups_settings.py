"""Settings of the statistics benchmark's server: the app's own, plus a bare view
to measure against (``scripts.bench_groups_urls``). Never used by the app itself."""

from tarockscore.settings import *  # noqa: F403

ROOT_URLCONF = "scripts.bench_groups_urls"
