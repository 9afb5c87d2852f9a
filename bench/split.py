"""Where a montecarlo decision's time goes: playouts, the walk, dealing worlds, the rest.

    python bench/split.py [--preset presidents-deck ...] [--ms 50] [--deals 4]

BotDecider 0 is montecarlo at ``--ms`` per decision, three ``heuristic`` players the others, one
deal per seed (as ``bench/search.py``).  Each share is of the time in ``MonteCarloBot.play``:
the kernel's playouts, the history walk (``Worlds.follow`` and ``walk``), dealing worlds (the
decision's dealer, constraints counted included) and the rest (candidates, reading the
constraints, the history, states).  It imports the code of the directory it is run from, so
from an older checkout's root (``python /path/to/bench/split.py``) it times that code (before
``MonteCarloBot.dealer`` the dealer was ``sample_consistent``).
"""

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))

from gameplay.bots import kernel, make_bot  # noqa: E402
from gameplay.bots import montecarlo as M  # noqa: E402
from gameplay.bots.base import BotDecider  # noqa: E402
from gameplay.bots.heuristic import HeuristicBot  # noqa: E402
from gameplay.bots.observation import GameLog  # noqa: E402
from gameplay.bots.worlds import Worlds  # noqa: E402
from gameplay.engine import selfplay  # noqa: E402
from gameplay.engine.game import Game  # noqa: E402
from gameplay.engine.options import PRESETS, preset  # noqa: E402
from gameplay.engine.ruleset import Rules  # noqa: E402

spent: Counter = Counter()  # seconds by part, counted within play only


def timed(function, label):
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            if spent["playing"]:
                spent[label] += time.perf_counter() - start
    return wrapper


def instrument() -> None:
    bot = M.MonteCarloBot
    play = bot.play

    def timed_play(self, obs, legal):
        spent["playing"] = 1  # not the leader's choice (presidents-deck), which plays out too
        start = time.perf_counter()
        try:
            return play(self, obs, legal)
        finally:
            spent["play"] += time.perf_counter() - start
            spent["playing"] = 0

    bot.play = timed_play
    Worlds.walk = timed(Worlds.walk, "walk")
    Worlds.follow = timed(Worlds.follow, "walk")
    kernel.playout = timed(kernel.playout, "playouts")
    if hasattr(bot, "dealer"):
        dealer = bot.dealer
        bot.dealer = lambda self, obs, found: timed(dealer(self, obs, found), "dealing")
    else:
        bot.sample_consistent = timed(bot.sample_consistent, "dealing")


def measure(name: str, ms: float, deals: int) -> dict:
    spent.clear()
    rules = Rules(preset(name), 4)
    searched = playouts = 0
    for seed in range(deals):
        game = Game(rules, dealer=0, scoring=None)
        log = GameLog()
        bot = make_bot(f"montecarlo:budget_ms={ms}", seed=seed)
        seats = [BotDecider(b, s, log, game)
                 for s, b in enumerate([bot] + [HeuristicBot() for _ in range(3)])]
        selfplay.play_deal(game, seats, random.Random(seed))
        searched += bot.searches
        playouts += bot.playouts_run
    play = spent["play"]
    shares = {k: round(spent[k] / play, 2) for k in ("playouts", "walk", "dealing")}
    shares["rest"] = round(1 - sum(shares.values()), 2)
    return {"preset": name, "ms": ms, "deals": deals, "searched": searched,
            "playouts_per_decision": round(playouts / searched) if searched else 0, **shares}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", action="append", choices=sorted(PRESETS))
    parser.add_argument("--ms", type=float, default=50)
    parser.add_argument("--deals", type=int, default=4)
    args = parser.parse_args()
    instrument()
    for name in args.preset or ["presidents-deck", "school-scum", "classic"]:
        print(json.dumps(measure(name, args.ms, args.deals)), flush=True)


if __name__ == "__main__":
    main()
