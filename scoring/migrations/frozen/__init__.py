"""Frozen copies of the code the data migrations run, so that a later change to
the application can never change what an old migration does to a database.

- ``engine``: the scoring engine as it was when the last data migration that
  needs it (0010) was written (commit 443a322 of scoring/engine), pure Python,
  importing only itself. Never updated: a new data migration that needs a newer
  engine gets a copy of its own beside this one.
- ``standings``: how 0010 sums a group's evening from its stored hands (as
  ``club.services.standings`` did then).

The migration loader skips packages, so nothing here is taken for a migration.
"""
