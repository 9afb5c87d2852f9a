"""Outside bots: a web service over HTTP, or a local program over JSON lines (docs/bots.md).

Both speak protocol ``president-bot/1``: for each decision one JSON request (the seat's
observation, the legal choices, a deadline) and one JSON answer.  Every way an answer can go
wrong (timeout, connection or HTTP error, oversized or malformed JSON, an illegal choice) raises
``BotFault``; the seat then plays a safe legal choice and counts the fault, so an outside bot
never breaks a game.

HTTP bots may only call hosts an administrator allows (setting or environment variable
``OUTSIDE_BOT_ALLOWED_HOSTS``, comma separated); redirects are not followed.  Local programs
run a command given by trusted code (the ``play_games --program`` option), never by users.
"""

import http.client
import json
import os
import selectors
import subprocess
import time
from urllib.parse import urlsplit

from gameplay.bots.base import FAULT_ANSWER_MAX, Bot, BotFault
from gameplay.bots.observation import DIRECTION_TEXT, move_json
from gameplay.engine import cards as C
from gameplay.engine.deal import CCW, CW
from gameplay.engine.errors import Unreadable

PROTOCOL = "president-bot/1"
DEFAULT_TIMEOUT_MS = 1000
DEFAULT_MAX_BYTES = 64 * 1024
DIRECTIONS = {"cw": CW, "ccw": CCW}


def allowed_hosts() -> set[str]:
    """The administrator's allow-list: Django setting first, then the environment."""
    hosts = None
    try:
        from django.conf import settings

        if settings.configured:
            hosts = getattr(settings, "OUTSIDE_BOT_ALLOWED_HOSTS", None)
    except ImportError:  # the bots work without Django too
        pass
    if hosts is None:
        hosts = os.environ.get("OUTSIDE_BOT_ALLOWED_HOSTS", "").split(",")
    return {h.strip().lower() for h in hosts if h and h.strip()}


class OutsideBot(Bot):
    """Turns each decision into a ``president-bot/1`` request and reads the answer."""

    def __init__(self, *, timeout_ms: float = DEFAULT_TIMEOUT_MS,
                 max_bytes: int = DEFAULT_MAX_BYTES):
        self.timeout = timeout_ms / 1000
        self.max_bytes = max_bytes

    def exchange_json(self, request: dict) -> dict:
        """Send one request, return the decoded answer object or raise BotFault."""
        raise NotImplementedError

    def _ask(self, decision: str, obs, **fields) -> dict:
        request = {"protocol": PROTOCOL, "decision": decision,
                   "deadline_ms": int(self.timeout * 1000), "observation": obs.to_json(),
                   **fields}
        self.last_answer = None
        answer = self.exchange_json(request)
        if not isinstance(answer, dict):
            raise BotFault("malformed", "the answer is not a JSON object")
        return answer

    def _cards(self, obs, answer: dict) -> list[int]:
        texts = answer.get("cards")
        if not isinstance(texts, list) or len(texts) > 200:
            raise BotFault("malformed", 'the answer needs "cards", a list of cards')
        try:
            return [C.parse_card(t, presidents=obs.rules.presidents) for t in texts]
        except Unreadable as error:
            raise BotFault("malformed", error.message) from None

    def play(self, obs, legal):
        answer = self._ask("play", obs, legal=[move_json(obs.rules, m) for m in legal])
        choice = answer.get("choice")
        if not isinstance(choice, int) or isinstance(choice, bool):
            raise BotFault("malformed", 'the answer needs "choice", an index into "legal"')
        if not 0 <= choice < len(legal):
            raise BotFault("illegal", f"choice {choice} is not one of the {len(legal)} legal")
        return legal[choice]

    def name_cards(self, obs, count):
        return self._cards(obs, self._ask("name_cards", obs, count=count))

    def give_back(self, obs, count, allowed):
        text = obs.rules.cards_text
        return self._cards(obs, self._ask("give_back", obs, count=count, allowed=text(allowed)))

    def ask(self, obs, index):
        return self._ask("ask", obs, index=index).get("ask")

    def lead_and_direction(self, obs, names_leader):
        answer = self._ask("lead_and_direction", obs, names_leader=names_leader)
        direction = answer.get("direction", DIRECTION_TEXT[CW])
        if direction not in DIRECTIONS:
            raise BotFault("malformed", 'direction must be "cw" or "ccw"')
        return answer.get("leader"), DIRECTIONS[direction]

    def _decode(self, body: bytes) -> dict:
        self.last_answer = body[:FAULT_ANSWER_MAX * 4]  # kept with a fault (Seat)
        if len(body) > self.max_bytes:
            raise BotFault("oversized", f"the answer is over {self.max_bytes} bytes")
        try:
            return json.loads(body)
        except (ValueError, UnicodeDecodeError):
            raise BotFault("malformed", "the answer is not JSON") from None


