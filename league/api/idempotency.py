"""``Idempotency-Key`` for API writes: a retried request gets the first answer again.

The key is claimed through the league's one helper (league.idempotency.once), the same the
pages use for a deal's form token: claimed in the write's transaction under a unique (user,
key) constraint, only successful answers stored.
"""

import hashlib
import json

from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from league import idempotency
from league.models import TableLink
from plumbing.api import inputs
from plumbing.api.errors import IdempotencyKeyReused

HEADER = inputs.IDEMPOTENCY_KEY  # taken by the viewsets' idempotent_actions alone
REPLAYED_HEADER = "Idempotent-Replayed"
MAX_KEY_LENGTH = 255


def fingerprint(request) -> str:
    """The request's identity apart from its key: method, path and parsed body (a form's
    fields with all their values: read as a dict, a form keeps the last of a list's)."""
    data = request.data
    body = json.dumps(dict(data.lists()) if hasattr(data, "lists") else data, sort_keys=True,
                      default=str)
    return hashlib.sha256(f"{request.method} {request.path}\n{body}".encode()).hexdigest()


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
    written = []

    def answer():
        written.append(write())
        return written[0].status_code, written[0].data

    try:
        # A table link's key is its own (league.api.table_links), not an anonymous user's.
        link = request.auth if isinstance(request.auth, TableLink) else None
        status, body, replayed = idempotency.once(user=request.user, key=key,
                                                  fingerprint=fingerprint(request), write=answer,
                                                  table_link=link)
    except idempotency.KeyReused as e:
        raise IdempotencyKeyReused() from e
    if replayed:
        return Response(body, status=status, headers={REPLAYED_HEADER: "true"})
    return written[0]
