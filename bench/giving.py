"""montecarlo's exchange search, paired: the deal after an exchange in which the bot gave.

    python bench/giving.py [--preset presidents-deck ...] [--games 400] [--playouts 100]
        [--seed 3] [--bot 'montecarlo:kernel=1']

Each game is two deals, the bot at seat 0 against three heuristic players, once with the spec
as given and once with ``exchange=1`` added, on the same seeds.  The first deal (no exchange) is
the same in both, so the second starts from the same cards and roles; where the bot gives back
in its exchange (it was President or Vice President) the two runs differ only by what it gave
(and, after that, by its own random numbers).  Prints per preset the mean finish (1 first out …
0 last) in those second deals without and with the search, the paired difference with its 95%
interval, and how often its exchange differed (other asks or cards given back).  Fixed
playouts: the same figures on every run and machine.
"""

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gameplay.bots import make_bot  # noqa: E402
from gameplay.engine.options import preset  # noqa: E402
from gameplay.engine.scoring import Scoring  # noqa: E402
from gameplay.runner.match import play_game  # noqa: E402


def second_deal(spec: str, name: str, seed: int):
    """(the bot's finish in deal 2 from 1 down to 0, its exchanges there, or None where it
    was neither President nor Vice President in deal 1)."""
    bots = [make_bot(spec, seed=seed)] + [make_bot("heuristic", seed=seed + s) for s in (1, 2, 3)]
    result = play_game(bots, preset(name), seed=seed, scoring=Scoring("penalty", deals=2))
    record = result.transcript["deals"][1]
    gave = [e for e in record["exchanges"] if 0 in (e["from"], e["to"])]
    order = result.finishing_orders[1]
    if 0 not in result.finishing_orders[0][:2]:
        gave = None
    return 1 - order.index(0) / (len(order) - 1), gave


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", action="append")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--playouts", type=int, default=100)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--bot", default="montecarlo:kernel=1")
    args = parser.parse_args(argv)
    base = f"{args.bot},playouts={args.playouts}"
    for name in args.preset or ["presidents-deck"]:
        diffs, plain, searched, changed = [], [], [], 0
        for g in range(args.games):
            seed = args.seed * 1_000_003 + g
            a, gave_a = second_deal(base, name, seed)
            if gave_a is None:
                continue
            b, gave_b = second_deal(base + ",exchange=1", name, seed)
            plain.append(a)
            searched.append(b)
            diffs.append(b - a)
            changed += gave_a != gave_b
        n = len(diffs)
        mean = sum(diffs) / n if n else 0.0
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
        half = 1.96 * sd / math.sqrt(n) if n else 0.0
        print(json.dumps({
            "preset": name, "bot": base, "games": args.games, "deals_after_giving": n,
            "exchanges_differing": changed,
            "finish_rule": round(sum(plain) / n, 4) if n else None,
            "finish_search": round(sum(searched) / n, 4) if n else None,
            "difference": round(mean, 4), "difference_ci": [round(mean - half, 4),
                                                            round(mean + half, 4)]}))


if __name__ == "__main__":
    main()
