"""montecarlo's search time at a fixed number of playouts, and what it played.

    python bench/search.py [--preset presidents-deck] [--bot montecarlo:playouts=200] [--deals 6]

BotDecider 0 is the bot, three ``heuristic`` players the others, one deal per seed.  With fixed
playouts the bot's moves do not depend on the clock, so two versions of the code that print the
same ``moves`` digest played the same moves, and their seconds compare their speed: the time in
the walk (``worlds.py``) and in the whole deal.  ``playouts_per_decision`` is the mean over the
decisions montecarlo searched (``searched`` of them; at a time budget, how far the search got).
"""

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gameplay.bots import make_bot  # noqa: E402
from gameplay.bots.base import BotDecider  # noqa: E402
from gameplay.bots.heuristic import HeuristicBot  # noqa: E402
from gameplay.bots.montecarlo import MonteCarloBot  # noqa: E402
from gameplay.bots.observation import GameLog  # noqa: E402
from gameplay.bots.worlds import Worlds  # noqa: E402
from gameplay.engine import selfplay  # noqa: E402
from gameplay.engine.game import Game  # noqa: E402
from gameplay.engine.options import PRESETS, preset  # noqa: E402
from gameplay.engine.ruleset import Rules  # noqa: E402


def measure(name: str, spec: str, deals: int) -> dict:
    walking = [0.0]
    walk = Worlds.walk
    searched = []  # playouts of each decision montecarlo searched
    spent = MonteCarloBot.spent

    def counted_spent(self, done, deadline, extra=0.0):
        over = spent(self, done, deadline, extra)
        if over:
            searched.append(done)
        return over

    def timed_walk(self, steps):
        start = time.perf_counter()
        try:
            return walk(self, steps)
        finally:
            walking[0] += time.perf_counter() - start

    Worlds.walk = timed_walk
    MonteCarloBot.spent = counted_spent
    try:
        rules = Rules(preset(name), 4)
        digest = hashlib.sha256()
        start = time.perf_counter()
        for seed in range(deals):
            game = Game(rules, dealer=0, scoring=None)
            log = GameLog()
            bots = [make_bot(spec, seed=seed)] + [HeuristicBot() for _ in range(3)]
            seats = [BotDecider(b, s, log, game) for s, b in enumerate(bots)]
            record = selfplay.play_deal(game, seats, random.Random(seed))
            moves = [(s, getattr(m, "cards", str(m))) for s, m in record.moves]
            digest.update(repr(moves).encode())
        total = time.perf_counter() - start
    finally:
        Worlds.walk = walk
        MonteCarloBot.spent = spent
    return {"preset": name, "bot": spec, "deals": deals, "moves": digest.hexdigest()[:16],
            "walk_seconds": round(walking[0], 2), "seconds": round(total, 2),
            "searched": len(searched),
            "playouts_per_decision": round(sum(searched) / len(searched)) if searched else 0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", action="append", choices=sorted(PRESETS))
    parser.add_argument("--bot", default="montecarlo:playouts=200")
    parser.add_argument("--deals", type=int, default=6)
    args = parser.parse_args()
    for name in args.preset or ["presidents-deck"]:
        print(json.dumps(measure(name, args.bot, args.deals)), flush=True)


if __name__ == "__main__":
    main()
