"""The kit's HTTP server (``president serve``, the Python starter) faces the whole internet:
a stranger's connection that never finishes its request must not keep the site's signed
requests from being answered, nor may a request claim a length it never sends."""

import json
import socket
import threading
import time

import pytest

from gameplay.bots import signing
from gameplay.kit.serve import BuiltInAnswerer, http_server

SECRET = "audit-secret"


@pytest.fixture
def served():
    server = http_server(BuiltInAnswerer("random"), 0, secret=SECRET)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def _challenge(port: int) -> tuple[bytes, float]:
    body = json.dumps({"protocol": "president-bot/1", "decision": "challenge",
                       "deadline_ms": 1000, "nonce": "ab" * 32}).encode()
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=5) as site:
        site.sendall(b"POST / HTTP/1.1\r\nHost: bot\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n%s: %s\r\n\r\n%s" % (
                         len(body), signing.HEADER.encode(),
                         signing.sign(SECRET, body).encode(), body))
        answer = b""
        try:
            while chunk := site.recv(4096):  # the server closes after its answer (HTTP/1.0)
                answer += chunk
        except TimeoutError:
            pass
    return answer, time.monotonic() - started


def test_a_strangers_idle_connection_does_not_hold_up_the_sites_request(served):
    with socket.create_connection(("127.0.0.1", served)):  # says nothing, stays open
        time.sleep(0.1)
        answer, took = _challenge(served)
    assert answer.startswith(b"HTTP/1.0 200"), answer
    assert took < 2
    assert signing.proof(SECRET, "ab" * 32).encode() in answer


def test_a_request_that_never_sends_its_body_does_not_hold_up_the_sites_request(served):
    with socket.create_connection(("127.0.0.1", served)) as stranger:
        stranger.sendall(b"POST / HTTP/1.1\r\nHost: bot\r\nContent-Length: 1000\r\n\r\n{")
        time.sleep(0.1)
        answer, took = _challenge(served)
    assert answer.startswith(b"HTTP/1.0 200"), answer
    assert took < 2


@pytest.mark.parametrize("length", [b"-1", b"abc"])
def test_a_length_that_is_no_length_is_refused_at_once(served, length):
    with socket.create_connection(("127.0.0.1", served), timeout=5) as stranger:
        stranger.sendall(b"POST / HTTP/1.1\r\nHost: bot\r\nContent-Length: " + length
                         + b"\r\n\r\n{}")
        answer = stranger.recv(4096)
    assert answer.startswith(b"HTTP/1.0 400"), answer
    assert b"Content-Length" in answer
