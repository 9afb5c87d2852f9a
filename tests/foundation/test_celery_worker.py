import pytest

from tests.celery_tasks import add, worker_report

POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/president_league"


@pytest.mark.integration
@pytest.mark.parametrize(
    "celery_worker_process", [{"DATABASE_URL": POSTGRES_URL}], indirect=True
)
def test_worker_process_runs_tasks_sent_through_redis(celery_worker_process):
    worker = celery_worker_process

    total = worker.app.send_task(add.name, args=(2, 3)).get(timeout=30)
    report = worker.app.send_task(worker_report.name).get(timeout=30)

    assert total == 5
    # Run by the worker process, not eagerly here, and with the environment it was given.
    assert report == {"pid": worker.process.pid, "database_vendor": "postgresql"}
