"""Request bodies over Django's limits answered in words, not Django's bare "Bad Request (400)".

A body longer than DATA_UPLOAD_MAX_MEMORY_SIZE is refused from its Content-Length before
anything reads it: 413, as JSON under /api/ and as a page elsewhere, saying the limit. The
limit covers uploaded files too (Django's own counts form fields only): the one upload, a
replay transcript, is far smaller (REPLAY_UPLOAD_MAX_BYTES). A form with too many fields or
files (DATA_UPLOAD_MAX_NUMBER_FIELDS, …_FILES) answers 400 the same way.
"""

from django.conf import settings
from django.core.exceptions import TooManyFieldsSent, TooManyFilesSent
from django.http import JsonResponse
from django.shortcuts import render

API_PREFIX = "/api/"


def size_text(size: int) -> str:
    """Bytes as people read them: "2,621,440 bytes (2.5 MB)"."""
    return f"{size:,} bytes ({size / 1024 / 1024:.3g} MB)"


def _answer(request, message: str, status: int):
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"detail": message}, status=status)
    return render(request, "league/bad_request.html", {"message": message}, status=status)


class RequestLimitsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0  # Django reads an unreadable length as no body
        if limit is not None and length > limit:
            return _answer(request, f"the request body is {size_text(length)}; the limit is "
                                    f"{size_text(limit)}", 413)
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, TooManyFieldsSent):
            return _answer(request, "the request has more than "
                                    f"{settings.DATA_UPLOAD_MAX_NUMBER_FIELDS} form fields", 400)
        if isinstance(exception, TooManyFilesSent):
            return _answer(request, "the request has more than "
                                    f"{settings.DATA_UPLOAD_MAX_NUMBER_FILES} files", 400)
        return None
