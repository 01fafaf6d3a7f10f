from django.apps import AppConfig


class ClubConfig(AppConfig):
    name = "club"
    verbose_name = "The regular table"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from club.services import evenings
        from scoring.services import events

        # The regular table follows every change of its evenings in the same
        # transaction (``scoring.services.events`` says why it is a signal).
        events.sheet_changed.connect(evenings.on_sheet_changed, dispatch_uid="club.sheet_changed")
        events.evening_settled.connect(evenings.on_evening_settled, dispatch_uid="club.evening_settled")
        events.seat_renamed.connect(evenings.on_seat_renamed, dispatch_uid="club.seat_renamed")
