"""presidents-deck's first leader and direction: montecarlo's choice against always leading
clockwise, scored by the true hands.

    python bench/leader.py [--deals 200] [--bot montecarlo]

Seat 0 deals and names the leader and direction.  Every (leader, direction) gets its true value
for seat 0: the real deal played out with every seat playing like ``heuristic`` (deterministic,
1 for first out … 0 for last).  Prints the mean true value of leading itself clockwise, of the
bot's choice, and of the best choice with perfect information, with how often the bot led itself.
"""

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gameplay.bots import make_bot  # noqa: E402
from gameplay.bots.montecarlo import heuristic_policy, playout  # noqa: E402
from gameplay.bots.observation import pre_deal  # noqa: E402
from gameplay.engine import cards as C  # noqa: E402
from gameplay.engine.deal import CCW, CW, Deal  # noqa: E402
from gameplay.engine.game import Game, deal_cards  # noqa: E402
from gameplay.engine.options import preset  # noqa: E402
from gameplay.engine.ruleset import Rules  # noqa: E402


def measure(deals: int, spec: str) -> dict:
    rules = Rules(preset("presidents-deck"), 4)
    plain = chosen = best = led = 0.0
    for seed in range(deals):
        game = Game(rules, dealer=0, scoring=None)
        hands, blind = deal_cards(rules, 0, random.Random(seed))
        value = {(leader, d): playout(Deal(rules, hands, leader=leader, direction=d, blind=blind),
                                      0, None, heuristic_policy)
                 for leader in range(4) for d in (CW, CCW)}
        obs = pre_deal(game, 0, hands[0], deal_number=0)
        obs.held = [C.mask_count(h) for h in hands]
        choice = tuple(make_bot(spec, seed=seed).lead_and_direction(obs, True))
        plain += value[(0, CW)]
        chosen += value[choice]
        best += max(value.values())
        led += choice[0] == 0
    return {"bot": spec, "deals": deals, "lead_clockwise": round(plain / deals, 4),
            "bot_choice": round(chosen / deals, 4), "best": round(best / deals, 4),
            "bot_leads_itself": round(led / deals, 4)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--bot", default="montecarlo")
    args = parser.parse_args()
    print(json.dumps(measure(args.deals, args.bot)))


if __name__ == "__main__":
    main()
