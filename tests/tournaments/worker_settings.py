"""Settings of the tournament tests' worker and beat processes: the test settings, plus a
short Redis visibility timeout so a task whose worker was killed is delivered again within
seconds (the default is an hour; TOURNAMENT_TEST_VISIBILITY_TIMEOUT sets another), a
reconciler every second that sends again a batch silent for 5 s (heartbeats every second) or
lost by the broker 3 s after it was sent, retries at most 4 s apart after an outage, and
everything they send stays on their test queue."""

import os

from config.settings.test import *  # noqa: F403
from config.settings.test import CELERY_BEAT_SCHEDULE

CELERY_TASK_DEFAULT_QUEUE = os.environ["TOURNAMENT_TEST_QUEUE"]
# Each test's messages taken and not acknowledged are kept under keys of its own: Redis keeps
# them in one hash per database otherwise, and any worker on it puts back those older than
# its own visibility timeout, another test's too.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": float(os.environ.get("TOURNAMENT_TEST_VISIBILITY_TIMEOUT", 4)),
    "unacked_restore_interval": 1, "unacked_restore_throttle": 1,
    **{key: f"{key.removesuffix('_key')}:{CELERY_TASK_DEFAULT_QUEUE}"
       for key in ("unacked_key", "unacked_index_key", "unacked_mutex_key")}}
TOURNAMENT_RECONCILE_SECONDS = 1
TOURNAMENT_STALL_SECONDS = 5
TASK_HEARTBEAT_SECONDS = 1
TASK_SENT_GRACE_SECONDS = 3
TOURNAMENT_TASK_RETRY_BACKOFF_MAX = 4
CELERY_BEAT_SCHEDULE = {**CELERY_BEAT_SCHEDULE, "tournaments-reconcile": {
    **CELERY_BEAT_SCHEDULE["tournaments-reconcile"], "schedule": TOURNAMENT_RECONCILE_SECONDS,
    "options": {"expire_seconds": TOURNAMENT_RECONCILE_SECONDS}}}
