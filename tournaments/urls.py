"""The organiser's pages: tournaments, entrants, rounds, the desk, cups and seasons."""

from django.urls import URLPattern, URLResolver, path

from plumbing.converters import IdConverter as IdConverter  # registers <id:…>
from tournaments.views import cups, door, organiser, side, teams

urlpatterns: list[URLPattern | URLResolver] = [
    path("tournaments/", organiser.tournament_list, name="tournament_list"),
    path("tournaments/new/<str:variant>/", organiser.tournament_new, name="tournament_new"),
    path("tournaments/import/", organiser.tournament_import, name="tournament_import"),
    path("tournaments/<id:tid>/", organiser.tournament_detail, name="tournament_detail"),
    path("tournaments/<id:tid>/settings/", organiser.tournament_settings, name="tournament_settings"),
    path("tournaments/<id:tid>/entrants/", organiser.tournament_entrants, name="tournament_entrants"),
    path("tournaments/<id:tid>/draw/", organiser.tournament_draw, name="tournament_draw"),
    path("tournaments/<id:tid>/release/", organiser.tournament_release, name="tournament_release"),
    path("tournaments/<id:tid>/status/", organiser.tournament_status, name="tournament_status"),
    path("tournaments/<id:tid>/clock/", organiser.tournament_clock, name="tournament_clock"),
    path("tournaments/<id:tid>/board/", organiser.tournament_board_link, name="tournament_board_link"),
    path("tournaments/<id:tid>/door/", door.tournament_door, name="tournament_door"),
    path("tournaments/<id:tid>/door/poster/", door.tournament_door_poster, name="tournament_door_poster"),
    path("tournaments/number/<id:number>/", door.tournament_by_number, name="tournament_by_number"),
    path("tournaments/<id:tid>/rounds/<id:number>/", organiser.tournament_round, name="tournament_round"),
    path("tournaments/<id:tid>/tables/<id:pk>/", organiser.organiser_table, name="organiser_table"),
    path("tournaments/<id:tid>/prizes/", organiser.tournament_prizes, name="tournament_prizes"),
    path("tournaments/<id:tid>/sides/", side.tournament_sides, name="tournament_sides"),
    path("tournaments/<id:tid>/teams/", teams.tournament_teams, name="tournament_teams"),
    path("tournaments/<id:tid>/prizes/draw/", organiser.tournament_raffle, name="tournament_raffle"),
    path("tournaments/<id:tid>/print/<str:kind>/", organiser.tournament_print, name="tournament_print"),
    path("tournaments/<id:tid>/cards/<id:number>/", organiser.tournament_card, name="tournament_card"),
    path("tournaments/<id:tid>/export/", organiser.tournament_export, name="tournament_export"),
    path("cups/", cups.cup_list, name="cup_list"),
    path("cups/<id:cid>/", cups.cup_detail, name="cup_detail"),
    path("cups/<id:cid>/pdf/", cups.cup_pdf, name="cup_pdf"),
    path("cups/<id:cid>/register/", cups.cup_register, name="cup_register"),
    path("cups/<id:cid>/settings/", cups.cup_settings, name="cup_settings"),
    path("cups/<id:cid>/sides/", side.cup_sides, name="cup_sides"),
    path("cups/<id:cid>/honours/", side.cup_honours, name="cup_honours"),
]
