"""Role par tables (issue #31, docs/par.md): the reference's expected points by starting role
and seat from the dealer, for every preset and table size 3–7, written to
``gameplay/runner/role_par.json``.

    python bench/role_par.py [--deals 4000] [--preset classic ...] [--players 3 4 5 6 7]
                             [--seed 1] [--out gameplay/runner/role_par.json]

Each sampled deal is a shuffle dealt by seat 0 with roles from a random finishing order (a
quarter of them: a game's first deal, no roles); the reference makes the exchange and plays it
out once from every seat (``par.finishes`` with one play-out), and each seat's points go to its
cell. A cell keeps its deals, and per scoring system its mean points and 95% interval. Prints
one JSON line per preset and size (cells, deals, seconds); the same command and seed make the
same table.
"""

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gameplay.engine.game import deal_cards  # noqa: E402
from gameplay.engine.options import PRESETS, preset  # noqa: E402
from gameplay.engine.ruleset import Rules  # noqa: E402
from gameplay.engine.scoring import systems  # noqa: E402
from gameplay.runner.figures import mean_interval, seed_of  # noqa: E402
from gameplay.runner.par import before_deal, finishes  # noqa: E402
from gameplay.runner.role_par import PATH, seat_roles  # noqa: E402

FIRST_SHARE = 0.25  # of the sampled deals, a game's first


def cells(name: str, players: int, deals: int, seed: int) -> dict:
    """The cells of ``name`` at ``players`` seats from ``deals`` sampled deals."""
    rules = Rules(preset(name), players)
    sums: dict = {}
    for number in range(deals):
        rng = random.Random(seed_of("role-par", name, players, seed, number))
        previous = None if rng.random() < FIRST_SHARE else rng.sample(range(players), players)
        game = before_deal(rules, 0, previous)
        hands, blind = deal_cards(rules, 0, rng)
        shares, _ = finishes(game, hands, blind, playouts=1, seconds=float("inf"))
        for seat, key in enumerate(seat_roles(players, 0, previous)):
            position = shares[seat].index(1.0)
            tally = sums.setdefault(key, {"deals": 0, "sums": {}})
            tally["deals"] += 1
            for system in systems():
                points = system.deal_points(list(range(players)))[position]
                total, squares = tally["sums"].get(system.name, (0, 0))
                tally["sums"][system.name] = (total + points, squares + points * points)
    return {key: {"deals": t["deals"], "points": {
        system: [round(x, 4) for x in (total / t["deals"],
                                        *mean_interval(total, squares, t["deals"]))]
        for system, (total, squares) in t["sums"].items()}} for key, t in sorted(sums.items())}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4000, help="sampled deals per table size")
    parser.add_argument("--preset", action="append", choices=list(PRESETS))
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5, 6, 7])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=PATH)
    args = parser.parse_args(argv)
    out = json.loads(args.out.read_text()) if args.out.exists() else {}
    for name in args.preset or list(PRESETS):
        for players in args.players:
            started = time.perf_counter()
            found = cells(name, players, args.deals, args.seed)
            out.setdefault(name, {})[str(players)] = found
            print(json.dumps({"preset": name, "players": players, "deals": args.deals,
                              "cells": len(found),
                              "seconds": round(time.perf_counter() - started, 1)}), flush=True)
    args.out.write_text(json.dumps(out, sort_keys=True, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
