"""An outside bot's time bank for one game (docs/bots.md, "Time"): each decision has its own
limit, time beyond it comes out of the bank, and once the bank is spent the seat plays safe
moves without calling the bot again, one fault recorded. Time the service itself was late for
is not charged."""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from gameplay.bots import make_bot
from gameplay.bots.outside import HttpBot
from gameplay.bots.timebank import TimeBank, bound_ms
from gameplay.engine import checker
from gameplay.engine.options import preset
from gameplay.engine.scoring import Scoring
from gameplay.runner.match import play_game
from tests.bots.test_outside import decide


class BotServer:
    """A bot on 127.0.0.1 whose every answer ``answer(request)`` gives: an answer object to
    send, or None to hang (the connection is held open until the server closes)."""

    def __init__(self, answer):
        self.requests = []
        self.closing = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append(request)
                answer = answer_of(request)
                if answer is None:
                    server.closing.wait()
                    return
                body = json.dumps(answer).encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    self.wfile.write(body)
                except BrokenPipeError:
                    pass  # the caller gave up on it (its deadline)

            def log_message(self, *args):
                pass

        answer_of = answer
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/bot"
        self.allowed = f"127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def bot(self, decision_ms: float) -> HttpBot:
        return HttpBot(self.url, allowed={self.allowed}, timeout_ms=decision_ms)

    def close(self):
        self.closing.set()
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def serve():
    servers = []

    def start(answer):
        servers.append(BotServer(answer))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


def slow(seconds):
    def answer(request):
        threading.Event().wait(seconds)
        return decide(request)
    return answer


def game(bot, deals=2):
    bots = [bot] + [make_bot("random", seed=s) for s in (1, 2, 3)]
    result = play_game(bots, preset("presidents-deck"), seed=4,
                       scoring=Scoring("penalty", deals=deals))
    assert checker.check(result.transcript)[0] == 0
    return result


def test_the_bank_pays_what_a_decision_takes_beyond_its_limit():
    bank = TimeBank(decision_ms=100, overage_ms=500)
    assert bank.allowance_ms == 600
    bank.charge(80)  # within its limit: nothing from the bank
    assert bank.overage_ms == 500
    bank.charge(350)
    assert bank.overage_ms == 250 and not bank.exhausted
    bank.charge(10_000)
    assert bank.overage_ms == 0
    assert bound_ms(decisions=78, decision_ms=1000, overage_ms=3000) == 81_000


def test_a_slow_bot_draws_on_its_bank_then_plays_safe_moves_uncalled(serve, settings):
    settings.OUTSIDE_BOT_OVERAGE_MS = 1000
    server = serve(slow(0.3))
    result = game(server.bot(decision_ms=100))

    stats = result.stats[0]
    # Each answer took about 200 ms over its limit: the bank of 1,000 ms paid for a few, then
    # a decision found too little left and emptied it.
    assert [f["kind"] for f in stats.faults] == ["timeout"]
    assert "time bank exhausted" in stats.faults[0]["message"]
    called = len(server.requests)
    assert 2 <= called <= 6
    assert stats.faults[0]["number"] == called  # the last call was the one that emptied it
    assert stats.benched == stats.decisions - called > 0  # the rest played for it, uncalled
    # the replay's marks: the answered decisions timed, the emptying one and the rest safe
    assert [p["safe"] for p in stats.timeline] == [False] * (called - 1) + [True] * (
        stats.decisions - called + 1)
    assert all(p["ms"] > 200 for p in stats.timeline[:called])
    assert {p["ms"] for p in stats.timeline[called:]} == {0.0}
    left = [r["remaining_overage_ms"] for r in server.requests]
    assert left[0] == 1000 and left == sorted(left, reverse=True) and left[-1] < 300
    assert {r["deadline_ms"] for r in server.requests} == {100}


def test_a_bot_within_its_limit_keeps_its_whole_bank(serve, settings):
    settings.OUTSIDE_BOT_OVERAGE_MS = 1000
    server = serve(decide)
    result = game(server.bot(decision_ms=3000))
    assert result.stats[0].faults == [] and result.stats[0].benched == 0
    assert {r["remaining_overage_ms"] for r in server.requests} == {1000}
    assert len(server.requests) == result.stats[0].decisions


def test_a_hanging_bots_game_ends_within_the_stated_bound(serve, settings):
    settings.OUTSIDE_BOT_OVERAGE_MS = 400
    server = serve(lambda request: None)  # never answers
    start = time.monotonic()
    result = game(server.bot(decision_ms=200))
    took_ms = 1000 * (time.monotonic() - start)

    stats = result.stats[0]
    assert len(server.requests) == 1  # called once: its first decision spent the whole bank
    assert [f["kind"] for f in stats.faults] == ["timeout"]
    assert stats.benched == stats.decisions - 1
    # docs/bots.md: a bot's time in a game is at most decisions × limit + bank; the other
    # seats are built-in bots, whose time is ours.
    assert took_ms < bound_ms(stats.decisions, 200, 400)


# About 2.4 s on an idle core: a third of it (the decisions' limit below) leaves the game's
# other decisions, answered by a server thread of this very process, most of a second to
# spare on a machine busy with other tests (at 0.8 s one of them once ran over its third).
HOG = 240_000_000


def hog_the_interpreter(request):
    """Our own process stalls: native work that holds the interpreter lock (as a worker busy
    elsewhere would), so even our deadline timer cannot run; then a prompt answer."""
    if not hog_the_interpreter.done:
        hog_the_interpreter.done = True
        sum(range(HOG))  # one C call: the lock is not released until it returns
    return decide(request)


def test_a_decision_the_service_was_late_for_is_not_charged(serve, settings):
    settings.OUTSIDE_BOT_OVERAGE_MS = 0  # any charge at all would empty the bank
    hog_the_interpreter.done = False
    started = time.monotonic()
    sum(range(HOG // 4))  # the stall's pace, timed on a quarter of it
    # A third of the stall: the stalled decision outlasts it, the others on a loaded machine
    # do not.
    decision_ms = 1000 * 4 * (time.monotonic() - started) / 3
    assert decision_ms > 150
    server = serve(hog_the_interpreter)

    result = game(server.bot(decision_ms=decision_ms))

    stats = result.stats[0]
    assert stats.faults == [] and stats.benched == 0
    assert len(server.requests) == stats.decisions  # every decision asked: none benched
    # (how many decisions count as late depends on the machine's load too: not asserted)
