"""The Celery application: `celery -A config.celery_app worker` starts a worker for it."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("president_league")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
