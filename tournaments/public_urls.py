"""Pages opened by a link without an account: a table's link (the scorer and
those watching) and the tournament's board (the hall screen, players' phones)."""

from django.urls import URLPattern, URLResolver

from plumbing.converters import IdConverter as IdConverter  # registers <id:…>

urlpatterns: list[URLPattern | URLResolver] = []
