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
