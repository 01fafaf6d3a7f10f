from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from ratings.services import marks
        from scoring.services import events
        from tournaments.services import events as tournament_events

        # A closed, reopened, deleted or restored evening and a table-round that
        # locked or opened again leave a mark in the same transaction; the ratings
        # themselves are computed after the answer (``ratings.services.background``).
        events.evening_settled.connect(marks.on_evening_settled, dispatch_uid="ratings.evening_settled")
        tournament_events.table_changed.connect(marks.on_table_changed, dispatch_uid="ratings.table_changed")
