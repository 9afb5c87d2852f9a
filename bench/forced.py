"""montecarlo's forced decisions: how many a game has, and the time they take (issue #32).

    python bench/forced.py [--games 20] [--playouts 100] [--preset classic ...]

montecarlo (seat 0, fixed playouts) against three ``heuristic`` bots, one-deal games; each of
its play decisions is counted as forced (one legal move, often only pass: answered at once,
no search), searched, or settled otherwise (going out, an exact endgame won). At ``budget_ms``
a searched decision takes the whole budget, so a forced one saves about the budget each.
"""

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gameplay.bots.heuristic import HeuristicBot  # noqa: E402
from gameplay.bots.montecarlo import MonteCarloBot  # noqa: E402
from gameplay.engine.options import PRESETS, preset  # noqa: E402
from gameplay.runner.match import play_game  # noqa: E402


def count(name: str, games: int, playouts: int) -> tuple[Counter, float]:
    """The decisions of each kind over ``games`` games, and the seconds of the forced ones."""
    kinds, forced_seconds = Counter(), 0.0
    for g in range(games):
        bot = MonteCarloBot(seed=g, playouts=playouts)
        play = bot.play

        def counted(obs, legal, bot=bot, play=play):
            nonlocal forced_seconds
            before = bot.searches
            start = time.perf_counter()
            move = play(obs, legal)
            if len(legal) == 1:
                kinds["forced"] += 1
                forced_seconds += time.perf_counter() - start
            else:
                kinds["searched" if bot.searches > before else "settled"] += 1
            return move

        bot.play = counted
        play_game([bot] + [HeuristicBot(seed=g) for _ in range(3)], preset(name), seed=g)
    return kinds, forced_seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--playouts", type=int, default=100)
    parser.add_argument("--preset", action="append", choices=sorted(PRESETS))
    args = parser.parse_args()
    print("| preset | forced a game | searched a game | settled otherwise a game | forced share "
          "| µs a forced decision | saved a game at 50 ms |")
    print("|---|---|---|---|---|---|---|")
    for name in args.preset or list(PRESETS):
        kinds, seconds = count(name, args.games, args.playouts)
        total = sum(kinds.values())
        forced = kinds["forced"]
        print(f"| {name} | {forced / args.games:.1f} | {kinds['searched'] / args.games:.1f} | "
              f"{kinds['settled'] / args.games:.1f} | {forced / total:.2f} | "
              f"{1e6 * seconds / max(1, forced):.1f} | {50 * forced / args.games:.0f} ms |",
              flush=True)


if __name__ == "__main__":
    main()
