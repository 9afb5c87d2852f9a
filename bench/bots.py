"""Bot strength: each lineup's first bot against the others, duplicate mode, every preset.

    python bench/bots.py --games 2000 [--preset classic] [--lineup heuristic,random,random,random]
                         [--workers 2] [--seed 1] [--scoring '{"system": "penalty"}']

A game is one deal by default (BOTS.md: headline strength per deal without exchanges); give
``--scoring`` for whole games.  Prints one JSON line per (preset, lineup) with the first bot's
first-out rate, last-place rate and mean finishing position, each with its 95% interval, then a
table.
"""

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gameplay.engine.options import PRESETS  # noqa: E402
from gameplay.runner.match import Tally, run, schedule  # noqa: E402

LINEUPS = ["greedy,random,random,random", "heuristic,random,random,random",
           "heuristic,greedy,greedy,greedy", "montecarlo,heuristic,heuristic,heuristic"]


def measure(preset: str, lineup: list[str], *, games: int, seed: int, workers: int,
            scoring: dict | None) -> dict:
    specs = schedule(lineup, preset, games=games, seed=seed, scoring=scoring, duplicate=True)
    tally = Tally(lineup)
    start = time.perf_counter()
    for spec, result in run(specs, workers=workers):
        tally.add(spec, result)
    me = tally.summary()[0]
    return {"preset": preset, "lineup": ",".join(lineup), "games": games, "deals": me["deals"],
            "first_out": me["first_out_rate"], "first_out_ci": me["first_out_ci"],
            "last_place": me["last_place_rate"], "last_place_ci": me["last_place_ci"],
            "mean_position": me["mean_position"], "mean_position_ci": me["mean_position_ci"],
            "mean_decision_ms": me["mean_decision_ms"], "faults": me["faults"],
            "seconds": round(time.perf_counter() - start, 1)}


def row(r: dict) -> str:
    def ci(name):
        low, high = r[name + "_ci"]
        return f"{r[name]:.3f} [{low:.3f}, {high:.3f}]"

    return (f"| {r['preset']} | {r['lineup']} | {r['deals']} | {ci('first_out')} | "
            f"{ci('last_place')} | {ci('mean_position')} | {r['mean_decision_ms']:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--preset", action="append", choices=sorted(PRESETS))
    parser.add_argument("--lineup", action="append")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scoring", type=json.loads, default=None)
    args = parser.parse_args()
    results = []
    for preset in args.preset or list(PRESETS):
        for lineup in args.lineup or LINEUPS:
            r = measure(preset, lineup.split(","), games=args.games, seed=args.seed,
                        workers=args.workers, scoring=args.scoring)
            print(json.dumps(r), flush=True)
            results.append(r)
    print("| preset | lineup (first bot measured) | deals | first-out [95% CI] | "
          "last place [95% CI] | mean position [95% CI] | ms/decision |")
    print("|---|---|---|---|---|---|---|")
    for r in results:
        print(row(r))


if __name__ == "__main__":
    main()
