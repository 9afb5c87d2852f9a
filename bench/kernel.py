"""Playouts per second: montecarlo's playout in Python against the kernel, at the same positions.

    python bench/kernel.py [--preset P ...] [--deals 4] [--seed 1]

Positions are every decision with a choice in deals that four ``heuristic`` players play; at
each, every legal move is played out to the end of the deal with the heuristic policy (the
searching seat in the preset's tuned style), once by ``montecarlo.playout`` on the engine and
once by the kernel, the two timed in turn position by position on one core, so the load of the
machine falls on both alike.  Each side's time includes what montecarlo does around its
playouts (Python: copy the deal and apply the move; kernel: encode the deal and the moves).
The scores must agree (the same playouts): the bench stops if they differ.
"""

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gameplay.bots import kernel  # noqa: E402
from gameplay.bots.heuristic import PLAIN  # noqa: E402
from gameplay.bots.montecarlo import TUNED, heuristic_policy, playout  # noqa: E402
from gameplay.engine.deal import CW, Deal  # noqa: E402
from gameplay.engine.game import deal_cards  # noqa: E402
from gameplay.engine.options import PRESETS, preset  # noqa: E402
from gameplay.engine.rules import leading  # noqa: E402
from gameplay.engine.ruleset import Rules  # noqa: E402


def positions(rules: Rules, deals: int, seed: int):
    """Each position with more than one legal move in ``deals`` heuristic deals."""
    rng = random.Random(seed)
    for _ in range(deals):
        hands, _ = deal_cards(rules, 0, rng)
        leader, opening = leading.fixed_leader(rules.options, rules.players, 0, hands, None)
        d = Deal(rules, hands, leader=rng.randrange(rules.players) if leader is None else leader,
                 direction=CW, opening=opening)
        while not d.over:
            legal = d.legal_moves()
            if len(legal) > 1:
                yield d.copy(), legal
            d.apply(heuristic_policy(d, legal, 0, rng))


def in_python(d: Deal, legal: list, style) -> list[float]:
    rng = random.Random(0)  # the heuristic policy draws nothing; playout() takes one
    scores = []
    for move in legal:
        after = d.copy()
        after.apply(move)
        scores.append(playout(after, d.turn, rng, heuristic_policy, style))
    return scores


def in_kernel(d: Deal, legal: list, style) -> list[float]:
    rules = d.rules
    state = kernel.state(d)
    return [kernel.playout(rules, state, kernel.move(rules, m), d.turn, style) for m in legal]


def measure(name: str, deals: int, seed: int) -> dict:
    rules = Rules(preset(name), 4)
    style = TUNED.get(name, PLAIN)
    seconds = {"python": 0.0, "kernel": 0.0}
    count = 0
    for i, (d, legal) in enumerate(positions(rules, deals, seed)):
        runs = [("python", in_python), ("kernel", in_kernel)]
        scores = {}
        for side, run in runs if i % 2 == 0 else runs[::-1]:  # each side first half the time
            start = time.perf_counter()
            scores[side] = run(d, legal, style)
            seconds[side] += time.perf_counter() - start
        if scores["python"] != scores["kernel"]:
            raise SystemExit(f"{name}: the kernel's playouts differ from the engine's at "
                             f"position {i}: {scores}")
        count += len(legal)
    python, fast = count / seconds["python"], count / seconds["kernel"]
    return {"preset": name, "playouts": count, "python_per_second": round(python),
            "kernel_per_second": round(fast), "ratio": round(fast / python, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", action="append", choices=sorted(PRESETS))
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name in args.preset or list(PRESETS):
        print(json.dumps(measure(name, args.deals, args.seed)), flush=True)


if __name__ == "__main__":
    main()
