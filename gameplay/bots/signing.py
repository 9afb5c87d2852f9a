"""Signed requests (docs/kit.md "Signing"): every request the service sends an outside bot
carries ``X-President-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>``,
as payment webhooks do, so a bot can refuse calls that are not the ladder's.

The one place the signature is made and checked: the HTTP client (``HttpBot``), ``president
serve`` and the Python starter bot all use these two functions.

A signature stays valid for TOLERANCE_S, so a copy of a request (from a log, a proxy) could be
sent again within it: a bot's server keeps the signatures it accepted in ``Replays`` and
refuses one it has seen. The service signs each request as it sends it, never twice.

A validation starts with a challenge (docs/kit.md "Signing"): a signed request
``{"protocol": "president-bot/1", "decision": "challenge", "nonce": …}`` whose answer must be
``{"proof": proof(secret, nonce)}``, which only a holder of the secret can give.
"""

import hashlib
import heapq
import hmac
import threading
import time

HEADER = "X-President-Signature"
TOLERANCE_S = 300  # a signature older (or newer) than this is refused: a replayed request
# Signatures a bot's server remembers at most: far more than the site sends one bot in
# TOLERANCE_S (333 a second); about 25 MB of memory when full.
REPLAYS_LIMIT = 100_000


class BadSignature(ValueError):
    """A request that is not signed with the bot's secret; the message says why."""


def _digest(secret: str | bytes, timestamp: int, body: bytes) -> str:
    key = secret.encode() if isinstance(secret, str) else secret
    return hmac.new(key, f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()


def sign(secret: str | bytes, body: bytes, *, now: float | None = None) -> str:
    """The header's value for ``body`` sent at ``now`` (default: this second)."""
    timestamp = int(time.time() if now is None else now)
    return f"t={timestamp},v1={_digest(secret, timestamp, body)}"


class Replays:
    """The signatures a bot's server accepted, each kept until it is too old to verify (its
    time and ``tolerance_s`` past it), in memory: one server process sees all its requests.
    Only signatures that verified are added, so only the secret's holder can fill it; past
    ``limit`` the one nearest its end is forgotten first. Safe to share between threads."""

    def __init__(self, *, limit: int = REPLAYS_LIMIT, tolerance_s: float = TOLERANCE_S):
        self.limit, self.tolerance_s = limit, tolerance_s
        self._ends: list[tuple[float, str]] = []  # (when it is too old, signature): a heap
        self._seen: set[str] = set()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._seen)

    def accept(self, signature: str, timestamp: int, now: float) -> None:
        """Remember ``signature``, or raise BadSignature if it was accepted before."""
        with self._lock:
            while self._ends and (self._ends[0][0] < now or len(self._ends) >= self.limit):
                self._seen.discard(heapq.heappop(self._ends)[1])
            if signature in self._seen:
                raise BadSignature("this signed request was already received: a request is "
                                   "answered once, and a copy sent again is refused")
            self._seen.add(signature)
            heapq.heappush(self._ends, (timestamp + self.tolerance_s, signature))


def verify(secret: str | bytes, body: bytes, header: str | None, *,
           tolerance_s: float = TOLERANCE_S, now: float | None = None,
           seen: Replays | None = None) -> None:
    """Raise BadSignature unless ``header`` signs exactly ``body`` with ``secret`` within
    ``tolerance_s`` seconds of ``now``, and, given the ``seen`` of a server, was not
    accepted before."""
    if not header:
        raise BadSignature(f"no {HEADER} header")
    parts = dict(item.partition("=")[::2] for item in header.split(","))
    try:
        timestamp = int(parts.get("t", ""))
    except ValueError:
        raise BadSignature(f"{HEADER} has no t=<unix seconds>") from None
    given, expected = parts.get("v1", ""), _digest(secret, timestamp, body)
    if not hmac.compare_digest(given.encode(), expected.encode()):
        raise BadSignature("the signature does not match the body")
    now = time.time() if now is None else now
    age = now - timestamp
    if abs(age) > tolerance_s:
        raise BadSignature(f"the signature is {age:.0f} s old (at most {tolerance_s:.0f} s)")
    if seen is not None:
        seen.accept(expected, timestamp, now)


def proof(secret: str | bytes, nonce: str) -> str:
    """The answer to a challenge: hex HMAC-SHA256(secret, nonce)."""
    key = secret.encode() if isinstance(secret, str) else secret
    return hmac.new(key, nonce.encode(), hashlib.sha256).hexdigest()
