"""Celery tasks: thin, take ids, call a service. Enqueued by the services after commit."""

from celery import shared_task
from django.db import OperationalError

from league import services


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True,
             max_retries=5)
def ratings_recompute_task(scope: str) -> int:
    """Idempotent: a second run finds the scope up to date and replays nothing."""
    return services.ratings_recompute(scope=scope)
