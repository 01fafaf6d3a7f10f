from django.urls import path

from scoring.views import accounts, groups, hands, sessions, sharing, sheets

urlpatterns = [
    path("", sessions.session_list, name="session_list"),
    path("sessions/new/", sessions.session_new_game, name="session_new"),
    path("sessions/new/<str:variant>/", sessions.session_new, name="session_new_variant"),
    path("sessions/import/", sessions.session_import, name="session_import"),
    path("sessions/<int:pk>/", sheets.scoreboard, name="scoreboard"),
    path("sessions/<int:pk>/sheet/", sheets.session_print, name="session_print"),
    path("sessions/<int:pk>/export/<str:kind>/", sheets.session_export, name="session_export"),
    path("sessions/<int:pk>/settlement/", sheets.settlement, name="settlement"),
    path("sessions/<int:pk>/sharing/", sharing.sharing, name="sharing"),
    path("s/<str:token>/", sharing.shared_board, name="shared_board"),
    path("s/<str:token>/hands/<int:hand_id>/", sharing.shared_hand, name="shared_hand"),
    path("sessions/<int:pk>/hands/new/", hands.hand_new, name="hand_new"),
    path("sessions/<int:pk>/hands/preview/", hands.hand_preview, name="hand_preview"),
    path("sessions/<int:pk>/hands/<int:hand_id>/", hands.hand_detail, name="hand_detail"),
    path("sessions/<int:pk>/hands/<int:hand_id>/edit/", hands.hand_edit, name="hand_edit"),
    path(
        "sessions/<int:pk>/hands/<int:hand_id>/edit/preview/",
        hands.hand_preview,
        name="hand_edit_preview",
    ),
    path("sessions/<int:pk>/hands/<int:hand_id>/delete/", hands.hand_delete, name="hand_delete"),
    path("sessions/<int:pk>/hands/<int:hand_id>/restore/", hands.hand_restore, name="hand_restore"),
    # the regular table
    path("accounts/signup/", accounts.signup, name="signup"),
    path("join/<str:token>/", accounts.join, name="join"),
    path("join/<str:token>/signup/", accounts.join_signup, name="join_signup"),
    path("groups/", groups.group_list, name="group_list"),
    path("groups/<int:gid>/", groups.group_detail, name="group_detail"),
    path("groups/<int:gid>/roster/", groups.group_roster, name="group_roster"),
    path("groups/<int:gid>/members/", groups.group_members, name="group_members"),
    path("groups/<int:gid>/settings/", groups.group_settings, name="group_settings"),
    path("groups/<int:gid>/rules/<str:variant>/", groups.group_rules, name="group_rules"),
    path("groups/<int:gid>/invitations/", groups.group_invitations, name="group_invitations"),
    path("groups/<int:gid>/evenings/new/", groups.group_evening_game, name="group_evening_game"),
    path("groups/<int:gid>/evenings/new/<str:variant>/", groups.group_evening_new, name="group_evening_new"),
    path("groups/<int:gid>/evenings/add/", groups.group_evening_add, name="group_evening_add"),
    path("groups/<int:gid>/evenings/<int:pk>/close/", groups.group_evening_close, name="group_evening_close"),
    path(
        "groups/<int:gid>/evenings/<int:pk>/reopen/", groups.group_evening_reopen, name="group_evening_reopen"
    ),
    path("groups/<int:gid>/players/<int:pid>/", groups.group_player, name="group_player"),
    path("groups/<int:gid>/players/<int:pid>/pdf/", groups.group_player_pdf, name="group_player_pdf"),
    path("groups/<int:gid>/table/", groups.season_table, name="season_table"),
    path("groups/<int:gid>/table/<str:season>/", groups.season_table, name="season_table"),
    path("groups/<int:gid>/table/<str:season>/pdf/", groups.season_pdf, name="season_pdf"),
    path("groups/<int:gid>/seasons/", groups.season_new, name="season_new"),
    path("groups/<int:gid>/kasse/", groups.group_kasse, name="group_kasse"),
    path("groups/<int:gid>/kasse/<int:bid>/reverse/", groups.kasse_reverse, name="kasse_reverse"),
]
