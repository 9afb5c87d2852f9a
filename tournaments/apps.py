from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    label = "gameplay"  # existing databases' tables and migrations are under this label
    verbose_name = "Bot tournaments"

    def ready(self):
        # The tasks register with Celery when imported: services send them by name.
        from outside_bots import services as registration
        from tournaments import services, tasks  # noqa: F401

        # An outside bot entered in a tournament keeps its name.
        registration.entered_checks.append(services.entered_in_tournaments)
