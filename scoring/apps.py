from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Tarock scoring"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from plumbing.busy import watch_connection
        from tarockscore import checks  # noqa: F401  (registers the start-up checks)

        connection_created.connect(watch_connection, dispatch_uid="plumbing.busy.watch_connection")
