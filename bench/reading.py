"""How close montecarlo's sampled worlds come to the true hands, by the style of each seat
(issue #32, "inference that reads every style"; docs/bots.md "Reading every style").

    python bench/reading.py [--preset school-scum] [--deals 30] [--seed 0]
        [--seats 'greedy;random;heuristic'] [--reading fit|full|none]

Seat 0 plays like ``heuristic``; at each of its decisions from the fourth move of the deal on,
montecarlo's dealer (``MonteCarloBot.dealer``) deals four worlds from seat 0's view, and each
other seat's sampled hand is scored by the share of its true ranks it holds (the sum over ranks
of the smaller count, over the cards held).  Prints one JSON line: the share by style.
``--reading``: ``fit`` as montecarlo reads (each seat's readings weigh its fit), ``full`` every
reading at full weight and none dropped (the reading before the fit), ``none`` no reading
(worlds dealt at random).  No playouts: a few seconds a deal.
"""

import argparse
import json
import random
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gameplay.bots import cardset as C  # noqa: E402
from gameplay.bots import inference, make_bot  # noqa: E402
from gameplay.bots.base import BotDecider  # noqa: E402
from gameplay.bots.montecarlo import MonteCarloBot  # noqa: E402
from gameplay.bots.observation import GameLog, observe  # noqa: E402
from gameplay.engine import selfplay  # noqa: E402
from gameplay.engine.game import Game  # noqa: E402
from gameplay.engine.options import PRESETS, preset  # noqa: E402
from gameplay.engine.ruleset import Rules  # noqa: E402


def full_weight(found, held, unseen):
    """The reading before the fit: every constraint kept, at weight 1."""
    return found


class Scored:
    """Seat 0's decider: before each decision, scores the sampler's worlds against the deal."""

    def __init__(self, seat, log, game, sampler, styles, shares):
        self.seat, self.log, self.game = seat, log, game
        self.sampler, self.styles, self.shares = sampler, styles, shares

    def move(self, deal, legal):
        obs = observe(deal, self.game, self.log, 0)
        if len(obs.moves) >= 4:
            found = inference.constraints(obs) if self.sampler.config.infer else []
            faces = obs.rules.natural_faces
            deal_world = self.sampler.dealer(obs, found)
            for _ in range(4):
                hands, _blind = deal_world()
                for s in range(1, obs.players):
                    if obs.held[s]:
                        true = C.face_counts(deal.hands[s], faces)
                        guess = C.face_counts(hands[s], faces)
                        share = self.shares[self.styles[s]]
                        share[0] += sum(min(n, guess.get(f, 0)) for f, n in true.items())
                        share[1] += obs.held[s]
        return self.seat.move(deal, legal)

    def __getattr__(self, name):
        return getattr(self.seat, name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="school-scum", choices=sorted(PRESETS))
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--seats", default="greedy;random;heuristic",
                        help="the bots of seats 1-3, separated by ';'")
    parser.add_argument("--reading", default="fit", choices=("fit", "full", "none"))
    args = parser.parse_args()
    if args.reading == "full":
        inference.weigh = full_weight
    styles = ["heuristic"] + [s.strip() for s in args.seats.split(";")]
    shares = defaultdict(lambda: [0, 0])
    rules = Rules(preset(args.preset), len(styles))
    for i in range(args.deals):
        seed = args.seed + i
        game = Game(rules, dealer=0, scoring=None)
        log = GameLog()
        bots = [make_bot(spec, seed=seed) for spec in styles]
        seats = [BotDecider(b, s, log, game) for s, b in enumerate(bots)]
        sampler = MonteCarloBot(seed=seed, playouts=1, infer=0 if args.reading == "none" else 6)
        seats[0] = Scored(seats[0], log, game, sampler, styles, shares)
        selfplay.play_deal(game, seats, random.Random(seed))
    print(json.dumps({"preset": args.preset, "deals": args.deals, "reading": args.reading,
                      "share_of_true_ranks": {k: round(a / b, 4)
                                              for k, (a, b) in sorted(shares.items())}}))


if __name__ == "__main__":
    main()
