"""Par on the ladder (issue #31, docs/ladder.md): which figure orders two bots of known strength
correctly in fewer ladder games, their raw mean points per deal, their luck-adjusted mean or
the OpenSkill ordinal the ladder ranks by; and what par costs a ladder game in the worker.

    python bench/par_ladder.py [--preset classic --preset presidents-deck]
                               [--lineup 'heuristic;spender;greedy;greedy' ...]
                               [--games 400] [--deals 4] [--playouts 16] [--seed 1]

Each lineup plays ``--games`` ladder games (``--deals`` deals scored fixed-rounds, as the
ladder plays them; seats shuffled per game, no duplicate rotation) with par as the worker
computes it (``gameplay.runner.par.game_pars``, the worker's default play-outs and time cap).
The first two bots are the pair: the stronger is the one with the higher raw mean over all the
games ("known strength"; ``strength_ci`` is the 95% interval of the per-game difference of their
raw means, which must exclude zero). Prints one JSON line per preset and lineup:
``games_to_separate_raw`` and ``_adjusted`` ((Z95·sd/mean)² of the per-game difference of the
pair's mean points per deal, raw and luck-adjusted: games for its 95% interval to exclude
zero), ``sd_reduction`` of that difference, and for windows of ``k`` games (disjoint runs of the
games, in order) the share of windows in which each figure puts the pair in the right order
(``correct``: raw, adjusted, ordinal: OpenSkill replayed over the window's deals from the
start); then ``par_ms_per_deal``, ``game_ms_per_deal`` and ``games_per_second_ratio`` (ladder
games per worker-second with par over without).
"""

import json
import math
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.par import arguments, cases, cost, timed  # noqa: E402
from gameplay.engine.scoring import Scoring, deal_points  # noqa: E402
from gameplay.runner.figures import mean_interval, ordinal  # noqa: E402
from gameplay.runner.match import schedule  # noqa: E402
from league.ratings import replay  # noqa: E402

LINEUPS = ("heuristic;spender;greedy;greedy", "montecarlo:playouts=10;heuristic;greedy;greedy")
WINDOWS = (1, 2, 5, 10, 20, 50)


def played(lineup, name, games, deals, seed, playouts):
    """Per game: each player's (raw, adjusted) points of each deal and each deal's finishing
    order by player; and the seconds spent playing and finding par."""
    scoring = Scoring("fixed-rounds", deals=deals)
    specs = schedule(lineup, name, games=games, seed=seed, scoring=scoring.to_dict())
    rows, seconds = [], {"game": 0.0, "par": 0.0}
    for spec, result, pars in timed(specs, playouts, seconds):
        seats = [spec.seat_of(p) for p in range(len(lineup))]
        player_of = {seat: p for p, seat in enumerate(seats)}
        game = []
        for par, order in zip(pars, result.finishing_orders, strict=True):
            points = deal_points(scoring, order)
            results = [points[s] for s in range(len(lineup))]
            adjusted = par.adjusted(results)
            game.append(([(results[s], adjusted[s]) for s in seats],
                         [player_of[s] for s in order]))
        rows.append(game)
    return rows, seconds["game"], seconds["par"]


def pair_means(games, which: int) -> tuple[float, float]:
    """The pair's mean points per deal (which: 0 raw, 1 adjusted) over ``games``."""
    deals = [points for game in games for points, _ in game]
    return tuple(statistics.fmean(d[p][which] for d in deals) for p in (0, 1))


def ordinals(games) -> tuple[float, float]:
    """The pair's OpenSkill ordinals over the games' deals, from the start."""
    orders = ((i, order) for i, (_, order) in enumerate(d for game in games for d in game))
    _, state = replay(orders, {})
    return tuple(ordinal(*state[p][:2]) for p in (0, 1))


def correct_share(games, k: int, sign: int) -> dict:
    """Over disjoint windows of ``k`` games, the share in which each figure orders the pair
    as ``sign`` (1: the first bot is the stronger)."""
    windows = [games[i:i + k] for i in range(0, len(games) - k + 1, k)]
    right = {"raw": 0, "adjusted": 0, "ordinal": 0}
    for window in windows:
        for figure, (a, b) in (("raw", pair_means(window, 0)),
                               ("adjusted", pair_means(window, 1)),
                               ("ordinal", ordinals(window))):
            right[figure] += (a - b) * sign > 0
    return {"k": k, "windows": len(windows),
            **{f: round(n / len(windows), 3) for f, n in right.items()}}


def to_separate(values) -> int | None:
    """Games for the 95% interval of the mean of ``values`` (one a game) to exclude zero."""
    low, high = mean_interval(sum(values), sum(v * v for v in values), len(values))
    mean, half = (low + high) / 2, (high - low) / 2
    return math.ceil(len(values) * (half / mean) ** 2) if mean else None


def main(argv=None):
    args = arguments(__doc__, "games", 400, argv)
    for name, lineup in cases(args, LINEUPS):
        games, game_s, par_s = played(lineup, name, args.games, args.deals, args.seed,
                                      args.playouts)
        diff = {which: [a - b for a, b in (pair_means([g], i) for g in games)]
                for i, which in enumerate(("raw", "adjusted"))}
        total = sum(diff["raw"])
        sign = 1 if total > 0 else -1
        dealt = sum(len(g) for g in games)
        print(json.dumps({
            "preset": name, "lineup": lineup, "games": len(games), "deals": dealt,
            "stronger": lineup[0 if sign > 0 else 1],
            "strength": round(statistics.fmean(diff["raw"]), 4),
            "strength_ci": [round(x, 4) for x in mean_interval(
                total, sum(v * v for v in diff["raw"]), len(games))],
            "sd_reduction": round(1 - statistics.stdev(diff["adjusted"])
                                  / statistics.stdev(diff["raw"]), 3),
            "games_to_separate_raw": to_separate(diff["raw"]),
            "games_to_separate_adjusted": to_separate(diff["adjusted"]),
            "correct": [correct_share(games, k, sign) for k in WINDOWS
                        if k <= len(games)],
            **cost(game_s, par_s, dealt),
        }), flush=True)


if __name__ == "__main__":
    main()
