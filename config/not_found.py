"""A route that does not exist: JSON in the API's error shape under /api/, the site's page
elsewhere (config.urls.handler404)."""

from django.http import JsonResponse
from django.views.defaults import page_not_found

API_PREFIX = "/api/"


def not_found(request, exception):
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"detail": f"no such route: {request.path} (the API's routes are "
                                       "listed at /api/v1/ and in /api/docs/)"}, status=404)
    return page_not_found(request, exception)
