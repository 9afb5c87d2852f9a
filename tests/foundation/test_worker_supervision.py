"""A worker that loses Redis again and again (issue #26): once, one died in kombu's Redis
transport and never came back. Started as the systemd unit and `make worker` start it
(deploy/worker, under deploy/forever, which restarts it as Restart=always does), its broker
connection through a TCP proxy cut repeatedly, it runs a task sent after each cut: it either
reconnected, or exited with a failure and was started again."""

import os
import signal
import subprocess
import time
import uuid

import pytest
from celery import Celery

from tests.conftest import PROJECT_DIR, TEST_REDIS_URL

pytestmark = [pytest.mark.integration, pytest.mark.slow]

CUTS = 10
CUT_SECONDS = 3
RECOVER_SECONDS = 60  # reconnecting, or starting again, on a loaded machine


@pytest.fixture
def supervised_worker(redis_proxy, tmp_path):
    """deploy/worker under deploy/forever, its broker behind ``redis_proxy``; its results and
    the test's sends go straight to Redis. Yields (client app, queue, log path)."""
    queue = f"test-{uuid.uuid4().hex[:12]}"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test",
           "CELERY_BROKER_URL": redis_proxy.url("redis://127.0.0.1:{port}/15"),
           "CELERY_RESULT_BACKEND": TEST_REDIS_URL, "CELERY_TASK_DEFAULT_QUEUE": queue,
           "RESTART_SECONDS": "0.5"}
    log_path = tmp_path / "worker.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [PROJECT_DIR / "deploy" / "forever", PROJECT_DIR / "deploy" / "worker", queue,
             "--concurrency=1", "-I", "tests.celery_tasks"],
            cwd=PROJECT_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True)
    app = Celery("supervision_test_client", broker=TEST_REDIS_URL, backend=TEST_REDIS_URL,
                 set_as_current=False)
    try:
        yield app, queue, log_path
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        app.close()


def test_a_worker_through_repeated_redis_cuts_recovers_or_is_restarted(
        supervised_worker, redis_proxy):
    app, queue, log_path = supervised_worker
    assert app.send_task("tests.celery_tasks.add", args=(0, 0), queue=queue).get(
        timeout=RECOVER_SECONDS) == 0, log_path.read_text(errors="replace")

    for cut in range(1, CUTS + 1):
        redis_proxy.cut()
        sent = app.send_task("tests.celery_tasks.add", args=(cut, 1), queue=queue)
        time.sleep(CUT_SECONDS)  # the outage's length, not a wait for something to happen
        redis_proxy.restore()
        try:
            assert sent.get(timeout=RECOVER_SECONDS) == cut + 1
        except Exception as e:
            pytest.fail(f"cut {cut}: no answer ({e!r}); worker log:\n"
                        f"{log_path.read_text(errors='replace')[-6000:]}")

    log = log_path.read_text(errors="replace")
    assert "exited with status 0" not in log
    assert "Error on restarting Gossip" not in log  # off: where kombu's Redis transport fails
