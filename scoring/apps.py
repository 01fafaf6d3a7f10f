from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Tarock scoring"

    def ready(self) -> None:
        from tarockscore import checks  # noqa: F401  (registers the start-up checks)
