"""Answering ``president-bot/1`` requests: a built-in bot or a program behind the protocol, and
the two ways to serve any answerer, HTTP and JSON lines on stdin/stdout (docs/kit.md).

``BuiltInAnswerer`` reads a request back into the ``Observation`` and legal moves the service
built it from, asks the bot, and writes its answer in the protocol's words, so any built-in bot
can sit at a table as an outside bot (a frozen version to play against). ``ProgramAnswerer``
passes each request to a program speaking the protocol over stdin/stdout (the C starter, any
compiled bot), so it can be registered on the site by URL.
"""

import json
import shutil
import sys
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, HTTPServer, ThreadingHTTPServer

from gameplay.bots import cardset as C
from gameplay.bots import make_bot, signing
from gameplay.bots.base import BotFault
from gameplay.bots.observation import DIRECTION_TEXT, Observation
from gameplay.bots.outside import DEFAULT_TIMEOUT_MS, DIRECTIONS, ProgramBot
from gameplay.engine.cards import parse_face
from gameplay.engine.deal import MODE_NAMES
from gameplay.engine.options import from_ruleset
from gameplay.engine.plays import BLIND, PASS
from gameplay.engine.ruleset import Rules

MAX_REQUEST = 1 << 20  # bytes; a request is a few KiB
# Seconds a connection may take to send its whole request: a stranger's connection that says
# nothing is closed then (it reads in a thread of its own meanwhile, never holding up others).
READ_SECONDS = 10
MODES = {name: mode for mode, name in MODE_NAMES.items()}

Answerer = Callable[[dict], dict]


class BuiltInAnswerer:
    """A built-in bot (``make_bot`` spec) answering protocol requests."""

    def __init__(self, spec: str, *, seed: int = 0):
        self.bot = make_bot(spec, seed=seed)
        self._rules: dict = {}

    def __call__(self, request: dict) -> dict:
        obs = self.observation(request["observation"])
        rules, decision = obs.rules, request["decision"]
        if decision == "play":
            legal = [self.move(rules, m) for m in request["legal"]]
            chosen = self.bot.play(obs, legal)
            return {"choice": next(i for i, m in enumerate(legal) if m is chosen or m == chosen)}
        if decision == "name_cards":
            return {"cards": rules.cards_text(self.bot.name_cards(obs, request["count"]))}
        if decision == "give_back":
            allowed = self.cards(rules, request["allowed"])
            return {"cards": rules.cards_text(self.bot.give_back(obs, request["count"], allowed))}
        if decision == "ask":
            return {"ask": self.bot.ask(obs, request["index"])}
        if decision == "lead_and_direction":
            leader, direction = self.bot.lead_and_direction(obs, request["names_leader"])
            return {"leader": leader, "direction": DIRECTION_TEXT[direction]}
        raise ValueError(f"unknown decision {decision!r}")

    def close(self) -> None:
        self.bot.close()

    def rules(self, o: dict) -> Rules:
        key = (json.dumps(o["ruleset"], sort_keys=True), o["players"])
        if key not in self._rules:
            self._rules[key] = Rules(from_ruleset(o["ruleset"]), o["players"])
        return self._rules[key]

    @staticmethod
    def cards(rules: Rules, texts: list[str]) -> list[int]:
        return [C.parse_card(t, presidents=rules.presidents) for t in texts]

    def move(self, rules: Rules, m: dict | None):
        if m is None:
            return None
        if m.get("pass"):
            return PASS
        if m.get("blind"):
            return BLIND
        declared = parse_face(m["as"], presidents=rules.presidents) if m.get("as") else None
        return rules.play_from_cards(self.cards(rules, m["play"]), declared)

    def observation(self, o: dict) -> Observation:
        """The Observation ``to_json`` wrote ``o`` from."""
        rules = self.rules(o)
        cards = lambda texts: self.cards(rules, texts)  # noqa: E731
        seated = lambda moves: [(m["seat"], self.move(rules, m)) for m in moves]  # noqa: E731
        opening = o.get("opening")
        return Observation(
            seat=o["seat"], rules=rules, hand=C.cards_mask(cards(o["hand"])), held=o["held"],
            blind_held=o["blind_held"], active=o["active"],
            finishing_order=o["finishing_order"], turn=o["turn"],
            last=self.move(rules, o["pile"]),
            last_seat=o["turn"] if o["pile_seat"] is None else o["pile_seat"],
            before_last=self.move(rules, o.get("before_pile")), trick=seated(o["trick"]),
            moves=seated(o["moves"]), played=C.cards_mask(cards(o["played"])),
            passed=o["passed"], direction=DIRECTIONS[o["direction"]], mode=MODES[o["special"]],
            mode_count=o.get("special_count", 0), reversed=o["reversed"],
            opening=None if opening is None else cards([opening])[0],
            roles={int(s): r for s, r in o["roles"].items()}, scores=o["scores"],
            deal_number=o["deal"], dealer=o["dealer"],
            gave={int(s): cards(c) for s, c in o["gave"].items()},
            received=cards(o["received"]))


