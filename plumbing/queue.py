"""Sending a Celery task by its name, asking the broker and the workers what they hold,
heartbeats of the tasks that play games, and ``Work``: work recorded in rows and sent after
commit, which a reconciler finds again when it is lost.

A service sends tasks whose bodies call services again; naming the task instead of importing
it keeps ``services`` and ``tasks`` from importing each other. Each app imports its tasks module
when Django starts (``AppConfig.ready``), so a process running tasks eagerly (no broker
configured) finds them registered. Which queue a task goes to is the routing's business
(CELERY_TASK_ROUTES), never the sender's, but for games with hosted bots, which their senders
send to CELERY_HOSTED_QUEUE (outside_bots.services.hosted_route).
"""

import json
import logging
import threading
from collections.abc import Callable, Collection, Hashable, Iterable
from dataclasses import dataclass
from functools import partial

from celery import current_app
from celery.signals import task_postrun, task_prerun
from django.conf import settings
from django.db import connection, transaction
from kombu.exceptions import OperationalError as KombuOperationalError
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

# A queue longer than this is not read through: what it holds is then unknown.
MOST_QUEUED_READ = 10_000
# How long the workers have to say what they hold.
INSPECT_SECONDS = 1.0
# What a broker that is down or unreachable raises when a task is sent.
BROKER_ERRORS = (KombuOperationalError, RedisError, OSError)


def send(name: str, *args, **options):
    """Send task ``name`` with ``args``; ``options`` as Celery's ``apply_async`` takes them."""
    return current_app.tasks[name].apply_async(args, **options)


def eager() -> bool:
    """Whether tasks run in this process as they are sent (no broker configured)."""
    return current_app.conf.task_always_eager


def queue_names() -> list[str]:
    """Every queue tasks are routed to: the default one, those of CELERY_TASK_ROUTES, and
    CELERY_HOSTED_QUEUE, where games with hosted bots are sent (outside_bots.services)."""
    routes = current_app.conf.task_routes or {}
    hosted = {settings.CELERY_HOSTED_QUEUE} - {""}
    return sorted({current_app.conf.task_default_queue} | hosted |
                  {route["queue"] for route in routes.values() if route.get("queue")})


def held(task_ids: Collection[str]) -> set[str] | None:
    """Which of ``task_ids`` (tasks sent and not finished) the broker or a live worker holds:
    waiting in a queue (Redis LRANGE), or reserved, running or waiting for its ETA on a worker
    that answers within INSPECT_SECONDS (Celery's query_task). None when that cannot be known:
    no broker, a broker other than Redis, one that is down, or a queue too long to read. The
    queues are read before the workers are asked, so a task moving from one to the other
    meanwhile is seen on the worker."""
    if eager():
        return None
    wanted = set(task_ids)
    if not wanted:
        return set()
    app = current_app
    try:
        with app.connection_for_read() as broker:
            if broker.transport.driver_type != "redis":
                return None
            client = broker.default_channel.client
            found = set()
            for name in queue_names():
                messages = client.lrange(name, 0, MOST_QUEUED_READ)
                if len(messages) > MOST_QUEUED_READ:
                    return None
                found |= {(json.loads(m).get("headers") or {}).get("id") for m in messages}
        replies = app.control.inspect(timeout=INSPECT_SECONDS).query_task(*wanted) or {}
        for tasks in replies.values():
            found |= set(tasks)
    except (KombuOperationalError, RedisError, OSError, ValueError) as e:
        logger.warning("the broker could not say what it holds: %r", e)
        return None
    return found & wanted


@dataclass(frozen=True)
class Work:
    """Work recorded in rows, each row played by one run of ``task``; with a ``prefix``, the
    task's id is ``<prefix>-<key>`` every time it is sent, so ``lost`` can ask for it. The
    rows saying what to send are written in the transaction of the change that makes the
    work, and the tasks are sent after it commits (``after_commit``), so a broker that is down
    never undoes a change: what was not sent, what a worker dropped and what the broker lost
    (``lost``) is sent again by the app's reconciler, which celery beat runs."""

    task: str
    prefix: str | None = None

    def task_id(self, key: Hashable) -> str | None:
        """None without a prefix: Celery gives each sending an id of its own."""
        return f"{self.prefix}-{key}" if self.prefix else None

    @staticmethod
    def after_commit(send: Callable, **kwargs) -> None:
        """Call ``send(**kwargs)`` once the current transaction commits."""
        transaction.on_commit(partial(send, **kwargs))

    def send(self, tasks: Iterable[tuple[Hashable, tuple, dict]],
             sent: Callable[[list], object] = lambda keys: None) -> list:
        """Send the task of each (key, args, ``apply_async`` options), in turn, with the key's
        task id, and call ``sent`` with the keys sent, whatever happens. A broker error is
        logged and the rest waits for the reconciler: it never undoes a commit. (In-process,
        with no broker, the error is the task's own and propagates as the settings say.)
        Returns the keys sent."""
        tasks = list(tasks)
        done = []
        try:
            for key, args, options in tasks:
                send(self.task, *args, task_id=self.task_id(key), **options)
                done.append(key)
        except BROKER_ERRORS as e:
            if eager():
                raise
            logger.warning("%s: %d task(s) not sent, the reconciler sends them: %r",
                           self.task, len(tasks) - len(done), e)
        finally:
            sent(done)
        return done

    def lost(self, keys: Iterable[Hashable]) -> set:
        """Of ``keys``, sent long enough ago (TASK_SENT_GRACE_SECONDS) and not taken by a
        worker, those whose task neither a queue nor a worker holds: lost with a worker or with
        Redis's data. None of them when that cannot be known (``held``)."""
        waiting = {self.task_id(key): key for key in keys}
        found = held(waiting) if waiting else set()
        if found is None:
            return set()
        return {key for task_id, key in waiting.items() if task_id not in found}


# Heartbeats: while a worker runs a task registered here, a thread of its process calls the
# task's ``beat`` with the task's arguments every TASK_HEARTBEAT_SECONDS, so a row can say that
# its worker is alive however long one game lasts, and a killed worker's row goes quiet.
_beats: dict[str, Callable] = {}
_beating: dict[str, tuple[threading.Event, threading.Thread]] = {}


def heartbeat(task_name: str, beat: Callable) -> None:
    """Call ``beat(*args, **kwargs)`` of each run of ``task_name`` on a worker while it runs."""
    _beats[task_name] = beat


def _beat_until(stop: threading.Event, beat: Callable, args, kwargs) -> None:
    try:
        while not stop.wait(settings.TASK_HEARTBEAT_SECONDS):
            try:
                beat(*args, **kwargs)
            except Exception as e:  # the database is down: the next beat tries again
                logger.warning("a heartbeat was not recorded: %r", e)
    finally:
        connection.close()  # this thread's own connection


@task_prerun.connect
def _start_beating(task_id=None, task=None, args=(), kwargs=None, **_):
    beat = _beats.get(task.name)
    if beat is None or task.request.is_eager:
        return
    stop = threading.Event()
    thread = threading.Thread(target=_beat_until, args=(stop, beat, args, kwargs or {}),
                              name=f"heartbeat:{task_id}", daemon=True)
    _beating[task_id] = (stop, thread)
    thread.start()


@task_postrun.connect
def _stop_beating(task_id=None, **_):
    stop, thread = _beating.pop(task_id, (None, None))
    if stop is not None:
        stop.set()
        # A beat waiting on a database that is down finishes by itself, without holding the
        # worker.
        thread.join(timeout=settings.TASK_HEARTBEAT_SECONDS)
