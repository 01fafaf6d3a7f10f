"""The keys of everything kept in the cache carry the release they were drawn by.

A shared cache (``CACHE=database``) outlives a deploy: without the release in
the key, pages, rows and fields drawn by the old templates would be served by
the new code until they expire. The release is the fingerprint of every file
the pages are drawn from (``plumbing.offline.cache_version``, the same one the
offline worker uses), so two servers of one release share what they keep and
a new release starts afresh.
"""

from __future__ import annotations


def release_key(key: str, key_prefix: str, version: int) -> str:
    """Django's cache key (``KEY_FUNCTION``) with this release's fingerprint in it."""
    from plumbing import offline  # read when the cache is first used, after the apps are loaded

    return f"{key_prefix}:{version}:{offline.cache_version()}:{key}"
