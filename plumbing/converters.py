"""The ``id`` path converter every app's addresses use for a row's id."""

from __future__ import annotations

from django.urls import register_converter

# The largest id a row can have: every table's id is a 64-bit integer (BigAutoField).
LARGEST_ID = 2**63 - 1


class IdConverter:
    """An id in an address: a whole number a row's id can be. A larger one names
    nothing (404) on every database, instead of reaching SQLite, which cannot
    even compare it with an id."""

    regex = "[0-9]+"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > LARGEST_ID:
            raise ValueError(f"{value} is beyond every id")  # no match: 404
        return number

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
