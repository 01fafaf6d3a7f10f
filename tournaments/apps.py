from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments and cups"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from scoring.services import events
        from tournaments.services import tables

        # The first change stored at a free table claims it, in the same
        # transaction (``scoring.services.events`` says why it is a signal).
        events.sheet_changed.connect(tables.on_sheet_changed, dispatch_uid="tournaments.sheet_changed")
