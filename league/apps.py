from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"

    def ready(self):
        # The tasks register with Celery when imported: services send them by name.
        from league import tasks  # noqa: F401
