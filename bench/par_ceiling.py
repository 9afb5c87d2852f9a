"""How far any par could narrow a lineup's spread (issue #31, docs/par.md "Why the reduction
stays low"): each game's first deal played again with the same cards and seats and new seeds
for every bot, to measure what the play of a deal leaves once its cards are fixed.

    python bench/par_ceiling.py [--preset classic --preset presidents-deck]
                                [--lineup 'montecarlo:playouts=40;heuristic;heuristic;heuristic']
                                [--games 40] [--replays 4] [--seed 1]

The first bot sits at each seat in turn (seat rotation); a result is its points less the
table's mean, fixed-rounds scoring. Prints one JSON line per preset: ``deals``, ``replays``,
``variance`` (of all the results), ``within`` (the mean variance among a deal's replays: what
the play leaves), ``ceiling_sd_reduction`` (1 − √(within / variance): what a control variate
that knew this lineup's expected result from each deal would reach) and ``par_sd_reduction``
(par's own on the same results).
"""

import json
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.par import cases  # noqa: E402
from gameplay.bots import make_bot  # noqa: E402
from gameplay.bots.base import BotDecider  # noqa: E402
from gameplay.bots.observation import GameLog  # noqa: E402
from gameplay.engine.game import deal_cards  # noqa: E402
from gameplay.engine.options import preset  # noqa: E402
from gameplay.engine.ruleset import Rules  # noqa: E402
from gameplay.engine.scoring import Scoring, deal_points  # noqa: E402
from gameplay.engine.selfplay import begin_deal  # noqa: E402
from gameplay.runner.figures import seed_of  # noqa: E402
from gameplay.runner.par import before_deal, par  # noqa: E402

SCORING = Scoring("fixed-rounds", deals=4)
LINEUPS = ("montecarlo:playouts=40;heuristic;heuristic;heuristic",)


def replayed(lineup, name, number, replays, seed):
    """The first bot's results of one first deal played ``replays`` times, and its luck."""
    n = len(lineup)
    rules = Rules(preset(name), n)
    hands, blind = deal_cards(rules, 0, random.Random(seed_of("ceiling", seed, number)))
    seat_of = {p: (p + number) % n for p in range(n)}
    results = []
    for replay in range(replays):
        game = before_deal(rules, 0)
        bots = [None] * n
        for p, spec in enumerate(lineup):
            bots[seat_of[p]] = make_bot(spec, seed=seed_of("ceiling", seed, number, replay, p))
        log = GameLog()
        deciders = [BotDecider(bot, s, log, game) for s, bot in enumerate(bots)]
        _, deal = begin_deal(game, list(hands), blind, deciders)
        while not deal.over:
            deal.apply(deciders[deal.turn].move(deal, deal.legal_moves()))
        points = deal_points(SCORING, list(deal.finishing_order))
        results.append(points[seat_of[0]] - sum(points.values()) / n)
    luck = par(before_deal(rules, 0), hands, blind, scoring=SCORING).luck[seat_of[0]]
    return results, luck


def split(deals) -> tuple[float, float]:
    """(the variance of all the results, the mean variance among a deal's replays) of
    ``deals``, each a list of one deal's replayed results."""
    return (statistics.pvariance([r for rs in deals for r in rs]),
            statistics.fmean(statistics.variance(rs) for rs in deals))


def main(argv=None):
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", action="append")
    parser.add_argument("--lineup", action="append", help="bot specs separated by ';'")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--replays", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for name, lineup in cases(args, LINEUPS):
        deals, raw, adjusted = [], [], []
        for number in range(args.games):
            results, luck = replayed(lineup, name, number, args.replays, args.seed)
            deals.append(results)
            raw += results
            adjusted += [r - luck for r in results]
        variance, within = split(deals)
        print(json.dumps({
            "preset": name, "lineup": lineup, "deals": args.games, "replays": args.replays,
            "variance": round(variance, 4), "within": round(within, 4),
            "ceiling_sd_reduction": round(1 - (within / variance) ** 0.5, 3),
            "par_sd_reduction": round(1 - statistics.pstdev(adjusted) / statistics.pstdev(raw),
                                      3)}), flush=True)


if __name__ == "__main__":
    main()
