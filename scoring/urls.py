from django.urls import path

from plumbing.converters import IdConverter as IdConverter  # registers <id:…>
from scoring.views import hands, manage, offline, sessions, sharing, sheets

urlpatterns = [
    path("", sessions.session_list, name="session_list"),
    path("sw.js", offline.service_worker, name="service_worker"),
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("offline/", offline.offline_page, name="offline"),
    path("phone/pyodide/<str:version>/<str:name>", offline.phone_runtime, name="phone_runtime"),
    path("phone/<str:name>", offline.phone_bundle, name="phone_bundle"),
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
]
