"""How much of montecarlo's gap is hidden cards: the same search dealt the true hands (#32).

    python bench/oracle.py [--preset classic ...] [--games 800] [--playouts 1000] [--seed 11]
        [--spec montecarlo] [--after K] [--before K] [--oracle-only]

Plays ``bench/bots.py``'s duplicate one-deal games against three heuristic bots twice: once as
montecarlo plays, once with every world it plays out being the deal's true hands (an oracle; the
worlds the history walk or inference would give are not used, the rest of the search is as is).
Against heuristic bots the oracle's playouts model the opponents exactly, so the distance between
the two lines is what better reading of the hidden cards could win at most, and what is left
under the oracle is the search's own. ``--after K`` / ``--before K`` give the oracle only the
decisions taken with at least / fewer than K moves of the deal played (the others as montecarlo
plays them): where in a deal the cards are worth knowing. Fixed playouts, one process (the
oracle reads the live deal): the same figures on every run. Prints one JSON line per preset and
line, then the table.
"""

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bots import measure, print_table, with_search  # noqa: E402
from gameplay.bots import base  # noqa: E402
from gameplay.bots.montecarlo import MonteCarloBot  # noqa: E402
from gameplay.bots.worlds import Worlds  # noqa: E402
from gameplay.engine.options import PRESETS  # noqa: E402


def see_the_cards(after: int = 0, before: int | None = None) -> None:
    """From here on every montecarlo seat plays out the live deal's true hands as its worlds
    at the decisions taken with ``after`` to ``before`` (excluded; None: no end) moves of the
    deal played, whether its worlds come from the dealer or the history walk."""
    true = {}
    observe, dealer, walk = base.observe, MonteCarloBot.dealer, Worlds.walk

    def seen(moves: int) -> bool:
        return after <= moves and (before is None or moves < before)

    def watching(deal, game, log, seat, **kwargs):
        true["hands"] = list(deal.hands)
        return observe(deal, game, log, seat, **kwargs)

    def dealing(bot, obs, found):
        if seen(len(obs.moves)):
            return lambda: (list(true["hands"]), None)
        return dealer(bot, obs, found)

    def walking(worlds, steps):
        hands = walk(worlds, steps)  # the chain goes on as it would
        return list(true["hands"]) if seen(worlds.moves) else hands

    base.observe = watching
    MonteCarloBot.dealer = dealing
    Worlds.walk = walking


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", action="append", choices=sorted(PRESETS))
    parser.add_argument("--games", type=int, default=800)
    parser.add_argument("--playouts", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--spec", default="montecarlo", help="the montecarlo measured")
    parser.add_argument("--after", type=int, default=0,
                        help="the oracle from this many moves of the deal played")
    parser.add_argument("--before", type=int, help="the oracle until this many moves")
    parser.add_argument("--oracle-only", action="store_true",
                        help="skip the line of montecarlo as it plays (the same for every window)")
    args = parser.parse_args()
    if not args.spec.startswith("montecarlo"):
        parser.error(f"--spec is a montecarlo spec, not {args.spec!r}")
    if args.after < 0 or args.before is not None and args.before <= args.after:
        parser.error("--after is at least 0 and --before more than --after")
    spec = with_search(args.spec, None, args.playouts)
    window = f"oracle from move {args.after}" + (f" to {args.before} " if args.before else " ")
    results = []
    for seen in (True,) if args.oracle_only else (False, True):
        if seen:
            see_the_cards(args.after, args.before)
        for preset in args.preset or ["classic", "presidents-deck", "school-scum"]:
            lineup = [spec] + ["heuristic"] * 3
            r = measure(preset, lineup, games=args.games, seed=args.seed, workers=1,
                        scoring=None)
            r["oracle"] = seen and {"after": args.after, "before": args.before}
            print(json.dumps(r), flush=True)
            results.append({**r, "lineup": (window if seen else "") + r["lineup"]})
    print_table(results)


if __name__ == "__main__":
    main()
