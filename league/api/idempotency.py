"""``Idempotency-Key`` for API writes: a retried request gets the first answer again.

A phone on bad Wi-Fi re-sends, a finger taps twice: the same key from the same user replays the
stored answer instead of recording a second deal. The key is claimed in the same transaction as
the write, under a unique (user, key) constraint, so of two concurrent duplicates one writes and
the other waits, fails the constraint, rolls back whatever it did and replays the first answer.
Only successful answers are stored: a refused request changes nothing, so it may be retried.
"""

import hashlib
import json

from django.db import IntegrityError, transaction
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from league.api.errors import IdempotencyKeyReused
from league.models import IdempotentRequest

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
MAX_KEY_LENGTH = 255


def fingerprint(request) -> str:
    """The request's identity apart from its key: method, path and parsed body."""
    body = json.dumps(request.data, sort_keys=True, default=str)
    return hashlib.sha256(f"{request.method} {request.path}\n{body}".encode()).hexdigest()


def _replay(stored: IdempotentRequest, request) -> Response:
    if stored.fingerprint != fingerprint(request):
        raise IdempotencyKeyReused()
    return Response(stored.body, status=stored.status_code, headers={REPLAYED_HEADER: "true"})


def idempotent(request, write) -> Response:
    """``write()`` once per (user, Idempotency-Key); without the header, just ``write()``.

    ``write`` returns a Response; it runs in the transaction that stores its answer.
    """
    key = request.headers.get(HEADER)
    if key is None:
        return write()
    key = key.strip()
    if not key or len(key) > MAX_KEY_LENGTH:
        raise ValidationError({HEADER: f"an idempotency key is 1 to {MAX_KEY_LENGTH} "
                                       "characters"})
    stored = IdempotentRequest.objects.filter(user=request.user, key=key).first()
    if stored is not None:
        return _replay(stored, request)
    try:
        with transaction.atomic():
            claim = IdempotentRequest.objects.create(
                user=request.user, key=key, fingerprint=fingerprint(request), status_code=0,
                body={})
            response = write()
            if response.status_code >= 300:
                transaction.set_rollback(True)
                return response
            claim.status_code = response.status_code
            claim.body = response.data
            claim.save(update_fields=["status_code", "body"])
            return response
    except IntegrityError:
        # A concurrent duplicate claimed the key first and has committed its answer.
        stored = IdempotentRequest.objects.filter(user=request.user, key=key).first()
        if stored is None:
            raise
        return _replay(stored, request)
