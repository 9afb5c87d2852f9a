"""Request bodies Django refuses, answered in words instead of its bare "Bad Request (400)":
as JSON ``{"detail": …}`` under /api/ and as a page elsewhere, each saying the limit.

- A body longer than DATA_UPLOAD_MAX_MEMORY_SIZE is refused from its Content-Length before
  anything reads it: 413. The limit covers uploaded files too (Django's own counts form fields
  only): the one upload, a replay transcript, is far smaller (REPLAY_UPLOAD_MAX_BYTES).
- A form with more fields or files than DATA_UPLOAD_MAX_NUMBER_FIELDS / …_FILES, or a
  multipart body that cannot be read: 400. A POST's form is read here, before
  CsrfViewMiddleware reads it, so the refusal comes from one place whoever reads it first.
"""

from django.conf import settings
from django.core.exceptions import TooManyFieldsSent, TooManyFilesSent
from django.http import JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import render

API_PREFIX = "/api/"


def size_text(size: int) -> str:
    """Bytes as people read them: "2,621,440 bytes (2.5 MB)"."""
    return f"{size:,} bytes ({size / 1024 / 1024:.3g} MB)"


def _answer(request, message: str, status: int):
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"detail": message}, status=status)
    return render(request, "league/bad_request.html", {"message": message}, status=status)


def _unreadable_form(exception) -> str | None:
    if isinstance(exception, TooManyFieldsSent):
        return f"the request has more than {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS} form fields"
    if isinstance(exception, TooManyFilesSent):
        return f"the request has more than {settings.DATA_UPLOAD_MAX_NUMBER_FILES} files"
    if isinstance(exception, MultiPartParserError):
        return f"the request's form cannot be read: {exception}"
    return None


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

    def process_view(self, request, view, args, kwargs):
        if request.method != "POST":
            return None
        try:
            _ = request.POST  # read for its refusal only; a JSON body is not read here
        except (TooManyFieldsSent, TooManyFilesSent, MultiPartParserError) as e:
            return _answer(request, _unreadable_form(e), 400)
        return None

    def process_exception(self, request, exception):
        """A form read by the view itself (DRF's parsers for PUT and PATCH)."""
        message = _unreadable_form(exception)
        return None if message is None else _answer(request, message, 400)
