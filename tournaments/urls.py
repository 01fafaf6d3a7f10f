"""The organiser's pages: tournaments, entrants, rounds, the desk, cups and seasons."""

from django.urls import URLPattern, URLResolver

from plumbing.converters import IdConverter as IdConverter  # registers <id:…>

urlpatterns: list[URLPattern | URLResolver] = []
