"""How much of montecarlo's gap is hidden cards: the same search dealt the true hands (#32).

    python bench/oracle.py [--preset classic ...] [--games 800] [--playouts 1000] [--seed 11]
        [--spec montecarlo]

Plays ``bench/bots.py``'s duplicate one-deal games against three heuristic bots twice: once as
montecarlo plays, once with every world it plays out being the deal's true hands (an oracle; no
history walk, no inference, the rest of the search as is). Against heuristic bots the oracle's
playouts model the opponents exactly, so the distance between the two lines is what better
reading of the hidden cards could win at most, and what is left under the oracle is the
search's own. Fixed playouts, one process (the oracle reads the live deal): the same figures on
every run. Prints one JSON line per preset and line, then the table.
"""

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bots import measure, print_table, with_search  # noqa: E402
from gameplay.bots import base, montecarlo  # noqa: E402
from gameplay.engine.options import PRESETS  # noqa: E402


def see_the_cards() -> None:
    """From here on every montecarlo seat deals its worlds as the live deal's true hands."""
    true = {}
    observe = base.observe

    def watching(deal, game, log, seat, **kwargs):
        true["hands"] = list(deal.hands)
        return observe(deal, game, log, seat, **kwargs)

    base.observe = watching
    montecarlo.MonteCarloBot.dealer = lambda bot, obs, found: lambda: (list(true["hands"]), None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", action="append", choices=sorted(PRESETS))
    parser.add_argument("--games", type=int, default=800)
    parser.add_argument("--playouts", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--spec", default="montecarlo", help="the montecarlo measured")
    args = parser.parse_args()
    if not args.spec.startswith("montecarlo"):
        parser.error(f"--spec is a montecarlo spec, not {args.spec!r}")
    spec = with_search(args.spec, None, args.playouts)
    oracle = spec + ",walk=0"  # the walk would deal its own worlds, not the dealer's
    results = []
    for seen in (False, True):
        if seen:
            see_the_cards()
        for preset in args.preset or ["classic", "presidents-deck", "school-scum"]:
            lineup = [oracle if seen else spec] + ["heuristic"] * 3
            r = measure(preset, lineup, games=args.games, seed=args.seed, workers=1,
                        scoring=None)
            r["oracle"] = seen
            print(json.dumps(r), flush=True)
            results.append({**r, "lineup": ("oracle " if seen else "") + r["lineup"]})
    print_table(results)


if __name__ == "__main__":
    main()
