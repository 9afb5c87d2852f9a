"""Real Celery worker processes on Redis and the PostgreSQL test database (issue #6).

The workers open pytest-django's test database (its name comes from the connection inside a
transactional test), so they see the rows this test commits and the test sees theirs.
"""

import os
import signal
import subprocess
import sys
import time
import uuid

import pytest
from celery import Celery
from django.db import connection

from gameplay import selectors, services
from gameplay.models import Tournament, TournamentGame
from league.models import Game
from tests.conftest import PROJECT_DIR, TEST_REDIS_URL, CeleryWorker, _wait_until_ready
from tests.tournaments.helpers import small_tournament

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

START_TASK = "gameplay.tasks.tournament_start_task"
FINISH_SECONDS = 60


def database_url() -> str:
    s = connection.settings_dict
    password = f":{s['PASSWORD']}" if s["PASSWORD"] else ""
    return f"postgres://{s['USER']}{password}@{s['HOST']}:{s['PORT'] or 5432}/{s['NAME']}"


@pytest.fixture
def workers(tmp_path):
    """Start worker processes on one queue of the test Redis; stops them all at the end."""
    if connection.vendor != "postgresql":
        pytest.skip("worker processes need the PostgreSQL test database: "
                    "run with DATABASE_URL=postgres://… (make test does)")
    queue = f"test-tournament-{uuid.uuid4().hex[:12]}"
    app = Celery("tournament_test_client", broker=TEST_REDIS_URL, backend=TEST_REDIS_URL,
                 set_as_current=False)
    app.conf.task_default_queue = queue
    started = []

    def start() -> CeleryWorker:
        node = f"{queue}-{len(started)}@localhost"
        log_path = tmp_path / f"worker-{len(started)}.log"
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.tournaments.worker_settings",
               "CELERY_BROKER_URL": TEST_REDIS_URL, "CELERY_RESULT_BACKEND": TEST_REDIS_URL,
               "DATABASE_URL": database_url(), "TOURNAMENT_TEST_QUEUE": queue}
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "config.celery_app", "worker",
                 "--pool=solo", "-Q", queue, "-n", node, "--without-gossip",
                 "--without-mingle", "--loglevel=info"],
                cwd=PROJECT_DIR, env=env, stdout=log, stderr=subprocess.STDOUT)
        worker = CeleryWorker(process=process, app=app, node_name=node, log_path=log_path)
        started.append(worker)
        _wait_until_ready(worker)
        return worker

    try:
        yield start
    finally:
        for worker in started:
            if worker.process.poll() is None:
                worker.process.terminate()
                try:
                    worker.process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    worker.process.kill()
                    worker.process.wait()
        app.close()


def wait_until(tournament, condition, worker, seconds=FINISH_SECONDS):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        progress = selectors.tournament_progress(tournament=tournament)
        if condition(progress):
            return progress
        time.sleep(0.02)
    pytest.fail(f"tournament stuck at {progress}; worker log:\n{worker.log()}")


def finished(progress):
    return progress.status == Tournament.FINISHED


def uninterrupted_run(name):
    """The same tournament played here, in one process, with no worker at all."""
    tournament = small_tournament(name, **TOURNAMENT)
    services.tournament_start(tournament=tournament)  # no broker: runs at once, after commit
    assert selectors.tournament_progress(tournament=tournament).status == Tournament.FINISHED
    return tournament


# 4 tables of 3 from 4 entrants, 10 one-deal games each, 2 games per task.
TOURNAMENT = {"games_per_table": 10, "batch_size": 2, "seed": 11}


def assert_same_as_uninterrupted(tournament):
    reference = uninterrupted_run("Reference")
    keys = list(TournamentGame.objects.filter(tournament=tournament)
                .values_list("round", "table", "number"))
    assert len(keys) == len(set(keys)) == tournament.total_games == 40
    assert Game.objects.filter(season=tournament.season).count() == 40
    assert selectors.tournament_results(tournament=tournament) == \
        selectors.tournament_results(tournament=reference)
    assert selectors.tournament_standings(tournament=tournament) == \
        selectors.tournament_standings(tournament=reference)


def test_a_worker_plays_a_tournament_to_the_end(workers):
    worker = workers()
    tournament = small_tournament("Worker cup", **TOURNAMENT)

    worker.app.send_task(START_TASK, args=[tournament.pk])
    wait_until(tournament, finished, worker)

    assert "tournament_play_batch_task" in worker.log()
    assert_same_as_uninterrupted(tournament)


def test_a_tournament_survives_a_killed_worker(workers):
    first = workers()
    tournament = small_tournament("Crash cup", **TOURNAMENT)

    first.app.send_task(START_TASK, args=[tournament.pk])
    wait_until(tournament, lambda p: p.done >= 5, first)
    os.kill(first.process.pid, signal.SIGKILL)
    first.process.wait()
    done_at_kill = selectors.tournament_progress(tournament=tournament).done
    assert 5 <= done_at_kill < 40, "the worker must die in the middle of the tournament"

    second = workers()
    wait_until(tournament, finished, second)

    assert_same_as_uninterrupted(tournament)
