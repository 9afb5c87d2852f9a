"""The bot interface and the seat that plugs a bot into the engine's game driver.

A ``Bot`` answers every decision the rules give a player, each from an ``Observation``:

- ``play(obs, legal)``: a move from ``legal`` (plays, with wild-card declarations already
  made, plus PASS and BLIND where allowed);
- ``name_cards(obs, count)``: seed 000's exchange, the President names the cards it wants
  from the Scum without seeing the Scum's hand: a wish list, best first (the engine's driver
  does not pass the namer's own hand, so ``obs.hand`` is empty here);
- ``give_back(obs, count, allowed)``: the cards to give back (never one just received);
- ``ask(obs, index)``: seed 004's exchange, ``"high"`` or ``"low"`` for each card;
- ``lead_and_direction(obs, names_leader)``: seed 004, the leader (or None when fixed) and
  the direction.

``BotDecider`` is the engine's ``selfplay.Decider`` for one bot: it builds the observation,
times the answer and checks it.  An outside bot's fault (an exception, a timeout, an illegal or
malformed answer) is recorded and a safe legal choice played instead, so an outside bot never
breaks a game; a built-in bot's failure is a bug and stops the game (``BotError`` or its
exception). A ``BotFault`` is recorded whoever raises it.
"""

import re
import time
from dataclasses import dataclass, field

from gameplay.bots import cardset as C
from gameplay.bots.observation import GameLog, Observation, observe, pre_deal
from gameplay.engine.deal import CCW, CW
from gameplay.engine.plays import BLIND, BOMB, LONE_DOPPELGANGER, MIX, PASS
from gameplay.engine.rules import exchange

FAULT_KINDS = ("timeout", "error", "malformed", "oversized", "illegal")
FAULT_TEXT_MAX = 500  # characters of a fault's message kept
FAULT_ANSWER_MAX = 200  # characters of the answer kept with a fault
FAULT_BODY_MAX = 2_000  # characters of an error answer's body (a 500's traceback) kept
# An answer's "log" and its string, to the closing quote or the end of what was kept
LOG_IN_ANSWER = re.compile(r'("log"\s*:\s*)"(?:[^"\\]|\\.)*"?')


class BotFault(Exception):
    """An outside bot's answer could not be used (timeout, error, malformed, illegal)."""

    def __init__(self, kind: str, message: str, body: bytes | None = None):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.body = body  # an error answer's body, for its author (FAULT_BODY_MAX kept)


class ServiceLate(Exception):
    """The service itself was late for an outside bot's decision (its worker stalled): the
    seat plays a safe choice and nothing is counted against the bot (``timebank``)."""


class BotError(Exception):
    """A built-in bot answered what the rules do not allow: a bug in the bot."""


def fault_text(text, limit: int, *, lines: bool = False) -> str:
    """A bot's text cut to ``limit`` characters, its NULs and other control characters
    escaped (PostgreSQL stores no NUL in text); with ``lines``, line breaks and tabs kept."""
    if isinstance(text, bytes):
        text = text[:limit * 4].decode("utf-8", "replace")
    kept = "\n\t" if lines else ""
    text = "".join(c if c.isprintable() or c in kept else repr(c)[1:-1]
                   for c in str(text)[:limit])
    return text[:limit]


def fault_answer(answer) -> str:
    """The start of a faulty answer as its fault keeps it, shown to everyone: its "log" is
    its author's alone (docs/bots.md "Who sees them"), so the log's text is left out, whether
    the answer parses or not."""
    if isinstance(answer, bytes):
        answer = answer[:FAULT_ANSWER_MAX * 4].decode("utf-8", "replace")
    return fault_text(LOG_IN_ANSWER.sub(r'\1"…"', str(answer)), FAULT_ANSWER_MAX)


class Bot:
    """A player.  Subclasses override ``play`` and whichever other decisions they care about;
    the defaults here are sensible for any preset."""

    name = "bot"
    outside = False  # True for bots whose code the service does not run (their faults are counted)
    # An outside bot's raw answer to its latest decision, kept with a fault it causes.
    last_answer: bytes | None = None
    # An outside bot's "log" with its latest answer, already cut to its bounds (outside.py).
    last_log: str | None = None
    # True once an outside bot's time bank ran out: its seat plays safe moves, not calling it.
    benched = False

    def play(self, obs: Observation, legal: list):
        raise NotImplementedError

    def name_cards(self, obs: Observation, count: int) -> list[int]:
        """Wish list for a named exchange: the strongest cards of the pack first."""
        return sorted(C.mask_cards(obs.rules.deck.mask), key=lambda c: -card_value(obs, c))

    def give_back(self, obs: Observation, count: int, allowed: list[int]) -> list[int]:
        return sorted(allowed, key=lambda c: card_value(obs, c))[:count]

    def ask(self, obs: Observation, index: int) -> str:
        return exchange.HIGH

    def lead_and_direction(self, obs: Observation, names_leader: bool) -> tuple[int | None, int]:
        return (obs.seat if names_leader else None), CW

    def close(self) -> None:
        """Release what the bot holds (an outside bot's process or connection)."""

    def figures(self) -> dict[str, int]:
        """Counts of the bot's own work so far (montecarlo: the decisions it searched and their
        playouts), which the match runner keeps with each game; none by default."""
        return {}


