"""Celery tasks of bot tournaments: thin, take ids, call a service (STYLE.md).

Every task is idempotent by the natural key of a tournament game, so the broker may deliver
one twice: acknowledged late, run again if its worker dies, retried with backoff on
transient database or broker errors. Nobody reads their results, so none are stored (and
sending one never waits on the result store).
"""

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from plumbing import queue
from tournaments import services
from tournaments.models import Tournament

TRANSIENT = (OperationalError, InterfaceError, BrokerError, RedisConnectionError,
             RedisTimeoutError, ConnectionError)
# A task meeting a database or broker outage retries, waiting longer each time up to
# TOURNAMENT_TASK_RETRY_BACKOFF_MAX seconds, for about as long as an outage may last: a batch
# that gave up before it could record that a worker took it would wait
# TOURNAMENT_QUEUED_SECONDS for the reconciler.
TASK_OPTIONS = {"acks_late": True, "reject_on_worker_lost": True, "autoretry_for": TRANSIENT,
                "retry_backoff": True, "retry_backoff_max":
                settings.TOURNAMENT_TASK_RETRY_BACKOFF_MAX, "max_retries": 100,
                "ignore_result": True}


@shared_task(name=services.START_TASK, **TASK_OPTIONS)
def tournament_start_task(tournament_id: int) -> int:
    """Start a scheduled tournament; a second delivery finds it started and does nothing."""
    tournament = Tournament.objects.get(pk=tournament_id)
    if tournament.status != Tournament.SCHEDULED:
        return 0
    return services.tournament_start(tournament=tournament).total_games


@shared_task(name=services.PLAY_BATCH_TASK, **TASK_OPTIONS)
def tournament_play_batch_task(tournament_id: int, keys: list, batch_id: int | None = None) -> int:
    """Play and store a batch of games (round, table, number); stored ones are skipped. At
    the soft time limit the batch ends between games and is given back, so the reconciler
    sends it again and the next run plays what is left."""
    try:
        count = services.tournament_play_batch(tournament_id=tournament_id, keys=keys,
                                               batch_id=batch_id)
    except SoftTimeLimitExceeded:
        services.tournament_batch_release(batch_id=batch_id)
        return 0
    if not tournament_play_batch_task.request.is_eager:
        # Keep the queue topped up between the reconciler's runs (in this process, the
        # sender already plays every batch in turn).
        services.tournament_batches_send(tournament_id=tournament_id)
    return count


def _batch_beat(tournament_id: int, keys: list, batch_id: int | None = None) -> None:
    services.tournament_batch_beat(batch_id=batch_id)


# A batch's heartbeat goes on during a long game, so a batch whose worker died goes quiet
# within seconds, whatever its bots' speed.
queue.heartbeat(services.PLAY_BATCH_TASK, _batch_beat)


@shared_task(name=services.RECONCILE_TASK, ignore_result=True)
def tournaments_reconcile_task() -> dict:
    """Celery beat's periodic run of services.tournaments_reconcile; a run that fails (the
    database is down) is simply the next run's work, so it is not retried."""
    return services.tournaments_reconcile()

