"""Engine speed: random-legal-play deals per second, legal-move generation and state copy.

    python bench/engine.py [--seconds 2] [--players 4]

Prints one JSON object per preset (one core: this process only).  The typical position for
move generation is every position reached in the measured deals.
"""

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gameplay.engine.deal import Deal  # noqa: E402
from gameplay.engine.game import deal_cards  # noqa: E402
from gameplay.engine.options import PRESETS  # noqa: E402
from gameplay.engine.rules.leading import fixed_leader  # noqa: E402
from gameplay.engine.ruleset import Rules  # noqa: E402


def new_deal(rules: Rules, rng: random.Random) -> Deal:
    hands, blind = deal_cards(rules, 0, rng)
    leader, opening = fixed_leader(rules.options, rules.players, 0, hands, None)
    return Deal(rules, hands, leader=1 if leader is None else leader, blind=blind,
                opening=opening)


def play_out(deal: Deal, rng: random.Random, positions: list | None = None) -> int:
    moves = 0
    randrange = rng.randrange
    while not deal.over:
        legal = deal.legal_moves()
        if positions is not None:
            positions.append(deal.copy())
        deal.apply(legal[randrange(len(legal))])
        moves += 1
    return moves


def measure(name: str, players: int, seconds: float) -> dict:
    rules = Rules(PRESETS[name], 2 if PRESETS[name].blind else players)
    rng = random.Random(1)
    deals = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        moves += play_out(new_deal(rules, rng), rng)
        deals += 1
    elapsed = time.perf_counter() - start
    positions: list[Deal] = []
    for _ in range(20):
        play_out(new_deal(rules, rng), rng, positions)
    t0 = time.perf_counter()
    for _ in range(5):
        for p in positions:
            p.legal_moves()
    gen_us = (time.perf_counter() - t0) / (5 * len(positions)) * 1e6
    t0 = time.perf_counter()
    for _ in range(5):
        for p in positions:
            p.copy()
    copy_us = (time.perf_counter() - t0) / (5 * len(positions)) * 1e6
    return {"preset": name, "players": rules.players, "decks": rules.decks,
            "deals_per_second": round(deals / elapsed), "moves_per_deal": round(moves / deals, 1),
            "legal_moves_us": round(gen_us, 2), "copy_us": round(copy_us, 2)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--preset", action="append", choices=sorted(PRESETS))
    args = parser.parse_args()
    for name in args.preset or PRESETS:
        print(json.dumps(measure(name, args.players, args.seconds)), flush=True)


if __name__ == "__main__":
    main()
