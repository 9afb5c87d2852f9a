"""Outside bots: a web service over HTTP, or a local program over JSON lines (docs/bots.md).

Both speak protocol ``president-bot/1``: for each decision one JSON request (the seat's
observation, the legal choices, a deadline) and one JSON answer.  Every way an answer can go
wrong (timeout, connection or HTTP error, oversized or malformed JSON, an illegal choice) raises
``BotFault``; the seat then plays a safe legal choice and counts the fault, so an outside bot
never breaks a game.

HTTP bots are called under the network policy of ``gameplay.bots.policy``
(docs/outside-bots.md): public addresses only, unless the host is in the administrator's
``OUTSIDE_BOT_ALLOWED_HOSTS``; ports in ``OUTSIDE_BOT_ALLOWED_PORTS``; the connection goes to
the address that was checked; redirects are not followed; answers are cut at ``max_bytes`` and
the whole exchange at the timeout.  Local programs run a command given by trusted code (the
``play_games --program`` option), never by users.
"""

import functools
import http.client
import json
import os
import secrets
import selectors
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Callable

from gameplay.bots import cardset as C
from gameplay.bots import policy, signing
from gameplay.bots.base import FAULT_ANSWER_MAX, Bot, BotFault, ServiceLate, fault_text
from gameplay.bots.observation import DIRECTION_TEXT, move_json
from gameplay.bots.timebank import SERVICE_SLACK_MS, TimeBank
from gameplay.engine.deal import CCW, CW
from gameplay.engine.errors import Unreadable

PROTOCOL = "president-bot/1"
DEFAULT_TIMEOUT_MS = 1000
DEFAULT_OVERAGE_MS = 3000
DEFAULT_MAX_BYTES = 64 * 1024
# Characters of an answer's optional "log", the bot's note on its decision, that the service
# keeps (docs/protocol/answer.schema.json).
LOG_MAX = 4_000
# Characters of logs kept from one bot in one game (each game makes its bots afresh); past it,
# its logs are dropped and one LOG_LIMIT_NOTE says so.
LOG_GAME_MAX = 64_000
LOG_LIMIT_NOTE = "log limit reached"
ERROR_BODY_READ = 8_192  # bytes of an error answer's body read, of which FAULT_BODY_MAX kept
DIRECTIONS = {"cw": CW, "ccw": CCW}


def _no_settings(name: str):
    return None


# Where the allow-lists come from first: nothing, unless the service that runs the bots points
# this at its own settings (outside_bots.apps points it at Django's); then the
# environment variable (comma separated). The bots stay plain Python.
settings_source: Callable[[str], object] = _no_settings


def _setting(name: str):
    value = settings_source(name)
    if value is not None:
        return value
    value = os.environ.get(name)
    return None if value is None else value.split(",")


def decision_ms() -> float:
    """How long an outside bot has for one decision: OUTSIDE_BOT_DECISION_MS (1,000 ms)."""
    value = _setting("OUTSIDE_BOT_DECISION_MS")
    if isinstance(value, list):  # from the environment
        value = value[0]
    return DEFAULT_TIMEOUT_MS if value is None else float(value)


def overage_ms() -> float:
    """An outside bot's time bank for one game, over its decisions' own limits:
    OUTSIDE_BOT_OVERAGE_MS (3,000 ms)."""
    value = _setting("OUTSIDE_BOT_OVERAGE_MS")
    if isinstance(value, list):
        value = value[0]
    return DEFAULT_OVERAGE_MS if value is None else float(value)


def allowed_hosts() -> list[str]:
    """The administrator's allow-list of hosts that may be private (``host`` or ``host:port``)."""
    return [h for h in _setting("OUTSIDE_BOT_ALLOWED_HOSTS") or [] if h.strip()]


def allowed_ports() -> list[int]:
    ports = _setting("OUTSIDE_BOT_ALLOWED_PORTS")
    if ports is None:
        return list(policy.DEFAULT_PORTS)
    try:
        return [int(p) for p in ports if str(p).strip()]
    except ValueError:
        raise ValueError(f"OUTSIDE_BOT_ALLOWED_PORTS must be port numbers, not {ports!r}") from None


