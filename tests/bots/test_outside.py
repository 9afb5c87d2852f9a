"""Outside bots against a real HTTP server on 127.0.0.1 and a real local program: good answers
are played, and timeouts, errors, oversized, malformed or illegal answers fall back safely and
are counted, never breaking the game."""

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from gameplay.bots import base, make_bot, signing
from gameplay.bots.outside import HttpBot, ProgramBot
from gameplay.engine import checker
from gameplay.engine.options import preset
from gameplay.engine.scoring import Scoring
from gameplay.runner.match import play_game

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "outside_bot.py"
sys.path.insert(0, str(EXAMPLE.parent))
from outside_bot import decide  # noqa: E402


class Server:
    """A bot server whose behaviour a test picks: "good" answers like the example bot. It
    answers the validation's challenge (whatever the mode) of a bot whose secret is in
    ``secrets`` (the one the request is signed with), as the kit's server does; the challenges
    go to ``challenges``, the decisions to ``requests``."""

    def __init__(self):
        self.mode = "good"
        self.secrets = []
        self.challenges = []
        self.log = None  # a function of the request: the "log" a good answer carries
        self.requests = []
        self.hosts = []  # the Host header of each request
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                body = self.rfile.read(int(self.headers["Content-Length"]))
                request = json.loads(body)
                if request.get("decision") == "challenge":
                    server.challenges.append(request)
                    return self.prove(body, request["nonce"])
                server.requests.append(request)
                server.hosts.append(self.headers["Host"])
                mode = server.mode
                if mode == "slow":
                    threading.Event().wait(0.5)
                if mode == "status":
                    self.send_error(500)
                    return
                if mode == "traceback":  # the author's own error page
                    page = b"Traceback (most recent call last):\n<b>boom</b>\n" + b"x" * 5000
                    self.send_response(500)
                    self.send_header("Content-Length", str(len(page)))
                    self.end_headers()
                    self.wfile.write(page)
                    return
                log = {"log": server.log(request)} if server.log else {}
                body = {"good": lambda: json.dumps(decide(request) | log),
                        "slow": lambda: json.dumps(decide(request)),
                        "junk": lambda: "not json {",
                        "huge": lambda: json.dumps({"choice": 0, "pad": "x" * 200_000}),
                        "illegal": lambda: json.dumps({"choice": 999, "cards": ["ZZ"],
                                                       "ask": "sideways", "leader": 42} | log),
                        # bytes no JSON reader takes, NUL and a right-to-left override in them
                        "garbage": lambda: "\x00garbage\u202e {" + "x" * 300,
                        }[mode]().encode()
                self.answer(body)

            def prove(self, body: bytes, nonce: str):
                for secret in server.secrets:
                    try:
                        signing.verify(secret, body, self.headers.get(signing.HEADER))
                    except signing.BadSignature:
                        continue
                    return self.answer(json.dumps({"proof": signing.proof(secret, nonce)})
                                       .encode())
                self.send_error(401)

            def answer(self, body: bytes):
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/bot"
        # the allow-list entry for this server: 127.0.0.1 on its own (random, high) port
        self.allowed = f"127.0.0.1:{self.port}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server():
    s = Server()
    yield s
    s.close()


def _game(bot, name="presidents-deck", deals=3):
    bots = [bot] + [make_bot("random", seed=s) for s in (1, 2, 3)]
    result = play_game(bots, preset(name), seed=4, scoring=Scoring("penalty", deals=deals))
    exit_code, verdict = checker.check(result.transcript)
    assert exit_code == 0, verdict
    return result


@pytest.mark.parametrize("name", ["presidents-deck", "school-scum"])
def test_http_bot_plays_a_whole_game(server, name, settings):
    result = _game(HttpBot(server.url, allowed={server.allowed}), name)
    assert result.stats[0].faults == []
    decisions = {r["decision"] for r in server.requests}
    assert "play" in decisions
    request = next(r for r in server.requests if r["decision"] == "play")
    assert request["protocol"] == "president-bot/1" and (
        request["deadline_ms"] == settings.OUTSIDE_BOT_DECISION_MS)
    obs = request["observation"]
    assert obs["seat"] == 0 and len(obs["held"]) == 4 and "hands" not in obs
    assert sorted(obs["hand"]) == sorted(result.transcript["deals"][0]["hands"][0]) or \
        obs["deal"] > 0
    # the first bot's game choices are the example bot's: first play offered
    first = result.transcript["deals"][0]["moves"]
    assert any(m["seat"] == 0 for m in first)


@pytest.mark.parametrize("mode,kind", [("junk", "malformed"), ("huge", "oversized"),
                                       ("illegal", "illegal"), ("status", "error")])
