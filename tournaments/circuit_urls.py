"""The circuit's pages for its organisers (``TOURNAMENTS.md`` §14.1), the final's
lists (§14.7) and the circuit file (§14.10)."""

from django.urls import URLPattern, URLResolver, path

from plumbing.converters import IdConverter as IdConverter  # registers <id:…>
from tournaments.views import circuit, door, side

urlpatterns: list[URLPattern | URLResolver] = [
    path("circuits/", circuit.circuit_list, name="circuit_list"),
    path("circuits/<id:kid>/", circuit.circuit_detail, name="circuit_detail"),
    path("circuits/<id:kid>/register/", circuit.circuit_register, name="circuit_register"),
    path("circuits/<id:kid>/register/import/", circuit.circuit_import, name="circuit_import"),
    path("circuits/<id:kid>/register/export/", circuit.circuit_export, name="circuit_export"),
    path("circuits/<id:kid>/register/merge/", circuit.circuit_merge, name="circuit_merge"),
    path("circuits/<id:kid>/register/<id:number>/", circuit.circuit_entry, name="circuit_entry"),
    path("circuits/<id:kid>/register/<id:number>/card/", door.circuit_card, name="circuit_card"),
    path(
        "circuits/<id:kid>/register/<id:number>/public-name/",
        circuit.circuit_entry_public_name,
        name="circuit_entry_public_name",
    ),
    path("circuits/<id:kid>/cups/", circuit.circuit_join, name="circuit_join"),
    path("circuits/<id:kid>/tiers/", circuit.circuit_tiers, name="circuit_tiers"),
    path("circuits/<id:kid>/final/", circuit.circuit_final, name="circuit_final"),
    path(
        "circuits/<id:kid>/cups/<id:cid>/qualification/",
        circuit.circuit_qualification,
        name="circuit_qualification",
    ),
    path(
        "circuits/<id:kid>/cups/<id:cid>/qualification/pdf/",
        circuit.circuit_qualification_pdf,
        name="circuit_qualification_pdf",
    ),
    path("circuits/<id:kid>/qualified/", circuit.circuit_qualified, name="circuit_qualified"),
    path("circuits/<id:kid>/qualified/pdf/", circuit.circuit_qualified_pdf, name="circuit_qualified_pdf"),
    path("circuits/<id:kid>/final/ranking/", circuit.circuit_gesamtwertung, name="circuit_gesamtwertung"),
    path(
        "circuits/<id:kid>/final/ranking/pdf/",
        circuit.circuit_gesamtwertung_pdf,
        name="circuit_gesamtwertung_pdf",
    ),
    path("circuits/<id:kid>/file/", circuit.circuit_file, name="circuit_file"),
    path("circuits/import/", circuit.circuit_file_import, name="circuit_file_import"),
    path("circuits/<id:kid>/honours/", side.circuit_honours, name="circuit_honours"),
]
