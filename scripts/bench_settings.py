"""Settings of the benchmark's server: the production settings, two pages that
measure the floor (``bench_urls``), and each answer saying where its time went
in the server (``server_timing``)."""

from tarockscore.settings import *  # noqa: F403
from tarockscore.settings import MIDDLEWARE

ROOT_URLCONF = "scripts.bench_urls"
MIDDLEWARE = ["scripts.server_timing.ServerTiming", *MIDDLEWARE]
