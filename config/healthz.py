"""`/healthz`: whether the database and the Celery broker answer, for load balancers and humans.

The answer says only "ok", "eager" or "error": hosts, ports and driver messages go to the log,
not to whoever asks.
"""

import logging

from django.conf import settings
from django.db import Error as DatabaseError
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from kombu import Connection
from kombu.exceptions import OperationalError as BrokerError

logger = logging.getLogger(__name__)


def database_status():
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        logger.exception("healthz: the database does not answer")
        return "error"
    return "ok"


def broker_status():
    """"eager" when tasks run in-process (no broker configured), else whether the broker answers."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    # One attempt with a short timeout: a health check must answer quickly, not wait out retries.
    with Connection(settings.CELERY_BROKER_URL, connect_timeout=1) as broker:
        try:
            broker.ensure_connection(max_retries=0)
        except (BrokerError, OSError):
            logger.exception("healthz: the broker does not answer")
            return "error"
    return "ok"


@never_cache
@require_GET
def healthz(request):
    status = {"database": database_status(), "broker": broker_status()}
    healthy = all(value in ("ok", "eager") for value in status.values())
    return JsonResponse(status, status=200 if healthy else 503)
