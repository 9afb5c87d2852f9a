"""Tasks for tests that run a real worker; the worker loads this module with `-I`."""

import os

from celery import shared_task
from django.db import connection


@shared_task
def add(x, y):
    return x + y


@shared_task
def worker_report():
    """Which process ran the task and which database it was configured with."""
    return {"pid": os.getpid(), "database_vendor": connection.vendor}


@shared_task
def fail():
    raise ValueError("this task always fails")


@shared_task(bind=True, max_retries=1, default_retry_delay=0)
def retry_once(self):
    """Asks to be retried on its first run, succeeds on the second."""
    if self.request.retries == 0:
        raise self.retry()
    return "done"