class HttpBot(OutsideBot):
    """A bot behind a URL: each decision is a POST of the request JSON."""

    def __init__(self, url: str, *, timeout_ms: float = DEFAULT_TIMEOUT_MS,
                 max_bytes: int = DEFAULT_MAX_BYTES, allowed: set[str] | None = None):
        super().__init__(timeout_ms=timeout_ms, max_bytes=max_bytes)
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"an outside bot's URL must be http(s)://host/…, not {url!r}")
        hosts = allowed_hosts() if allowed is None else {h.lower() for h in allowed}
        if parts.hostname.lower() not in hosts:
            raise ValueError(f"host {parts.hostname!r} is not in OUTSIDE_BOT_ALLOWED_HOSTS")
        self.url = url
        self.name = url
        self.parts = parts

    def exchange_json(self, request: dict) -> dict:
        p = self.parts
        cls = http.client.HTTPSConnection if p.scheme == "https" else http.client.HTTPConnection
        deadline = time.monotonic() + self.timeout
        conn = cls(p.hostname, p.port, timeout=self.timeout)
        try:
            body = json.dumps(request).encode()
            conn.request("POST", p.path or "/", body=body,
                         headers={"Content-Type": "application/json"})
            response = conn.getresponse()
            if response.status != 200:
                raise BotFault("error", f"HTTP status {response.status}")
            chunks, size = [], 0
            while size <= self.max_bytes:
                if time.monotonic() > deadline:
                    raise BotFault("timeout", f"no answer within {self.timeout * 1000:.0f} ms")
                chunk = response.read1(16384)
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
        except TimeoutError:
            raise BotFault("timeout", f"no answer within {self.timeout * 1000:.0f} ms") from None
        except (OSError, http.client.HTTPException) as error:
            raise BotFault("error", f"{type(error).__name__}: {error}") from None
        finally:
            conn.close()
        if time.monotonic() > deadline:
            raise BotFault("timeout", f"no answer within {self.timeout * 1000:.0f} ms")
        return self._decode(b"".join(chunks))


class ProgramBot(OutsideBot):
    """A local program: one request per line on its stdin, one answer per line on stdout.

    Only trusted code constructs it (a developer's machine, an administrator's command line).
    A program that times out or dies is stopped and started afresh for the next decision.
    """

    def __init__(self, argv: list[str], *, name: str = "program",
                 timeout_ms: float = DEFAULT_TIMEOUT_MS, max_bytes: int = DEFAULT_MAX_BYTES):
        super().__init__(timeout_ms=timeout_ms, max_bytes=max_bytes)
        if not argv:
            raise ValueError("a local program bot needs a command")
        self.argv = list(argv)
        self.name = name
        self.process: subprocess.Popen | None = None

    def _start(self) -> subprocess.Popen:
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(self.argv, stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        return self.process

    def exchange_json(self, request: dict) -> dict:
        try:
            process = self._start()
            process.stdin.write(json.dumps(request).encode() + b"\n")
            process.stdin.flush()
        except OSError as error:
            self.close()
            raise BotFault("error", f"cannot talk to the program: {error}") from None
        line = self._read_line(process)
        return self._decode(line)

    def _read_line(self, process) -> bytes:
        deadline = time.monotonic() + self.timeout
        fd = process.stdout.fileno()
        data = b""
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in data:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    self.close()
                    raise BotFault("timeout", f"no answer within {self.timeout * 1000:.0f} ms")
                chunk = os.read(fd, 65536)
                if not chunk:
                    self.close()
                    raise BotFault("error", "the program ended")
                data += chunk
                if len(data) > self.max_bytes:
                    self.close()
                    raise BotFault("oversized", f"the answer is over {self.max_bytes} bytes")
        line, _, rest = data.partition(b"\n")
        if rest.strip():  # more than one answer: the conversation is out of step
            self.close()
            raise BotFault("malformed", "more than one line in answer")
        return line

    def close(self) -> None:
        if self.process is not None:
            if self.process.poll() is None:
                self.process.kill()
            self.process.wait()
            for stream in (self.process.stdin, self.process.stdout):
                if stream:
                    stream.close()
            self.process = None
