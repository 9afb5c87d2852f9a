import os
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
from celery import Celery
from hypothesis import settings

# Every run (CI, `make test`, a fresh clone) tries the same examples, derived from each test,
# so no run passes or fails by chance; a defect found is pinned with @example. To look for new
# ones: HYPOTHESIS_PROFILE=explore (random examples, more of them).
settings.register_profile("fixed", derandomize=True)
settings.register_profile("explore", max_examples=500)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fixed"))

# The longest tests first: pytest-xdist hands out tests in this order, so a long one is never
# left for last while the other processes have finished. Stable: a module's tests stay together.
FIRST = ("slow", "integration", "browser")


def pytest_collection_modifyitems(items):
    def kind(item):
        return next((i for i, mark in enumerate(FIRST) if item.get_closest_marker(mark)),
                    len(FIRST))

    items.sort(key=kind)


PROJECT_DIR = Path(__file__).resolve().parent.parent
# Integration tests use their own Redis database, so they never touch a developer's queues.
TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
WORKER_START_SECONDS = 60


@dataclass
class CeleryWorker:
    """A running worker process and a client app that sends to its queue only."""

    process: subprocess.Popen
    app: Celery
    node_name: str
    log_path: Path

    def log(self):
        return self.log_path.read_text(errors="replace")


@pytest.fixture
def celery_worker_process(request, tmp_path):
    """Start a real Celery worker on Redis for one test, and always stop it afterwards.

    Extra environment for the worker comes from indirect parametrization, e.g.
    `@pytest.mark.parametrize("celery_worker_process", [{"DATABASE_URL": url}], indirect=True)`;
    a value may be a function, called as the worker starts (the test database's URL, whose
    name pytest-xdist gives each of its processes).
    The worker inherits this process's environment, so it opens the database DATABASE_URL
    names, not pytest-django's test database: point DATABASE_URL at that one (with
    `transactional_db`) when the worker must see a test's rows. Each worker gets its own queue
    and node name, so parallel test runs on one Redis do not steal each other's tasks. Tasks
    are sent by name with `worker.app.send_task(...)`.
    """
    extra_env = {name: value() if callable(value) else value
                 for name, value in getattr(request, "param", {}).items()}
    run_id = uuid.uuid4().hex[:12]
    queue = f"test-{run_id}"
    node_name = f"test-{run_id}@localhost"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "CELERY_BROKER_URL": TEST_REDIS_URL,
        "CELERY_RESULT_BACKEND": TEST_REDIS_URL,
        # What the worker's tasks send stays on its queue (config/settings/test.py routes
        # nothing elsewhere).
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        **extra_env,
    }
    log_path = tmp_path / "celery-worker.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config.celery_app", "worker",
             "--pool=solo", "-I", "tests.celery_tasks", "-Q", queue, "-n", node_name,
             "--without-gossip", "--without-mingle", "--loglevel=info"],
            cwd=PROJECT_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
    app = Celery(
        "president_league_test_client",
        broker=TEST_REDIS_URL,
        backend=TEST_REDIS_URL,
        set_as_current=False,
    )
    app.conf.task_default_queue = queue
    worker = CeleryWorker(process=process, app=app, node_name=node_name, log_path=log_path)
    try:
        _wait_until_ready(worker)
        yield worker
    finally:
        stop(process)
        app.close()


def stop(process: subprocess.Popen) -> None:
    """Stop a test's subprocess: politely, then for good after 15 s."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_until_ready(worker):
    deadline = time.monotonic() + WORKER_START_SECONDS
    while time.monotonic() < deadline:
        if worker.process.poll() is not None:
            pytest.fail(f"Celery worker exited with {worker.process.returncode}:\n{worker.log()}")
        if worker.app.control.ping(destination=[worker.node_name], timeout=0.5):
            return
    pytest.fail(f"Celery worker not ready after {WORKER_START_SECONDS}s:\n{worker.log()}")


@pytest.fixture(autouse=True)
def _celery_join_flag():
    """Eager tasks run in several threads at once (the race tests) leave Celery's process-wide
    "joining a result would block" flag set (celery.result.denied_join_result saves and
    restores it unlocked): put it back, or a later test of the process that waits for a real
    worker's result is told "Never call result.get() within a task!"."""
    from celery._state import _set_task_join_will_block, task_join_will_block

    before = task_join_will_block()
    yield
    _set_task_join_will_block(before)


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with an empty cache: rolled-back rows can reuse ids and versions."""
    from django.core.cache import cache

    cache.clear()
    yield



@pytest.fixture
def redis_proxy():
    """A TcpProxy in front of the test Redis: point the app at ``redis_proxy.url(...)``."""
    from tests.proxy import TcpProxy

    proxy = TcpProxy("127.0.0.1", 6379)
    yield proxy
    proxy.stop()


@pytest.fixture
def postgres_proxy():
    """A TcpProxy in front of PostgreSQL on 127.0.0.1:5432."""
    from tests.proxy import TcpProxy

    proxy = TcpProxy("127.0.0.1", 5432)
    yield proxy
    proxy.stop()
