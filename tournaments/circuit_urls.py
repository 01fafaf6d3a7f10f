"""The circuit's pages for its organisers (``TOURNAMENTS.md`` §14.1)."""

from django.urls import URLPattern, URLResolver, path

from plumbing.converters import IdConverter as IdConverter  # registers <id:…>
from tournaments.views import circuit, side

urlpatterns: list[URLPattern | URLResolver] = [
    path("circuits/", circuit.circuit_list, name="circuit_list"),
    path("circuits/<id:kid>/", circuit.circuit_detail, name="circuit_detail"),
    path("circuits/<id:kid>/register/", circuit.circuit_register, name="circuit_register"),
    path("circuits/<id:kid>/register/import/", circuit.circuit_import, name="circuit_import"),
    path("circuits/<id:kid>/register/export/", circuit.circuit_export, name="circuit_export"),
    path("circuits/<id:kid>/register/merge/", circuit.circuit_merge, name="circuit_merge"),
    path("circuits/<id:kid>/register/<id:number>/", circuit.circuit_entry, name="circuit_entry"),
    path("circuits/<id:kid>/cups/", circuit.circuit_join, name="circuit_join"),
    path("circuits/<id:kid>/honours/", side.circuit_honours, name="circuit_honours"),
]
