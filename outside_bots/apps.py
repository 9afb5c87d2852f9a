from django.apps import AppConfig
from django.conf import settings

from gameplay.bots import outside


class OutsideBotsConfig(AppConfig):
    name = "outside_bots"
    verbose_name = "Outside bots"

    def ready(self):
        # Outside bots read the administrator's allow-lists from Django's settings.
        outside.settings_source = _django_setting


def _django_setting(name: str):
    return getattr(settings, name, None)
