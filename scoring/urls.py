from django.urls import path

from scoring import views

urlpatterns = [
    path("", views.session_list, name="session_list"),
    path("sessions/new/", views.session_new, name="session_new"),
    path("sessions/new/<str:variant>/", views.session_new, name="session_new_variant"),
    path("sessions/import/", views.session_import, name="session_import"),
    path("sessions/<int:pk>/", views.scoreboard, name="scoreboard"),
    path("sessions/<int:pk>/sheet/", views.session_print, name="session_print"),
    path("sessions/<int:pk>/export/<str:kind>/", views.session_export, name="session_export"),
    path("sessions/<int:pk>/settlement/", views.settlement, name="settlement"),
    path("sessions/<int:pk>/sharing/", views.sharing, name="sharing"),
    path("s/<str:token>/", views.shared_board, name="shared_board"),
    path("s/<str:token>/hands/<int:hand_id>/", views.shared_hand, name="shared_hand"),
    path("sessions/<int:pk>/hands/new/", views.hand_new, name="hand_new"),
    path("sessions/<int:pk>/hands/preview/", views.hand_preview, name="hand_preview"),
    path("sessions/<int:pk>/hands/<int:hand_id>/", views.hand_detail, name="hand_detail"),
    path("sessions/<int:pk>/hands/<int:hand_id>/edit/", views.hand_edit, name="hand_edit"),
    path(
        "sessions/<int:pk>/hands/<int:hand_id>/edit/preview/",
        views.hand_preview,
        name="hand_edit_preview",
    ),
    path("sessions/<int:pk>/hands/<int:hand_id>/delete/", views.hand_delete, name="hand_delete"),
    path("sessions/<int:pk>/hands/<int:hand_id>/restore/", views.hand_restore, name="hand_restore"),
]
