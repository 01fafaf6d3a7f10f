from django.apps import AppConfig


class ClubConfig(AppConfig):
    name = "club"
    verbose_name = "The regular table"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from club.services import evenings, links
        from plumbing import queries
        from scoring.services import circles, events

        # The regular table follows every change of its evenings in the same
        # transaction (``scoring.services.events`` says why it is a signal).
        events.sheet_changed.connect(evenings.on_sheet_changed, dispatch_uid="club.sheet_changed")
        events.evening_settled.connect(evenings.on_evening_settled, dispatch_uid="club.evening_settled")
        events.seat_renamed.connect(evenings.on_seat_renamed, dispatch_uid="club.seat_renamed")
        # A group's members have their rights on its evenings, and its money its sign,
        # through the evenings' own rule (``scoring.services.circles``).
        circles.circle_register(circles.Circle(rights=queries.group_circle(), currency=links.currency_of))
