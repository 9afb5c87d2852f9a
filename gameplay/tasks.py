"""Celery tasks of bot tournaments: thin, take ids, call a service (STYLE.md).

Every task is idempotent by the natural key of a tournament game, so the broker may deliver
one twice: acknowledged late, run again if its worker dies, retried with backoff on
transient database or broker errors.
"""

from celery import current_task, shared_task
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from gameplay import services
from gameplay.models import Tournament

TRANSIENT = (OperationalError, InterfaceError, BrokerError, RedisConnectionError,
             RedisTimeoutError, ConnectionError)
TASK_OPTIONS = {"acks_late": True, "reject_on_worker_lost": True, "autoretry_for": TRANSIENT,
                "retry_backoff": True, "retry_backoff_max": 60, "max_retries": 8}


@shared_task(**TASK_OPTIONS)
def tournament_start_task(tournament_id: int) -> int:
    """Start a scheduled tournament; a second delivery finds it started and does nothing."""
    tournament = Tournament.objects.get(pk=tournament_id)
    if tournament.status != Tournament.SCHEDULED:
        return 0
    return services.tournament_start(tournament=tournament).total_games


@shared_task(**TASK_OPTIONS)
def tournament_play_batch_task(tournament_id: int, keys: list) -> int:
    """Play and store a batch of games (round, table, number); stored ones are skipped."""
    return services.tournament_play_batch(tournament_id=tournament_id, keys=keys)


def enqueue_batches(tournament_id: int, batches: list, *, eta=None) -> None:
    """One task per batch. Inside a task, follow-up batches go to the queue that task came
    from, so a tournament started on a queue stays on it."""
    queue = None
    request = getattr(current_task, "request", None)
    if current_task and request is not None and not request.is_eager:
        queue = (request.delivery_info or {}).get("routing_key")
    for batch in batches:
        tournament_play_batch_task.apply_async((tournament_id, batch), eta=eta, queue=queue)
