"""Signed requests (issue #29 "Ownership"): the HTTP client signs every request with the bot's
secret, and a bot (the Python starter, on the kit's ``signing``; the JavaScript starter, on
node:crypto) answers a request signed with its secret and refuses a changed body, another
secret, an old signature and no signature."""

import http.client
import json
from urllib.parse import urlsplit

import pytest

from gameplay.bots import make_bot, signing
from gameplay.bots.outside import HttpBot
from gameplay.engine.options import preset
from gameplay.runner.match import play_game
from tests.kit.conftest import SECRET, STARTERS, node_or_skip, python_starter_http

BODY = b'{"protocol": "president-bot/1"}'


def test_a_signature_verifies_its_body_only_with_its_secret_and_in_time():
    header = signing.sign("s3cret", BODY, now=1_000_000)
    assert header.startswith("t=1000000,v1=") and len(header.split("v1=")[1]) == 64
    signing.verify("s3cret", BODY, header, now=1_000_000 + 299)
    with pytest.raises(signing.BadSignature, match="does not match"):
        signing.verify("s3cret", BODY + b" ", header, now=1_000_000)
    with pytest.raises(signing.BadSignature, match="does not match"):
        signing.verify("other", BODY, header, now=1_000_000)
    with pytest.raises(signing.BadSignature, match="301 s old"):
        signing.verify("s3cret", BODY, header, now=1_000_000 + 301)
    with pytest.raises(signing.BadSignature, match="no X-President-Signature"):
        signing.verify("s3cret", BODY, None)
    with pytest.raises(signing.BadSignature, match="no t="):
        signing.verify("s3cret", BODY, "v1=00")
    # the timestamp is signed too: moving it breaks the signature
    moved = header.replace("t=1000000", "t=1000100")
    with pytest.raises(signing.BadSignature, match="does not match"):
        signing.verify("s3cret", BODY, moved, now=1_000_100)


def post(url: str, body: bytes, header: str | None) -> tuple[int, bytes]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    headers = {"Content-Type": "application/json"}
    if header:
        headers[signing.HEADER] = header
    try:
        conn.request("POST", parts.path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def first_request() -> bytes:
    """A real request: the first decision of a classic game, as the client sends it."""
    seen = []

    class Recorder(HttpBot):
        def exchange_json(self, request):
            seen.append(request)
            return {"choice": 0}

    bot = Recorder("http://127.0.0.1:8000/", allowed={"127.0.0.1:8000"})
    play_game([bot] + [make_bot("random", seed=s) for s in (1, 2, 3)], preset("classic"),
              seed=1)
    return json.dumps(seen[0]).encode()


@pytest.mark.parametrize("starter", ["python", "javascript"])
def test_a_starter_answers_a_signed_request_and_refuses_a_changed_body(running, starter):
    argv = (python_starter_http() if starter == "python" else
            [node_or_skip(), str(STARTERS / "javascript" / "bot.js"), "--http", "0"])
    bot = running(argv, secret=SECRET)
    body = first_request()
    header = signing.sign(SECRET, body)

    status, answer = post(bot.url, body, header)
    assert status == 200 and "choice" in json.loads(answer)

    changed = body.replace(b'"seat": 0', b'"seat": 1', 1)
    assert changed != body
    assert post(bot.url, changed, header)[0] == 401
    assert post(bot.url, body, signing.sign("another-secret", body))[0] == 401
    assert post(bot.url, body, signing.sign(SECRET, body, now=0))[0] == 401  # 1970: too old
    assert post(bot.url, body, None)[0] == 401


def test_the_client_signs_every_request_with_the_bots_secret(running):
    bot = running(python_starter_http(), secret=SECRET)
    allowed = {urlsplit(bot.url).netloc}
    signed = HttpBot(bot.url, allowed=allowed, secret=SECRET, timeout_ms=3000)
    unsigned = HttpBot(bot.url, allowed=allowed, timeout_ms=3000)
    result = play_game([signed, unsigned] + [make_bot("random", seed=s) for s in (1, 2)],
                       preset("classic"), seed=2)
    assert result.stats[0].decisions > 0 and result.stats[0].faults == []
    refused = result.stats[1].faults
    assert refused and {(f["kind"], f["message"]) for f in refused} == {
        ("error", "HTTP status 401")}
