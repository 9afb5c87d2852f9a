"""Signed requests (docs/kit.md "Signing"): every request the service sends an outside bot
carries ``X-President-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>``,
as payment webhooks do, so a bot can refuse calls that are not the ladder's.

The one place the signature is made and checked: the HTTP client (``HttpBot``), ``president
serve`` and the Python starter bot all use these two functions.

A validation starts with a challenge (docs/kit.md "Signing"): a signed request
``{"protocol": "president-bot/1", "decision": "challenge", "nonce": …}`` whose answer must be
``{"proof": proof(secret, nonce)}``, which only a holder of the secret can give.
"""

import hashlib
import hmac
import time

HEADER = "X-President-Signature"
TOLERANCE_S = 300  # a signature older (or newer) than this is refused: a replayed request


class BadSignature(ValueError):
    """A request that is not signed with the bot's secret; the message says why."""


def _digest(secret: str | bytes, timestamp: int, body: bytes) -> str:
    key = secret.encode() if isinstance(secret, str) else secret
    return hmac.new(key, f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()


def sign(secret: str | bytes, body: bytes, *, now: float | None = None) -> str:
    """The header's value for ``body`` sent at ``now`` (default: this second)."""
    timestamp = int(time.time() if now is None else now)
    return f"t={timestamp},v1={_digest(secret, timestamp, body)}"


def verify(secret: str | bytes, body: bytes, header: str | None, *,
           tolerance_s: float = TOLERANCE_S, now: float | None = None) -> None:
    """Raise BadSignature unless ``header`` signs exactly ``body`` with ``secret`` within
    ``tolerance_s`` seconds of ``now``."""
    if not header:
        raise BadSignature(f"no {HEADER} header")
    parts = dict(item.partition("=")[::2] for item in header.split(","))
    try:
        timestamp = int(parts.get("t", ""))
    except ValueError:
        raise BadSignature(f"{HEADER} has no t=<unix seconds>") from None
    given = parts.get("v1", "")
    if not hmac.compare_digest(given.encode(), _digest(secret, timestamp, body).encode()):
        raise BadSignature("the signature does not match the body")
    age = (time.time() if now is None else now) - timestamp
    if abs(age) > tolerance_s:
        raise BadSignature(f"the signature is {age:.0f} s old (at most {tolerance_s:.0f} s)")


def proof(secret: str | bytes, nonce: str) -> str:
    """The answer to a challenge: hex HMAC-SHA256(secret, nonce)."""
    key = secret.encode() if isinstance(secret, str) else secret
    return hmac.new(key, nonce.encode(), hashlib.sha256).hexdigest()
