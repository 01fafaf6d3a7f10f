"""Settings of the benchmark's server: the production settings, and two pages
that measure the floor (``bench_urls``)."""

from tarockscore.settings import *  # noqa: F403

ROOT_URLCONF = "scripts.bench_urls"
