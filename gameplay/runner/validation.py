"""A ladder game and the validation of a new bot, in plain Python: the ladder (``ladder.services``)
and the kit (``president validate``) call this same code (docs/ladder.md, docs/kit.md).

A validation game seats the bot, at a random seat, with built-in opponents (the site's
``LADDER_VALIDATION_OPPONENTS``) for a fixed number of deals (``LADDER_DEALS_PER_GAME``); the bot
passes if it made no fault at all.
"""

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from gameplay.bots import make_bot
from gameplay.bots.base import Bot
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
    return play_game(bots, preset_options(preset), seed=seed_of("deals", seed),
                     scoring=Scoring.from_dict({"system": "fixed-rounds", "deals": deals}),
                     names=names)


def fault_summary(kinds: Counter) -> str:
    """``3 fault(s) (malformed 2, timeout 1)``: a seat's faults counted by kind."""
    counts = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
    return f"{kinds.total()} fault(s) ({counts})"


@dataclass
class Validation:
    """A validation game's outcome for the bot under test."""

    seat: int
    faults: list[dict]  # as the seat recorded them (gameplay.bots.base.BotDecider)
    result: GameResult

    @property
    def passed(self) -> bool:
        return not self.faults

    def summary(self) -> str:
        if self.passed:
            return "passed: no fault"
        return f"failed: {fault_summary(Counter(f['kind'] for f in self.faults))}"


def validate(bot: Bot, preset: str, *, opponents=OPPONENTS, deals: int = DEALS,
             seed: int | None = None, make: Callable = make_bot) -> Validation:
    """Play ``bot``'s validation game on ``preset`` as the site does."""
    rng = random.Random(seed)
    game_seed = rng.getrandbits(63)
    table = seated(None, list(opponents), rng)
    names = [spec or "bot" for spec in table]
    bots = [bot if spec is None else make(spec, seed=seed_of("bot", game_seed, s))
            for s, spec in enumerate(table)]
    result = play_ladder_game(bots, preset, seed=game_seed, deals=deals, names=names)
    seat = table.index(None)
    return Validation(seat=seat, faults=result.stats[seat].faults, result=result)
