"""A ladder game and the validation of a new bot, in plain Python: the ladder (``ladder.services``)
and the kit (``president validate``) call this same code (docs/ladder.md, docs/kit.md).

A validation game seats the bot, at a random seat, with built-in opponents (the site's
``LADDER_VALIDATION_OPPONENTS``) for a fixed number of deals (``LADDER_DEALS_PER_GAME``); the bot
passes if it made no fault at all. An HTTP bot with a secret first answers a challenge
(``challenge``): a URL that is someone else's server fails there, before any game.
"""

import hmac
import random
import secrets
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from gameplay.bots import make_bot, signing
from gameplay.bots.base import Bot, BotFault
from gameplay.engine.options import preset as preset_options
from gameplay.engine.scoring import Scoring
from gameplay.runner.figures import seed_of
from gameplay.runner.match import GameResult, play_game

OPPONENTS = ("random", "greedy", "heuristic")  # the site's default opponents
DEALS = 4  # the site's default deals a game


def seated(bot, opponents: list, rng: random.Random) -> list:
    """The validation table by seat: the bot and its opponents, shuffled."""
    table = [bot, *opponents]
    rng.shuffle(table)
    return table


def play_ladder_game(bots: list[Bot], preset: str, *, seed: int, deals: int,
                     names: list[str]) -> GameResult:
    """A ladder game (validation, rated or challenge): ``deals`` deals of the preset, the deals
    shuffled from the game's seed; deterministic in it for built-in bots."""
    return play_game(bots, preset_options(preset), seed=deals_seed(seed),
                     scoring=Scoring.from_dict({"system": "fixed-rounds", "deals": deals}),
                     names=names)


def deals_seed(seed: int) -> int:
    """The seed a ladder game of seed ``seed`` shuffles its deals from."""
    return seed_of("deals", seed)


def fault_summary(kinds: Counter) -> str:
    """``3 fault(s) (malformed 2, timeout 1)``: a seat's faults counted by kind."""
    counts = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
    return f"{kinds.total()} fault(s) ({counts})"


def challenge(bot) -> str | None:
    """Ask ``bot`` (an HttpBot with a ``secret``, which signs the request) to prove it holds
    the secret: the answer to ``{"decision": "challenge", "nonce": N}`` must be ``{"proof":
    hex HMAC-SHA256(secret, N)}`` (docs/protocol/challenge.schema.json). None when it did,
    else why not, in words for its author."""
    nonce = secrets.token_hex(32)
    request = {"protocol": "president-bot/1", "decision": "challenge",
               "deadline_ms": int(bot.timeout * 1000), "nonce": nonce}
    try:
        answer = bot.exchange_json(request)
    except BotFault as fault:
        return f"the ownership challenge was not answered ({fault.kind}: {fault.message})"
    proof = answer.get("proof") if isinstance(answer, dict) else None
    if not isinstance(proof, str) or not hmac.compare_digest(
            proof.encode(), signing.proof(bot.secret, nonce).encode()):
        return ('the answer to the ownership challenge is not {"proof": hex HMAC-SHA256('
                "secret, nonce)}: the server at this URL does not hold this bot's secret")
    return None


@dataclass
class Validation:
    """A validation's outcome for the bot under test: its challenge's refusal, or its game."""

    seat: int | None
    faults: list[dict]  # as the seat recorded them (gameplay.bots.base.BotDecider)
    result: GameResult | None
    refusal: str | None = None  # why it failed the challenge; then no game was played

    @property
    def passed(self) -> bool:
        return not self.faults and not self.refusal

    def summary(self) -> str:
        if self.refusal:
            return f"failed: {self.refusal}"
        if self.passed:
            return "passed: no fault"
        return f"failed: {fault_summary(Counter(f['kind'] for f in self.faults))}"


def validate(bot: Bot, preset: str, *, opponents=OPPONENTS, deals: int = DEALS,
             seed: int | None = None, make: Callable = make_bot) -> Validation:
    """``bot``'s validation on ``preset`` as the site does: its challenge if it has a secret,
    then its game."""
    if getattr(bot, "secret", None):
        refusal = challenge(bot)
        if refusal:
            return Validation(seat=None, faults=[], result=None, refusal=refusal)
    rng = random.Random(seed)
    game_seed = rng.getrandbits(63)
    table = seated(None, list(opponents), rng)
    names = [spec or "bot" for spec in table]
    bots = [bot if spec is None else make(spec, seed=seed_of("bot", game_seed, s))
            for s, spec in enumerate(table)]
    result = play_ladder_game(bots, preset, seed=game_seed, deals=deals, names=names)
    seat = table.index(None)
    return Validation(seat=seat, faults=result.stats[seat].faults, result=result)
