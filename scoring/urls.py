from django.urls import path, register_converter

from scoring.views import accounts, groups, hands, manage, offline, sessions, sharing, sheets

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

urlpatterns = [
    path("", sessions.session_list, name="session_list"),
    path("sw.js", offline.service_worker, name="service_worker"),
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("offline/", offline.offline_page, name="offline"),
    path("sessions/new/", sessions.session_new_game, name="session_new"),
    path("sessions/new/<str:variant>/", sessions.session_new, name="session_new_variant"),
    path("sessions/import/", sessions.session_import, name="session_import"),
    path("sessions/<id:pk>/", sheets.scoreboard, name="scoreboard"),
    path("sessions/<id:pk>/sheet/", sheets.session_print, name="session_print"),
    path("sessions/<id:pk>/export/<str:kind>/", sheets.session_export, name="session_export"),
    path("sessions/<id:pk>/settlement/", sheets.settlement, name="settlement"),
    path("sessions/<id:pk>/sharing/", sharing.sharing, name="sharing"),
    path("sessions/<id:pk>/settings/", manage.session_settings, name="session_settings"),
    path("sessions/<id:pk>/settings/player/", manage.session_player, name="session_player"),
    path("sessions/<id:pk>/rules/", manage.session_rules, name="session_rules"),
    path("sessions/<id:pk>/close/", manage.session_close, name="session_close"),
    path("sessions/<id:pk>/reopen/", manage.session_reopen, name="session_reopen"),
    path("sessions/<id:pk>/delete/", manage.session_delete, name="session_delete"),
    path("sessions/<id:pk>/restore/", manage.session_restore, name="session_restore"),
    path("s/<str:token>/", sharing.shared_board, name="shared_board"),
    path("s/<str:token>/hands/<id:hand_id>/", sharing.shared_hand, name="shared_hand"),
    path("sessions/<id:pk>/hands/new/", hands.hand_new, name="hand_new"),
    path("sessions/<id:pk>/hands/preview/", hands.hand_preview, name="hand_preview"),
    path("sessions/<id:pk>/hands/<id:hand_id>/", hands.hand_detail, name="hand_detail"),
    path("sessions/<id:pk>/hands/<id:hand_id>/edit/", hands.hand_edit, name="hand_edit"),
    path(
        "sessions/<id:pk>/hands/<id:hand_id>/edit/preview/",
        hands.hand_preview,
        name="hand_edit_preview",
    ),
    path("sessions/<id:pk>/hands/<id:hand_id>/delete/", hands.hand_delete, name="hand_delete"),
    path("sessions/<id:pk>/hands/<id:hand_id>/restore/", hands.hand_restore, name="hand_restore"),
    # the regular table
    path("accounts/signup/", accounts.signup, name="signup"),
    path("join/<str:token>/", accounts.join, name="join"),
    path("join/<str:token>/signup/", accounts.join_signup, name="join_signup"),
    path("groups/", groups.group_list, name="group_list"),
    path("groups/<id:gid>/", groups.group_detail, name="group_detail"),
    path("groups/<id:gid>/roster/", groups.group_roster, name="group_roster"),
    path("groups/<id:gid>/members/", groups.group_members, name="group_members"),
    path("groups/<id:gid>/settings/", groups.group_settings, name="group_settings"),
    path("groups/<id:gid>/rules/<str:variant>/", groups.group_rules, name="group_rules"),
    path("groups/<id:gid>/invitations/", groups.group_invitations, name="group_invitations"),
    path("groups/<id:gid>/evenings/new/", groups.group_evening_game, name="group_evening_game"),
    path("groups/<id:gid>/evenings/new/<str:variant>/", groups.group_evening_new, name="group_evening_new"),
    path("groups/<id:gid>/evenings/add/", groups.group_evening_add, name="group_evening_add"),
    path("groups/<id:gid>/evenings/<id:pk>/close/", groups.group_evening_close, name="group_evening_close"),
    path(
        "groups/<id:gid>/evenings/<id:pk>/reopen/", groups.group_evening_reopen, name="group_evening_reopen"
    ),
    path("groups/<id:gid>/players/<id:pid>/", groups.group_player, name="group_player"),
    path("groups/<id:gid>/players/<id:pid>/pdf/", groups.group_player_pdf, name="group_player_pdf"),
    path("groups/<id:gid>/table/", groups.season_table, name="season_table"),
    path("groups/<id:gid>/table/<str:season>/", groups.season_table, name="season_table"),
    path("groups/<id:gid>/table/<str:season>/pdf/", groups.season_pdf, name="season_pdf"),
    path("groups/<id:gid>/seasons/", groups.season_new, name="season_new"),
    path("groups/<id:gid>/kasse/", groups.group_kasse, name="group_kasse"),
    path("groups/<id:gid>/kasse.csv", groups.kasse_csv, name="kasse_csv"),
    path("groups/<id:gid>/kasse/<id:bid>/reverse/", groups.kasse_reverse, name="kasse_reverse"),
]
