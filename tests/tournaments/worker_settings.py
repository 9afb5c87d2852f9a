"""Settings of the tournament tests' worker processes: the test settings, plus a short Redis
visibility timeout so a task whose worker was killed is delivered again within seconds (the
default is an hour), and everything the worker sends stays on its test queue."""

import os

from config.settings.test import *  # noqa: F403

CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 4, "unacked_restore_interval": 1,
                                   "unacked_restore_throttle": 1}
CELERY_TASK_DEFAULT_QUEUE = os.environ["TOURNAMENT_TEST_QUEUE"]
