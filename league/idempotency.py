"""Writes done once per key: a retried request gets the first answer again.

A phone on bad Wi-Fi re-sends, a finger taps twice: the same key from the same user replays the
stored answer instead of recording a second deal. The pages key a deal by its form's token, the
API by the ``Idempotency-Key`` header; both claim the key here, on one table.

The key is claimed in the same transaction as the write, under a unique (user, key) constraint,
so of two concurrent duplicates one writes and the other waits, fails the constraint, rolls back
whatever it did and replays the first answer. Only successful answers are stored: a refused
write changes nothing, so it may be retried with the same key.
"""

import hashlib
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction

from league.errors import LeagueError
from league.models import IdempotentRequest


class KeyReused(LeagueError):
    """The key was already used for a different request (its fingerprint differs)."""

    def __init__(self):
        super().__init__("this key was already used for a different request")


def once(*, user, key: str, fingerprint: str,
         write: Callable[[], tuple[int, Any]], table_link=None) -> tuple[int, Any, bool]:
    """``write()`` once per (``user``, ``key``), or per (``table_link``, ``key``) for a phone
    without an account: (status, body, replayed).

    ``write`` answers (status, JSON body) and runs in the transaction that stores that answer;
    a status of 300 or more is a refusal, rolled back and not stored. A stored answer whose
    ``fingerprint`` (the request's identity apart from its key) differs raises KeyReused.
    """
    owner = {"user": None, "table_link": table_link} if table_link else {"user": user}
    stored = IdempotentRequest.objects.filter(key=key, **owner).first()
    if stored is not None:
        return _replay(stored, fingerprint)
    try:
        with transaction.atomic():
            claim = IdempotentRequest.objects.create(key=key, fingerprint=fingerprint,
                                                     status_code=0, body={}, **owner)
            status, body = write()
            if status >= 300:
                transaction.set_rollback(True)
                return status, body, False
            claim.status_code, claim.body = status, body
            claim.save(update_fields=["status_code", "body"])
            return status, body, False
    except IntegrityError:
        # A concurrent duplicate claimed the key first and has committed its answer.
        stored = IdempotentRequest.objects.filter(key=key, **owner).first()
        if stored is None:
            raise
        return _replay(stored, fingerprint)


def _replay(stored: IdempotentRequest, fingerprint: str) -> tuple[int, Any, bool]:
    if stored.fingerprint != fingerprint:
        raise KeyReused()
    return stored.status_code, stored.body, True


def once_per_form(*, user, key: str, identity: str, write: Callable[[], Any],
                  reused: str, table_link=None) -> tuple[Any, bool]:
    """``write()`` once per page form's token (its ``key``): (its answer, whether this call
    wrote it). A second post of the same form (a double tap, a resent request) finds the key
    claimed and writes nothing; the same key posted for another change (``identity``: what the
    form asks for, apart from its token) is refused with the words ``reused``."""
    fingerprint = hashlib.sha256(identity.encode()).hexdigest()
    try:
        _, body, replayed = once(user=user, key=key, fingerprint=fingerprint,
                                 write=lambda: (201, write()), table_link=table_link)
    except KeyReused as e:
        raise LeagueError(reused) from e
    return body, not replayed
