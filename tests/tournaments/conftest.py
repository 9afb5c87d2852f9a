"""Real Celery worker and beat processes for the tournament tests, on one queue of the test
Redis and the PostgreSQL test database (its name comes from the connection inside a
transactional test, so they see the rows a test commits and the test sees theirs)."""

import os
import subprocess
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
from celery import Celery
from django.db import connection

from tests.conftest import PROJECT_DIR, TEST_REDIS_URL, CeleryWorker, _wait_until_ready, stop

WORKER_SETTINGS = "tests.tournaments.worker_settings"


def database_url(port: int | None = None) -> str:
    """The test database's URL, on another port (a proxy's) if given."""
    s = connection.settings_dict
    password = f":{s['PASSWORD']}" if s["PASSWORD"] else ""
    return f"postgres://{s['USER']}{password}@{s['HOST']}:{port or s['PORT'] or 5432}/{s['NAME']}"


@pytest.fixture
def tournament_queue():
    if connection.vendor != "postgresql":
        pytest.skip("worker processes need the PostgreSQL test database: "
                    "run with DATABASE_URL=postgres://… (make test does)")
    return f"test-tournament-{uuid.uuid4().hex[:12]}"


def worker_command(queues: str, node: str) -> list[str]:
    """A worker of one task at a time on the given queues (no gossip or mingle: it starts
    fast)."""
    return [sys.executable, "-m", "celery", "-A", "config.celery_app", "worker", "--pool=solo",
            "-Q", queues, "-n", node, "--without-gossip", "--without-mingle", "--loglevel=info"]


def beat_command(pidfile: Path) -> list[str]:
    """celery beat with the database scheduler (CELERY_BEAT_SCHEDULER), sending to the test
    queue."""
    return [sys.executable, "-m", "celery", "-A", "config.celery_app", "beat", "--loglevel=info",
            f"--pidfile={pidfile}"]


def client_app(queue: str) -> Celery:
    """A client app that sends straight to the test Redis, on the test queue."""
    app = Celery("tournament_test_client", broker=TEST_REDIS_URL, backend=TEST_REDIS_URL,
                 set_as_current=False)
    app.conf.task_default_queue = queue
    return app


def worker_env(queue: str, extra: dict) -> dict:
    """A worker's, beat's or web server's environment: the worker settings on the test queue,
    the test Redis and database unless ``extra`` says otherwise."""
    return {**os.environ, "DJANGO_SETTINGS_MODULE": WORKER_SETTINGS,
            "CELERY_BROKER_URL": TEST_REDIS_URL, "CELERY_RESULT_BACKEND": TEST_REDIS_URL,
            "DATABASE_URL": database_url(), "TOURNAMENT_TEST_QUEUE": queue, **extra}


@pytest.fixture
def workers(tmp_path, tournament_queue):
    """``workers(**env)`` starts a worker process on the test queue (``env`` overrides its
    environment, e.g. DATABASE_URL or CELERY_BROKER_URL through a proxy; ``queues=`` names
    other queues for it to consume); all are stopped at the end. Their client app sends
    straight to the test Redis, on the test queue."""
    queue = tournament_queue
    app = client_app(queue)
    started = []

    def start(queues: str = queue, **env) -> CeleryWorker:
        node = f"{queue}-{len(started)}@localhost"
        log_path = tmp_path / f"worker-{len(started)}.log"
        with log_path.open("wb") as log:
            process = subprocess.Popen(worker_command(queues, node), cwd=PROJECT_DIR,
                                       env=worker_env(queue, env), stdout=log,
                                       stderr=subprocess.STDOUT)
        worker = CeleryWorker(process=process, app=app, node_name=node, log_path=log_path)
        started.append(worker)
        _wait_until_ready(worker)
        return worker

    try:
        yield start
    finally:
        for worker in started:
            stop(worker.process)
        app.close()


@dataclass
class Beat:
    process: subprocess.Popen
    log_path: Path

    def log(self):
        return self.log_path.read_text(errors="replace")


@pytest.fixture
def beat(tmp_path, tournament_queue):
    """``beat(**env)`` starts celery beat (the database scheduler) sending to the test queue;
    stopped at the end."""
    started = []

    def start(**env) -> Beat:
        log_path = tmp_path / "beat.log"
        with log_path.open("wb") as log:
            process = subprocess.Popen(beat_command(tmp_path / "beat.pid"), cwd=PROJECT_DIR,
                                       env=worker_env(tournament_queue, env), stdout=log,
                                       stderr=subprocess.STDOUT)
        started.append(Beat(process=process, log_path=log_path))
        return started[-1]

    try:
        yield start
    finally:
        for b in started:
            stop(b.process)
