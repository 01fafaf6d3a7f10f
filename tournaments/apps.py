from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments and cups"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from scoring.services import events
        from tournaments.services import results

        # A table's results follow every change of its session in the same
        # transaction (``scoring.services.events`` says why it is a signal).
        events.sheet_changed.connect(results.on_sheet_changed, dispatch_uid="tournaments.sheet_changed")
