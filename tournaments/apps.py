from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments and cups"
    default_auto_field = "django.db.models.BigAutoField"
