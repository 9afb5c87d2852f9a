"""What keeps the service answering clearly under attack and through outages (docs/operations.md).
"""

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from rest_framework.throttling import BaseThrottle

logger = logging.getLogger(__name__)

# Seconds a client is told to wait when the database is unreachable.
DATABASE_RETRY_AFTER = 5


def client_address(request):
    """The client's address as the API throttles see it: REMOTE_ADDR, or with NUM_PROXIES set,
    the address the nearest trusted proxy put in X-Forwarded-For (what the client itself wrote
    before it is not trusted). Every limit counts it (axes, allauth, the replay upload), so no
    limit counts the proxy's address, which would make it site-wide."""
    return BaseThrottle().get_ident(request)


class DatabaseOutageMiddleware:
    """A request that finds the database unreachable answers 503 with Retry-After, not 500.

    The connection that failed is discarded by Django at the end of the request, and
    CONN_HEALTH_CHECKS makes the next request reconnect, so service resumes by itself.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.error("database unreachable on %s %s: %s", request.method, request.path, exception)
        response = HttpResponse("The database is unreachable; try again shortly.\n",
                                status=503, content_type="text/plain")
        response["Retry-After"] = str(DATABASE_RETRY_AFTER)
        return response
