from django.urls import path

from club import views
from plumbing.converters import IdConverter as IdConverter  # registers <id:…>

urlpatterns = [
    path("groups/", views.group_list, name="group_list"),
    path("groups/<id:gid>/", views.group_detail, name="group_detail"),
    path("groups/<id:gid>/roster/", views.group_roster, name="group_roster"),
    path("groups/<id:gid>/members/", views.group_members, name="group_members"),
    path("groups/<id:gid>/settings/", views.group_settings, name="group_settings"),
    path("groups/<id:gid>/rules/<str:variant>/", views.group_rules, name="group_rules"),
    path("groups/<id:gid>/invitations/", views.group_invitations, name="group_invitations"),
    path("groups/<id:gid>/evenings/new/", views.group_evening_game, name="group_evening_game"),
    path("groups/<id:gid>/evenings/new/<str:variant>/", views.group_evening_new, name="group_evening_new"),
    path("groups/<id:gid>/evenings/add/", views.group_evening_add, name="group_evening_add"),
    path("groups/<id:gid>/evenings/<id:pk>/close/", views.group_evening_close, name="group_evening_close"),
    path("groups/<id:gid>/evenings/<id:pk>/reopen/", views.group_evening_reopen, name="group_evening_reopen"),
    path("groups/<id:gid>/players/<id:pid>/", views.group_player, name="group_player"),
    path("groups/<id:gid>/players/<id:pid>/pdf/", views.group_player_pdf, name="group_player_pdf"),
    path("groups/<id:gid>/table/", views.season_table, name="season_table"),
    path("groups/<id:gid>/table/<str:season>/", views.season_table, name="season_table"),
    path("groups/<id:gid>/table/<str:season>/pdf/", views.season_pdf, name="season_pdf"),
    path("groups/<id:gid>/seasons/", views.season_new, name="season_new"),
    path("groups/<id:gid>/kasse/", views.group_kasse, name="group_kasse"),
    path("groups/<id:gid>/kasse.csv", views.kasse_csv, name="kasse_csv"),
    path("groups/<id:gid>/kasse/<id:bid>/reverse/", views.kasse_reverse, name="kasse_reverse"),
]
