"""Prometheus /metrics: refused to the public, and with METRICS_TOKEN the figures operators
watch (docs/operations.md "Watching it")."""

import pytest
import redis
from django.test import override_settings
from prometheus_client.parser import text_string_to_metric_families

from config.metrics import TASK_COUNTS_KEY
from tests.celery_tasks import add, fail, retry_once
from tests.conftest import TEST_REDIS_URL
from tests.tournaments.helpers import small_tournament
from tournaments import services

TOKEN = "a scraper's secret"


def scrape(client, token=TOKEN):
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    return client.get("/metrics", headers=headers)


def figures(response) -> dict[str, list]:
    """Each metric family's samples, by family name."""
    assert response.status_code == 200
    return {family.name: family.samples
            for family in text_string_to_metric_families(response.content.decode())}


def value(samples, name, **labels):
    (sample,) = [s for s in samples if s.name == name and labels.items() <= s.labels.items()]
    return sample.value


@pytest.mark.django_db
def test_metrics_are_refused_without_the_right_token(client, settings):
    settings.METRICS_TOKEN = TOKEN

    assert scrape(client, token=None).status_code == 404
    assert scrape(client, token="a guess").status_code == 404
    assert client.get("/metrics", headers={"Authorization": TOKEN}).status_code == 404


@pytest.mark.django_db
def test_metrics_are_refused_to_everyone_when_no_token_is_set(client, settings):
    settings.METRICS_TOKEN = ""

    assert scrape(client, token="").status_code == 404
    assert scrape(client, token=None).status_code == 404


@pytest.mark.django_db
def test_metrics_show_requests_task_outcomes_and_games_stored(
        client, settings, django_capture_on_commit_callbacks):
    settings.METRICS_TOKEN = TOKEN
    client.get("/")
    before = figures(scrape(client))
    tournament = small_tournament()
    with django_capture_on_commit_callbacks(execute=True):  # tasks run here: no broker
        services.tournament_start(tournament=tournament)

    after = figures(scrape(client))

    assert value(after["django_http_requests_total_by_method"],
                 "django_http_requests_total_by_method_total", method="GET") >= 2
    batches = "gameplay.tasks.tournament_play_batch_task"
    done_before = sum(s.value for s in before["president_celery_tasks"]
                      if s.labels == {"task": batches, "outcome": "succeeded"})
    assert value(after["president_celery_tasks"], "president_celery_tasks_total",
                 task=batches, outcome="succeeded") > done_before
    # All of the tournament's games were stored within the last minute.
    assert value(after["president_tournament_games_stored_per_second"],
                 "president_tournament_games_stored_per_second") == pytest.approx(
        tournament.games.count() / 60)
    assert "president_celery_queue_depth" in after


@pytest.mark.integration
@pytest.mark.django_db
def test_metrics_count_a_real_workers_outcomes_and_the_queue_depth(
        client, settings, celery_worker_process):
    settings.METRICS_TOKEN = TOKEN
    worker = celery_worker_process
    store = redis.Redis.from_url(TEST_REDIS_URL)
    store.delete(TASK_COUNTS_KEY)

    assert worker.app.send_task(add.name, args=(2, 3)).get(timeout=30) == 5
    with pytest.raises(ValueError):
        worker.app.send_task(fail.name).get(timeout=30)
    assert worker.app.send_task(retry_once.name).get(timeout=30) == "done"
    # A message on the default queue, which no worker of this test consumes.
    waiting = worker.app.send_task(add.name, args=(1, 1), queue="celery")
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL=TEST_REDIS_URL):
        seen = figures(scrape(client))
    waiting.revoke()
    store.delete("celery")

    tasks = seen["president_celery_tasks"]
    assert value(tasks, "president_celery_tasks_total", task=add.name,
                 outcome="succeeded") == 1
    assert value(tasks, "president_celery_tasks_total", task=fail.name, outcome="failed") == 1
    assert value(tasks, "president_celery_tasks_total", task=retry_once.name,
                 outcome="retried") == 1
    assert value(tasks, "president_celery_tasks_total", task=retry_once.name,
                 outcome="succeeded") == 1
    assert value(seen["president_celery_queue_depth"], "president_celery_queue_depth",
                 queue="celery") >= 1
    assert value(seen["president_metrics_broker_up"], "president_metrics_broker_up") == 1
