from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Tarock scoring"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_login_failed

        from scoring.auth import record_failure
        from tarockscore import checks  # noqa: F401  (registers the start-up checks)

        user_login_failed.connect(record_failure, dispatch_uid="scoring.auth.record_failure")
