from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments and cups"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from club.services import events as roster_events
        from scoring.services import events
        from tournaments.services import cups, tables

        # The first change stored at a free table claims it, in the same
        # transaction (``scoring.services.events`` says why it is a signal).
        events.sheet_changed.connect(tables.on_sheet_changed, dispatch_uid="tournaments.sheet_changed")
        # A roster name merged into another: what the tournaments picked from it follows.
        roster_events.roster_merged.connect(cups.on_roster_merged, dispatch_uid="tournaments.roster_merged")
