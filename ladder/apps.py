from django.apps import AppConfig


class LadderConfig(AppConfig):
    name = "ladder"
    verbose_name = "Ladder"

    def ready(self):
        # The tasks register with Celery when imported: services send them by name.
        from ladder import services, tasks  # noqa: F401
        from outside_bots import services as registration

        # A removed bot's name stays with its author, whose ladder record it names.
        registration.name_checks.append(services.bot_name_refusal)