# --- card and play values, shared by the built-in bots -----------------------------------
def card_value(obs_or_rules, card: int, reversed_: bool | None = None) -> int:
    """How strong a card is for taking tricks: its face's strength, wild cards and bombs on top."""
    rules = getattr(obs_or_rules, "rules", obs_or_rules)
    rev = getattr(obs_or_rules, "reversed", False) if reversed_ is None else reversed_
    top = len(rules.order)
    if rules.wild_card is not None and card == rules.wild_card:
        return top + 1
    face = C.face_of(card)
    if rules.options.bombs and face == C.BOMB_FACE:
        return top + 2
    return rules.strengths(rev)[face]


def play_rank(rules, strengths: list[int], play) -> int:
    """A play's strength for ordering "low" to "high" (bombs last, mixed plays by their cards)."""
    if play.kind == BOMB:
        return 100 + play.count
    if play.kind == MIX:
        return max(strengths[C.face_of(c)] for c in play.cards)
    if play.kind == LONE_DOPPELGANGER:
        return -1
    return strengths[play.face]


def lowest_play(rules, strengths: list[int], legal: list):
    """The lowest legal play (fewest wild cards, then fewest cards), or None if only PASS/BLIND."""
    plays = [m for m in legal if m is not PASS and m is not BLIND]
    if not plays:
        return None
    return min(plays, key=lambda p: (play_rank(rules, strengths, p), p.wilds, p.count))


def safe_move(deal, legal: list):
    """The fallback: pass, or the lowest legal play when passing is not allowed."""
    if PASS in legal:
        return PASS
    play = lowest_play(deal.rules, deal.strengths(), legal)
    return play if play is not None else legal[0]


# --- the seat: a bot as the engine's Decider ------------------------------------------------
@dataclass
class SeatStats:
    decisions: int = 0
    seconds: float = 0.0
    faults: list[dict] = field(default_factory=list)
    benched: int = 0  # decisions played for it with safe moves after its time bank ran out
    late: int = 0  # decisions the service was late for: safe moves, not counted against it
    figures: dict[str, int] = field(default_factory=dict)  # the bot's own, at the game's end
    # Each decision as it went, in order: {"deal", "move" (its index in the deal's moves, None
    # before play), "ms", "safe" (a safe move played for it), "log" (its bot's, when given)}.
    timeline: list[dict] = field(default_factory=list)

    @property
    def mean_ms(self) -> float:
        return 1000 * self.seconds / self.decisions if self.decisions else 0.0


