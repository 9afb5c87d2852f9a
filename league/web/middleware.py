"""Request bodies Django refuses, answered in words instead of its bare "Bad Request (400)":
as JSON ``{"detail": …}`` under /api/ and as a page elsewhere, each saying the limit.

- A Content-Length that is not a number of bytes: 400 (the metrics' middleware, after this
  one, read it with int() and answered 500; gunicorn refuses it itself, other servers do not).
- A body longer than DATA_UPLOAD_MAX_MEMORY_SIZE is refused from its Content-Length before
  anything reads it: 413. The limit covers uploaded files too (Django's own counts form fields
  only): the one upload, a replay transcript, is far smaller (REPLAY_UPLOAD_MAX_BYTES).
- A form with more fields or files than DATA_UPLOAD_MAX_NUMBER_FIELDS / …_FILES, or a
  multipart body that cannot be read: 400. A POST's form is read here, before
  CsrfViewMiddleware reads it, so the refusal comes from one place whoever reads it first.
- A page to sign in for whose address is too long for the sign-in redirect to carry back
  (Django refuses redirects of more than MAX_URL_REDIRECT_LENGTH characters): 400.
- A write whose text is not valid UTF-8 (a form's fields, percent-encoded or not, or JSON):
  400. Django decodes form fields with errors="replace", so ``name=Caf%E9`` was stored as
  "Caf\ufffd". A multipart body's files are bytes, not text, and are not read as UTF-8.
"""

import base64
import binascii
import codecs
from io import BytesIO
from urllib.parse import unquote_to_bytes

from django.conf import settings
from django.core.exceptions import DisallowedRedirect, TooManyFieldsSent, TooManyFilesSent
from django.http import JsonResponse
from django.http.multipartparser import (
    FIELD,
    ChunkIter,
    LazyStream,
    MultiPartParser,
    MultiPartParserError,
    Parser,
    exhaust,
)
from django.shortcuts import render
from django.utils.http import MAX_URL_REDIRECT_LENGTH, parse_header_parameters

API_PREFIX = "/api/"


def size_text(size: int) -> str:
    """Bytes as people read them: "2,621,440 bytes (2.5 MB)"."""
    return f"{size:,} bytes ({size / 1024 / 1024:.3g} MB)"


def _answer(request, message: str, status: int, advice: str = "Go back and send less."):
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"detail": message}, status=status)
    return render(request, "league/bad_request.html", {"message": message, "advice": advice},
                  status=status)


def _multipart_fields(body: bytes, content_type: str):
    """The bytes of each field of a multipart body, as Django's parser reads them; none if its
    boundary is one Django refuses (it then says why)."""
    boundary = parse_header_parameters(content_type)[1].get("boundary", "")
    if not MultiPartParser.boundary_re.fullmatch(boundary):
        return
    stream = LazyStream(ChunkIter(BytesIO(body), 64 * 1024))
    for item_type, meta, part in Parser(stream, boundary.encode("ascii")):
        if item_type != FIELD:
            exhaust(part)
            continue
        data = part.read()
        if meta.get("content-transfer-encoding", ("",))[0].strip() == "base64":
            try:
                data = base64.b64decode(data)
            except binascii.Error:
                pass  # Django keeps the bytes as they came
        yield data


def _not_text(request, length: int) -> str | None:
    """Why a write's text cannot be read, or None: its form fields or JSON are not valid in
    the charset Django reads them in (UTF-8 unless the request names one Python knows; JSON
    in another charset is the JSON parser's to refuse)."""
    if request.method in ("GET", "HEAD", "OPTIONS") or length <= 0:
        return None
    charset = request.encoding or settings.DEFAULT_CHARSET
    utf8 = codecs.lookup(charset).name == "utf-8"
    content_type = (request.content_type or "").lower()
    try:
        if content_type == "application/x-www-form-urlencoded":
            unquote_to_bytes(request.body).decode(charset)
        elif content_type == "multipart/form-data":
            for data in _multipart_fields(request.body, request.META["CONTENT_TYPE"]):
                data.decode(charset)
        elif utf8 and (content_type == "application/json" or content_type.endswith("+json")):
            request.body.decode("utf-8")
    except UnicodeDecodeError:
        return f"the request body is not valid {'UTF-8' if utf8 else charset}"
    return None


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
        sent = request.META.get("CONTENT_LENGTH") or "0"
        if not (sent.isascii() and sent.isdigit()):  # RFC 9110: 1*DIGIT
            return _answer(request, "the Content-Length header is not a number of bytes", 400,
                           "Send it again with its length in bytes, as a browser does.")
        length = int(sent)
        if limit is not None and length > limit:
            return _answer(request, f"the request body is {size_text(length)}; the limit is "
                                    f"{size_text(limit)}", 413)
        refusal = _not_text(request, length)
        if refusal is not None:
            return _answer(request, refusal, 400,
                           "Send it again as UTF-8, as the site's own forms do.")
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
        """A form read by the view itself (DRF's parsers for PUT and PATCH), or a redirect to
        sign in too long to send."""
        message = _unreadable_form(exception)
        if message is not None:
            return _answer(request, message, 400)
        if (isinstance(exception, DisallowedRedirect)
                and str(exception).startswith("Unsafe redirect exceeding")):
            return _answer(
                request, f"This page's address ({len(request.get_full_path()):,} characters) "
                         "is too long to come back to after signing in: the address to sign "
                         f"in at, which carries it, may have at most "
                         f"{MAX_URL_REDIRECT_LENGTH:,} characters", 400,
                "Open the page without the text after '?' in its address.")
        return None
