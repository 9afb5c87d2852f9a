from django.apps import AppConfig
from django.conf import settings

from gameplay.bots import outside


class TournamentsConfig(AppConfig):
    name = "tournaments"
    label = "gameplay"  # existing databases' tables and migrations are under this label
    verbose_name = "Bot tournaments"

    def ready(self):
        # Outside bots read the administrator's allow-lists from Django's settings.
        outside.settings_source = _django_setting
        # The tasks register with Celery when imported: services send them by name.
        from tournaments import tasks  # noqa: F401


def _django_setting(name: str):
    return getattr(settings, name, None)