class ProgramAnswerer:
    """A program speaking the protocol over stdin/stdout, asked each request in turn; its
    answer is passed on as it is. It has the request's whole time (its deadline and what is
    left of its time bank): the caller's own wait ends no later. An answer that goes wrong
    (none in time, not JSON, the program ended) raises ``BotFault``; a program that ended or
    timed out is started afresh for the next request (``ProgramBot``)."""

    def __init__(self, argv: list[str]):
        if shutil.which(argv[0]) is None:  # said now, not at the first request
            raise ValueError(f"cannot run {argv[0]!r}: no such program, or not executable")
        self.program = ProgramBot(argv, name="bot")

    def __call__(self, request: dict) -> dict:
        if not isinstance(request, dict):
            raise ValueError("a request is a JSON object")
        wait_ms = (request.get("deadline_ms", DEFAULT_TIMEOUT_MS)
                   + request.get("remaining_overage_ms", 0))
        self.program.timeout = wait_ms / 1000
        return self.program.exchange_json(request)

    def close(self) -> None:
        self.program.close()


def serve_stdio(answer: Answerer, stdin=None, stdout=None, stderr=None) -> None:
    """One request a line on stdin, one answer a line on stdout, until stdin ends. A line it
    cannot answer (not JSON, not a request it knows) is answered ``{"error": why}`` (a fault
    naming why, for the caller; the server goes on) and said on stderr."""
    stdin, stdout, stderr = stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr
    for line in stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            if not isinstance(request, dict):
                raise ValueError("a request is a JSON object")
            reply = answer(request)
        except json.JSONDecodeError as error:
            reply = {"error": f"not JSON: {error}"}
        except (ValueError, KeyError, TypeError) as error:
            reply = {"error": f"{type(error).__name__}: {error}"}
        if "error" in reply:
            print(f"cannot answer this line: {reply['error']} (a request is one JSON object a "
                  f"line: docs/protocol/request.schema.json)", file=stderr, flush=True)
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()


def http_server(answer: Answerer, port: int, *, secret: str | None = None,
                host: str = "127.0.0.1") -> HTTPServer:
    """An HTTP bot on ``host:port`` (0: any free port): each POST is a request; with a
    ``secret``, a request not signed with it, or whose signature it accepted before (a copy
    sent again), is refused with 401 (``signing``), and the validation's challenge is
    answered with its proof. Each connection is read in a thread of its own, within
    READ_SECONDS, so a stranger's connection that never finishes its request holds up nobody
    else's; the answerer answers one request at a time (a bot's state is not shared between
    threads). An answerer's ``BotFault`` (a program's answer gone wrong) is
    answered 502 with the fault in words."""
    answering = threading.Lock()
    seen = signing.Replays()

    def reply_to(request: dict) -> dict:
        if secret and request.get("decision") == "challenge":
            return {"proof": signing.proof(secret, str(request["nonce"]))}
        return answer(request)

    class Handler(BaseHTTPRequestHandler):
        timeout = READ_SECONDS

        def do_POST(self):  # noqa: N802 - the name http.server calls
            length = self.headers.get("Content-Length") or "0"
            if not (length.isascii() and length.isdigit()):  # read(-1) waits for the end
                return self.send_error(400, f"Content-Length {length[:20]!r} is not a length")
            length = int(length)
            if length > MAX_REQUEST:
                return self.send_error(413, f"a request is at most {MAX_REQUEST} bytes")
            try:
                body = self.rfile.read(length)
            except TimeoutError:  # the body never came: nobody is waiting for an answer
                self.close_connection = True
                return
            if secret:
                try:
                    signing.verify(secret, body, self.headers.get(signing.HEADER), seen=seen)
                except signing.BadSignature as error:
                    return self.send_error(401, str(error))
            try:
                with answering:
                    reply = json.dumps(reply_to(json.loads(body))).encode()
            except BotFault as fault:
                return self.send_error(502, explain=f"{fault.kind}: {fault}")
            except (ValueError, KeyError, TypeError) as error:
                return self.send_error(400, f"{type(error).__name__}: {error}")
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        def log_message(self, *args):
            pass

    return ThreadingHTTPServer((host, port), Handler)
