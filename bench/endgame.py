"""How often montecarlo's exact endgame (the kernel's ``solve``) settles a position, and in how
many nodes, by the cards the two players hold together.

Two-player deals played by the heuristic policy; at every position the kernel searches the rest
of the deal with ``--limit`` nodes.  Nodes, not seconds: the figures do not depend on the
machine's load.  One JSON line per preset: for each card total, the positions searched, the
share settled (won or lost) and the mean and largest nodes of the settled ones, in steps of four
cards.

    python bench/endgame.py --deals 40 --seed 1 --limit 20000
"""

import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from gameplay.bots import kernel  # noqa: E402
from gameplay.engine.deal import Deal  # noqa: E402
from gameplay.engine.game import deal_cards  # noqa: E402
from gameplay.engine.options import PRESETS, preset  # noqa: E402
from gameplay.engine.ruleset import Rules  # noqa: E402


def measure(name: str, deals: int, seed: int, limit: int) -> dict:
    rules = Rules(preset(name), 2)
    rng = random.Random(seed)
    by_total: dict[int, list] = {}  # by (cards held - 1) // 4
    for _ in range(deals):
        hands, _ = deal_cards(rules, 0, rng)
        state = kernel.state(Deal(rules, hands, leader=rng.randrange(2)))
        while not (view := kernel.view(rules, state))["over"]:
            total = sum(_held(h) for h in view["hands"])
            result, _, nodes = kernel.solve(rules, state, limit)
            by_total.setdefault((total - 1) // 4, []).append((result, nodes))
            state = kernel.apply(rules, state, kernel.choose(rules, state))
    rows = {}
    for bucket in sorted(by_total):
        found = by_total[bucket]
        settled = [n for r, n in found if r != kernel.UNKNOWN]
        rows[f"{4 * bucket + 1}-{4 * bucket + 4}"] = {
            "positions": len(found), "settled": round(len(settled) / len(found), 3),
            "mean_nodes": round(sum(settled) / len(settled)) if settled else None,
            "max_nodes": max(settled) if settled else None}
    return {"preset": name, "deals": deals, "seed": seed, "limit": limit, "by_cards": rows}


def _held(hand: int) -> int:
    """Cards in a hand mask (a byte per card code, its count)."""
    return sum(hand.to_bytes(kernel.HAND_BYTES, "little"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=int, default=20000)
    parser.add_argument("--preset", action="append", choices=sorted(PRESETS))
    args = parser.parse_args()
    for name in args.preset or list(PRESETS):
        print(json.dumps(measure(name, args.deals, args.seed, args.limit)), flush=True)


if __name__ == "__main__":
    main()