def test_http_faults_fall_back_and_are_counted(server, mode, kind):
    """A slow bot draws on its time bank instead (tests/bots/test_time_bank.py)."""
    server.mode = mode
    # A time limit a loaded machine cannot reach, or a slow answer would count as a timeout
    # instead of their fault.
    bot = HttpBot(server.url, allowed={server.allowed}, timeout_ms=3000, max_bytes=50_000)
    result = _game(bot, deals=1)
    faults = result.stats[0].faults
    plays = [f for f in faults if f["decision"] == "play"]
    assert plays and {f["kind"] for f in plays} == {kind}
    assert len(plays) == sum(1 for r in server.requests if r["decision"] == "play")


def test_a_decisions_time_is_the_setting_unless_given(server, settings):
    settings.OUTSIDE_BOT_DECISION_MS = 250
    assert HttpBot(server.url, allowed={server.allowed}).timeout == 0.25
    assert HttpBot(server.url, allowed={server.allowed}, timeout_ms=40).timeout == 0.04
    server.mode = "slow"  # 0.5 s: past this setting's time
    result = _game(HttpBot(server.url, allowed={server.allowed}), deals=1)
    assert {f["kind"] for f in result.stats[0].faults} == {"timeout"}


def test_unreachable_bot_is_a_fault_not_a_crash(server):
    url = server.url
    server.close()
    result = _game(HttpBot(url, allowed={server.allowed}, timeout_ms=200), deals=1)
    assert {f["kind"] for f in result.stats[0].faults} == {"error"}
    server.httpd = type("Closed", (), {"shutdown": lambda s: None,
                                       "server_close": lambda s: None})()


def test_hosts_must_be_allowed(monkeypatch, settings):
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["bots.example.org"]
    with pytest.raises(ValueError, match="not in OUTSIDE_BOT_ALLOWED_HOSTS"):
        HttpBot("http://127.0.0.1:8000/bot")
    assert HttpBot("https://bots.example.org/x").url == "https://bots.example.org/x"
    with pytest.raises(ValueError):
        HttpBot("file:///etc/passwd", allowed={"127.0.0.1"})
    del settings.OUTSIDE_BOT_ALLOWED_HOSTS
    monkeypatch.setenv("OUTSIDE_BOT_ALLOWED_HOSTS", "127.0.0.1, localhost")
    assert HttpBot("http://localhost:8000/").url == "http://localhost:8000/"
    with pytest.raises(ValueError):
        make_bot("http://10.0.0.1/bot")


def test_local_program_bot_plays_and_a_hanging_one_falls_back(tmp_path):
    result = _game(ProgramBot([sys.executable, str(EXAMPLE), "--stdio"]), "school-scum")
    assert result.stats[0].faults == []
    hang = tmp_path / "hang.py"
    hang.write_text("import sys, time\nfor line in sys.stdin:\n    time.sleep(5)\n")
    bot = ProgramBot([sys.executable, str(hang)], timeout_ms=100)
    result = _game(bot, "classic", deals=1)
    assert result.stats[0].faults and {f["kind"] for f in result.stats[0].faults} == {"timeout"}
    assert bot.process is None  # closed at the end of the game


def test_program_bots_only_from_trusted_programs():
    with pytest.raises(ValueError):
        make_bot("mybot")
    bot = make_bot("mybot", programs={"mybot": [sys.executable, str(EXAMPLE), "--stdio"]})
    assert isinstance(bot, ProgramBot)
    bot.close()


def test_a_fault_keeps_its_deal_decision_number_and_the_start_of_the_answer(server):
    server.mode = "garbage"
    result = _game(HttpBot(server.url, allowed={server.allowed}), deals=2)

    faults = result.stats[0].faults
    assert len(faults) == len(server.requests)  # every decision asked was a fault
    assert [f["number"] for f in faults] == list(range(1, len(faults) + 1))
    assert [f["deal"] for f in faults] == sorted(f["deal"] for f in faults)
    assert {f["deal"] for f in faults} == {0, 1}
    fault = faults[0]
    assert (fault["kind"], fault["message"]) == ("malformed", "the answer is not JSON")
    # cut to 200 characters; the NUL and the right-to-left override shown escaped
    assert fault["answer"].startswith("\\x00garbage\\u202e {xxx")
    assert len(fault["answer"]) == 200 and "\x00" not in fault["answer"]


@pytest.mark.parametrize("answer, kept", [
    (b'{"choice": 9, "log": "my plan"}', '{"choice": 9, "log": "…"}'),
    (b'{"log":"a \\"quoted\\" plan","choice":9}', '{"log":"…","choice":9}'),
    (b'{"choice": 9, "log": "cut off by the limit', '{"choice": 9, "log": "…"'),
    (b'not json {"log" : "plan"', 'not json {"log" : "…"'),
    (b'{"choice": 9}', '{"choice": 9}'),
])
def test_a_faults_answer_keeps_no_log(answer, kept):
    """A bot's log is its author's (docs/bots.md "Who sees them"), and a fault's answer is
    shown to everyone: the log's text is left out of it, parsed or not."""
    assert base.fault_answer(answer) == kept