class OutsideBot(Bot):
    """Turns each decision into a ``president-bot/1`` request and reads the answer."""

    outside = True

    def __init__(self, *, timeout_ms: float = DEFAULT_TIMEOUT_MS,
                 max_bytes: int = DEFAULT_MAX_BYTES):
        self.limit_ms = timeout_ms
        self.timeout = timeout_ms / 1000  # this decision's, the bank's allowance with a bank
        self.max_bytes = max_bytes
        self.time_bank: TimeBank | None = None
        # The latest exchange as measured on our side: the bot's time (request sent to answer
        # read) and how late our own deadline timer woke up (exchange_json sets both).
        self.bot_ms = 0.0
        self.late_ms = 0.0
        self.log_left = LOG_GAME_MAX  # characters of logs still kept this game

    def bank_open(self, overage: float) -> None:
        """A new game: its time bank of ``overage`` ms over each decision's limit."""
        self.time_bank = TimeBank(self.limit_ms, overage)

    @property
    def benched(self) -> bool:
        return self.time_bank is not None and self.time_bank.exhausted

    def exchange_json(self, request: dict) -> dict:
        """Send one request, return the decoded answer object or raise BotFault."""
        raise NotImplementedError

    def _ask(self, decision: str, obs, **fields) -> dict:
        bank = self.time_bank
        self.timeout = (bank.allowance_ms if bank else self.limit_ms) / 1000
        # The nonce makes each request's bytes, so its signature, its own: two games of one
        # deal asking one bot alike in the same second are not a replay (signing.Replays).
        request = {"protocol": PROTOCOL, "decision": decision, "nonce": secrets.token_hex(16),
                   "deadline_ms": int(self.limit_ms), "observation": obs.to_json(),
                   **fields}
        if bank is not None:
            request["remaining_overage_ms"] = int(bank.overage_ms)
        self.last_answer = self.last_log = None
        self.bot_ms = self.late_ms = 0.0
        try:
            answer = self.exchange_json(request)
        except BotFault as fault:
            self._spend(fault)
            raise
        self._spend(None)
        if not isinstance(answer, dict):
            raise BotFault("malformed", "the answer is not a JSON object")
        self._keep_log(answer.get("log"))
        return answer

    def _keep_log(self, log) -> None:
        """The answer's "log", cut to LOG_MAX characters and to what is left of the game's
        LOG_GAME_MAX; once that is spent, one LOG_LIMIT_NOTE and then nothing."""
        if not isinstance(log, str) or not log or self.log_left < 0:
            return
        text = fault_text(log, LOG_MAX, lines=True)
        if len(text) > self.log_left:
            self.last_log, self.log_left = LOG_LIMIT_NOTE, -1
            return
        self.last_log = text
        self.log_left -= len(text)

    def _spend(self, fault: BotFault | None) -> None:
        """Charge the decision to the bank; a timeout past the whole bank empties it, and one
        the service was late for is not the bot's (ServiceLate)."""
        if self.late_ms > SERVICE_SLACK_MS:
            if fault is not None and fault.kind == "timeout":
                raise ServiceLate(f"our worker was {self.late_ms:.0f} ms late") from None
            return
        bank = self.time_bank
        if bank is None:
            return
        if fault is not None and fault.kind == "timeout":
            left = bank.overage_ms
            bank.empty()
            # the wait ran out, or the bot's own reason (a sandbox's CPU time bank) is kept
            why = (f"no answer within {self.timeout * 1000:.0f} ms (the decision's "
                   f"{bank.decision_ms:.0f} ms and the {left:.0f} ms left in the bank)"
                   if fault.message.startswith("no answer within") else fault.message)
            raise BotFault("timeout", f"time bank exhausted: {why}; its seat plays safe moves "
                                      "for the rest of the game without calling it") from None
        bank.charge(self.bot_ms)

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


class _Connection(http.client.HTTPConnection):
    """Connects to the addresses the policy checked, never resolving the host again; the
    Host header still names the host."""

    def __init__(self, target: policy.Target, addresses: list, timeout: float):
        super().__init__(target.host, target.port, timeout=timeout)
        self.addresses = addresses
        self.opened = None

    def _open(self) -> socket.socket:
        error = OSError(f"no address for {self.host}")
        for address in self.addresses:
            try:
                sock = socket.create_connection((str(address), self.port), self.timeout)
            except OSError as e:
                error = e
                continue
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.opened = sock  # what the deadline shuts, under TLS too
            return sock
        raise error

    def connect(self):
        self.sock = self._open()


_tls = functools.cache(ssl.create_default_context)


class _TlsConnection(_Connection):
    """The same over TLS, the certificate checked against the host's name (SNI too)."""

    def connect(self):
        self.sock = _tls().wrap_socket(self._open(), server_hostname=self.host)


