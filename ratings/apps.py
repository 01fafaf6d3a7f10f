from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, pre_delete

        from club.services import events as roster_events
        from ratings.services import links, marks
        from scoring.models import Session
        from scoring.services import events
        from tournaments.models import TableRound
        from tournaments.services import events as tournament_events

        # A closed, reopened, deleted or restored evening and a table-round that
        # locked or opened again leave a mark in the same transaction; the ratings
        # themselves are computed after the answer (``ratings.services.background``).
        events.evening_settled.connect(marks.on_evening_settled, dispatch_uid="ratings.evening_settled")
        tournament_events.table_changed.connect(marks.on_table_changed, dispatch_uid="ratings.table_changed")
        # A name merged into another by a group's owner or a cup's organiser: the
        # link follows it and the ratings of both names are marked (``links``).
        roster_events.roster_merged.connect(links.on_roster_merged, dispatch_uid="ratings.roster_merged")
        tournament_events.register_merged.connect(
            links.on_register_merged, dispatch_uid="ratings.register_merged"
        )
        tournament_events.circuit_merged.connect(
            links.on_circuit_merged, dispatch_uid="ratings.circuit_merged"
        )
        # A locked table or a counted evening deleted for good (with its tournament or
        # its owner's account) stops counting: marked before the deletion commits.
        post_delete.connect(marks.on_table_deleted, sender=TableRound, dispatch_uid="ratings.table_deleted")
        pre_delete.connect(marks.on_evening_deleted, sender=Session, dispatch_uid="ratings.evening_deleted")
