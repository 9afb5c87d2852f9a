"""Celery tasks: thin, take ids, call the domain (league.rating_jobs). Sent after commit."""

from celery import shared_task
from django.db import OperationalError

from league import rating_jobs


# No result is kept: nobody reads it, and a result backend that is down would hold the sender.
@shared_task(name=rating_jobs.RATINGS_RECOMPUTE_TASK, acks_late=True,
             autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5,
             ignore_result=True)
def ratings_recompute_task(scope: str) -> int:
    """Idempotent: a second run finds the scope up to date and replays nothing."""
    return rating_jobs.ratings_recompute(scope=scope)


@shared_task(ignore_result=True)
def ratings_reconcile_task() -> int:
    """Run by celery beat (settings.CELERY_BEAT_SCHEDULE): enqueue a recompute of every stale
    scope, whose task was lost or never sent (the broker was down)."""
    return rating_jobs.ratings_reconcile()