class HttpBot(OutsideBot):
    """A bot behind a URL: each decision is a POST of the request JSON.

    ``timeout_ms``, ``allowed`` and ``ports`` default to the settings, ``resolver`` (host,
    port → addresses) to the system's.  The host is resolved once and its addresses checked,
    here (ValueError if refused) or, for a host in the allow-list, at the first decision: an
    administrator's host is taken as given, resolvable yet or not.  Every decision then goes to
    those addresses.  With a ``secret``, every request is signed with it (``signing``).
    """

    def __init__(self, url: str, *, timeout_ms: float | None = None,
                 max_bytes: int = DEFAULT_MAX_BYTES, allowed: set[str] | None = None,
                 ports: list[int] | None = None, resolver: policy.Resolver = policy.resolve,
                 secret: str | None = None):
        super().__init__(timeout_ms=decision_ms() if timeout_ms is None else timeout_ms,
                         max_bytes=max_bytes)
        self.target = policy.target(
            url, allowed_hosts=allowed_hosts() if allowed is None else allowed,
            allowed_ports=allowed_ports() if ports is None else ports)
        self.resolver = resolver
        self.addresses = (None if self.target.trusted else
                          policy.addresses(self.target, resolver=resolver))
        self.url = url
        self.name = url
        self.secret = secret

    def exchange_json(self, request: dict) -> dict:
        body = json.dumps(request).encode()
        headers = {"Content-Type": "application/json"}
        if self.secret:
            headers[signing.HEADER] = signing.sign(self.secret, body)
        # The bot's clock starts here, our own preparation done.
        start = time.monotonic()
        deadline = start + self.timeout
        if self.addresses is None:
            try:
                self.addresses = policy.addresses(self.target, resolver=self.resolver)
            except policy.Refused as error:
                raise BotFault("error", f"not called: {error}") from None
        cls = _TlsConnection if self.target.scheme == "https" else _Connection
        conn = cls(self.target, self.addresses, max(deadline - time.monotonic(), 0.001))
        # Each socket operation has its own timeout; this bounds the whole exchange, however
        # slowly a bot drips its answer.
        self._cut_late_ms = None
        cut = threading.Timer(deadline - time.monotonic(), self._cut, (conn, deadline))
        cut.start()
        response = None
        try:
            conn.request("POST", self.target.path, body=body, headers=headers)
            response = conn.getresponse()
            if response.status != 200:
                moved = " (redirects are not followed)" if 300 <= response.status < 400 else ""
                raise BotFault("error", f"HTTP status {response.status}{moved}",
                               body=response.read(ERROR_BODY_READ))
            if response.length is not None and response.length > self.max_bytes:
                raise BotFault("oversized", f"the answer is over {self.max_bytes} bytes "
                                            f"(Content-Length {response.length})")
            answer = self._read(response)
        except (OSError, http.client.HTTPException) as error:
            if time.monotonic() >= deadline or isinstance(error, TimeoutError):
                raise BotFault("timeout", f"no answer within {self.timeout * 1000:.0f} ms") \
                    from None
            raise BotFault("error", f"{type(error).__name__}: {error}") from None
        finally:
            cut.cancel()
            if response is not None:
                response.close()  # it holds the socket once the connection handed it over
            conn.close()
            self._measured(start, deadline)
        if time.monotonic() > deadline:
            raise BotFault("timeout", f"no answer within {self.timeout * 1000:.0f} ms")
        return self._decode(answer)

    def _cut(self, conn: _Connection, due: float) -> None:
        """The deadline passed: end the exchange by shutting its socket (a blocked read
        returns), noting how late this timer woke up."""
        self._cut_late_ms = max(0.0, 1000 * (time.monotonic() - due))
        sock = conn.opened
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def _measured(self, start: float, deadline: float) -> None:
        """The bot's time, and our own lateness: how late the deadline's timer woke up, or,
        past the deadline with the timer not run yet, how late it is already (this process
        could not run it: a stalled worker)."""
        now = time.monotonic()
        self.bot_ms = 1000 * (now - start)
        late = self._cut_late_ms
        self.late_ms = max(0.0, 1000 * (now - deadline)) if late is None else late

    def _read(self, response) -> bytes:
        """At most ``max_bytes`` + 1 bytes: enough to know the answer is oversized."""
        chunks, size = [], 0
        while size <= self.max_bytes:
            chunk = response.read1(min(16384, self.max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)


ENDED = "the program ended"  # its answers ended: it exited, or closed its stdout


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
        except BrokenPipeError:  # it closed its end: ended, as when its answer is missing
            self.close()
            raise BotFault("error", ENDED) from None
        except OSError as error:
            self.close()
            raise BotFault("error", f"cannot talk to the program: {error}") from None
        start = time.monotonic()
        try:
            line = self._read_line(process)
        finally:
            self.bot_ms = 1000 * (time.monotonic() - start)
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
                    raise BotFault("error", ENDED)
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
