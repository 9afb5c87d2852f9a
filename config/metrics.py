"""Prometheus `/metrics` for operators (docs/operations.md "Watching it").

Requests come from django-prometheus's middleware. The rest is read when Prometheus scrapes,
so every web process reports the same figures whichever one answers:

- Celery task outcomes and retries: workers are other processes, often on other machines, so
  each outcome is counted in a Redis hash on the broker (``TASK_COUNTS_KEY``) by the signal
  handlers below, and read back at scrape time. With no broker, tasks run in the web process
  and are counted there. Counts made while Redis is down are lost (tasks are not held up).
- Games stored per second: tournament games stored in the last minute, over 60.
- Queue depth: the length of each Celery queue on the broker (LLEN), with a short timeout.
- Outside-bot faults: faults of tournament games (``bot_games.models.BotFault``), by kind.
"""

import functools
import hmac
import logging
import os
from collections import Counter
from datetime import timedelta

import redis
from celery import signals
from django.conf import settings
from django.db.models import Count
from django.http import Http404, HttpResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest, multiprocess
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from plumbing.queue import queue_names

logger = logging.getLogger(__name__)

TASK_COUNTS_KEY = "president:metrics:task-outcomes"
# A scrape must answer even when Redis does not.
REDIS_TIMEOUT_SECONDS = 0.5
GAMES_WINDOW = timedelta(seconds=60)

# Outcomes of tasks run in this process when no broker is configured: (task name, outcome).
_local_task_counts: Counter = Counter()


def _broker():
    url = settings.CELERY_BROKER_URL
    if not url or not url.startswith(("redis://", "rediss://")):
        return None
    return _redis(url)


@functools.cache
def _redis(url):
    """One client (and connection pool) per broker URL and process."""
    return redis.Redis.from_url(url, socket_timeout=REDIS_TIMEOUT_SECONDS,
                                socket_connect_timeout=REDIS_TIMEOUT_SECONDS)


def count_task(task_name: str, outcome: str) -> None:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        _local_task_counts[(task_name, outcome)] += 1
        return
    client = _broker()
    if client is None:
        return
    try:
        client.hincrby(TASK_COUNTS_KEY, f"{task_name}|{outcome}", 1)
    except redis.RedisError:
        logger.warning("metrics: could not count %s %s, Redis unreachable", task_name, outcome)


@signals.task_success.connect
def _task_succeeded(sender=None, **kwargs):
    count_task(sender.name, "succeeded")


@signals.task_failure.connect
def _task_failed(sender=None, **kwargs):
    count_task(sender.name, "failed")


@signals.task_retry.connect
def _task_retried(sender=None, **kwargs):
    count_task(sender.name, "retried")


def task_counts() -> dict[tuple[str, str], int]:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return dict(_local_task_counts)
    client = _broker()
    if client is None:
        return {}
    raw = client.hgetall(TASK_COUNTS_KEY)
    counts = {}
    for field, value in raw.items():
        name, _, outcome = field.decode().rpartition("|")
        counts[(name, outcome)] = int(value)
    return counts


def queue_depths() -> dict[str, int]:
    client = _broker()
    if client is None:
        return {}
    return {name: client.llen(name) for name in queue_names()}


class LeagueCollector:
    """Figures read at scrape time from the database and the broker."""

    def describe(self):
        # Registering must not read the database or Redis; the names are known without them.
        return []

    def collect(self):
        tasks = CounterMetricFamily("president_celery_tasks", "Celery task outcomes",
                                    labels=["task", "outcome"])
        depth = GaugeMetricFamily("president_celery_queue_depth",
                                  "Messages waiting in each Celery queue", labels=["queue"])
        broker_up = GaugeMetricFamily("president_metrics_broker_up",
                                      "1 if the broker answered this scrape, else 0")
        try:
            for (name, outcome), value in sorted(task_counts().items()):
                tasks.add_metric([name, outcome], value)
            for name, value in queue_depths().items():
                depth.add_metric([name], value)
            broker_up.add_metric([], 1)
        except redis.RedisError:
            logger.warning("metrics: the broker did not answer the scrape", exc_info=True)
            broker_up.add_metric([], 0)
        yield from (tasks, depth, broker_up)
        yield from self._database_figures()

    def _database_figures(self):
        from bot_games.models import BotFault
        from tournaments.models import TournamentGame

        since = timezone.now() - GAMES_WINDOW
        stored = TournamentGame.objects.filter(stored_at__gte=since).count()
        yield GaugeMetricFamily(
            "president_tournament_games_stored_per_second",
            "Tournament games stored per second, over the last minute",
            value=stored / GAMES_WINDOW.total_seconds())
        faults = CounterMetricFamily("president_outside_bot_faults",
                                     "Faults of outside bots kept with tournament games, by kind",
                                     labels=["kind"])
        for kind, count in (BotFault.objects.filter(game__tournament_game__isnull=False)
                            .order_by().values_list("kind").annotate(n=Count("id"))):
            faults.add_metric([kind], count)
        yield faults


_collector = LeagueCollector()
REGISTRY.register(_collector)


def _registry():
    """With several gunicorn workers, PROMETHEUS_MULTIPROC_DIR merges their request counts."""
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return REGISTRY
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    registry.register(_collector)
    return registry


def authorised(request) -> bool:
    token = settings.METRICS_TOKEN
    given = request.headers.get("Authorization", "")
    return bool(token) and hmac.compare_digest(given.encode(), f"Bearer {token}".encode())


@never_cache
@require_GET
def metrics(request):
    """Prometheus's text format, for a scraper bearing METRICS_TOKEN; 404 to anyone else."""
    if not authorised(request):
        raise Http404
    return HttpResponse(generate_latest(_registry()), content_type=CONTENT_TYPE_LATEST)