class BotDecider:
    """One bot at one seat of one game, speaking the engine's ``Decider`` protocol."""

    def __init__(self, bot: Bot, seat: int, log: GameLog, game=None):
        self.bot = bot
        self.seat = seat
        self.log = log
        self.game = game
        self.stats = SeatStats()
        self._deal_number = -1
        self._gave: dict[int, list[int]] = {}
        self._received: list[int] = []

    # the exchange decisions come before the deal's Deal exists; remember them per deal
    def _exchange_deal(self, game) -> int:
        number = len(game.records)
        if number != self._deal_number:
            self._deal_number = number
            self._gave, self._received = {}, []
        return number

    def _ask_bot(self, decision: str, call, check, fallback):
        if getattr(self.bot, "benched", False):
            self.stats.benched += 1
            self._decided(decision, 0.0, safe=True)
            return fallback()
        start, body = time.perf_counter(), None
        try:
            answer = call()
            problem = check(answer)
            kind = "illegal"
        except BotFault as fault:  # raised for an outside bot (or a seat standing in for one)
            problem, kind, body = fault.message, fault.kind, fault.body
        except ServiceLate:
            self.stats.late += 1
            self._decided(decision, time.perf_counter() - start, safe=True, asked=True)
            return fallback()
        except Exception as error:  # noqa: BLE001 - an outside bot's error must not break the game
            if not self.bot.outside:
                raise
            problem, kind = f"{type(error).__name__}: {error}", "error"
        self._decided(decision, time.perf_counter() - start, safe=problem is not None,
                      asked=True)
        if problem is None:
            return answer
        if kind == "illegal" and not self.bot.outside:
            raise BotError(f"{self.bot.name} answered {decision} wrongly: {problem}")
        raw = getattr(self.bot, "last_answer", None)
        if raw is None and kind == "illegal":
            raw = repr(answer)
        self.stats.faults.append({
            "decision": decision, "kind": kind, "deal": self._deal_number,
            "number": self.stats.decisions,  # the seat's decisions in the game, from 1
            "message": fault_text(problem, FAULT_TEXT_MAX),
            "answer": None if raw is None else fault_answer(raw),
            "body": None if body is None else fault_text(body, FAULT_BODY_MAX, lines=True)})
        return fallback()

    def _decided(self, decision: str, seconds: float, *, safe: bool, asked: bool = False) -> None:
        """Count one decision and note it in the seat's timeline: where in the game it was
        (a move's index in its deal, None before play), its time, and the log its bot sent
        when it was ``asked``."""
        play = decision == "play"
        self.stats.seconds += seconds
        self.stats.decisions += 1
        point = {"deal": self.log.deal_number if play else self._deal_number,
                 "move": len(self.log.moves) if play else None,
                 "ms": round(1000 * seconds, 1), "safe": safe}
        log = getattr(self.bot, "last_log", None) if asked else None
        if log:
            point["log"] = log
        self.stats.timeline.append(point)

    # --- Decider protocol -------------------------------------------------------------------
    def move(self, deal, legal):
        if self.game is not None:
            self._exchange_deal(self.game)
        obs = observe(deal, self.game, self.log, self.seat, gave=self._gave,
                      received=self._received)

        def check(answer):
            if answer is PASS or answer is BLIND:
                return None if answer in legal else f"{answer!r} is not allowed now"
            if any(answer is m for m in legal) or answer in legal:
                return None
            return f"{answer!r} is not a legal move"

        move = self._ask_bot("play", lambda: self.bot.play(obs, legal), check,
                             lambda: safe_move(deal, legal))
        if move is not PASS and move is not BLIND:
            move = next((m for m in legal if m == move), move)
        self.log.record(self.seat, move)
        return move

    def name_cards(self, game, step, giver_hand, hand):
        self._exchange_deal(game)
        obs = pre_deal(game, self.seat, hand, deal_number=len(game.records))
        due = min(step.count, C.mask_count(giver_hand))

        def check(answer):
            if not isinstance(answer, list | tuple) or not all(isinstance(c, int) for c in answer):
                return "a wish list is a list of cards"
            return None

        wishes = self._ask_bot("name_cards", lambda: list(self.bot.name_cards(obs, step.count)),
                               check, lambda: [])
        # the Scum hands over the wished cards it holds, best wish first; when the wishes run
        # out, its highest cards (RULES.md: the President names any cards in the Scum's hand)
        left, cards = giver_hand, []
        for card in wishes:
            if len(cards) == due:
                break
            if 0 <= card < 128 and C.copies(left, card):
                cards.append(card)
                left -= C.unit(card)
        if len(cards) < due:
            cards += exchange.highest(game.rules, left, due - len(cards))
        self._received = list(cards)
        return cards

    def give_back(self, game, step, hand, received):
        self._exchange_deal(game)
        self._received = list(received)
        obs = pre_deal(game, self.seat, hand, deal_number=len(game.records))
        obs.received = list(received)
        allowed = C.mask_cards(hand - C.cards_mask(received))
        due = min(step.count, C.mask_count(hand))

        def check(answer):
            cards = list(answer) if isinstance(answer, list | tuple) else None
            if cards is None or not all(isinstance(c, int) for c in cards):
                return "give back a list of cards"
            fault = exchange.fault(game.rules, step, hand, cards, None, received)
            return fault

        cards = self._ask_bot(
            "give_back", lambda: list(self.bot.give_back(obs, step.count, list(allowed))), check,
            lambda: sorted(allowed, key=lambda c: card_value(game.rules, c, False))[:due])
        self._gave[step.receiver] = list(cards)
        return list(cards)

    def ask(self, game, step, index, hand):
        self._exchange_deal(game)
        obs = pre_deal(game, self.seat, hand, deal_number=len(game.records))
        return self._ask_bot("ask", lambda: self.bot.ask(obs, index),
                             lambda a: None if a in (exchange.HIGH, exchange.LOW)
                             else f"ask {a!r} is not high or low", lambda: exchange.HIGH)

    def lead_and_direction(self, game, hands, names_leader):
        self._exchange_deal(game)
        obs = pre_deal(game, self.seat, hands[self.seat], deal_number=len(game.records))
        obs.held = [C.mask_count(h) for h in hands]
        seats = [s for s in range(game.rules.players) if hands[s]]

        def check(answer):
            if not isinstance(answer, tuple | list) or len(answer) != 2:
                return "answer (leader, direction)"
            leader, direction = answer
            if direction not in (CW, CCW):
                return f"direction {direction!r} is not cw or ccw"
            if names_leader and leader not in seats:
                return f"leader {leader!r} is not a seat holding cards"
            return None

        leader, direction = self._ask_bot(
            "lead_and_direction", lambda: self.bot.lead_and_direction(obs, names_leader), check,
            lambda: (self.seat if self.seat in seats else seats[0], CW))
        return (leader if names_leader else None), direction
