"""The worked example of docs/par.md: one deal of a real game, its hands, each seat's par, the
luck and the adjusted results, printed as the Markdown the help page shows.

    python bench/par_example.py [--preset classic] [--seed 11] [--deal 2]
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gameplay.bots import make_bot  # noqa: E402
from gameplay.engine import cards as C  # noqa: E402
from gameplay.engine.options import preset  # noqa: E402
from gameplay.engine.roles import role_name, roles_of  # noqa: E402
from gameplay.engine.scoring import Scoring, deal_points  # noqa: E402
from gameplay.runner.match import play_game  # noqa: E402
from gameplay.runner.par import par, positions, start  # noqa: E402

LINEUP = ["montecarlo:playouts=40", "heuristic", "greedy", "heuristic"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--deal", type=int, default=2, help="which deal of the game, from 1")
    args = parser.parse_args(argv)
    options = preset(args.preset)
    scoring = Scoring("fixed-rounds", deals=args.deal)
    bots = [make_bot(spec, seed=args.seed + s) for s, spec in enumerate(LINEUP)]
    result = play_game(bots, options, seed=args.seed, scoring=scoring)
    number = args.deal - 1
    game, hands, blind = next(
        position for n, position in enumerate(positions(result.transcript,
                                                        result.finishing_orders))
        if n == number)
    rules = game.rules
    roles = roles_of(game.previous_order) if game.previous_order else {}
    after = start(game, hands, blind).hands
    p = par(game, hands, blind, scoring=scoring)
    points = deal_points(scoring, result.finishing_orders[number])
    results = [points[s] for s in range(rules.players)]
    adjusted = p.adjusted(results)
    print(f"{args.preset}, {rules.players} players, fixed-rounds scoring (President 2, Vice "
          f"President 1), deal {args.deal} of a game with seed {args.seed}; seat {game.dealer} "
          f"deals.\n")
    print("| seat | bot | role | dealt | after the reference's exchange | par | role par | "
          "luck | points | adjusted |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for s in range(rules.players):
        role = role_name(roles[s], options) if s in roles else "none (first deal)"
        print(f"| {s} | {LINEUP[s]} | {role} | {_text(rules, hands[s])} | "
              f"{_text(rules, after[s])} | {p.pars[s]:.2f} | {p.role_pars[s]:.2f} | "
              f"{p.luck[s]:+.2f} | {results[s]} | {adjusted[s]:.2f} |")
    order = ", ".join(f"seat {s}" for s in result.finishing_orders[number])
    print(f"\nFinishing order: {order}. Play-outs per seat: {p.playouts}.")


def _text(rules, hand: int) -> str:
    return " ".join(rules.cards_text(C.mask_cards(hand)))


if __name__ == "__main__":
    main()
