from django.apps import AppConfig


class LadderConfig(AppConfig):
    name = "ladder"
    verbose_name = "Ladder"

    def ready(self):
        # The tasks register with Celery when imported: services send them by name.
        from ladder import tasks  # noqa: F401
