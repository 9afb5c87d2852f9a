"""Demo data for a fresh install, so `make run` has someone to log in as."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

ORGANISER_USERNAME = "organiser"
ORGANISER_PASSWORD = "organiser"


class Command(BaseCommand):
    help = "Ensure the demo organiser (a superuser with a known password) exists; DEBUG only."

    def handle(self, *args, **options):
        # A superuser with a published password must never reach a deployed server.
        if not settings.DEBUG:
            raise CommandError(
                "demo_data creates a login with a known password; it runs only with DEBUG on."
            )
        organiser, _ = get_user_model().objects.get_or_create(username=ORGANISER_USERNAME)
        organiser.is_active = organiser.is_staff = organiser.is_superuser = True
        organiser.set_password(ORGANISER_PASSWORD)
        organiser.save()
        self.stdout.write(
            f"Demo organiser: log in at /admin/ as {ORGANISER_USERNAME} / {ORGANISER_PASSWORD}"
        )
