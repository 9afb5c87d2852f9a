"""A route or a thing that does not exist: JSON in the API's error shape under /api/, the site's
page elsewhere (config.urls.handler404), saying what is not there in words."""

from django.http import JsonResponse
from django.shortcuts import render

from plumbing.api.errors import MODEL_WORDS

API_PREFIX = "/api/"


def not_found(request, exception):
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"detail": f"no such route: {request.path} (the API's routes are "
                                       "listed at /api/v1/ and in /api/docs/)"}, status=404)
    said = exception.args[0] if exception is not None and exception.args else None
    if not isinstance(said, str) or MODEL_WORDS.fullmatch(said):  # a route's 404: a dict
        said = (f"There is nothing at {request.path}: the link may be out of date, or a number "
                "in it mistyped.")
    return render(request, "404.html", {"message": said}, status=404)
