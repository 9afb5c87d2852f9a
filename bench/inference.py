"""How well montecarlo's worlds guess the hidden hands: four heuristic players play deals and, at
every decision of seat 0 with a choice, worlds are drawn and compared with the true hands.

    python bench/inference.py [--deals 100] [--worlds 10] [--preset classic ...]

Prints one JSON object per (preset, way of drawing): the share of the other seats' cards a world
puts at the right seat (and what uniform dealing would get), the share of worlds that break no
constraint, and microseconds per world (one core).  Ways: ``none`` (no inference), ``dealt``
(each world dealt afresh around the constraints, ``walk=0``) and ``walked`` (the default).
"""

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gameplay.bots import inference  # noqa: E402
from gameplay.bots.base import Seat  # noqa: E402
from gameplay.bots.heuristic import HeuristicBot  # noqa: E402
from gameplay.bots.observation import Table, observe  # noqa: E402
from gameplay.bots.worlds import Worlds  # noqa: E402
from gameplay.engine import selfplay  # noqa: E402
from gameplay.engine.game import Game  # noqa: E402
from gameplay.engine.options import PRESETS, preset  # noqa: E402
from gameplay.engine.ruleset import Rules  # noqa: E402

WAYS = {"none": {"infer": 0, "walk": 0}, "dealt": {"infer": 6, "walk": 0},
        "walked": {"infer": 6, "walk": 6}}


def overlap(a: int, b: int) -> int:
    """Cards two hands have in common (copies counted, for packs of several decks)."""
    n = 0
    while a and b:
        n += min(a & 0xFF, b & 0xFF)
        a >>= 8
        b >>= 8
    return n


class Watcher:
    """Seat 0's decider: before each decision with a choice, draws worlds every way."""

    def __init__(self, seat: Seat, table: Table, game: Game, worlds: int, tally: dict):
        self.seat, self.table, self.game = seat, table, game
        self.worlds, self.tally = worlds, tally
        self.rng = random.Random(1)

    def move(self, deal, legal):
        if len(legal) > 1:
            self.measure(deal, observe(deal, self.game, self.table, self.seat.seat))
        return self.seat.move(deal, legal)

    def measure(self, deal, obs):
        others = [s for s in range(obs.players) if s != obs.seat and obs.held[s]]
        hidden = sum(obs.held[s] for s in others)
        found = inference.constraints(obs)
        for name, way in WAYS.items():
            t = self.tally[name]
            start = time.perf_counter()
            drawn = Worlds(obs, found if way["infer"] else [], self.rng, tries=way["infer"],
                           steps=way["walk"])
            worlds = [drawn.next() for _ in range(self.worlds)]
            t["seconds"] += time.perf_counter() - start
            for hands, _ in worlds:
                t["worlds"] += 1
                t["clean"] += inference.violations(found, hands) == 0
                for s in others:
                    t["right"] += overlap(hands[s], deal.hands[s])
                    t["cards"] += obs.held[s]
                    t["uniform"] += obs.held[s] * obs.held[s] / hidden

    def __getattr__(self, name):
        return getattr(self.seat, name)


def measure(name: str, deals: int, worlds: int) -> list[dict]:
    rules = Rules(preset(name), 4)
    tally = {way: dict.fromkeys(("worlds", "clean", "right", "cards", "uniform", "seconds"), 0)
             for way in WAYS}
    for seed in range(deals):
        game = Game(rules, dealer=0, scoring=None)
        table = Table()
        seats = [Seat(HeuristicBot(), s, table, game) for s in range(4)]
        deciders = [Watcher(seats[0], table, game, worlds, tally)] + seats[1:]
        selfplay.play_deal(game, deciders, random.Random(seed))
    out = []
    for way, t in tally.items():
        out.append({"preset": name, "way": way, "worlds": t["worlds"],
                    "placed_right": round(t["right"] / t["cards"], 3),
                    "uniform": round(t["uniform"] / t["cards"], 3),
                    "clean": round(t["clean"] / t["worlds"], 3),
                    "us_per_world": round(t["seconds"] / t["worlds"] * 1e6, 1)})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--worlds", type=int, default=10)
    parser.add_argument("--preset", action="append", choices=sorted(PRESETS))
    args = parser.parse_args()
    for name in args.preset or list(PRESETS):
        for row in measure(name, args.deals, args.worlds):
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
