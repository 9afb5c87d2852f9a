"""A signed request sent again (docs/kit.md "Signing"): its signature stays valid for 300 s, so
anyone who saw one request (a proxy's log, a captured body) could send it again and have the
bot answer it again. The kit's server and the starters remember each signature they accepted
until it is too old anyway, and refuse it a second time; the service signs every request it
sends afresh, so it never sends one signature twice."""

import json
import threading
import time
from urllib.parse import urlsplit

import pytest

from gameplay.bots import signing
from gameplay.bots.outside import HttpBot
from gameplay.kit.serve import http_server
from tests.kit.conftest import SECRET, STARTERS, node_or_skip, python_starter_http
from tests.kit.test_signing import first_request, post

REPLAY = "this signed request was already received: a request is answered once"


def test_a_signature_is_accepted_once_within_its_window():
    seen = signing.Replays()
    body = b'{"protocol": "president-bot/1"}'
    header = signing.sign(SECRET, body, now=1_000_000)

    signing.verify(SECRET, body, header, now=1_000_000, seen=seen)
    with pytest.raises(signing.BadSignature, match=REPLAY):
        signing.verify(SECRET, body, header, now=1_000_299, seen=seen)
    # the same body signed another second is another request
    signing.verify(SECRET, body, signing.sign(SECRET, body, now=1_000_001), now=1_000_001,
                   seen=seen)


def test_only_a_request_that_verifies_is_remembered():
    seen = signing.Replays()
    body = b"{}"
    header = signing.sign(SECRET, body, now=1_000_000)
    with pytest.raises(signing.BadSignature, match="does not match"):
        signing.verify("another-secret", body, header, now=1_000_000, seen=seen)
    signing.verify(SECRET, body, header, now=1_000_000, seen=seen)  # not refused as a replay


def test_a_signature_is_forgotten_once_too_old_to_verify():
    """What is kept is bounded by the window: a signature past it is refused as too old, so it
    need not be remembered, even one dated up to 300 s ahead of the bot's clock."""
    seen = signing.Replays()
    for second in range(10):
        body = f'{{"n": {second}}}'.encode()
        signing.verify(SECRET, body, signing.sign(SECRET, body, now=1_000_000 + second),
                       now=1_000_000, seen=seen)
    assert len(seen) == 10
    late = signing.sign(SECRET, b"{}", now=1_000_400)
    signing.verify(SECRET, b"{}", late, now=1_000_305, seen=seen)
    assert len(seen) == 6  # seconds 5 to 9, within 300 s of 1_000_305, and the new one
    with pytest.raises(signing.BadSignature, match="old"):
        signing.verify(SECRET, b"{}", late, now=1_000_701, seen=seen)


def test_at_most_limit_signatures_are_kept():
    seen = signing.Replays(limit=3)
    for n in range(5):
        body = f'{{"n": {n}}}'.encode()
        signing.verify(SECRET, body, signing.sign(SECRET, body, now=1_000_000), now=1_000_000,
                       seen=seen)
    assert len(seen) == 3


@pytest.fixture
def kit_server():
    """The kit's HTTP server (``president serve``, the Python starter's) with a secret, and
    the requests its answerer was asked."""
    asked = []

    def answer(request):
        asked.append(request)
        return {"choice": 0}

    server = http_server(answer, 0, secret=SECRET)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/", asked
    server.shutdown()
    server.server_close()


def test_the_kits_server_answers_a_signed_request_once(kit_server):
    url, asked = kit_server
    body = first_request()
    header = signing.sign(SECRET, body)

    assert post(url, body, header)[0] == 200
    status, said = post(url, body, header)

    assert status == 401
    assert REPLAY in said.decode()
    assert len(asked) == 1


@pytest.mark.parametrize("starter", ["python", "javascript"])
def test_a_starter_answers_a_signed_request_once(running, starter):
    argv = (python_starter_http() if starter == "python" else
            [node_or_skip(), str(STARTERS / "javascript" / "bot.js"), "--http", "0"])
    bot = running(argv, secret=SECRET)
    body = first_request()
    header = signing.sign(SECRET, body)

    assert post(bot.url, body, header)[0] == 200
    status, said = post(bot.url, body, header)

    assert status == 401
    assert REPLAY in said.decode()


def test_the_client_signs_each_request_when_it_sends_it(kit_server, monkeypatch):
    """The same request asked again (the same decision of a game replayed from its seed) is
    signed again at the time it is sent: a new signature, answered."""
    url, asked = kit_server
    bot = HttpBot(url, allowed={urlsplit(url).netloc}, secret=SECRET, timeout_ms=3000)
    request = json.loads(first_request())
    now = time.time()
    clock = iter([now, now + 1])  # the second sent a second later
    sent = []
    sign = signing.sign
    monkeypatch.setattr(signing, "sign", lambda secret, body: sent.append(
        sign(secret, body, now=next(clock))) or sent[-1])

    assert bot.exchange_json(request) == {"choice": 0}
    assert bot.exchange_json(request) == {"choice": 0}

    assert len(set(sent)) == 2 and len(asked) == 2


def test_the_same_decision_of_two_games_in_one_second_is_answered_in_both(kit_server,
                                                                           monkeypatch):
    """Two tournaments of the same entrants and seed, played at once, ask a bot the same
    decision in the same second: without a nonce of its own the two requests were the same
    bytes, signed alike, and the second was refused as a replay (a fault the bot never made)."""
    url, asked = kit_server
    now = int(time.time())
    sign = signing.sign
    monkeypatch.setattr(signing, "sign", lambda secret, body: sign(secret, body, now=now))
    first, second = (HttpBot(url, allowed={urlsplit(url).netloc}, secret=SECRET,
                             timeout_ms=3000) for _ in range(2))
    request = json.loads(first_request())
    request.pop("nonce", None)  # _ask adds its own

    observation = type("Observation", (), {"to_json": lambda self: request["observation"]})()
    fields = {k: v for k, v in request.items()
              if k not in ("protocol", "decision", "deadline_ms", "observation",
                           "remaining_overage_ms")}
    assert first._ask(request["decision"], observation, **fields) == {"choice": 0}
    assert second._ask(request["decision"], observation, **fields) == {"choice": 0}

    assert len(asked) == 2 and asked[0]["nonce"] != asked[1]["nonce"]
